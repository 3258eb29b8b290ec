"""Every sentence the site makes with a number in it says 1 point, 1 heart, 1 hand, 1 time
(issue 44, item 5): each sentence-making function walked through 0, 1 and 2."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from game.web import hand_review, table
from game.web.challenge import Result, summary, times
from game.web.words import counted

NAMES = ["Ada", "Pauline", "Michele", "Ben"]


def test_counted_says_no_one_and_many():
    assert [counted(n, "point") for n in (0, 1, 2)] == ["no points", "1 point", "2 points"]
    assert counted(0, "hand", zero="0 hands") == "0 hands"
    assert counted(1, "lower spade") == "1 lower spade"


def test_the_reviews_points_and_what_you_took():
    assert [hand_review.points_text(n) for n in (0, 1, 2)] == ["no points", "1 point", "2 points"]
    took = [hand_review._taken_text(n, n, would=False) for n in (0, 1, 2)]
    assert took == ["took no points", "took 1 point", "took 2 points"]
    would = [hand_review._taken_text(n, n, would=True) for n in (0, 1, 2)]
    assert would == ["taken no points", "taken 1 point", "taken 2 points"]


@pytest.mark.parametrize(
    ("so_far", "said"),
    [(1, "the only point so far"), (2, "all 2 points so far"), (13, "all 13 points so far")],
)
def test_the_reviews_moon_notes(so_far, said):
    stopped = hand_review.moon_stopped_sentence("Ben", "your", "you", 4, so_far)
    assert stopped == f"Ben stopped your moon in trick 4, when you had taken {said}."
    possible = hand_review.moon_possible_sentence(4, so_far, 0.5)
    assert possible.startswith(f"A moon was possible for you: at trick 4 you had taken {said},")
    assert "1 points" not in stopped + possible


def test_a_moon_possible_before_any_point():
    said = hand_review.moon_possible_sentence(3, 0, 0.4)
    assert "no one had taken a point yet" in said and "0 points" not in said


def test_a_fine_choice_never_says_within_nothing():
    said = [hand_review.near(cost) for cost in (0.0, 0.04, 0.3)]
    assert said == ["as good as", "as good as", "within 0.3 expected points of"]


def test_the_reviews_queen_of_spades_guards():
    kept = [hand_review.kept_queen_text(n) for n in (0, 1, 2)]
    assert kept == [
        "kept the queen of spades with no lower spades",
        "kept the queen of spades with 1 lower spade",
        "kept the queen of spades with 2 lower spades",
    ]
    passed = [hand_review.passed_queen_text(n) for n in (0, 1, 2)]
    assert passed[1] == "passed the queen of spades away with 1 lower spade to guard it"
    assert passed[0] == "passed the queen of spades away with no lower spades to guard it"
    assert passed[2] == "passed the queen of spades away with 2 lower spades to guard it"


TRICKS = {  # the trick Ben takes with the king of clubs, with 0, 1 and 2 hearts in it
    0: (("2C", 0), ("3C", 1), ("4C", 2), ("KC", 3)),
    1: (("2C", 0), ("3H", 1), ("4C", 2), ("KC", 3)),
    2: (("2C", 0), ("3H", 1), ("4H", 2), ("KC", 3)),
}


@pytest.mark.parametrize(
    ("hearts", "said"),
    [(0, "no points"), (1, "1 heart, 1 point"), (2, "2 hearts, 2 points")],
)
def test_the_narrated_trick(hearts, said):
    trick = SimpleNamespace(winner=3, plays=[(seat, code) for code, seat in TRICKS[hearts]])
    assert (
        table.trick_sentence(trick, NAMES, 0)
        == f"Ben takes the trick with the king of clubs: {said}."
    )


@pytest.mark.parametrize(
    ("cards", "said"),
    [([], "no point cards"), (["2H"], "1 heart"), (["2H", "3H"], "2 hearts")],
)
def test_the_taken_pile(cards, said):
    assert table.taken_summary("Ben", cards) == f"Ben took {said}."


def test_the_challenges_times_points_and_hands():
    assert [times(n, "the hint") for n in (1, 2, 3)] == [
        "the hint once",
        "the hint twice",
        "the hint 3 times",
    ]
    said = [summary(Result("Anna", points, True, undos=n)) for n, points in
            ((0, (0,)), (1, (1,)), (2, (1, 1)))]  # fmt: skip
    assert said == [
        "Anna took 0 points in 1 hand and won, without Undo Card or the hint.",
        "Anna took 1 point in 1 hand and won, with Undo Card once.",
        "Anna took 2 points in 2 hands and won, with Undo Card twice.",
    ]
