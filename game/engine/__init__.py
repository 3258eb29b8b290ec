"""The rules engine: plain Python, no Django. See ``Game`` for the public face.

Cards cross that face in one form: the two-character code, "QS". Every method of ``Game`` takes
and returns codes, and so do the saved JSON, the forms' posts, the templates and the tests, so
no layer converts on the way through. ``Card`` is the value behind a code, for what a person
reads (``card_name``, its suit and points); ``Card.parse`` reads a code as typed ("10s"). Inside,
the engine and the players work on card indexes and bitmasks (``rules``), reached from a code
by ``cards.INDEX_OF``.
"""

from .cards import DECK, Card, card_name
from .errors import IllegalMove
from .game import (
    MAX_NUMBER,
    MIN_NUMBER,
    PASS_CYCLE,
    PASS_SIZE,
    PLAYER_NAMES,
    SEATS,
    CompletedTrick,
    Game,
    Phase,
    check_number,
    pass_direction_for,
    seat_after,
)
from .rng import SplitMix64, deal

__all__ = [
    "DECK",
    "MAX_NUMBER",
    "MIN_NUMBER",
    "PASS_CYCLE",
    "PASS_SIZE",
    "PLAYER_NAMES",
    "SEATS",
    "Card",
    "CompletedTrick",
    "Game",
    "IllegalMove",
    "Phase",
    "SplitMix64",
    "card_name",
    "check_number",
    "deal",
    "pass_direction_for",
    "seat_after",
]
