"""Today's Deal's board and sheet with a day of many results: how long they take to answer and
how many queries they make (a few, whatever the day's size).

    python -m tools.bench_today                      # SQLite in a temporary folder
    bash bin/with-postgres .venv/bin/python -m tools.bench_today   # PostgreSQL (DATABASE_URL)

Fills ``--results`` results (each with its nine passed cards) for one day, then times, in one
process through Django's test client with production settings: the board's page (GET
/today/board), and the sheet's figures alone (place and median, the totals grouped, the pass
shares). Wall time, median and p95 of ``--runs`` runs; printed, never asserted.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import tempfile
import time
from pathlib import Path

from tools.movecost import configure
from tools.stats import median, percentile

DECK = [r + s for s in "CDSH" for r in "23456789TJQKA"]


def fill(day: dt.date, count: int, rng: random.Random) -> None:
    from game.models import DayPass, DayResult

    DayResult.objects.filter(day=day).delete()
    results = [
        DayResult(
            day=day,
            token=f"{i:016d}",
            name=f"Player {i}",
            points=",".join(str(p) for p in points),
            total=sum(points),
            hints=rng.random() < 0.2,
            undos=rng.random() < 0.1,
        )
        for i, points in enumerate(
            [rng.choice((0, 1, 2, 3, 4, 5, 13, 14, 26)) for _ in range(4)] for _ in range(count)
        )
    ]
    made = DayResult.objects.bulk_create(results, batch_size=2000)
    if made[0].pk is None:  # a database that does not return the keys
        made = list(DayResult.objects.filter(day=day).order_by("id"))
    passes = [
        DayPass(result=result, day=day, hand=hand, card=card)
        for result in made
        for hand in (1, 2, 3)
        for card in rng.sample(DECK[30:], 3)
    ]
    DayPass.objects.bulk_create(passes, batch_size=5000)


def timed(fn, runs: int) -> list[float]:
    spent = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        spent.append((time.perf_counter() - start) * 1000)
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        configure(Path(folder))
        from django.db import connection
        from django.test import Client
        from django.test.utils import CaptureQueriesContext

        from game.today import day as days
        from game.today import store

        day = dt.date(2000, 1, 1)
        days.clock = lambda: day
        fill(day, args.results, random.Random(51))
        client = Client()

        def page() -> None:
            response = client.get("/today/board")
            assert response.status_code == 200 and "Player" in response.content.decode()

        def figures() -> None:
            store.standing(day, 30)
            store.pass_shares(day)

        page()  # the first request fills what a first request fills
        with CaptureQueriesContext(connection) as captured:
            page()
        board_queries = len(captured)  # counted now: each request empties the log
        with CaptureQueriesContext(connection) as captured:
            figures()
        sheet_queries = len(captured)
        print(f"database: {connection.vendor}, {args.results:,} results of one day")
        for name, fn, queries in (
            ("the board's page (GET /today/board)", page, board_queries),
            ("the sheet's figures (place, median, totals, pass shares)", figures, sheet_queries),
        ):
            spent = timed(fn, args.runs)
            print(
                f"{name}: median {median(spent):.1f} ms, p95 {percentile(spent, 95):.1f} ms "
                f"over {args.runs} runs; {queries} queries"
            )
        from game.models import DayResult

        DayResult.objects.filter(day=day).delete()


if __name__ == "__main__":
    main()
