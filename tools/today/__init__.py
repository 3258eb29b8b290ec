"""Today's players, frozen: Pauline, Michele and Ben as they stood on 2 December 2026 (commit
d4ff45d), before issue 32's strength work. A yardstick, not a player: the bench measures the
players of ``game.players`` against this copy, so this copy must never change (its moves are
pinned by tests/tools/test_today_frozen.py). A change here moves the bench's figures, and then no
figure before it compares with any after it.

It is a copy of ``game.players``'s simulator (``sim``, ``bits``, ``hot``), deal sampler
(``deals``), decisions (``brain``) and compiled core (``jit``), with its imports pointed here;
it sees only the ``View`` of ``game.players.view``, as the players do. Compiled by numba when it
loads (numba's on-disk cache keeps it), else the Python form, with the same cards.
"""

from __future__ import annotations

from game.engine import DECK, Game
from game.players.view import view_of

from . import jit
from .brain import decide_pass, decide_play

__all__ = ["choose_pass", "choose_play"]


def choose_pass(game: Game, seat: int) -> list[str]:
    """Three cards from ``seat``'s hand to pass, as today's players passed them."""
    return [DECK[c].code for c in decide_pass(view_of(game, seat))]


def choose_play(game: Game, seat: int) -> str:
    """The card ``seat`` plays now, as today's players played it."""
    return DECK[decide_play(view_of(game, seat), jit.core())].code
