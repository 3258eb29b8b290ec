"""The rules engine: plain Python, no Django. See ``Game`` for the public face."""

from .cards import DECK, Card, card_name
from .errors import IllegalMove
from .game import (
    MAX_NUMBER,
    MIN_NUMBER,
    PASS_CYCLE,
    PLAYER_NAMES,
    SEATS,
    CompletedTrick,
    Game,
    check_number,
    pass_direction_for,
)
from .rng import SplitMix64, deal

__all__ = [
    "DECK",
    "MAX_NUMBER",
    "MIN_NUMBER",
    "PASS_CYCLE",
    "PLAYER_NAMES",
    "SEATS",
    "Card",
    "CompletedTrick",
    "Game",
    "IllegalMove",
    "SplitMix64",
    "card_name",
    "check_number",
    "deal",
    "pass_direction_for",
]
