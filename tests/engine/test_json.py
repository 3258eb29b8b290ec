"""The compact text form: the round trip, and refusing anything that is not a real game."""

import json

import pytest

from game.engine import Game
from tests.support.engine import MIXED, SUITS, craft, play_all, play_out_hand


def mid_game() -> Game:
    """Hand 2 of game 617, after the pass right and two and a half tricks."""
    g = Game.new(617)
    play_out_hand(g)
    g.next_hand()
    for seat in range(4):
        g.pass_cards(seat, g.hand(seat)[-3:])
    for _ in range(10):
        g.play(g.turn, g.legal_plays(g.turn)[0])
    return g


def test_the_dict_format():
    g = craft(MIXED)
    play_all(g, "2C", "3C", "4C", "5C", "9C")
    d = g.to_dict()
    assert set(d) == {"v", "n", "m", "k", "p", "h", "x", "r", "t", "s"}
    assert d["v"] == 1
    assert d["n"] == 617
    assert d["m"] == 0
    assert d["k"] == 4
    assert d["p"] == "playing"
    assert d["h"][0] == "6CTCAC2D6DTD2S6STS2H6HTH"
    assert d["x"] == d["r"] == ["", "", "", ""]
    assert d["t"] == "02C3C4C5C39C"  # leader digit, then the cards; the trick on the table last
    assert d["s"] == [[7, 6, 7, 6]] * 3
    assert json.loads(g.to_json()) == d
    assert " " not in g.to_json()


@pytest.mark.parametrize("make", [lambda: Game.new(1), mid_game, lambda: craft(SUITS)])
def test_the_round_trip_gives_an_equal_game_that_plays_on_the_same(make):
    g = make()
    again = Game.from_json(g.to_json())
    assert again == g
    assert again.to_json() == g.to_json()
    assert Game.from_dict(g.to_dict()) == g
    for game in (g, again):
        play_out_hand(game)
    assert again == g
    assert again.history == g.history


def test_equal_games_compare_equal_and_a_game_is_unhashable_because_it_changes():
    assert Game.new(5) == Game.new(5)
    with pytest.raises(TypeError):
        hash(Game.new(5))
    assert Game.new(5) != Game.new(6)
    assert Game.new(5) != Game.new(5, moon_off_shooter=True)
    assert Game.new(5) != "not a game"


def test_copy_is_equal_and_independent_in_every_field():
    g = mid_game()
    twin = g.copy()
    assert twin == g and twin is not g
    assert all(getattr(twin, name) == getattr(g, name) for name in Game.__slots__)
    saved = g.to_json()
    play_out_hand(twin)  # changes the hands, the trick on the table, the tricks and the history
    assert twin.phase == "hand_over"
    assert g.to_json() == saved


def test_a_game_played_on_its_round_trip_copy_does_not_touch_the_original():
    g = mid_game()
    saved = g.to_json()
    copy = Game.from_json(saved)
    copy.play(copy.turn, copy.legal_plays(copy.turn)[0])
    assert g.to_json() == saved


GARBAGE = [
    "",
    " ",
    "{",
    "}",
    "null",
    "true",
    "42",
    '"a game"',
    "[]",
    "{}",
    "[1, 2, 3]",
    '{"v": 1}',
    "NaN",
    "Infinity",
    "[" * 5000,
    '{"a":' * 5000,
    "\x00\xff",
]


@pytest.mark.parametrize("text", GARBAGE, ids=lambda text: repr(text)[:16])
def test_from_json_refuses_garbage_with_value_error(text):
    with pytest.raises(ValueError):
        Game.from_json(text)


@pytest.mark.parametrize("text", [None, 12, b"\xff\xfe", b"{}", ["v"], {"v": 1}])
def test_from_json_refuses_things_that_are_not_text_with_value_error(text):
    with pytest.raises(ValueError):
        Game.from_json(text)


def test_every_truncation_of_a_saved_game_is_refused_with_value_error():
    text = mid_game().to_json()
    for cut in range(len(text)):
        with pytest.raises(ValueError):
            Game.from_json(text[:cut])


def test_from_dict_refuses_non_dicts_with_value_error():
    for data in (None, [], "v", 1, 1.5, {"v": 1}):
        with pytest.raises(ValueError):
            Game.from_dict(data)


def changed(d: dict, **changes) -> dict:
    out = json.loads(json.dumps(d))
    out.update(changes)
    return out


