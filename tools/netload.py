"""Load on the Hearts Network, measured: ``bin/with-postgres python -m tools.netload``.

Starts two gunicorn instances (the Procfile's command, production settings, bound to 127.0.0.1)
that share one PostgreSQL (``DATABASE_URL``, which bin/with-postgres sets to a private cluster on
loopback), deals ``--tables`` tables and seats four simulated people at each, then lets them
play for ``--seconds``: each person polls every two seconds, as htmx does, and when the table
needs them (a card to select or play, a button to press) acts after ``--think`` seconds. Every
request goes to the next instance in turn, so each table is served by both.

With ``--computers 1`` one seat of each table is a computer player (the dealer starts with
three people), so moves include the computers' thinking: run it with ``--tables 25``.

Prints polls and moves per second, median and 99th percentile latency as the clients saw it,
the server's own time for a poll that found nothing new (from gunicorn's access log), the size
of such a poll's answer, errors, and whether every accepted move is in the database exactly
once; then the targets with PASS or FAIL. Exit status 1 if a target fails. Loopback only, and
bounded: setup and play stop at their deadlines whatever happens.

The simulated people run in this process, on the same cores as the servers. So that their own
work distorts the servers' figures as little as it can, they run at a lower priority (``nice``
10, after the servers and PostgreSQL have started at the usual one: the kernel gives the cores
to the servers first), and the run prints the share of CPU time used during play by the
clients, the servers, PostgreSQL and everything else on the machine, with the load average.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
import urllib.parse
from contextlib import ExitStack
from pathlib import Path

from tools import netload_stream, netload_table
from tools.loadtest import HOST
from tools.netload_table import (
    POLL_SECONDS,
    TARGET_MOVE_P99_MS,
    TARGET_POLL_BYTES,
    TARGET_POLL_SERVER_MS,
    CPUShares,
    Person,
    Stats,
    access_entries,
    by_slice,
    figures,
    in_threads,
    machine_speed,
    play_in_processes,
    put_off_runs,
    seat_a_table,
    serve_two,
    server_times,
    stagger_starts,
    start_table,
    time_by_kind,
    versions,
)
from tools.stats import median, percentile


def run(args: argparse.Namespace) -> int:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        print(
            "DATABASE_URL must name a PostgreSQL database: "
            "run bin/with-postgres python -m tools.netload"
        )
        return 2
    host = urllib.parse.urlparse(url).hostname
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(f"The database must be on loopback, not {host}.")
        return 2
    stats = Stats()
    speed = machine_speed()
    with tempfile.TemporaryDirectory(prefix="hearts-netload-") as folder, ExitStack() as stack:
        logs = [Path(folder) / f"gunicorn-{i}.log" for i in (1, 2)]
        ports = serve_two(stack, Path(folder), url, args.workers, logs)
        if ports is None:
            return 2
        os.nice(args.client_nice)  # the servers and PostgreSQL keep the usual priority
        people_per_table = 4 - args.computers
        print(
            f"Hearts Network load test: {args.tables} tables of {people_per_table} people"
            f" and {args.computers} computer player(s), polling every "
            f"{POLL_SECONDS:g} s, acting {args.think:g} s after their turn comes, "
            f"for {args.seconds:g} s, "
            + (
                "a new connection each request"
                if netload_table.FRESH_CONNECTIONS
                else "connections kept open"
            )
        )
        print(
            f"two gunicorn instances on http://{HOST}:{ports[0]}/ and :{ports[1]}/ "
            f"({args.workers} workers each, {os.cpu_count()} CPUs), PostgreSQL on {host}"
        )
        tables: list[list[Person]] = [[] for _ in range(args.tables)]

        def seat(i: int):
            return lambda: tables.__setitem__(
                i, seat_a_table(i, ports, stats, 1 + i, args.computers)
            )

        setup_deadline = time.monotonic() + args.setup_seconds
        in_threads([seat(i) for i in range(args.tables)], setup_deadline)
        tables = [people for people in tables if people]
        before = versions(url)
        if not args.stagger:
            in_threads([lambda p=people: start_table(p) for people in tables], setup_deadline)
        setup_errors = len(stats.errors)
        stats.moves.clear()
        begin = time.monotonic()
        if args.stagger:
            stagger_starts(tables, begin, args.stagger)
            print(
                f"  {len(tables)} tables dealt, {setup_errors} errors in setup; they start over"
                f" {args.stagger:g} s, and the figures below count from then on"
            )
        else:
            print(f"  {len(tables)} tables dealt and started, {setup_errors} errors in setup")
        stats.since = begin + args.stagger
        measured_from = time.time() + args.stagger
        shares = CPUShares(url)
        if args.stagger:
            threading.Timer(args.stagger, shares.restart).start()
        deadline = stats.since + args.seconds
        people = [person for table in tables for person in table]
        play_in_processes(people, stats, deadline, args.think, args.client_processes)
        seconds = time.monotonic() - stats.since
        cpu = shares.report(seconds)
        time.sleep(0.5)
        after = versions(url)
        stack.close()  # stop the servers, so that their access logs are complete
        entries = access_entries(logs, since=measured_from)
    quiet_server = server_times(entries, "/poll", "204")
    move_post = server_times(entries, "", "200", method="POST")
    move_server = [t for t in server_times(entries, "", "200") if t]
    by_kind = time_by_kind(entries)
    accepted = {table[0].code: sum(p.accepted for p in table) for table in tables}
    # the start was accepted before `before` was read only if it raced; count from the start on
    lost = doubled = 0
    for code, count in accepted.items():
        moved = after.get(code, 0) - before.get(code, 0)
        lost += max(0, count - moved)
        doubled += max(0, moved - count)
    print(figures("polls, nothing new (204)", stats.polls_quiet, seconds))
    print(figures("polls, a new table (200)", stats.polls_new, seconds))
    print(figures("polls put off, busy (204)", stats.polls_later, seconds))
    print(put_off_runs(stats.later_runs))
    print(figures("moves (POST)", stats.move_ms(), seconds))
    print(by_slice(stats.moves, seconds))
    print(
        f"  server time of a 204 poll (gunicorn):  median {median(quiet_server):.2f} ms   "
        f"p99 {percentile(quiet_server, 99):.2f} ms   ({len(quiet_server)} polls)"
    )
    print(f"  server time of any 200 answer:         median {median(move_server):.2f} ms")
    size = max(stats.quiet_bytes) if stats.quiet_bytes else 0
    print(f"  a 204 poll's answer: {size} bytes (status line, headers, no body)")
    total = sum(accepted.values())
    print(
        f"  moves accepted {total}, found in the database {total - lost + doubled}: "
        f"lost {lost}, doubled {doubled}; refused {len(stats.refusals)}"
    )
    print(
        f"  server time of a move (gunicorn):      median {median(move_post):.2f} ms   "
        f"p99 {percentile(move_post, 99):.2f} ms"
    )
    print(by_kind)
    print(cpu)
    print(f"  this machine's speed before the run: {speed:.1f} ms for a fixed piece of Python")
    print(f"  errors {len(stats.errors)}")
    for error in stats.errors[:10]:
        print(f"    {error}")
    for refusal in stats.refusals[:5]:
        print(f"    refused: {refusal}")
    checks = [
        ("zero errors", not stats.errors),
        ("no move lost or applied twice", lost == 0 and doubled == 0),
        (
            f"a 204 poll's server time median <= {TARGET_POLL_SERVER_MS:g} ms",
            median(quiet_server) <= TARGET_POLL_SERVER_MS,
        ),
        (f"a 204 poll's answer <= {TARGET_POLL_BYTES} bytes", 0 < size <= TARGET_POLL_BYTES),
        (
            f"move p99 < {TARGET_MOVE_P99_MS:g} ms",
            percentile(stats.move_ms(), 99) < TARGET_MOVE_P99_MS,
        ),
    ]
    print("Targets:")
    for label, ok in checks:
        print(f"  {'PASS' if ok else 'FAIL'}  {label}")
    return 0 if all(ok for _, ok in checks) else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--think", type=float, default=1.0, help="seconds before acting")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers per instance")
    parser.add_argument("--setup-seconds", type=float, default=120.0)
    parser.add_argument(
        "--computers", type=int, default=0, choices=(0, 1, 2, 3), help="computer seats per table"
    )
    parser.add_argument(
        "--client-nice", type=int, default=10, help="how much lower the clients' priority is"
    )
    parser.add_argument(
        "--stagger",
        type=float,
        default=0.0,
        help="tables start over this many seconds, as people arrive, and the figures count "
        "from then on (0: every table starts at once, figures from the first move)",
    )
    parser.add_argument(
        "--client-processes",
        type=int,
        default=4,
        help="processes the simulated people play in (one interpreter would pace them all)",
    )
    parser.add_argument(
        "--fresh-connections",
        action="store_true",
        help="a new TCP connection for every request (browsers keep one open to each server)",
    )
    netload_stream.add_arguments(parser)  # --push: a move's arrival at the other seats
    args = parser.parse_args(argv)
    netload_table.FRESH_CONNECTIONS = args.fresh_connections
    return netload_stream.run(args) if args.push else run(args)


if __name__ == "__main__":
    sys.exit(main())
