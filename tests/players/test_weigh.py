"""The search's figures for the hint (``game.players.weigh``): the same search as the players'
own decision, the same card, and figures that are the search's own sums."""

from __future__ import annotations

import pytest

from game.engine import Card, Game, SplitMix64
from game.engine.rules import HEARTS, QS, SPADES, suit_of, trick_points
from game.engine.rules import winning_position as winner_of
from game.players import brain, choose_pass, choose_play, jit, sim, view_of, weigh_pass, weigh_play
from game.players.brain import decide_pass, decide_play
from game.players.weigh import weigh_pass_view, weigh_view
from tests.support.engine import idx, random_position


def positions(count: int, seed: int, steps: int = 50):
    """Games in the playing phase, a random number of cards in."""
    rng = SplitMix64.for_key(seed)
    found = 0
    k = 0
    while found < count:
        k += 1
        game = random_position(k, 4 + rng.below(steps), seed, k % 2 == 0)
        if game.phase == "playing":
            found += 1
            yield game


@pytest.fixture(scope="module")
def fast():
    core = jit.core()
    assert core is not sim, jit.status()[1]
    return core


def test_weigh_play_chooses_choose_plays_card_in_many_positions(fast):
    weighed = 0
    for game in positions(100, 0x3E1):
        figures = weigh_play(game, game.turn)
        assert figures.card == choose_play(game, game.turn)
        weighed += bool(figures.candidates)
        codes = [c.card for c in figures.candidates]
        assert len(codes) == len(set(codes))
        assert set(codes) <= set(game.legal_plays(game.turn))
    assert weighed >= 50  # most positions have more than one card worth weighing


def test_weigh_and_decide_agree_in_the_python_form_on_its_budget(fast):
    for game in positions(8, 0x3E2):
        view = view_of(game, game.turn)
        slow = weigh_view(view, sim)
        assert Card.parse(slow.card).index == decide_play(view, sim)
        quick = weigh_view(view, fast, budget=brain.PYTHON_BUDGET)
        assert quick == slow  # the figures too: both forms record them alike


def test_the_chosen_card_ranks_best_among_those_in_the_running(fast):
    for game in positions(40, 0x3E3):
        figures = weigh_play(game, game.turn)
        if not figures.candidates:
            continue
        running = [c for c in figures.candidates if c.in_running]
        chosen = next(c for c in running if c.card == figures.card)
        assert all(chosen.score <= c.score for c in running)
        full = max(c.deals for c in figures.candidates)
        assert full >= brain.MIN_DEALS
        assert all(c.deals == full for c in running)  # every card in the running: the same deals
        assert all(c.deals <= full for c in figures.candidates)
        for c in figures.candidates:
            for share in (c.clean, c.moon_against, c.moon_own):
                assert 0.0 <= share <= 1.0
            assert c.moon_against + c.moon_own <= 1.0 + 1e-9
            assert 0.0 <= c.trick_points <= 26


def test_the_figures_are_the_searchs_own_sums(fast, monkeypatch):
    # with no credit for the others' points and no edge for the heuristic's card, the search's
    # score is our own points for the hand: the points held before plus those the figures count
    monkeypatch.setattr(brain, "OTHERS_CREDIT", 0.0)
    monkeypatch.setattr(brain, "FALLBACK_EDGE", 0.0)
    checked = 0
    for game in positions(30, 0x3E4):
        seat = game.turn
        view = view_of(game, seat)
        figures = weigh_view(view, fast)
        assert Card.parse(figures.card).index == decide_play(view, fast)
        held = game.hand_points()[seat]
        for c in figures.candidates:
            assert c.score == pytest.approx(c.points + held, abs=1e-9)
            checked += 1
    assert checked > 30


def test_weighing_spends_the_work_of_a_decision(fast):
    for game in positions(10, 0x3E5):
        view = view_of(game, game.turn)
        before = brain.Tally.cards
        decide_play(view, fast)
        spent = brain.Tally.cards - before
        weigh_view(view, fast)
        assert brain.Tally.cards - before == 2 * spent


def test_last_to_the_trick_each_cards_trick_figures_are_certain(fast):
    seen = 0
    for game in positions(200, 0x3E6):
        if len(game.trick) != 3:
            continue
        seat = game.turn
        figures = weigh_play(game, seat)
        table = [idx(code) for _, code in game.trick]
        for c in figures.candidates:
            cards = [*table, Card.parse(c.card).index]
            ours = winner_of(cards) == 3
            taken = trick_points(cards) if ours else 0
            assert c.trick_points == taken
            assert c.clean == (1.0 if taken == 0 else 0.0)
            seen += 1
        if seen > 40:
            break
    assert seen > 20


