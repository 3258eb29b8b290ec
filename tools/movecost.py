"""Where one move's CPU goes at a network table: the move's own request, then each of the three
other pages fetching the table it tells them of (as their event stream makes them do), split
into the select, reading the state, the view model, the template drawing and the rest (Django,
the middleware, the session), with the bytes each answer sends.

    python -m tools.movecost                 # SQLite in a temporary folder
    bash bin/with-postgres .venv/bin/python -m tools.movecost   # PostgreSQL (DATABASE_URL)

In one process, without a server: Django's test client drives the site as four browsers at one
table (production settings: DEBUG off), plays ``--hands`` hands, and measures each card played
in the playing phase (thread CPU time, ``time.thread_time``). What a stream costs to wake is
timed too: the save's announcement (``bus.announce``) and one event frame per page. The figures
are printed, never asserted; run under ``flock /tmp/hearts-measure.lock`` beside others.
"""

from __future__ import annotations

import argparse
import os
import secrets
import tempfile
import time
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path

from tools.stats import median, percentile

PAGES = ("move", "page")  # the mover's own answer; each other page's catch-up


def configure(folder: Path) -> None:
    """Production settings (DEBUG off), SQLite in ``folder`` unless DATABASE_URL names one."""
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{folder / 'movecost.sqlite3'}")
    os.environ.update(
        DJANGO_SETTINGS_MODULE="hearts_site.settings",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="testserver",
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_SECURE_COOKIES="0",
        DJANGO_LOG_LEVEL="ERROR",
    )
    import django
    from django.conf import settings

    # no collectstatic here: the static files' URLs without the manifest (a lookup either way)
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


class Clocks:
    """CPU time per part, summed while one request is being measured."""

    def __init__(self) -> None:
        self.parts: dict[str, float] = defaultdict(float)
        self.depth: dict[str, int] = defaultdict(int)

    def wrap(self, owner, name: str, part: str) -> None:
        original = getattr(owner, name)
        clocks = self

        def timed(*args, **kwargs):
            clocks.depth[part] += 1
            start = time.thread_time()
            try:
                return original(*args, **kwargs)
            finally:
                clocks.depth[part] -= 1
                if not clocks.depth[part]:  # a part calling itself is counted once
                    clocks.parts[part] += time.thread_time() - start

        setattr(owner, name, timed)

    @contextmanager
    def request(self, into: dict[str, list[float]]):
        self.parts.clear()
        start = time.thread_time()
        yield
        total = time.thread_time() - start
        into["total"].append(total * 1000)
        named = 0.0
        for part, seconds in self.parts.items():
            into[part].append(seconds * 1000)
            if part in ("select", "state", "view", "template"):
                named += seconds
        into["rest"].append((total - named) * 1000)


def instrument(clocks: Clocks) -> None:
    from django.template.backends import django as backend

    from game.network import bus, drawing, store, stream
    from game.network import state as tables

    clocks.wrap(store, "fetch", "select")
    clocks.wrap(tables.TableState, "from_json", "state")
    for name in ("seat_view", "lobby_view", "arrival_view"):
        clocks.wrap(drawing, name, "view")
    clocks.wrap(backend.Template, "render", "template")
    clocks.wrap(bus, "announce", "announce")
    clocks.wrap(stream, "frame", "frame")


def play(hands: int) -> tuple[dict[str, dict[str, list[float]]], int]:
    from django.test import Client

    from game.models import Table
    from game.network import stream
    from game.network.codes import TABLE_PATH
    from game.network.state import TableState

    clocks = Clocks()
    instrument(clocks)
    hx = {"HTTP_HX_REQUEST": "true"}
    names = ["Anna", "Bea", "Cleo", "Dora"]
    browsers = [Client() for _ in names]
    answer = browsers[0].post("/network", {"role": "dealer", "name": names[0], "number": "617"})
    code = TABLE_PATH.match(answer["Location"]).group(1)
    for browser, name in zip(browsers[1:], names[1:], strict=True):
        browser.post(f"/t/{code}/name", {"name": name})

    def table():
        return TableState.from_json(Table.objects.get(code=code).state)

    def version() -> int:
        return Table.objects.get(code=code).version

    def seq(state, seat) -> str:
        return str(state.seats[seat].seq)

    browsers[0].post(f"/t/{code}/start", {"seq": seq(table(), 0)}, **hx)
    figures: dict[str, dict[str, list[float]]] = {page: defaultdict(list) for page in PAGES}
    played = 0
    for _ in range(100_000):
        state = table()
        game = state.game
        if game.hand_number > hands:
            break
        todo = None
        for seat in range(4):
            me = state.seats[seat]
            if game.phase == "passing" and not game.has_passed(seat):
                hand = game.hand(seat)
                missing = [c for c in hand[:3] if c not in me.selected]
                todo = (seat, "select", {"card": missing[0]}) if missing else (seat, "pass", {})
            elif me.awaiting_ok:
                todo = (seat, "accept", {})
            elif game.phase == "playing" and game.turn == seat:
                todo = (seat, "play", {"card": game.legal_plays(seat)[0]})
            elif game.phase in ("hand_over", "game_over") and not me.ready:
                todo = (seat, "next", {})
            if todo:
                break
        assert todo, "nobody to act"
        seat, action, form = todo
        since = version()
        form["seq"] = seq(state, seat)
        measured = action == "play"
        if not measured:
            browsers[seat].post(f"/t/{code}/{action}", form, **hx)
            continue
        with clocks.request(figures["move"]):
            answer = browsers[seat].post(f"/t/{code}/{action}", form, **hx)
        figures["move"]["bytes"].append(len(answer.content))
        now = version()
        for other in range(4):
            if other == seat:
                continue
            with clocks.request(figures["page"]):
                stream.frame(now)  # the event its stream sends
                answer = browsers[other].get(f"/t/{code}/poll?v={since}&i=0", **hx)
            assert answer.status_code == 200, answer.status_code
            figures["page"]["bytes"].append(len(answer.content))
        played += 1
    return figures, played


def report(figures: dict[str, dict[str, list[float]]], played: int, database: str) -> None:
    print(f"movecost: {played} cards played at one table of four people, {database}")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("CPU per request, ms (median / p90); bytes of the answer (median)")
    parts = ["select", "state", "view", "template", "announce", "frame", "rest", "total"]
    for page in PAGES:
        rows = figures[page]
        label = "the move's own answer" if page == "move" else "each other page's fetch"
        print(f"  {label}:")
        for part in parts:
            values = rows.get(part)
            if values:
                print(f"    {part:<9} {median(values):7.2f} / {percentile(values, 90):7.2f}")
        print(f"    bytes     {median(rows['bytes']):7.0f}")
    move = figures["move"]["total"]
    pages = figures["page"]["total"]
    per_move = sum(move) / len(move) + 3 * sum(pages) / len(pages)
    print(
        f"one move, all of the table's pages included (mean): {per_move:.2f} ms of CPU "
        f"(the move {sum(move) / len(move):.2f} + 3 pages x {sum(pages) / len(pages):.2f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2, help="hands to play (13 cards x 4 each)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        configure(Path(folder))
        from django.db import connection

        figures, played = play(args.hands)
        report(figures, played, connection.vendor)


if __name__ == "__main__":
    main()
