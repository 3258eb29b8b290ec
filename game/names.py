"""The name rule: what is kept of a name as typed, for the solo game's Options and a network
table's seats alike. Plain Python (no Django), so the network's table state can use it."""

from __future__ import annotations

import regex

NAME_MAX = 20  # user-perceived characters (grapheme clusters)

# Invisible characters a name keeps: the joiners that build emoji sequences and Indic or Persian
# letters, and the tags of subdivision flags. Every other format character (bidi overrides and
# isolates, zero-width spaces) goes: names are isolated where they are shown instead.
KEPT_FORMAT = {"\u200c", "\u200d"} | {chr(c) for c in range(0xE0020, 0xE0080)}
NAME_POINTS_MAX = 80  # code points: 20 clusters of emoji sequences still fit the cookie
CLUSTER = regex.compile(r"\X")


TOO_LONG = f"A name may have at most {NAME_MAX} characters. Please type a shorter one."


def squeezed(text: str) -> str:
    """A name as typed, without control characters and with its spaces squeezed."""
    printable = "".join(ch for ch in text if ch.isprintable() or ch in KEPT_FORMAT)
    return " ".join(printable.split())


def too_long(text: str) -> bool:
    """Whether ``clean_name`` would cut the name as typed: a person is told rather than have
    their name cut without a word."""
    return clean_name(text) != squeezed(text).strip()


def clean_name(text: str) -> str:
    """A name as typed, without control characters, squeezed and cut to NAME_MAX user-perceived
    characters (grapheme clusters, kept whole: an emoji sequence or a letter with its marks)."""
    kept: list[str] = []
    points = 0
    for cluster in CLUSTER.findall(squeezed(text))[:NAME_MAX]:
        points += len(cluster)
        if points > NAME_POINTS_MAX:
            break
        kept.append(cluster)
    return "".join(kept).strip()
