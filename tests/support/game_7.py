"""Game #7 as the last-trick and dead-hand tests play it, replayed here by the engine and the
computer players themselves: you pass the first three cards of your hand and then always play
the last card that may be played; Pauline, Michele and Ben pass and play as the site has them
do (``players.choose_pass`` and ``players.choose_play``).

What those tests expect of the site that depends on the computers' choices (which trick goes
to whom, when the last point card is taken, the hand's score) is read off this replay rather
than written down, so a change of the computers' strength does not leave them describing a
hand that is no longer played. The replay plays all thirteen tricks with the dead-hand rule
off, and works out when the points ran out by counting the point cards taken, not by asking
the engine's rule: what the site does with the rule on is then checked against it.
"""

from __future__ import annotations

from functools import cache

from game import players
from game.engine import Game
from game.engine.game import CompletedTrick

NUMBER = 7
NAMES = ["Ada", "Pauline", "Michele", "Ben"]  # you, then the computers, by seat
PLACES = {0: "bottom", 1: "left", 2: "top", 3: "right"}  # as you, in seat 0, see the table
RANK_WORDS = (
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
)
RANKS = dict(zip("23456789TJQKA", RANK_WORDS, strict=True))
SUITS = {"C": "clubs", "D": "diamonds", "S": "spades", "H": "hearts"}


def is_point(code: str) -> bool:
    return code[1] == "H" or code == "QS"


@cache
def played_out() -> Game:
    """Game #7's first hand played to its thirteenth trick, the dead-hand rule off."""
    game = Game.new(NUMBER)
    game.pass_cards(0, game.hand(0)[:3])
    for seat in (1, 2, 3):
        game.pass_cards(seat, players.choose_pass(game, seat))
    while game.phase == "playing":
        seat = game.turn
        game.play(seat, game.legal_plays(0)[-1] if seat == 0 else players.choose_play(game, seat))
    return game


def trick(number: int) -> CompletedTrick:
    """The ``number``-th trick of the hand (from 1)."""
    return played_out().completed_tricks[number - 1]


def dead_after() -> int:
    """Your card after which no point is left in the hand: you play one card a trick, so the
    number of the trick that takes the last of the thirteen hearts and the queen of spades.
    Earlier than the thirteenth, or game #7 no longer shows a dead hand and wants replacing."""
    taken = 0
    for number, done in enumerate(played_out().completed_tricks, start=1):
        taken += sum(is_point(code) for _, code in done.plays)
        if taken == 14:
            assert number < 13, "game #7's points now last to the end: pick another game"
            return number
    raise AssertionError("thirteen tricks hold every point card")


def score() -> tuple[int, int, int, int]:
    """The hand's points by seat, played on to the end."""
    return played_out().history[-1]


def name(seat: int, viewer: int = 0) -> str:
    return "you" if seat == viewer else NAMES[seat]


def spoken(code: str) -> str:
    """ "8C" -> "the eight of clubs"."""
    return f"the {RANKS[code[0]]} of {SUITS[code[1]]}"


def sentence(number: int, viewer: int = 0) -> str:
    """The last-trick sentence for the ``number``-th trick, as ``viewer`` is told it: "Last
    trick, won by you: Michele the two of clubs, Ben the king of diamonds, you the ..."."""
    done = trick(number)
    cards = ", ".join(f"{name(seat, viewer)} {spoken(code)}" for seat, code in done.plays)
    return f"Last trick, won by {name(done.winner, viewer)}: {cards}."


def pile(seat: int) -> tuple[str, int]:
    """The label of ``seat``'s pile of point cards at the end of the hand, and how many cards
    it holds: "Ada took 6 hearts and the queen of spades."."""
    taken = [code for code in played_out().taken(seat) if is_point(code)]
    hearts = sum(code[1] == "H" for code in taken)
    said = [f"{hearts} heart" + "s" * (hearts != 1)] if hearts else []
    said += ["the queen of spades"] if "QS" in taken else []
    return f"{NAMES[seat]} took {' and '.join(said) or 'no point cards'}.", len(taken)
