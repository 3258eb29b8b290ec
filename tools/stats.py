"""The figures the measuring tools print, computed one way for all of them."""

from __future__ import annotations


def percentile(values: list[float], p: float) -> float:
    """The nearest-rank ``p``-th percentile (``p`` from 0 to 100); 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(p / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def median(values: list[float]) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2
