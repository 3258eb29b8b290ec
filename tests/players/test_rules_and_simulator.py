"""The one statement of the rules (game.engine.rules) and the simulator's fast loop agree with
``Game`` over random positions of both moon rules.

``Game`` asks ``rules`` for legality, the trick winner and the hand's score, and so does the
players' search; ``sim.playout`` alone inlines the trick winner and the points for speed, so
here its hands are replayed card by card through ``Game.play``, which refuses any illegal card,
and its points and scores are compared with the engine's.
"""

from __future__ import annotations

import pytest

from game.engine import Card, SplitMix64
from game.engine.rules import (
    HEART_MASK,
    MOON,
    hand_score,
    legal_mask,
    mask_of,
    moon_scores,
    winning_position,
)
from game.players import view_of
from game.players.deals import knowledge_of
from game.players.sim import playout
from tests.support.engine import idx, random_position

POSITIONS = 160


def test_hand_score_under_both_moon_rules():
    assert hand_score((3, 10, 13, 0), False) == (3, 10, 13, 0)
    assert hand_score((3, 10, 13, 0), True) == (3, 10, 13, 0)
    assert hand_score((0, 0, MOON, 0), False) == (MOON, MOON, 0, MOON)
    assert hand_score((0, 0, MOON, 0), True) == (0, 0, -MOON, 0)
    assert moon_scores(False) == (0, MOON, MOON, MOON)
    assert moon_scores(True) == (-MOON, 0, 0, 0)


def test_the_trick_goes_to_the_highest_card_of_the_suit_led():
    assert winning_position([idx(c) for c in ("5H", "AS", "9H", "2H")]) == 2
    assert winning_position([idx(c) for c in ("5H", "AS", "4H", "2H")]) == 0
    assert winning_position([idx(c) for c in ("2C", "QS", "AH", "3C")]) == 3


@pytest.mark.parametrize("moon_off_shooter", [False, True])
def test_the_search_and_the_engine_agree_over_random_positions(moon_off_shooter):
    rng = SplitMix64.for_key(0x5EED, int(moon_off_shooter))
    moons = played = 0
    for k in range(POSITIONS):
        game = random_position(1 + k, rng.below(52), k, moon_off_shooter)
        if game.phase != "playing":
            continue
        seat = game.turn
        # legality as the players' search computes it from the seat's view
        know = knowledge_of(view_of(game, seat))
        view = view_of(game, seat)
        legal = legal_mask(know.hand, view.trick, not view.tricks, bool(know.gone & HEART_MASK))
        assert legal == mask_of(idx(code) for code in game.legal_plays(seat))
        assert know.pts == game.hand_points()
        # the playout's own trick winner and points, replayed through the engine
        hands = [mask_of(idx(code) for code in game.hand(s)) for s in range(4)]
        plan = rng.below(5) - 1  # a seat going for the moon, or -1 for none
        me = rng.below(5) - 1  # the searching seat (the others duck), or -1 for all alike
        cards: list[int] = []
        points = playout(
            hands,
            game.trick_leader,
            [idx(code) for _, code in game.trick],
            list(game.hand_points()),
            mask_of(idx(code) for done in game.completed_tricks for _, code in done.plays),
            game.tricks_played,
            plan,
            me,
            rng.below(2) == 1,
            cards,
            rng.below(5) - 1,  # a seat imagined going for the moon, or -1 for none
            rng.below(4),  # the playouts' defence against a moon: none, either part or both
        )
        replay = game.copy()
        for card in cards:
            replay.play(replay.turn, Card(card).code)  # IllegalMove if the fast loop broke a rule
        assert replay.phase in ("hand_over", "game_over")
        assert tuple(points) == replay.hand_points()
        assert hand_score(points, moon_off_shooter) == replay.history[-1]
        moons += replay.moon_shooter is not None
        played += 1
    assert played > POSITIONS // 2
    assert moons > 0  # the moon branch of the score is exercised under this rule
