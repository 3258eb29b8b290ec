"""Cards as small immutable values with a two-character text form: "QS", "TH", "2C"."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import IllegalMove

RANKS = "23456789TJQKA"
SUITS = "CDSH"  # the order the original sorts a hand in: clubs, diamonds, spades, hearts
RANK_NAMES = (
    "two", "three", "four", "five", "six", "seven", "eight",
    "nine", "ten", "jack", "queen", "king", "ace",
)  # fmt: skip
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "S": "spades", "H": "hearts"}
SUIT_SINGULAR = {"C": "club", "D": "diamond", "S": "spade", "H": "heart"}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One of the 52 cards; ``index`` orders a hand the way the original sorts it."""

    index: int

    @property
    def rank(self) -> int:
        """0 for a two up to 12 for an ace."""
        return self.index % 13

    @property
    def suit(self) -> str:
        return SUITS[self.index // 13]

    @property
    def code(self) -> str:
        return CODES[self.index]

    @property
    def name(self) -> str:
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    @property
    def points(self) -> int:
        return card_points(self.index)

    @classmethod
    def parse(cls, code: str) -> Card:
        """Read "QS" (any case; "10S" means "TS"); raise IllegalMove if it is not a card."""
        index = INDEX_OF.get(code) if isinstance(code, str) else None
        if index is not None:  # a canonical code, as saved games and forms hold: the common case
            return DECK[index]
        if not isinstance(code, str):
            raise IllegalMove("That is not a card.")
        text = code.strip().upper()
        if text.startswith("10"):
            text = "T" + text[2:]
        if len(text) != 2 or text[0] not in RANKS or text[1] not in SUITS:
            raise IllegalMove(f"{code[:12]!r} is not a card.")
        return DECK[SUITS.index(text[1]) * 13 + RANKS.index(text[0])]

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"


QUEEN_OF_SPADES_INDEX = SUITS.index("S") * 13 + RANKS.index("Q")
FIRST_HEART = SUITS.index("H") * 13  # every card index from here up is a heart
QUEEN_POINTS = 13


def card_points(index: int) -> int:
    """What the card of this index scores: 1 for a heart, 13 for the queen of spades, else 0.
    The rules (``rules.trick_points``) and ``Card.points`` both ask this."""
    if index >= FIRST_HEART:
        return 1
    return QUEEN_POINTS if index == QUEEN_OF_SPADES_INDEX else 0


# each card's two characters by its index, worked out once: a saved game spells every card it
# holds, and a network move saves, checks and reads its table's several times
CODES: tuple[str, ...] = tuple(RANKS[i % 13] + SUITS[i // 13] for i in range(52))
DECK: tuple[Card, ...] = tuple(Card(i) for i in range(52))
INDEX_OF: dict[str, int] = {card.code: card.index for card in DECK}  # canonical codes only
TWO_OF_CLUBS = DECK[0]
QUEEN_OF_SPADES = DECK[QUEEN_OF_SPADES_INDEX]


def card_name(code: str) -> str:
    """The English name a person reads or hears: "QS" -> "queen of spades"."""
    return Card.parse(code).name