def test_a_forced_card_has_no_candidates(fast):
    found = 0
    for game in positions(120, 0x3E7, 44):
        seat = game.turn
        if len(game.legal_plays(seat)) != 1:
            continue
        figures = weigh_play(game, seat)
        assert figures.card == game.legal_plays(seat)[0]
        assert figures.candidates == ()
        found += 1
    assert found >= 3


def test_the_threat_is_the_lone_taker_of_every_point(fast):
    for game in positions(60, 0x3E8):
        seat = game.turn
        pts = game.hand_points()
        takers = [s for s in range(4) if pts[s]]
        lone = takers[0] if len(takers) == 1 and takers[0] != seat else None
        figures = weigh_play(game, seat)
        assert figures.threat == lone
        if pts[seat] != sum(pts):
            assert all(c.moon_own == 0.0 for c in figures.candidates)
            assert not figures.shooting


def passing_games():
    """Games at a pass, in every direction that passes (hands 1 to 3)."""
    for number in range(1, 41):
        for steps in (0, 54, 108):
            game = random_position(number, steps, 0x3E9)
            if game.phase == "passing":
                yield game


def test_weigh_pass_passes_choose_passs_cards_for_reasons_true_of_the_hand(fast):
    codes = set()
    for game in passing_games():
        for seat in range(4):
            figures = weigh_pass(game, seat)
            assert list(figures.cards) == choose_pass(game, seat)
            assert [r.card for r in figures.passed] == list(figures.cards)
            hand = [Card.parse(str(c)).index for c in game.hand(seat)]
            left = [c for c in hand if all(Card.parse(p).index != c for p in figures.cards)]
            for reason in (*figures.passed, *figures.kept):
                check_reason(reason, hand, left, game.pass_direction)
                codes.add(reason.why)
    assert {"queen", "high_spade", "void", "high", "high_heart", "queen_guarded"} <= codes


def check_reason(reason, hand: list[int], left: list[int], direction: str) -> None:
    card = Card.parse(reason.card).index
    facts = dict(reason.facts)
    low_spades = sum(1 for c in left if suit_of(c) == SPADES and c < QS)
    if reason.why == "queen":
        assert card == QS and facts["low_spades"] == low_spades
        assert facts["guards"] == (2 if direction == "right" else 3)
        assert sum(1 for c in hand if suit_of(c) == SPADES and c < QS) < facts["guards"]
    elif reason.why == "high_spade":
        assert card in (QS + 1, QS + 2) and QS not in left
    elif reason.why == "void":
        assert reason.card[-1] == facts["suit"] in "CD"
        assert not [c for c in left if suit_of(c) == suit_of(card)]
    elif reason.why in ("high", "high_heart"):
        assert (suit_of(card) == HEARTS) == (reason.why == "high_heart")
        assert facts["suit_length"] == sum(1 for c in hand if suit_of(c) == suit_of(card))
    elif reason.why == "queen_guarded":
        assert card == QS and QS in left and facts["low_spades"] == low_spades
    elif reason.why == "search":
        assert isinstance(facts["edge_tenths"], int)
        assert facts["edge_tenths"] >= round(brain.PASS_EDGE * 10)
    else:
        raise AssertionError(f"an undocumented reason: {reason}")


def test_weigh_pass_follows_the_pass_search_when_it_is_on(fast, monkeypatch):
    monkeypatch.setattr(brain, "PASS_DEALS", 24)
    searched = 0
    for number in range(1, 25):
        game = Game.new(number)
        for seat in range(4):
            view = view_of(game, seat)
            figures = weigh_pass_view(view, fast)
            assert [Card.parse(c).index for c in figures.cards] == decide_pass(view, fast)
            if figures.passed[0].why == "search":
                searched += 1
                assert all(dict(r.facts)["edge_tenths"] >= 2 for r in figures.passed)
    assert searched >= 1


def test_weigh_refuses_out_of_turn():
    game = random_position(5, 10, 1)
    with pytest.raises(ValueError):
        weigh_play(game, (game.turn + 1) % 4)
    with pytest.raises(ValueError):
        weigh_pass(game, 0)
