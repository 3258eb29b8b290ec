"""Our addition: the trick just gathered, seen again, as one seat sees it.

Plain data from the ``Game`` and a viewer's seat, so that the table here (you are seat 0) and a
network game (any seat at the bottom) show and say the same thing. Only the last trick, as in a
real game at a table: earlier tricks stay gathered.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from game.engine import Card, Game, Phase

PLACES = ("bottom", "left", "top", "right")  # round the table from the viewer, as it plays
NOTHING_YET = "No trick has been taken yet in this hand."
NOT_PLAYING = "The last trick can be seen while a hand is being played."


@dataclass(frozen=True, slots=True)
class SeenCard:
    seat: int
    player: str  # "you" for the viewer, else the player's name
    code: str
    name: str  # "seven of clubs"
    place: str  # where that player sits as the viewer sees the table
    won: bool


@dataclass(frozen=True, slots=True)
class LastTrickView:
    cards: tuple[SeenCard, ...]  # in the order they were played, the leader's first
    winner: int
    winner_name: str  # "you" or the name
    winner_place: str  # where the winner's taken pile is, as the viewer sees the table
    sentence: str  # what a screen reader hears


def place_of(seat: int, viewer: int) -> str:
    """Where ``seat`` sits for a player at ``viewer``: that player is always at the bottom."""
    return PLACES[(seat - viewer) % 4]


def last_trick_view(game: Game, viewer: int, names: Sequence[str]) -> LastTrickView | None:
    """The trick just gathered as ``viewer`` sees it, or None when there is none to see.

    ``names`` are the four players' names by seat; the viewer is "you" in the sentence:
    "Last trick, won by Ben: Pauline the seven of clubs, Michele the king of clubs, ...".
    It is offered while a hand is being played, once a trick has been taken.
    """
    trick = game.last_trick if game.phase == Phase.PLAYING else None
    if trick is None:
        return None

    def who(seat: int) -> str:
        return "you" if seat == viewer else names[seat]

    cards = tuple(
        SeenCard(
            seat=seat,
            player=who(seat),
            code=code,
            name=Card.parse(code).name,
            place=place_of(seat, viewer),
            won=seat == trick.winner,
        )
        for seat, code in trick.plays
    )
    plays = ", ".join(f"{card.player} the {card.name}" for card in cards)
    sentence = f"Last trick, won by {who(trick.winner)}: {plays}."
    return LastTrickView(
        cards, trick.winner, who(trick.winner), place_of(trick.winner, viewer), sentence
    )


def why_none(game: Game | None) -> str:
    """The sentence to show when there is no last trick to see."""
    if game is not None and game.phase == Phase.PLAYING:
        return NOTHING_YET
    return NOT_PLAYING
