"""Our addition: "Finish the hand when no points are left".

The rule is the engine's: with ``finish_dead_hands`` on, the trick that takes the last point
card ends the hand, and the engine plays out the rest itself. The scores must be exactly those
of playing on, which the first test checks over many seeded games under both moon rules.
"""

from __future__ import annotations

import random

import pytest

from game.engine import Game, IllegalMove
from tests.support.engine import position, refused

RANKS = "23456789TJQKA"


def is_point(code: str) -> bool:
    return code[1] == "H" or code == "QS"


def choose(game: Game, rng: random.Random, hog: int | None) -> str:
    """Random play, or (to reach moons) one seat that plays high while the others play low
    and, when they cannot follow, throw it their points."""
    legal = game.legal_plays(game.turn)
    if hog is None:
        return rng.choice(legal)
    by_rank = sorted(legal, key=lambda code: RANKS.index(code[0]))
    if game.turn == hog:
        return by_rank[-1]
    if game.trick and all(code[1] != game.trick[0][1][1] for code in legal):
        points = [code for code in legal if is_point(code)]
        if points:
            return points[-1]
    return by_rank[0]


@pytest.mark.parametrize("moon_off_shooter", [False, True])
def test_with_the_rule_on_every_hand_scores_exactly_as_playing_it_out(moon_off_shooter):
    """Two copies of each game take the same passes and plays. When the one with the rule on
    finishes a dead hand, the other plays it out at random; their scores must agree, hand by
    hand, to the end of the game."""
    dead = moons = 0
    for attempt in range(40):
        rng, rest = random.Random(attempt), random.Random(-attempt)
        hog = attempt % 4 if attempt % 2 else None
        number = 1 + attempt * 7919
        on = Game.new(number, moon_off_shooter, finish_dead_hands=True)
        off = Game.new(number, moon_off_shooter)
        while on.phase != "game_over":
            if on.phase == "passing":
                for seat in range(4):
                    picks = rng.sample(on.hand(seat), 3)
                    on.pass_cards(seat, picks)
                    off.pass_cards(seat, picks)
            elif on.phase == "hand_over":
                on.next_hand()
                off.next_hand()
            else:
                seat, code = on.turn, choose(on, rng, hog)
                on.play(seat, code)
                off.play(seat, code)
                if on.phase == "playing":
                    assert on.points_left
                    continue
                if off.phase == "playing":
                    assert off.points_left == 0
                    assert on.played_out_from == off.tricks_played < 13
                    dead += 1
                    moons += on.moon_shooter is not None
                    while off.phase == "playing":
                        off.play(off.turn, rest.choice(off.legal_plays(off.turn)))
                else:
                    assert on.played_out_from is None
                assert on.history == off.history
                assert on.phase == off.phase
                assert Game.from_dict(on.to_dict()) == on
        assert off.phase == "game_over" and off.totals == on.totals
    assert dead >= 100, dead
    assert moons >= 1, moons


# -- crafted hands ------------------------------------------------------------------------------

# Seat 0 has taken twelve hearts in four tricks; in the fifth, Pauline has thrown the ace of
# hearts and Michele the queen of spades on seat 0's lead, and Ben is to play.
TRICKS = ("0 2C 2H 3H 4H", "0 3C 5H 6H 7H", "0 4C 8H 9H TH", "0 5C JH QH KH")


def dead_after_ben(lead: str, ben: str, seat0: str, **kwargs) -> dict:
    return position(
        {
            0: seat0,
            1: "JD QD KD AD 2S 3S 4S 5S",
            3: ben,
        },
        (*TRICKS, f"0 {lead} AH QS"),
        **kwargs,
    )


def ben_takes_the_last_points(finish: bool, **kwargs) -> Game:
    data = dead_after_ben("6C", "7C 8C 9C TC JC QC KC AC 2D", "3D 4D 5D 6D 7D 8D 9D TD", **kwargs)
    if finish:
        data["d"] = 1
    return Game.from_dict(data)


