"""What the day's sheet and board say: plain Python over ``store``'s figures (the words, the
histogram drawn as SVG, the share line), so the templates hold only loops and conditions."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from game.engine import Card
from game.engine.game import pass_direction_for
from game.today import day as days
from game.today import store
from game.web.hand_review import cards_text
from game.web.words import counted

BIN = 8  # points a histogram bar spans: 0-7, 8-15, ... 96-104 (four hands: at most 104)
TOP = 104
BAR_W, BAR_GAP, HEIGHT = 18, 4, 60
DIRECTIONS = {"left": "Pass left", "right": "Pass right", "across": "Pass across", "keep": "Keep"}


def ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def points(n: int) -> str:
    return counted(n, "point", zero="0 points")


@dataclass(frozen=True)
class Bar:
    low: int
    high: int
    count: int
    yours: bool

    @property
    def label(self) -> str:
        return f"{self.low} to {self.high}"


def bars(totals: tuple[tuple[int, int], ...], yours: int) -> list[Bar]:
    """The day's totals in bins of BIN points (at most 105 distinct totals: no loop over
    results)."""
    counts = [0] * (TOP // BIN)
    for total, count in totals:
        counts[min(max(total, 0) // BIN, len(counts) - 1)] += count
    found = []
    for i, count in enumerate(counts):
        low, high = i * BIN, TOP if i == len(counts) - 1 else i * BIN + BIN - 1
        found.append(Bar(low, high, count, low <= yours <= high))
    return found


def histogram_svg(found: list[Bar]) -> SafeString:
    """The bars drawn on the server; the page gives the numbers as text beside it."""
    tallest = max((b.count for b in found), default=0) or 1
    width = len(found) * (BAR_W + BAR_GAP)
    rects = []
    for i, bar in enumerate(found):
        h = round(HEIGHT * bar.count / tallest) if bar.count else 0
        x, y = i * (BAR_W + BAR_GAP), HEIGHT - h
        rects.append((x, y, BAR_W, max(h, 1), "bar yours" if bar.yours else "bar"))
    shapes = format_html_join(
        "", '<rect x="{}" y="{}" width="{}" height="{}" class="{}"></rect>', rects
    )
    ticks = format_html_join(
        "",
        '<text x="{}" y="{}" class="tick">{}</text>',
        ((i * (BAR_W + BAR_GAP), HEIGHT + 12, b.low) for i, b in enumerate(found) if i % 3 == 0),
    )
    return format_html(
        '<svg class="histogram" viewBox="0 -2 {} {}" width="{}" height="{}" aria-hidden="true" '
        'focusable="false">{}{}</svg>',
        width,
        HEIGHT + 16,
        width,
        HEIGHT + 16,
        shapes,
        ticks,
    )


@dataclass(frozen=True)
class HandRow:
    number: int
    direction: str
    yours: int
    computers: int
    passed: str  # "the queen of spades, ..." or ""
    computers_passed: str
    shares: tuple[str, ...]  # "58% passed the queen of spades; you kept it"


def share_words(card: str, count: int, people: int, yours: str) -> str:
    """ "58% passed the queen of spades; you kept it" """
    percent = round(100 * count / people) if people else 0
    did = "you passed it too" if card in _codes(yours) else "you kept it"
    return f"{percent}% passed the {Card.parse(card).name}; {did}"


def _codes(six: str) -> list[str]:
    return [six[i : i + 2] for i in range(0, len(six), 2)]


def hand_rows(
    yours: tuple[int, ...], passes: list[str], computers: store.Computers, shares, people: int
) -> list[HandRow]:
    rows = []
    for i, mine in enumerate(yours):
        number = i + 1
        passed = passes[i] if i < len(passes) else ""
        said = tuple(share_words(c, n, people, passed) for c, n in shares.get(number, []))
        rows.append(
            HandRow(
                number,
                DIRECTIONS[pass_direction_for(number)],
                mine,
                computers.points[i],
                cards_text(_codes(passed)),
                cards_text(computers.passes[i]),
                said,
            )
        )
    return rows


@dataclass(frozen=True)
class DaySheet:
    day: dt.date
    title: str
    rows: list[HandRow]
    total: int
    computers_total: int
    standing: store.Standing | None  # None: the result is not on the board (and none is)
    bars: list[Bar]
    svg: SafeString
    board_total: int | None  # the total on the board, when this play is practice
    practice: bool
    helped: str  # "with 2 hints and 1 Undo Card", or ""
    share: str
    streak: int

    @property
    def place(self) -> str:
        return ordinal(self.standing.place) if self.standing else ""


def helped_words(hints: int, undos: int) -> str:
    parts = []
    if hints:
        parts.append(counted(hints, "hint"))
    if undos:
        parts.append(counted(undos, "Undo Card", "Undo Cards"))
    return "with " + " and ".join(parts) if parts else ""


def share_line(day: dt.date, total: int, computers_total: int, place: int, people: int) -> str:
    return (
        f"Hearts, Today's Deal, {days.readable(day)}: {points(total)}, "
        f"Pauline in my seat {computers_total}, {ordinal(place)} of {people}"
    )


def day_sheet(
    day: dt.date,
    yours: tuple[int, ...],
    passes: list[str],
    hints: int,
    undos: int,
    on_board: store.DayResult | None,
    practice: bool,
    streak: int,
) -> DaySheet:
    """The day's sheet of one play: ``on_board``, this browser's result on the day's board
    (this play's, or the first one when this is practice)."""
    computers = store.computers(day)
    measured = sum(yours) if on_board is None else on_board.total
    standing = store.standing(day, measured) if on_board is not None else None
    people = standing.count if standing else 0
    found = bars(standing.totals, measured) if standing else []
    shares = store.pass_shares(day) if standing else {}
    share = ""
    if on_board is not None and standing is not None:
        share = share_line(day, on_board.total, computers.total, standing.place, people)
    return DaySheet(
        day=day,
        title=f"Today's Deal, {days.readable(day)}",
        rows=hand_rows(yours, passes, computers, shares, people),
        total=sum(yours),
        computers_total=computers.total,
        standing=standing,
        bars=found,
        svg=histogram_svg(found) if found else SafeString(""),
        board_total=on_board.total if on_board is not None and practice else None,
        practice=practice,
        helped=helped_words(hints, undos),
        share=share,
        streak=streak,
    )
