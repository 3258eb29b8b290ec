"""Pauline, Michele and Ben: the computer players, and the brain behind the hint key.

``choose_pass`` and ``choose_play`` take the ``Game`` only to cut out the seat's ``View``; the
decision code sees that view alone, so it cannot peek at another seat's cards.
"""

from __future__ import annotations

from game.engine import DECK, Game, Phase

from . import jit
from .brain import decide_pass, decide_play
from .view import View, view_of
from .weigh import CardFigures, PassFigures, PassReason, PlayFigures, weigh_pass, weigh_play

__all__ = [
    "CardFigures",
    "PassFigures",
    "PassReason",
    "PlayFigures",
    "View",
    "choose_even_play",
    "choose_pass",
    "choose_play",
    "view_of",
    "weigh_pass",
    "weigh_play",
]


def choose_pass(game: Game, seat: int) -> list[str]:
    """Three cards from ``seat``'s hand to pass, during the passing phase."""
    if game.phase != Phase.PASSING:
        raise ValueError("cards are not being passed now")
    return [DECK[c].code for c in decide_pass(view_of(game, seat), jit.core())]


def choose_play(game: Game, seat: int) -> str:
    """The card ``seat`` plays now; one of ``game.legal_plays(seat)``."""
    if game.turn != seat:
        raise ValueError("it is not that seat's turn")
    return DECK[decide_play(view_of(game, seat), jit.core())].code


def choose_even_play(game: Game, seat: int) -> str:
    """``choose_play``'s card, decided with the same work whether or not it was forced: for a
    table where the others see how long the computer took (see ``decide_play``)."""
    if game.turn != seat:
        raise ValueError("it is not that seat's turn")
    return DECK[decide_play(view_of(game, seat), jit.core(), even=True)].code
