"""The import graph of our own Python (game/, tools/, hearts_site/), read from the source with
``ast`` (nothing is imported), and the rules it must keep:

- the engine (game.engine) imports nothing of ours but itself;
- the players (game.players) only themselves and the engine;
- the solo game (game.solo) and the network (game.network) never import each other: what both
  need lives in game.web or game.seating;
- nothing in game/ imports tools/;
- no circles: no module reaches itself again by following arrows (an import inside a function
  counts, so a circle cannot hide behind one).

``python -m tools.imports`` prints the modules, the arrows, the largest module and function, the
circles and any arrow against the rules; ``--arrows`` lists every arrow. It exits 1 when a circle
or an arrow against the rules is found."""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("game", "tools", "hearts_site")


def modules(root: Path = REPO) -> dict[str, Path]:
    """Dotted module name -> file, migrations and caches left out."""
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            if "migrations" in path.parts or "__pycache__" in path.parts:
                continue
            name = ".".join(path.relative_to(root).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def _known(name: str, known: dict[str, Path]) -> str:
    """The longest of our modules that ``name`` is or lies in, or ""."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name


def arrows(known: dict[str, Path]) -> set[tuple[str, str]]:
    """(importer, imported) for every import of one of our modules by another, at any depth of
    the code (an import inside a function counts)."""
    found = set()
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*parts, base] if base else parts)
                subs = [f"{base}.{alias.name}" for alias in node.names]
                targets = [sub for sub in subs if sub in known] or [base]
            for target in targets:
                imported = _known(target, known)
                if imported and imported != name:
                    found.add((name, imported))
    return found


def room(name: str) -> str:
    for prefix in ("game.engine", "game.players", "game.solo", "game.network", "game.web"):
        if name == prefix or name.startswith(prefix + "."):
            return prefix
    return name.split(".")[0] if name.startswith("tools") else name


def against_the_rules(graph: set[tuple[str, str]]) -> list[str]:
    broken = []
    for importer, imported in sorted(graph):
        a, b = room(importer), room(imported)
        if a == "game.engine" and b != "game.engine":
            broken.append(f"{importer} -> {imported}: the engine imports nothing of ours")
        elif a == "game.players" and b not in ("game.players", "game.engine"):
            broken.append(f"{importer} -> {imported}: the players import only the engine")
        elif {a, b} == {"game.solo", "game.network"}:
            broken.append(f"{importer} -> {imported}: solo and network never import each other")
        elif importer.startswith("game") and b == "tools":
            broken.append(f"{importer} -> {imported}: nothing in game/ imports tools/")
    return broken


def circles(graph: set[tuple[str, str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (each a circle of imports),
    each sorted, found by Tarjan's algorithm without recursion."""
    following: dict[str, list[str]] = {}
    for importer, imported in sorted(graph):
        following.setdefault(importer, []).append(imported)
        following.setdefault(imported, [])
    order: dict[str, int] = {}
    lowest: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in following:
        if start in order:
            continue
        work = [(start, 0)]
        while work:
            node, next_child = work.pop()
            if next_child == 0:
                order[node] = lowest[node] = len(order)
                stack.append(node)
                on_stack.add(node)
            children = following[node]
            if next_child < len(children):
                work.append((node, next_child + 1))
                child = children[next_child]
                if child not in order:
                    work.append((child, 0))
                elif child in on_stack:
                    lowest[node] = min(lowest[node], order[child])
                continue
            if lowest[node] == order[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
            if work:
                parent = work[-1][0]
                lowest[parent] = min(lowest[parent], lowest[node])
    return sorted(found)


def largest(known: dict[str, Path]) -> tuple[tuple[int, str], tuple[int, str]]:
    """(lines, name) of the largest module and of the largest function."""
    biggest_module = max((len(path.read_text().splitlines()), name) for name, path in known.items())
    functions = [
        (node.end_lineno - node.lineno + 1, f"{name}.{node.name}")
        for name, path in known.items()
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]
    return biggest_module, max(functions)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.imports", description=__doc__)
    parser.add_argument("--arrows", action="store_true", help="list every arrow")
    args = parser.parse_args(argv)
    known = modules()
    graph = arrows(known)
    (module_lines, module), (function_lines, function) = largest(known)
    print(f"modules: {len(known)}, import arrows: {len(graph)}")
    print(f"largest module: {module} ({module_lines} lines)")
    print(f"largest function: {function} ({function_lines} lines)")
    loops = circles(graph)
    print(f"circles: {len(loops) or 'none'}")
    for loop in loops:
        print(f"  {' <-> '.join(loop)}")
    broken = against_the_rules(graph)
    print("arrows against the rules:", "none" if not broken else "")
    for line in broken:
        print(f"  {line}")
    if args.arrows:
        for importer, imported in sorted(graph):
            print(f"  {importer} -> {imported}")
    return 1 if loops or broken else 0


if __name__ == "__main__":
    raise SystemExit(main())