def test_off_by_default_a_dead_hand_is_played_on():
    assert Game.new(617).finish_dead_hands is False
    assert "d" not in Game.new(617).to_dict()
    game = ben_takes_the_last_points(finish=False)
    game.play(3, "7C")
    assert game.phase == "playing"
    assert game.points_left == 0
    assert game.turn == 3 and game.tricks_played == 5


def test_the_trick_that_takes_the_last_point_ends_the_hand_with_the_engine_playing_out():
    game = ben_takes_the_last_points(finish=True)
    assert game.points_left == 14
    game.play(3, "7C")
    assert game.phase == "hand_over"
    assert game.played_out_from == 5
    assert game.tricks_played == 13
    assert game.history[-1] == (12, 0, 0, 14)
    # the engine's play-out: each seat's lowest legal card, Ben leading his clubs
    assert [code for _, code in game.completed_tricks[5].plays] == ["8C", "3D", "JD", "6S"]
    assert game.completed_tricks[5].winner == 3
    assert game.last_trick.plays[0] == (3, "2D")  # Ben's clubs win seven tricks, then he leads


def test_the_rule_travels_in_the_json_form_and_copies():
    game = ben_takes_the_last_points(finish=True)
    assert game.to_dict()["d"] == 1
    assert Game.from_json(game.to_json()).finish_dead_hands is True
    assert game.copy().finish_dead_hands is True
    again = Game.from_json(game.to_json())
    again.play(3, "7C")
    assert again.phase == "hand_over" and again.played_out_from == 5


@pytest.mark.parametrize(
    ("moon_off_shooter", "score"), [(False, (0, 26, 26, 26)), (True, (-26, 0, 0, 0))]
)
def test_a_moon_shot_before_the_end_is_scored_at_once_under_either_moon_rule(
    moon_off_shooter, score
):
    data = dead_after_ben(
        "AC",
        "7C 8C 9C TC JC QC KC 2D 3D",
        "6C 4D 5D 6D 7D 8D 9D TD",
        moon_off_shooter=moon_off_shooter,
    )
    data["d"] = 1
    game = Game.from_dict(data)
    game.play(3, "7C")
    assert game.phase == "hand_over"
    assert game.played_out_from == 5
    assert game.moon_shooter == 0
    assert game.history[-1] == score


def test_finish_dead_hand_is_refused_while_points_are_left_or_no_hand_is_played():
    game = ben_takes_the_last_points(finish=False)
    refused(game, "Points are still left in this hand.", game.finish_dead_hand)
    passing = Game.new(617)
    refused(passing, "No hand is being played.", passing.finish_dead_hand)


def test_finish_dead_hand_also_completes_a_trick_begun_with_no_points_left():
    """With the rule off a player may still ask the engine to finish (a network game might)."""
    game = ben_takes_the_last_points(finish=False)
    game.play(3, "7C")
    game.play(3, "KC")
    game.finish_dead_hand()
    assert game.phase == "hand_over"
    assert game.history[-1] == (12, 0, 0, 14)
    assert game.completed_tricks[5].plays[0] == (3, "KC")
    assert game.played_out_from is None  # the rule was off: the players played it out


def test_from_dict_refuses_a_dead_hand_left_to_play_on_with_the_rule_on():
    game = ben_takes_the_last_points(finish=False)
    game.play(3, "7C")
    data = game.to_dict()
    data["d"] = 1
    with pytest.raises(ValueError, match="dead hand left to play on"):
        Game.from_dict(data)


def test_from_dict_refuses_a_dead_hand_played_out_otherwise_than_by_the_engine():
    game = ben_takes_the_last_points(finish=False)
    game.play(3, "7C")
    while game.phase == "playing":
        game.play(game.turn, game.legal_plays(game.turn)[-1])  # the highest, not the lowest
    data = game.to_dict()
    assert Game.from_dict(data).played_out_from is None
    data["d"] = 1
    with pytest.raises(ValueError, match="played out otherwise"):
        Game.from_dict(data)


def test_a_dead_hand_refuses_further_plays_with_the_hand_over_sentence():
    game = ben_takes_the_last_points(finish=True)
    game.play(3, "7C")
    with pytest.raises(IllegalMove, match="The hand is over. Press OK to deal the next hand."):
        game.play(0, "3D")
