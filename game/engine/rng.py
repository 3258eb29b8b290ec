"""The project's own random numbers: SplitMix64 in integer arithmetic.

Python's ``random`` may change between versions; this cannot, so a game number gives the same
deals and the same computer decisions on every machine. Tests pin its output.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
T = TypeVar("T")


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


class SplitMix64:
    """A small, fast, well-tested 64-bit generator (Steele, Lea and Flood, 2014)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    @classmethod
    def for_key(cls, *parts: int) -> SplitMix64:
        """A generator for a position named by integers, e.g. (game number, hand, seat)."""
        state = 0x5EED_4EA7_5C0D_E000
        for part in parts:
            state = _mix(((state ^ (part & MASK64)) + GOLDEN_GAMMA) & MASK64)
        return cls(state)

    def next64(self) -> int:
        self.state = (self.state + GOLDEN_GAMMA) & MASK64
        return _mix(self.state)

    def below(self, bound: int) -> int:
        """A uniform integer in [0, bound), without modulo bias."""
        if bound <= 0:
            raise ValueError("bound must be positive")
        limit = (1 << 64) - ((1 << 64) % bound)
        while True:
            value = self.next64()
            if value < limit:
                return value % bound

    def random(self) -> float:
        """A float in [0, 1) from the top 53 bits."""
        return (self.next64() >> 11) / (1 << 53)

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def quick_shuffle(self, items: list[T]) -> None:
        """Fisher-Yates with a multiply-shift draw in place of ``below``'s modulo and retry. The
        players' search shuffles thousands of times per decision and does not care for a bias
        under 2**-58 at a deck's sizes. It gives another sequence than ``shuffle``: numbered deals
        keep ``shuffle`` and the search keeps this, as each was pinned by its tests."""
        for i in range(len(items) - 1, 0, -1):
            j = (self.next64() * (i + 1)) >> 64
            items[i], items[j] = items[j], items[i]

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]


DEAL_STREAM = 0xDEA1


def deal(number: int, hand_number: int) -> list[list[int]]:
    """The four hands (card indexes) of hand ``hand_number`` of game ``number``, seat 0 first."""
    deck = list(range(52))
    SplitMix64.for_key(DEAL_STREAM, number, hand_number).shuffle(deck)
    return [sorted(deck[13 * seat : 13 * seat + 13]) for seat in range(4)]


SEED_BYTES = 16  # a network game's secret seed: 128 bits from the operating system


class KeyedStream(SplitMix64):
    """Draws from BLAKE2b keyed with a secret seed, counter by counter: unlike SplitMix64's
    64-bit state, nothing short of the whole seed predicts it. Used for the deals of a game
    whose seed is secret; the shuffles are the same Fisher-Yates as a numbered deal's."""

    __slots__ = ("key",)

    def __init__(self, key: bytes, *parts: int) -> None:
        super().__init__(0)
        tail = b"".join(part.to_bytes(8, "little") for part in parts)
        self.key = hashlib.blake2b(tail, key=key, digest_size=32).digest()

    def next64(self) -> int:
        self.state += 1
        block = hashlib.blake2b(self.state.to_bytes(8, "little"), key=self.key, digest_size=8)
        return int.from_bytes(block.digest(), "little")


def secret_deal(seed: bytes, hand_number: int) -> list[list[int]]:
    """The four hands of hand ``hand_number`` of the game dealt from the secret ``seed``."""
    deck = list(range(52))
    KeyedStream(seed, DEAL_STREAM, hand_number).shuffle(deck)
    return [sorted(deck[13 * seat : 13 * seat + 13]) for seat in range(4)]


def secret_key(seed: bytes) -> int:
    """The 64-bit key that stands for the game number in the computer players' generators at
    a game dealt from a secret seed: one-way, so their plays tell nothing of the deals."""
    digest = hashlib.blake2b(b"players", key=seed, digest_size=8).digest()
    return int.from_bytes(digest, "little")