def inconsistent_variants() -> list[tuple[str, dict]]:
    """A valid mid-hand dict, each time with one thing wrong."""
    base = mid_game().to_dict()  # hand 2, playing, after the pass right
    h = base["h"]
    fresh = Game.new(617).to_dict()  # hand 1, passing
    out = [
        ("version 2", changed(base, v=2)),
        ("version text", changed(base, v="1")),
        ("number 0", changed(base, n=0)),
        ("number too big", changed(base, n=1_000_001)),
        ("number text", changed(base, n="617")),
        ("number float", changed(base, n=617.0)),
        ("hand number 0", changed(base, k=0)),
        ("hand number text", changed(base, k="2")),
        ("hand number float", changed(base, k=2.5)),
        ("phase unknown", changed(base, p="bidding")),
        ("phase list", changed(base, p=["playing"])),
        ("three hands", changed(base, h=h[:3])),
        ("hands a string", changed(base, h="".join(h))),
        ("a hand not text", changed(base, h=[1, *h[1:]])),
        ("odd card text", changed(base, h=[h[0] + "2", *h[1:]])),
        ("not a card", changed(base, h=["ZZ" + h[0][2:], *h[1:]])),
        ("a card twice", changed(base, h=[h[0] + h[1][:2], *h[1:]])),
        ("a card missing", changed(base, h=[h[0][2:], *h[1:]])),
        ("a card moved", changed(base, h=[h[0][2:], h[1] + h[0][:2], *h[2:]])),
        ("tricks not text", changed(base, t=None)),
        ("bad leader", changed(base, t="9" + base["t"][1:])),
        ("wrong leader", changed(base, t=str((int(base["t"][0]) + 1) % 4) + base["t"][1:])),
        ("tricks cut", changed(base, t=base["t"][:-1])),
        ("no trick on the table", changed(base, t=base["t"][: 9 * (len(base["t"]) // 9)])),
        ("history not a list", changed(base, s=7)),
        ("history short entry", changed(base, s=[[0, 0, 26]])),
        ("history text", changed(base, s=[["a", 0, 0, 0]])),
        ("history infinite", json.loads(json.dumps(base).replace('"s": [[', '"s": [[1e999, '))),
        ("history float", changed(base, s=[[6.5, 6.5, 6.5, 6.5]])),
        ("history none", changed(base, s=[[None, 0, 0, 26]])),
        ("history missing", changed(base, s=[])),
        ("history too long", changed(base, s=base["s"] * 2)),
        ("history over 100", changed(base, s=[[0, 0, 100, 0]])),
        ("history not 26", changed(base, s=[[1, 2, 3, 4]])),
        ("history all 26 to one", changed(base, s=[[26, 0, 0, 0]])),
        ("variant moon without the variant", changed(base, s=[[-26, 0, 0, 0]])),
        ("passed twice the same", changed(fresh, x=[fresh["h"][0][:2] * 3, "", "", ""])),
        ("passed two cards", changed(fresh, x=[fresh["h"][0][:4], "", "", ""])),
        ("passed not own", changed(fresh, x=[fresh["h"][1][:6], "", "", ""])),
        ("received while passing", changed(fresh, r=["", fresh["h"][0][:6], "", ""])),
        ("played without passing", changed(base, x=["", "", "", ""], r=["", "", "", ""])),
        ("received the wrong cards", changed(base, r=[*base["r"][1:], base["r"][0]])),
        ("received twice the same", changed(base, r=[base["r"][0][:2] * 3, *base["r"][1:]])),
        ("passing a keep hand", changed(fresh, k=4, s=[[7, 6, 7, 6]] * 3)),
        ("missing key", {key: value for key, value in base.items() if key != "t"}),
    ]
    for key in ("v", "n", "m", "k", "p", "h", "x", "r", "t", "s"):
        out.append((f"{key} missing", {k: v for k, v in base.items() if k != key}))
    return out


@pytest.mark.parametrize(("why", "data"), inconsistent_variants(), ids=lambda v: str(v)[:30])
def test_from_json_refuses_an_inconsistent_game_with_value_error(why, data):
    Game.from_json(json.dumps(mid_game().to_dict()))  # the unchanged base is fine
    with pytest.raises(ValueError):
        Game.from_dict(data)
    with pytest.raises(ValueError):
        Game.from_json(json.dumps(data))


def test_from_json_refuses_a_finished_hand_whose_score_does_not_match_its_tricks():
    g = craft(SUITS, k=4)
    play_out_hand(g)  # a moon by you: (0, 26, 26, 26)
    d = g.to_dict()
    assert Game.from_dict(d) == g
    for wrong in ([26, 0, 0, 0], [0, 0, 13, 13], [26, 0, 26, 26]):
        with pytest.raises(ValueError):
            Game.from_dict(changed(d, s=[*d["s"][:-1], wrong]))
    with pytest.raises(ValueError):
        Game.from_dict(changed(d, p="game_over"))


def test_from_json_refuses_a_game_that_went_on_after_it_was_over():
    moon = [[0, 26, 26, 26]]
    to_99 = [[8, 4, 4, 10]] * 6 + [[13, 0, 0, 13]] + moon  # (61, 50, 50, 99)
    to_100 = [[8, 4, 4, 10]] * 6 + [[12, 0, 0, 14]] + moon  # (60, 50, 50, 100)
    assert craft(SUITS, k=9, history=to_99, phase="passing").totals == (61, 50, 50, 99)
    with pytest.raises(ValueError):
        craft(SUITS, k=9, history=to_100, phase="passing")
    with pytest.raises(ValueError):
        craft(SUITS, k=12, history=to_100 + [[7, 6, 7, 6]] * 3)


def test_the_variant_moon_is_a_valid_history_entry_only_in_the_variant():
    variant = [[7, 6, 7, 6], [-26, 0, 0, 0], [7, 6, 7, 6]]
    normal = [[7, 6, 7, 6], [0, 26, 26, 26], [7, 6, 7, 6]]
    assert craft(SUITS, k=4, history=variant, moon_off_shooter=True).totals == (-12, 12, 14, 12)
    assert craft(SUITS, k=4, history=normal).totals == (14, 38, 40, 38)
    with pytest.raises(ValueError):
        craft(SUITS, k=4, history=variant)
    with pytest.raises(ValueError):
        craft(SUITS, k=4, history=normal, moon_off_shooter=True)
