"""Bit helpers for the compiled form of ``tools.today.sim``: numba has no ``int.bit_length``
or ``int.bit_count``, so these use the CPU's zero counts and a SWAR population count. Masks
are at most 52 bits, so they fit numba's int64 with room to spare."""

from __future__ import annotations

import numba
import numpy as np
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros


@numba.njit(cache=True, inline="always")
def high(mask):
    """The highest card of a non-empty mask."""
    return 63 - leading_zeros(mask)


@numba.njit(cache=True, inline="always")
def low(mask):
    """The lowest card of a non-empty mask."""
    return trailing_zeros(mask)


@numba.njit(cache=True, inline="always")
def count(mask):
    """How many cards a mask holds."""
    x = mask - ((mask >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return x & 0x7F


@numba.njit(cache=True, inline="always")
def scaled(value, bound):
    """``(value * bound) >> 64`` for a 64-bit ``value`` and a small ``bound`` (a deck's size),
    without a 128-bit product: the high and low halves are scaled apart."""
    b = np.uint64(bound)
    half = np.uint64(32)
    top = (value >> half) * b + (((value & np.uint64(0xFFFFFFFF)) * b) >> half)
    return np.int64(top >> half)
