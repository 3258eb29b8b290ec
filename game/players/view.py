"""What one seat may know, and nothing more.

The decision code is handed a ``View`` and never the ``Game``: that is how the computer players
are honest by construction rather than by promise. Cards are int indexes (suit * 13 + rank,
suits C D S H) so the search can work on bitmasks.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.engine import Game
from game.engine.cards import INDEX_OF
from game.engine.rules import mask_of


@dataclass(frozen=True, slots=True)
class View:
    """One seat's knowledge of the hand in progress, built by ``view_of``."""

    seat: int
    number: int  # keys the generators: the game number, or a secret game's random_key
    hand_number: int
    pass_direction: str
    pass_target: int | None
    moon_off_shooter: bool
    phase: str
    hand: tuple[int, ...]
    passed: tuple[int, ...]
    received: tuple[int, ...]
    tricks: tuple[tuple[int, tuple[int, ...]], ...]
    trick_leader: int | None
    trick: tuple[int, ...]
    totals: tuple[int, int, int, int]

    @property
    def cards_played(self) -> int:
        return 4 * len(self.tricks) + len(self.trick)

    @property
    def hand_mask(self) -> int:
        return mask_of(self.hand)

    def hand_sizes(self) -> list[int]:
        """How many cards each seat still holds: 13 less what it has played."""
        sizes = [13 - len(self.tricks)] * 4
        if self.trick_leader is not None:
            for i in range(len(self.trick)):
                sizes[(self.trick_leader + i) % 4] -= 1
        return sizes


def view_of(game: Game, seat: int) -> View:
    """The view of ``seat``: its own hand and passes, the public table, the scores."""

    def indexes(codes) -> tuple[int, ...]:
        return tuple(INDEX_OF[code] for code in codes)

    tricks = tuple(
        (done.leader, indexes(code for _, code in done.plays)) for done in game.completed_tricks
    )
    return View(
        seat=seat,
        number=game.random_key,
        hand_number=game.hand_number,
        pass_direction=game.pass_direction,
        pass_target=game.pass_target(seat),
        moon_off_shooter=game.moon_off_shooter,
        phase=game.phase,
        hand=indexes(game.hand(seat)),
        passed=indexes(game.passed(seat)),
        received=indexes(game.received(seat)),
        tricks=tricks,
        trick_leader=game.trick_leader,
        trick=indexes(code for _, code in game.trick),
        totals=game.totals,
    )
