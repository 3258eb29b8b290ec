"""Where one move's CPU goes at a network table: the move's own request, then each of the three
other pages fetching the table it tells them of (as their event stream makes them do), split
into the select, reading the state, the view model, the template drawing and the rest (Django,
the middleware, the session), with the bytes each answer sends.

    python -m tools.movecost                 # SQLite in a temporary folder
    python -m tools.movecost --fetch-all     # and every page fetching, the old way, beside it
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
from urllib.parse import urlencode

from tools.stats import median, percentile

# the mover's own answer; each other page's fetch (when the step has no public part for it);
# the step's public part, drawn once for the pages that only watched it (and the lit hand of
# the seat to play); with --fetch-all, what those pages' fetches would have cost instead
PAGES = ("move", "page", "drawn", "fetched")


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
    try:  # what an instance does once before its workers fork, where the code does it
        from hearts_site.warm import warm
    except ImportError:  # the code before issue 53's warm-up
        return
    warm()


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

    from game.network import bus, store, stream
    from game.network import state as tables

    try:
        from game.network import drawing
    except ImportError:  # the code before the drawing had a module of its own (issue 46)
        from game.network import views as drawing

    clocks.wrap(store, "fetch", "select")
    clocks.wrap(store, "read", "select")
    clocks.wrap(tables.TableState, "from_json", "state")
    for name in ("seat_view", "lobby_view", "arrival_view"):
        clocks.wrap(drawing, name, "view")
    clocks.wrap(backend.Template, "render", "template")
    clocks.wrap(bus, "announce", "announce")
    clocks.wrap(stream, "frame", "frame")
    try:
        from game.network import public
    except ImportError:  # the code before the public part (issue 53)
        return
    clocks.wrap(public, "public_view", "view")
    clocks.wrap(stream, "drawn_frame", "frame")


def play(
    hands: int, fetch_all: bool = False
) -> tuple[dict[str, dict[str, list[float]]], dict[str, float], int]:
    """Four browsers play ``hands`` hands; every action is followed by what its streams make
    the other pages cost (none when the change concerns the actor's seat only): the step's
    public part drawn once for the pages that only watched it, a fetch for each of the others;
    with ``fetch_all``, also the fetches the watching pages would have made instead. The
    figures per card played, and the CPU of the whole run by kind of action."""
    from django.test import Client

    from game.models import Table
    from game.network import bus, public, stream
    from game.network.codes import TABLE_PATH
    from game.network.state import TableState

    clocks = Clocks()
    instrument(clocks)
    told: list[int | None] = []
    announce = bus.announce

    def heard(code, version, only=None, **given):
        told.append(only)
        return announce(code, version, only, **given)

    bus.announce = heard
    hx = {"HTTP_HX_REQUEST": "true"}
    names = ["Anna", "Bea", "Cleo", "Dora"]
    browsers = [Client() for _ in names]
    answer = browsers[0].post("/network", {"role": "dealer", "name": names[0], "number": "617"})
    code = TABLE_PATH.match(answer["Location"]).group(1)
    for browser, name in zip(browsers[1:], names[1:], strict=True):
        browser.post(f"/t/{code}/name", {"name": name})

    def row():
        found = Table.objects.get(code=code)
        return found.version, TableState.from_json(found.state)

    browsers[0].post(f"/t/{code}/start", {"seq": str(row()[1].seats[0].seq)}, **hx)
    figures: dict[str, dict[str, list[float]]] = {page: defaultdict(list) for page in PAGES}
    spent: dict[str, float] = defaultdict(float)  # action -> ms of CPU, its fetches included
    played = 0
    for _ in range(100_000):
        since, state = row()
        if state.game.hand_number > hands:
            break
        seat, action, form = next_action(state)
        form["seq"] = str(state.seats[seat].seq)
        kept = figures if action == "play" else {page: defaultdict(list) for page in PAGES}
        told.clear()
        with clocks.request(kept["move"]):
            answer = browsers[seat].post(f"/t/{code}/{action}", urlencode(form), FORM, **hx)
        kept["move"]["bytes"].append(len(answer.content))
        now = row()[0]
        others = [] if not told or told[-1] is not None else [s for s in range(4) if s != seat]
        watching: dict[int, str] = {}  # seat -> the event its stream sends (the public part)
        if others:
            with clocks.request(kept["drawn"]):
                step = public.read_step(code, since, now)  # as a stream's process does, once
                if step is not None:
                    for other in step.watchers.values():
                        watching[other] = stream.drawn_frame(step, other)
                    if step.turn is not None:  # the seat to play: its lit hand beside it
                        watching[step.turn[1]] = stream.drawn_frame(step, *step.turn[1:])
            if step is not None:
                kept["drawn"]["bytes"].append(len(step.data))
            kept["drawn"]["pages"].append(len(watching))
        for other in others:
            if other in watching and not fetch_all:
                continue
            into = kept["fetched" if other in watching else "page"]
            with clocks.request(into):
                stream.frame(now)  # the event its stream sends
                answer = browsers[other].get(f"/t/{code}/poll?v={since}&i=0", **hx)
            assert answer.status_code == 200, answer.status_code
            into["bytes"].append(len(answer.content))
        fetched = [s for s in others if s not in watching]
        pages = kept["page"]["total"][len(kept["page"]["total"]) - len(fetched) :]
        drawn = kept["drawn"]["total"][-1] if others else 0.0
        spent[action] += kept["move"]["total"][-1] + sum(pages) + drawn
        played += action == "play"
    return figures, spent, played


def next_action(state) -> tuple[int, str, dict]:
    """Who acts next at the table, and how, as the people of tools.netload do."""
    game = state.game
    for seat in range(4):
        me = state.seats[seat]
        if game.phase == "passing" and not game.has_passed(seat):
            hand = game.hand(seat)
            missing = [c for c in hand[:3] if c not in me.selected]
            return (seat, "select", {"card": missing[0]}) if missing else (seat, "pass", {})
        if me.awaiting_ok:
            return seat, "accept", {}
        if game.phase == "playing" and game.turn == seat:
            return seat, "play", {"card": game.legal_plays(seat)[0]}
        if game.phase in ("hand_over", "game_over") and not me.ready:
            return seat, "next", {}
    raise AssertionError("nobody to act")


FORM = "application/x-www-form-urlencoded"  # as htmx and a plain form send it (not multipart)

LABELS = {
    "move": "a card played: its own answer",
    "page": "each fetch of a page told the version (no public part for it)",
    "drawn": "the step's public part, drawn once for the pages it is sent to (and the lit hand)",
    "fetched": "--fetch-all: each of those pages' fetch instead (the old way)",
}


def report(
    figures: dict[str, dict[str, list[float]]],
    spent: dict[str, float],
    played: int,
    hands: int,
    fetch_all: bool,
) -> None:
    from django.db import connection

    print(f"movecost: {played} cards played at one table of four people, {connection.vendor}")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("CPU per request, ms (median / p90); bytes of the answer (median)")
    parts = ["select", "state", "view", "template", "announce", "frame", "rest", "total"]
    for page in PAGES:
        rows = figures[page]
        if not rows.get("total"):
            continue
        print(f"  {LABELS[page]}:")
        for part in parts:
            values = rows.get(part)
            if values:
                print(f"    {part:<9} {median(values):7.2f} / {percentile(values, 90):7.2f}")
        if rows.get("bytes"):
            print(f"    bytes     {median(rows['bytes']):7.0f}")
    cards = len(figures["move"]["total"])

    def mean(page: str) -> float:
        return sum(figures[page]["total"]) / cards

    streamed = mean("move") + mean("page") + mean("drawn")
    watched = sum(figures["drawn"]["pages"]) / cards
    print(
        f"one card played, all of the table's pages included (mean): {streamed:.2f} ms of CPU "
        f"(its answer {mean('move'):.2f} + {len(figures['page']['total']) / cards:.1f} pages "
        f"fetching {mean('page'):.2f} + the public part {mean('drawn'):.2f} for "
        f"{watched:.1f} pages)"
    )
    if fetch_all:
        every = mean("move") + mean("page") + mean("fetched")
        print(
            f"the same cards, every page fetching (--fetch-all, the old way): {every:.2f} ms of "
            f"CPU (its answer {mean('move'):.2f} + 3.0 pages x "
            f"{(mean('page') + mean('fetched')) / 3:.2f})"
        )
    total = sum(spent.values())
    kinds = ", ".join(f"{kind} {ms / hands:.0f}" for kind, ms in sorted(spent.items()))
    print(f"a whole hand, every action and what it costs the others: {total / hands:.0f} ms")
    print(f"  by action: {kinds}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2, help="hands to play (13 cards x 4 each)")
    parser.add_argument(
        "--fetch-all",
        action="store_true",
        help="also measure every other page fetching, as before the public part (issue 53)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        configure(Path(folder))
        figures, spent, played = play(args.hands, args.fetch_all)
        report(figures, spent, played, args.hands, args.fetch_all)


if __name__ == "__main__":
    main()
