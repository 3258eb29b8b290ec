"""The rules of play on bitmasks: which cards may be played, who takes a trick, what a hand
scores. ``Game`` asks these functions, and so does the players' simulator, so there is one
statement of the rules for the page, the refusals and the search alike.

A set of cards is an int whose bit ``i`` is card ``i`` (``suit * 13 + rank``, suits C D S H, as
``Card.index``); a trick is a sequence of card indexes in play order.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

# What a card scores is a fact of the card (cards.py); the rules name these two again.
from .cards import FIRST_HEART as FIRST_HEART
from .cards import QUEEN_OF_SPADES_INDEX, SUITS, TWO_OF_CLUBS, card_points
from .cards import QUEEN_POINTS as QUEEN_POINTS

CLUBS, DIAMONDS, SPADES, HEARTS = (SUITS.index(s) for s in "CDSH")
RANKS_PER_SUIT = 13
ALL_CARDS = (1 << 52) - 1
SUIT = tuple(((1 << RANKS_PER_SUIT) - 1) << (RANKS_PER_SUIT * s) for s in range(4))
HEART_MASK = SUIT[HEARTS]
NOT_HEARTS = ALL_CARDS ^ HEART_MASK
QS = QUEEN_OF_SPADES_INDEX
QS_BIT = 1 << QS
POINT_MASK = HEART_MASK | QS_BIT
TWO_OF_CLUBS_BIT = 1 << TWO_OF_CLUBS.index
MOON = 26  # all the points of a hand: 13 hearts and the queen


def suit_of(card: int) -> int:
    return card // RANKS_PER_SUIT


def lead_mask(hand: int, first: bool, broken: bool) -> int:
    """The cards of ``hand`` that may lead a trick: the two of clubs to the first one, then
    no heart before hearts are broken unless the hand holds nothing else."""
    if first:
        return TWO_OF_CLUBS_BIT if hand & TWO_OF_CLUBS_BIT else hand
    if broken:
        return hand
    return (hand & NOT_HEARTS) or hand


def discard_mask(hand: int, first: bool) -> int:
    """The cards a seat void in the led suit may play: no point card on the first trick unless
    the hand holds nothing else."""
    if first:
        return (hand & ~POINT_MASK) or hand
    return hand


def legal_mask(hand: int, trick: Sequence[int], first: bool, broken: bool) -> int:
    """The playable cards of ``hand`` with ``trick`` on the table; ``first`` is the hand's first
    trick and ``broken`` says a heart went into an earlier trick."""
    if not trick:
        return lead_mask(hand, first, broken)
    follow = hand & SUIT[suit_of(trick[0])]
    return follow or discard_mask(hand, first)


def refused_by(hand: int, trick: Sequence[int], first: bool) -> str:
    """Which of the masks above keeps a card of ``hand`` that ``legal_mask`` leaves out: "lead"
    (the first trick's two of clubs), "hearts" (not broken), "follow" (the led suit is held) or
    "discard" (no point card on the first trick)."""
    if not trick:
        return "lead" if first else "hearts"
    return "follow" if hand & SUIT[suit_of(trick[0])] else "discard"


def winning_position(trick: Sequence[int]) -> int:
    """The position in play order of the card taking the trick (so far): the highest of the led
    suit."""
    led = suit_of(trick[0])
    best = 0
    for i in range(1, len(trick)):
        if suit_of(trick[i]) == led and trick[i] > trick[best]:
            best = i
    return best


def trick_points(trick: Sequence[int]) -> int:
    return sum(card_points(card) for card in trick)


def hand_score(points: Sequence[int], moon_off_shooter: bool) -> tuple[int, int, int, int]:
    """A finished hand's score from the points each seat took: a seat that took all 26 shot the
    moon, and either everyone else takes 26 or (``moon_off_shooter``) the shooter loses 26."""
    if MOON in points:
        shooter = list(points).index(MOON)
        if moon_off_shooter:
            return tuple(-MOON if seat == shooter else 0 for seat in range(4))  # type: ignore[return-value]
        return tuple(0 if seat == shooter else MOON for seat in range(4))  # type: ignore[return-value]
    return tuple(points)  # type: ignore[return-value]


def moon_scores(moon_off_shooter: bool) -> tuple[int, int, int, int]:
    """A moon's row of the score sheet, the shooter in seat 0."""
    return hand_score((MOON, 0, 0, 0), moon_off_shooter)


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> Iterator[int]:
    """The card indexes in ``mask``, lowest first."""
    while mask:
        b = mask & -mask
        yield b.bit_length() - 1
        mask ^= b
