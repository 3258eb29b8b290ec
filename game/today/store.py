"""Today's Deal's shared state: writing a day's result once, and reading the day's figures with
a few grouped queries whatever the number of results (no loop over results in Python)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.core.cache import caches
from django.db import IntegrityError, transaction
from django.db.models import Count, Q

from game.engine import Game, Phase
from game.models import DayPass, DayResult
from game.players import choose_pass
from game.players.review import computers_in_seat
from game.today.day import HANDS, number_of
from game.web.player import HUMAN

BOARD_ROWS = 100  # the board shows the first hundred places; your own place is on your sheet
SHARES_SHOWN = 3  # the cards passed most, per hand
COMPUTERS_KEPT = 3 * 24 * 3600  # seconds the computers' play of a day's deal stays cached


@dataclass(frozen=True)
class Computers:
    """The computer players in your seat on a day's deal, as the review plays them: their
    points hand by hand, and the cards they pass (none on the keep hand)."""

    points: tuple[int, ...]
    passes: tuple[tuple[str, ...], ...]

    @property
    def total(self) -> int:
        return sum(self.points)


def computers(day: dt.date) -> Computers:
    """Worked out once a day (a third of a second) and kept in the shared cache."""
    number = number_of(day)
    key = f"today-computers-{day.isoformat()}-{number}"
    kept = caches["shared"].get(key)
    if isinstance(kept, list) and len(kept) == 2:
        return Computers(tuple(kept[0]), tuple(tuple(p) for p in kept[1]))
    points, passes = [], []
    for hand in range(1, HANDS + 1):
        game = Game.at_hand(number, hand)
        passing = game.phase == Phase.PASSING
        passes.append(tuple(sorted(choose_pass(game.copy(), HUMAN))) if passing else ())
        points.append(computers_in_seat(game, HUMAN)[0])
    caches["shared"].set(key, [points, [list(p) for p in passes]], COMPUTERS_KEPT)
    return Computers(tuple(points), tuple(passes))


# -- writing a result ------------------------------------------------------------------------


def write(
    day: dt.date,
    token: str,
    name: str,
    points: tuple[int, ...],
    passes: list[str],
    hints: int,
    undos: int,
) -> DayResult | None:
    """The day's result of one play, with its passed cards; None when that play's result is
    already written (a replayed cookie), and then nothing is written."""
    try:
        with transaction.atomic():
            result = DayResult.objects.create(
                day=day,
                token=token,
                name=name,
                points=",".join(str(p) for p in points),
                total=sum(points),
                hints=hints,
                undos=undos,
            )
            DayPass.objects.bulk_create(
                DayPass(result=result, day=day, hand=hand, card=codes[i : i + 2])
                for hand, codes in enumerate(passes, start=1)
                for i in range(0, 6, 2)
            )
    except IntegrityError:
        return None
    return result


def result_of(day: dt.date, token: str) -> DayResult | None:
    return DayResult.objects.filter(day=day, token=token).first() if token else None


def passes_of(result: DayResult) -> list[str]:
    """The cards a written result passed, hand by hand (six-letter codes)."""
    cards: dict[int, list[str]] = {}
    for hand, card in result.passes.order_by("hand", "card").values_list("hand", "card"):
        cards.setdefault(hand, []).append(card)
    return ["".join(cards[hand]) for hand in sorted(cards)]


# -- reading the day's figures ---------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    """Where a total stands among a day's results."""

    count: int
    place: int  # 1 + the results with fewer points (ties share a place)
    median: float | None
    totals: tuple[tuple[int, int], ...]  # (total, how many), by total


def standing(day: dt.date, total: int) -> Standing:
    """Three queries: the count and place, the middle result(s), the totals grouped."""
    results = DayResult.objects.filter(day=day)
    counted = results.aggregate(n=Count("id"), better=Count("id", filter=Q(total__lt=total)))
    n = counted["n"]
    totals = results.order_by("total").values_list("total", flat=True)
    middle = list(totals[(n - 1) // 2 : n // 2 + 1]) if n else []
    median = sum(middle) / len(middle) if middle else None
    grouped = results.values("total").annotate(c=Count("id")).order_by("total")
    return Standing(n, counted["better"] + 1, median, tuple((g["total"], g["c"]) for g in grouped))


def pass_shares(day: dt.date) -> dict[int, list[tuple[str, int]]]:
    """For hands 1 to 3, the cards passed most, each with how many results passed it: one
    grouped query over the day's passed cards."""
    grouped = (
        DayPass.objects.filter(day=day)
        .values("hand", "card")
        .annotate(c=Count("id"))
        .order_by("hand", "-c", "card")
    )
    shares: dict[int, list[tuple[str, int]]] = {}
    for row in grouped:  # at most 3 hands x 52 cards, whatever the day's size
        kept = shares.setdefault(row["hand"], [])
        if len(kept) < SHARES_SHOWN:
            kept.append((row["card"], row["c"]))
    return shares


@dataclass(frozen=True)
class Board:
    day: dt.date
    count: int
    rows: tuple[tuple[int, DayResult], ...]  # (place, result), best first


def board(day: dt.date) -> Board:
    """Two queries: the first BOARD_ROWS results by place, and how many there are."""
    results = DayResult.objects.filter(day=day)
    shown = list(results.order_by("total", "created", "id")[:BOARD_ROWS])
    rows, place = [], 0
    for i, result in enumerate(shown):
        if i == 0 or result.total != shown[i - 1].total:
            place = i + 1
        rows.append((place, result))
    return Board(day, results.count(), tuple(rows))


def purge(keep_days: int, today: dt.date) -> int:
    """Remove the results of days more than ``keep_days`` before ``today``."""
    old = DayResult.objects.filter(day__lt=today - dt.timedelta(days=keep_days))
    _, removed = old.delete()  # their passed cards go with them
    return removed.get(DayResult._meta.label, 0)


def points_of(game: Game) -> tuple[int, ...]:
    """Your points hand by hand in a finished daily game."""
    return tuple(row[HUMAN] for row in game.history)
