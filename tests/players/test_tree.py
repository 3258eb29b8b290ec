"""The tree over our own later decisions (``game.players.tree``, issue 49): its nodes hold one
card of each run worth the same with the playouts' own card first, its bandit tries the prior
first and then the best, both forms choose the same cards, and the hint is the same search."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import pytest

from game.engine import Card, SplitMix64
from game.engine.rules import mask_of
from game.players import brain, choose_play, jit, sim, tree, view_of, weigh_play
from game.players.brain import decide_play
from game.players.weigh import weigh_view
from tests.support.engine import random_position


@pytest.fixture(scope="module")
def fast():
    core = jit.core()
    assert core is not sim, jit.status()[1]
    assert core.TREE is not tree  # the compiled tree, on the compiled sim
    return core


@pytest.fixture
def tree_on(monkeypatch):
    monkeypatch.setattr(brain, "TREE", 1)


def robust_worlds(monkeypatch, mode: int) -> None:
    """The tree with noisy duckers and ``ROBUST`` = ``mode``'s worlds, every strong hand
    believable (``EARLY_STRENGTH`` 0.5): the settings the ROBUST tests share."""
    monkeypatch.setattr(brain, "TREE", 1)
    monkeypatch.setattr(brain, "DEFEND", 7 | 51 << sim.NOISE_SHIFT)
    monkeypatch.setattr(brain, "ROBUST", mode)
    monkeypatch.setattr(brain, "EARLY_STRENGTH", 0.5)


def positions(count: int, seed: int):
    rng = SplitMix64.for_key(seed)
    found = 0
    k = 0
    while found < count:
        k += 1
        game = random_position(k, 4 + rng.below(44), seed, k % 2 == 0)
        if game.phase == "playing":
            found += 1
            yield game


def test_a_node_holds_one_card_of_each_run_the_prior_first():
    keys, links, edges, stats, used = tree.new_tree(4)
    # clubs 2 3 4 and 9 held, the 5 to 8 gone: one run of 2..9; the jack apart (the 10 is out)
    hand = mask_of([0, 1, 2, 7, 9])
    gone = mask_of([3, 4, 5, 6])
    table = [13 * 1 + 4, 0, 0, 0]  # a diamond led: we are void, every card may go
    slot = tree.find_slot(keys, links, 12345)
    node = tree.make_node(keys, links, edges, stats, used, 12345, slot, hand, table, 1, gone, 3, 9)
    assert node == 0 and used[0] == 1
    assert edges[0][0] == 2
    assert edges[0][1:3] == [9, 0]  # the jack (the prior) first, then the run's two
    assert tree.find_slot(keys, links, 12345) == slot and links[slot] == 1


def test_the_bandit_tries_the_prior_first_then_the_least_points():
    keys, links, edges, stats, used = tree.new_tree(2)
    edges[0][:4] = [3, 5, 6, 7]
    assert tree.choose_edge(edges, stats, 0, 8.0, 0.5) == 0  # a new node: the prior's card
    # after many visits the edge with the fewest points wins, exploration spent
    row = stats[0]
    row[tree.VISITS] = 3000.0
    for j, mean in enumerate((5.0, 1.0, 9.0)):
        row[tree.EDGE_N + j] = 1000.0
        row[tree.EDGE_W + j] = 1000.0 * mean
    row[tree.SUM] = 15000.0
    assert tree.choose_edge(edges, stats, 0, 8.0, 0.5) == 1


def test_both_forms_choose_the_same_card_with_the_tree(fast, tree_on):
    for game in positions(12, 0x7EE):
        view = view_of(game, game.turn)
        assert decide_play(view, fast, budget=6000) == decide_play(view, sim, budget=6000)


def test_the_hint_names_the_trees_card(fast, tree_on):
    for game in positions(30, 0x7EF):
        assert weigh_play(game, game.turn).card == choose_play(game, game.turn)
    game = next(positions(1, 0x7F0))
    view = view_of(game, game.turn)
    slow = weigh_view(view, sim, budget=6000)
    assert Card.parse(slow.card).index == decide_play(view, sim, budget=6000)
    assert weigh_view(view, fast, budget=6000) == slow


def test_before_any_point_the_strongest_other_hand_is_imagined_shooting():
    from game.players.brain import MOON_RANK_FLOOR, moon_strength

    aces_kings = mask_of([12, 25, 38, 51, 11, 24, 37, 50, 10, 23, 36, 49, 9])
    rest = [(1 << 52) - 1 & ~aces_kings]
    lows = [c for c in range(52) if rest[0] >> c & 1]
    weak = [mask_of(lows[k * 13 : k * 13 + 13]) for k in range(3)]
    deals = [[weak[0], weak[1], aces_kings, weak[2]], [weak[0], weak[1], weak[2], aces_kings]]
    seats = [-1, -1]
    odds = [0.0, 0.0]
    tree.early_hunters(deals, 2, 0, MOON_RANK_FLOOR, 1.4, 0.25, seats, odds)
    assert moon_strength(aces_kings) >= 1.4 > max(moon_strength(h) for h in weak)
    assert seats == [2, 3] and odds == [0.25, 0.25]
    # our own strong hand is not another's: nobody is imagined shooting then
    seats = [-1]
    odds = [0.0]
    tree.early_hunters([[aces_kings, *weak]], 1, 0, MOON_RANK_FLOOR, 1.4, 0.25, seats, odds)
    assert seats == [-1] and odds == [0.0]


def test_a_moon_on_its_way_is_weighed_on_with_moon_carry(monkeypatch):
    from game.players.brain import moon_plan
    from game.players.deals import knowledge_of

    game = next(positions(1, 0x7F1))
    know = knowledge_of(view_of(game, game.turn))
    pts = [0, 0, 0, 0]
    pts[know.seat] = 5
    know = replace(know, pts=tuple(pts), hand=mask_of([0, 1, 2]))  # a weak hand left
    assert not moon_plan(know)
    monkeypatch.setattr(brain, "MOON_CARRY", 4)
    assert moon_plan(know)
    pts[(know.seat + 1) % 4] = 1  # another seat scored: the plan is lost
    assert not moon_plan(replace(know, pts=tuple(pts)))


def test_with_defend_alone_the_others_duck_an_imagined_shooter_to_the_end():
    # seat 2, imagined shooting with 12 points, all taken, leads the ten of clubs; seat 3
    # holds the five and the king: once the threat is real it beats it with the king, unless
    # the others leave the defence to us (DEFEND_ALONE): then it ducks with the five
    hand = mask_of([3, 11])
    late = sim.DEFEND_SELF | sim.DEFEND_LATE

    def card(defend: int) -> int:
        return sim.others_card(
            hand, 3, 1, 8, 0, False, True, 0, 0, 2, 0, 2, -1, 2, True, 12, False, defend
        )  # fmt: skip

    assert card(late) == 11
    assert card(late | sim.DEFEND_ALONE) == 3


def test_a_compiled_tree_built_on_another_sim_is_dropped(tmp_path):
    from types import SimpleNamespace

    stale = tmp_path / "tree.advance-1.py311.nbi"
    stale.write_text("old")
    kept = tmp_path / "sim.pick-1.py311.nbi"
    kept.write_text("sim's own")
    compiled = SimpleNamespace(
        advance=SimpleNamespace(_cache=SimpleNamespace(_cache_path=tmp_path))
    )
    jit._drop_stale_tree(compiled)
    assert not stale.exists() and kept.exists()
    stale.write_text("built on this sim")
    jit._drop_stale_tree(compiled)  # the same sim: nothing dropped
    assert stale.exists()


def following(key: int, count: int):
    """``count`` positions of a seat about to follow, drawn from ``key``: (its number, the
    seat's nine cards, eight cards gone, the card led)."""
    rng = SplitMix64.for_key(key)
    for k in range(count):
        deck = list(range(52))
        rng.shuffle(deck)
        yield k, mask_of(deck[:9]), mask_of(deck[40:48]), deck[48]


def test_a_noisy_ducker_plays_a_legal_card_now_and_then_and_the_shooter_never(fast):
    # the two forms give the same number and card, the card is always legal, about the chance
    # asked (51 in 256) of the duckers' cards change, and the imagined shooter's never does
    defend = sim.DEFEND_SELF | sim.DEFEND_LATE | 51 << sim.NOISE_SHIFT
    changed = tried = 0
    for k, hand, gone, led in following(0x9015E, 400):
        salted = defend | k << sim.SALT_SHIFT
        for seat, hunter in ((1, -1), (1, 1)):
            args = (hand, seat, 1, led, 0, False, True, gone, 0, 0, 0, -1, -1, -1, hunter, -1)
            args += (False, 0, False)
            plain = sim.model_card(*args, defend)
            noisy = sim.model_card(*args, salted)
            assert noisy == fast.model_card(*args, salted)
            follow = hand & sim.SUIT[led // 13]
            assert noisy in [c for c in range(52) if (follow or hand) >> c & 1]
            if hunter == seat:
                assert noisy == plain
            else:
                tried += 1
                changed += noisy != plain
    assert 0.05 < changed / tried < 0.25


def test_a_seat_read_as_strayed_plays_at_its_own_chance_and_the_rest_at_the_common_one(fast):
    # seat 1 strayed from the careful ducker (102 in 256), seat 2 did not (no common noise):
    # seat 2 never changes its card, seat 1 about as often as asked, in both forms; and
    # every other seat strayed at 51 plays exactly as the common noise of 51 would have it
    base = sim.DEFEND_SELF | sim.DEFEND_LATE
    stray = base | 1 << sim.STRAY_SEATS + 1 | 102 << sim.STRAY_SHIFT
    every = base | 0b1110 << sim.STRAY_SEATS | 51 << sim.STRAY_SHIFT
    common = base | 51 << sim.NOISE_SHIFT
    changed = {1: 0, 2: 0}
    tried = 0
    for k, hand, gone, led in following(0x57A7, 400):
        tried += 1
        for seat in (1, 2, 3):
            args = (hand, seat, 1, led, 0, False, True, gone, 0, 0, 0, -1, -1, -1, -1, -1)
            args += (False, 0, False)
            salt = k << sim.SALT_SHIFT
            plain = sim.model_card(*args, base | salt)
            noisy = sim.model_card(*args, stray | salt)
            assert noisy == fast.model_card(*args, stray | salt)
            if seat in changed:
                changed[seat] += noisy != plain
            assert sim.model_card(*args, every | salt) == sim.model_card(*args, common | salt)
    assert changed[2] == 0
    assert 0.15 < changed[1] / tried < 0.4


def test_both_forms_choose_the_same_card_with_noise_and_a_tree_per_world(fast, monkeypatch):
    robust_worlds(monkeypatch, 3)
    worlds = 0
    for game in positions(8, 0x7EF):
        view = view_of(game, game.turn)
        hands = [sum(1 << Card.parse(c).index for c in game.hand(s)) for s in range(4)]
        for oracle in (None, hands):
            monkeypatch.setattr(brain, "ROBUST_HANDS", oracle)
            worlds += len(brain._worlds(view, brain.knowledge_of(view), fast)) > 1
            assert decide_play(view, fast, budget=6000) == decide_play(view, sim, budget=6000)
    assert worlds >= 4  # many decisions were searched in more than one world


def _world(totals, moons):
    """A ``Searched`` of one world over two cards: its totals (one deal) and moon shares."""
    rows = [[0.0] * sim.FIG_COLUMNS for _ in totals]
    for row, moon in zip(rows, moons, strict=True):
        row[sim.FIG_MOON_AGAINST], row[sim.FIG_WEIGHT] = moon, 1.0
    root = brain.Root(None, None, sim, [(1, -1), (2, -1)], 1, 0, -1, rows)
    return brain.Searched(root, list(totals), [0, 1], 1.0)


def test_a_world_whose_moon_no_card_changes_adds_no_regret(monkeypatch):
    monkeypatch.setattr(brain, "ROBUST", 3)
    level = _world([-26.0, -2.0], [0.5, 0.52])  # about the same moon whatever we play
    turns = _world([-10.0, -14.0], [0.4, 0.1])  # our second card stops this one's moon
    sure = _world([-26.0, -25.0], [1.0, 0.99])  # a moon the tree sees no stop for
    found, worlds = [level, turns], [1, 2]
    every = brain._regrets(None, None, sim, worlds, found, [0, 1])
    assert every == {0: 0.0 + 4.0, 1: 24.0 + 0.0}  # without ROBUST_TOL: the level world counts
    monkeypatch.setattr(brain, "ROBUST_TOL", 0.1)
    assert brain._regrets(None, None, sim, worlds, found, [0, 1]) == {0: 4.0, 1: 0.0}
    assert brain._regrets(None, None, sim, [1], [level], [0, 1]) == {0: 0.0, 1: 24.0}
    monkeypatch.setattr(brain, "ROBUST_PLAIN", 1)  # every world left out: the plain search
    assert brain._regrets(None, None, sim, [1], [level], [0, 1]) is None
    monkeypatch.setattr(brain, "ROBUST_TOL", 0.0)
    monkeypatch.setattr(brain, "ROBUST_SURE", 0.95)
    assert brain._regrets(None, None, sim, [1, 2], [sure, turns], [0, 1]) == {0: 4.0, 1: 0.0}
    assert brain._regrets(None, None, sim, [1], [sure], [0, 1]) is None


def test_both_forms_agree_with_worlds_left_out_weighed_and_the_plain_search(fast, monkeypatch):
    robust_worlds(monkeypatch, 3)
    monkeypatch.setattr(brain, "ROBUST_TOL", 0.05)
    monkeypatch.setattr(brain, "ROBUST_PLAIN", 1)
    monkeypatch.setattr(brain, "ROBUST_WEIGH", 1)
    plain = 0
    for game in positions(8, 0x7F0):
        view = view_of(game, game.turn)
        with monkeypatch.context() as m:
            m.setattr(brain, "_search", _counting(brain._search))
            card = decide_play(view, fast, budget=6000)
            plain += _counting.calls > len(brain._worlds(view, brain.knowledge_of(view), fast))
        assert card == decide_play(view, sim, budget=6000)
    assert plain >= 1  # some decision left every world out and played the plain search's card


def _counting(search):
    """``search``, counting its calls in ``_counting.calls`` (reset here)."""
    _counting.calls = 0

    def counted(*args, **kwargs):
        _counting.calls += 1
        return search(*args, **kwargs)

    return counted


def _course(tricks) -> brain.View:
    """Seat 0's view of a hand whose completed ``tricks`` are given (hands left out)."""
    return brain.View(
        0, 1, 1, "left", 1, False, "playing", (), (), (), tuple(tricks), None, (), (0, 0, 0, 0)
    )


def test_a_world_needs_the_hands_course_to_say_its_seat_shoots(monkeypatch):
    # seat 1 wins the diamond trick with the king over the six, then leads the three: it could
    # have ducked; it holds the trick's one point, all the points taken
    clubs = (0, (0, 1, 2, 12))  # 2C 3C 4C AC: seat 3 wins, no points
    over = (3, (17, 39, 24, 15))  # 6D, 2H discarded, KD, 4D: seat 1 wins one point
    under = (1, (14, 16, 18, 19))  # 3D led by seat 1, then 5D 7D 8D: seat 0 wins, no points
    course = _course([clubs, over, under])
    monkeypatch.setattr(brain, "ROBUST_POINTS", 26)
    monkeypatch.setattr(brain, "ROBUST_WHEN", 2)
    assert brain._going_for_it(course, 1, 1)
    assert not brain._going_for_it(_course([clubs, over]), 1, 1)  # no lower diamond shown yet
    assert not brain._going_for_it(course, 1, 0)  # before any point: no
    monkeypatch.setattr(brain, "ROBUST_WHEN", 1 | 4)
    assert not brain._going_for_it(course, 1, 1)  # one point of 26, and no queen
    monkeypatch.setattr(brain, "ROBUST_POINTS", 1)
    assert brain._going_for_it(course, 1, 1)
    monkeypatch.setattr(brain, "ROBUST_WHEN", 8)
    assert brain._going_for_it(course, 1, 0)  # before any point, with bit 8: strength alone
    monkeypatch.setattr(brain, "ROBUST_WHEN", 16)  # before any point: a trick won over a duck
    won = (3, (17, 15, 24, 18))  # 6D, 4D, KD from seat 1 over the six, 7D: no points
    led = (1, (24, 15, 17, 18))  # KD led by seat 1, which wins: a lead is no duck
    low = (1, (14, 16, 19, 20))  # then 3D led by seat 1, under the six
    assert brain._going_for_it(_course([clubs, won, low]), 1, 0)
    assert not brain._going_for_it(_course([clubs, won]), 1, 0)  # no lower diamond shown yet
    assert not brain._going_for_it(_course([clubs, led, low]), 1, 0)
    queen = (1, (26, 36, 27, 28))  # 2S led by seat 1, QS from seat 2: seat 2 wins 13 points
    monkeypatch.setattr(brain, "ROBUST_WHEN", 4)
    assert brain._going_for_it(_course([clubs, queen]), 2, 13)


def seen_positions(count: int, seed: int):
    """``positions``' games as the seat to play sees them: its view and what it knows."""
    for game in positions(count, seed):
        view = view_of(game, game.turn)
        yield view, brain.knowledge_of(view)


def test_both_forms_choose_the_same_card_with_worlds_from_the_hands_course(fast, monkeypatch):
    robust_worlds(monkeypatch, 5)
    monkeypatch.setattr(brain, "ROBUST_POINTS", 2)
    dropped = 0
    for view, know in seen_positions(10, 0x7F1):
        every = brain._worlds(view, know, fast)
        monkeypatch.setattr(brain, "ROBUST_WHEN", 23)
        dropped += len(brain._worlds(view, know, fast)) < len(every)
        assert decide_play(view, fast, budget=6000) == decide_play(view, sim, budget=6000)
        monkeypatch.setattr(brain, "ROBUST_WHEN", 9)  # strength before any point, from 4.0 only
        monkeypatch.setattr(brain, "ROBUST_FIRST", 4.0)
        if not sum(know.pts):
            assert brain._worlds(view, know, fast) == []
            monkeypatch.setattr(brain, "ROBUST_FIRST", 0.0)
            assert brain._worlds(view, know, fast) == every  # bit 8: strength alone, as before
        monkeypatch.setattr(brain, "ROBUST_FIRST", 0.0)
        monkeypatch.setattr(brain, "ROBUST_WHEN", 0)
    assert dropped >= 1  # the hand's course left out a world that strength alone believed


def test_the_early_world_is_weighed_against_nobody_then_believed_alone(monkeypatch):
    monkeypatch.setattr(brain, "ROBUST", 5)
    monkeypatch.setattr(brain, "ROBUST_EARLY_SHARE", 0.3)
    shoots = _world([0.0, -10.0], [0.9, 0.1])  # our second card stops seat 1's moon
    nobody = _world([-4.0, 0.0], [0.0, 0.0])  # our first card is better if nobody shoots
    early, late = SimpleNamespace(pts=(0, 0, 0, 0)), SimpleNamespace(pts=(0, 1, 0, 0))
    assert brain._robust_mode(early) == 6 and brain._robust_mode(late) == 5
    mixed = brain._regrets(None, early, sim, [1, -1], [shoots, nobody], [0, 1])
    assert mixed == pytest.approx({0: 0.7 * -4.0, 1: 0.3 * -10.0})  # the second card, just
    monkeypatch.setattr(brain, "ROBUST_EARLY_SHARE", 0.2)
    mixed = brain._regrets(None, early, sim, [1, -1], [shoots, nobody], [0, 1])
    assert mixed[0] < mixed[1]  # a smaller share: the first card
    assert brain._regrets(None, late, sim, [1], [shoots], [0, 1]) == {0: 10.0, 1: 0.0}
    monkeypatch.setattr(brain, "ROBUST_EARLY_SHARE", 0.0)  # off: the world alone, as before
    assert brain._robust_mode(early) == 5


def test_both_forms_agree_with_the_early_world_weighed(fast, monkeypatch):
    robust_worlds(monkeypatch, 5)
    monkeypatch.setattr(brain, "ROBUST_WHEN", 9)
    monkeypatch.setattr(brain, "ROBUST_POINTS", 1)
    weighed = 0
    for view, know in seen_positions(8, 0x7F2):
        alone = brain._worlds(view, know, fast)
        monkeypatch.setattr(brain, "ROBUST_EARLY_SHARE", 0.3)
        worlds = brain._worlds(view, know, fast)
        if alone and not sum(know.pts):
            assert worlds == [*alone, -1]  # before any point: the world and nobody's
            weighed += 1
        else:
            assert worlds == alone
        assert decide_play(view, fast, budget=6000) == decide_play(view, sim, budget=6000)
        monkeypatch.setattr(brain, "ROBUST_EARLY_SHARE", 0.0)
    assert weighed >= 1
