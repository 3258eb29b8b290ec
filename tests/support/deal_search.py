"""The attacker's search for a numbered deal: deal hand 1 of every game number at once (numpy,
SplitMix64 and Fisher-Yates in vector form, step for step as ``game.engine.rng.deal``) and find
the numbers where one seat holds the 13 cards seen. ``deal`` itself is checked against the
engine's in tests/network/test_secrecy.py, so a search that finds nothing is a real miss."""

from __future__ import annotations

import numpy as np

from game.engine.rng import DEAL_STREAM, GOLDEN_GAMMA, MASK64, _mix

START = 0x5EED_4EA7_5C0D_E000  # SplitMix64.for_key's starting state
M1, M2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
GAMMA = np.uint64(GOLDEN_GAMMA)
CHUNK = 250_000


def mix(z: np.ndarray) -> np.ndarray:
    z = (z ^ (z >> np.uint64(30))) * M1
    z = (z ^ (z >> np.uint64(27))) * M2
    return z ^ (z >> np.uint64(31))


def decks(numbers: np.ndarray, hand_number: int = 1) -> np.ndarray:
    """The shuffled deck (card indexes, an int8 row per number) of hand ``hand_number`` of each
    game number, as ``deal`` shuffles it; rows whose draw the generator would have rejected
    (odds under 2**-58 each) are dealt by the engine itself."""
    first = _mix(((START ^ DEAL_STREAM) + GOLDEN_GAMMA) & MASK64)
    with np.errstate(over="ignore"):
        state = mix((np.uint64(first) ^ numbers.astype(np.uint64)) + GAMMA)
        state = mix((state ^ np.uint64(hand_number)) + GAMMA)
        count = len(numbers)
        deck = np.tile(np.arange(52, dtype=np.int8), (count, 1))
        rows = np.arange(count)
        rejected = np.zeros(count, dtype=bool)
        for i in range(51, 0, -1):
            bound = i + 1
            state = state + GAMMA
            value = mix(state)
            limit = (1 << 64) - ((1 << 64) % bound)
            if limit <= MASK64:  # a power of two rejects nothing
                rejected |= value >= np.uint64(limit)
            j = (value % np.uint64(bound)).astype(np.int64)
            top = deck[:, i].copy()
            deck[:, i] = deck[rows, j]
            deck[rows, j] = top
    if rejected.any():  # never seen: redo those with the engine's own generator
        from game.engine.rng import SplitMix64

        for row in np.flatnonzero(rejected):
            cards = list(range(52))
            SplitMix64.for_key(DEAL_STREAM, int(numbers[row]), hand_number).shuffle(cards)
            deck[row] = cards
    return deck


def seat_masks(deck: np.ndarray) -> np.ndarray:
    """For each deck, the four seats' hands as 52-bit masks (a column per seat)."""
    bits = np.left_shift(np.uint64(1), deck.astype(np.uint64))
    return np.stack(
        [np.bitwise_or.reduce(bits[:, 13 * s : 13 * s + 13], axis=1) for s in range(4)], axis=1
    )


def mask_of(cards: list[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def search(hand: list[int], first: int = 1, last: int = 1_000_000) -> list[tuple[int, int]]:
    """Every (game number, seat) from ``first`` to ``last`` whose hand 1 deals ``hand``."""
    wanted = np.uint64(mask_of(hand))
    found: list[tuple[int, int]] = []
    for low in range(first, last + 1, CHUNK):
        numbers = np.arange(low, min(low + CHUNK, last + 1), dtype=np.int64)
        masks = seat_masks(decks(numbers))
        for row, seat in zip(*np.nonzero(masks == wanted), strict=True):
            found.append((int(numbers[row]), int(seat)))
    return found
