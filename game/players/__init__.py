"""A plain legal player; the real Pauline, Michele and Ben replace it (issue 3)."""

from game.engine import Game


def choose_pass(game: Game, seat: int) -> list[str]:
    """The three highest cards, hearts and spades first."""
    order = "SHDC"
    hand = sorted(game.hand(seat), key=lambda c: (-"23456789TJQKA".index(c[0]), order.index(c[1])))
    return hand[:3]


def choose_play(game: Game, seat: int) -> str:
    return game.legal_plays(seat)[0]
