"""The rooms of the code keep to their rules, read from the source (tools/imports.py): the
engine imports nothing of ours, the players only the engine, the solo game and the network
never each other, nothing in game/ imports the measuring tools, and no import circle."""

from tools.imports import against_the_rules, arrows, circles, modules


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


def test_no_module_imports_itself_round_a_circle():
    assert circles(arrows(modules())) == []


def test_a_circle_is_caught_however_long_and_wherever_it_hides(tmp_path):
    assert circles({("a", "b"), ("b", "a")}) == [["a", "b"]]
    long_way = {("a", "b"), ("b", "c"), ("c", "d"), ("d", "a"), ("d", "e"), ("x", "y")}
    assert circles(long_way) == [["a", "b", "c", "d"]]
    two = {("a", "b"), ("b", "a"), ("c", "d"), ("d", "c"), ("b", "c")}
    assert circles(two) == [["a", "b"], ["c", "d"]]
    assert circles({("a", "b"), ("b", "c"), ("a", "c")}) == []
    # read from source: the way back is an import inside a function
    (tmp_path / "game" / "engine").mkdir(parents=True)
    for package in ("game", "game/engine"):
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "game" / "engine" / "rules.py").write_text("from .cards import Card\n")
    (tmp_path / "game" / "engine" / "cards.py").write_text(
        "class Card:\n    def points(self):\n        from .rules import card_points\n"
    )
    assert circles(arrows(modules(tmp_path))) == [["game.engine.cards", "game.engine.rules"]]
