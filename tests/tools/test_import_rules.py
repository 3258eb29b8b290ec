"""The rooms of the code keep to their rules, read from the source (tools/imports.py): the
engine imports nothing of ours, the players only the engine, the solo game and the network
never each other, and nothing in game/ imports the measuring tools."""

from tools.imports import against_the_rules, arrows, modules


def test_every_import_keeps_the_rules():
    graph = arrows(modules())
    # the graph is read at all: arrows the code is known to have are in it
    assert ("game.solo.views", "game.solo.actions") in graph
    assert ("game.network.views", "game.network.store") in graph
    assert ("game.players.brain", "game.engine.rules") in graph
    assert against_the_rules(graph) == []


def test_an_arrow_against_each_rule_is_caught():
    wrong = {
        ("game.engine.game", "game.web.table"),
        ("game.players.brain", "game.seating"),
        ("game.solo.menus", "game.network.views"),
        ("game.network.views", "game.solo.actions"),
        ("game.web.table", "tools.bench"),
    }
    assert len(against_the_rules(wrong)) == len(wrong)
    fine = {
        ("game.players.brain", "game.engine.rules"),
        ("game.solo.views", "game.web.respond"),
        ("game.network.views", "game.seating"),
        ("tools.bench", "game.players"),
    }
    assert against_the_rules(fine) == []


def test_an_import_inside_a_function_and_a_relative_import_count(tmp_path):
    (tmp_path / "game" / "solo").mkdir(parents=True)
    (tmp_path / "game" / "network").mkdir(parents=True)
    for package in ("game", "game/solo", "game/network"):
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "game" / "network" / "views.py").write_text("")
    (tmp_path / "game" / "solo" / "menus.py").write_text(
        "def dialog():\n    from ..network import views\n"
    )
    graph = arrows(modules(tmp_path))
    assert ("game.solo.menus", "game.network.views") in graph
    assert against_the_rules(graph)
