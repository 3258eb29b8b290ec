"""The players' modules import each other in layers, never in a circle: the mark of a hot
function (``hot``), the simulator (``sim``), the deals, the decisions (``brain``), the compiled
core and its warm-up (``jit``), then the public names and the review's analysis. An import
inside a function counts (tools/imports.py reads them all), so no circle hides in one."""

from tests.support import REPO
from tools.imports import arrows, modules


def circles(graph: set[tuple[str, str]], inside: str) -> list[list[str]]:
    """Every module of ``inside`` that can reach itself by the arrows, with the way round."""
    nexts: dict[str, set[str]] = {}
    for a, b in graph:
        if a.startswith(inside) and b.startswith(inside):
            nexts.setdefault(a, set()).add(b)
    found = []
    for start in sorted(nexts):
        way = {start: [start]}
        todo = [start]
        while todo:
            at = todo.pop()
            for b in sorted(nexts.get(at, ())):
                if b == start:
                    found.append([*way[at], start])
                    todo = []
                    break
                if b not in way:
                    way[b] = [*way[at], b]
                    todo.append(b)
    return found


def test_the_players_import_in_layers():
    graph = arrows(modules())
    assert ("game.players.jit", "game.players.brain") in graph  # the warm-up searches
    assert ("game.players.sim", "game.players.hot") in graph
    assert circles(graph, "game.players") == []


def test_a_circle_is_found():
    graph = {("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"), ("p.c", "q.x")}
    assert circles(graph, "p.") == [
        ["p.a", "p.b", "p.c", "p.a"],
        ["p.b", "p.c", "p.a", "p.b"],
        ["p.c", "p.a", "p.b", "p.c"],
    ]
    assert circles({("p.a", "p.b")}, "p.") == []


def test_no_function_in_the_players_is_over_sixty_lines():
    # the search in small named parts (issue 43): the next person changes one model alone
    import ast

    folder = REPO / "game" / "players"
    long = []
    for path in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = node.end_lineno - node.lineno + 1
                if lines > 60:
                    long.append(f"{path.name}:{node.name} ({lines} lines)")
    assert long == []
