"""Load and scale, measured: ``python -m tools.loadtest [--players 50] [--seconds 60]``.

Collects the static files into a temporary folder, starts gunicorn (the Procfile's command) on
127.0.0.1 with production-like settings, and measures, over HTTP on loopback only:

1. the first visit: the page of a newly dealt table and every asset it uses (CSS, scripts, icon,
   the card images its CSS gives the cards on show), as sent with ``Accept-Encoding: br, gzip``;
2. the trivial view ``/healthz`` with as many concurrent clients as there will be players;
3. N simulated players (threads) each playing whole games as a browser with htmx does (the
   csrftoken cookie and form token, the signed game cookie, the form's ``seq``), bounded in time
   and in games;
4. one player alone, with ``/healthz`` interleaved, for a move's whole server time and for the
   cost of a move's non-thinking part (from its ``Server-Timing``) against the trivial view.

It prints requests per second, median and 99th percentile latency and errors for each, and the
targets with PASS or FAIL; the exit status is 1 if any target fails. Never run by the test suite
except as a seconds-long smoke test.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import random
import re
import secrets
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

from tools import server
from tools.server import HOST, REPO, browser_answer
from tools.stats import median, percentile

TIMEOUT = 30

TARGET_ERRORS_AT = 50  # players
TARGET_RATIO = 4.0  # a move's non-thinking part against the trivial view, at most
TARGET_MOVE_P99_MS = 150.0  # a move's whole server time with one player, at most
TARGET_FIRST_VISIT = 300 * 1024  # bytes, compressed, less than
TARGET_MOVE_BYTES = 6 * 1024  # a move's response, less than
TARGET_HEALTH_P99_MS = 250.0  # /healthz under the players' load, p99 below
TARGET_PAGE_P99_MS = 500.0  # a page GET under the players' load, p99 below
PROBE_PAUSE = 0.1  # seconds between two probes of /healthz or a page during the load

MOVES = ("/select", "/pass", "/accept", "/play", "/next")


# ---- statistics -----------------------------------------------------------------------------


@dataclass
class Sample:
    path: str
    status: int
    ms: float  # as the client saw it: connect, send, the server's work, receive
    body_bytes: int
    timing: dict[str, float]  # Server-Timing, name -> ms

    @property
    def think(self) -> float:
        return self.timing.get("think", 0.0)

    @property
    def server(self) -> float:
        """The whole time in Django: Server-Timing's total (its disjoint parts add up to it)."""
        if "total" in self.timing:
            return self.timing["total"]
        return sum(self.timing.values())

    @property
    def waiting(self) -> float:
        """The time a move waited for its turn (``queue``) and for its turn to think."""
        return self.timing.get("queue", 0.0) + self.timing.get("wait", 0.0)


@dataclass
class Record:
    samples: list[Sample] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    games: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, sample: Sample) -> None:
        with self.lock:
            self.samples.append(sample)

    def error(self, what: str) -> None:
        with self.lock:
            self.errors.append(what)


def server_timing(header: str | None) -> dict[str, float]:
    parts: dict[str, float] = {}
    for part in (header or "").split(","):
        name, _, rest = part.strip().partition(";")
        found = re.search(r"dur=([0-9.]+)", rest)
        if name and found:
            parts[name] = parts.get(name, 0.0) + float(found.group(1))
    return parts


# ---- a browser --------------------------------------------------------------------------------


class Browser:
    """Cookies, the CSRF token and one keep-alive connection, as far as the server allows."""

    def __init__(self, port: int, record: Record) -> None:
        self.port = port
        self.record = record
        self.cookies: dict[str, str] = {}
        self.token = ""
        self.conn: http.client.HTTPConnection | None = None

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def request(self, method: str, path: str, form: dict | None = None, htmx: bool = True):
        headers = {"Host": f"{HOST}:{self.port}", "Accept-Encoding": "identity"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if htmx:
            headers["HX-Request"] = "true"
        body = None
        if form is not None:
            body = urllib.parse.urlencode({"csrfmiddlewaretoken": self.token, **form})
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = f"http://{HOST}:{self.port}"
        start = time.perf_counter()
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection(HOST, self.port, timeout=TIMEOUT)
            self.conn.request(method, path, body=body, headers=headers)
            response = self.conn.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as error:
            self.close()
            self.record.error(f"{method} {path}: {type(error).__name__}: {error}")
            return None
        ms = (time.perf_counter() - start) * 1000
        if response.will_close:
            self.close()
        html = data.decode("utf-8", "replace")
        self.token = browser_answer(self.cookies, self.token, response.headers, html)
        sample = Sample(
            path,
            response.status,
            ms,
            len(data),
            server_timing(response.headers.get("Server-Timing")),
        )
        self.record.add(sample)
        if response.status >= 400:
            self.record.error(f"{method} {path}: HTTP {response.status}")
            return None
        return html


@dataclass
class Table:
    """What the table fragment shows: enough to choose a legal move as a person would."""

    seq: str
    phase: str
    hand_action: str
    cards: list[tuple[str, bool, bool]]  # code, raised, enabled
    button_action: str
    button_enabled: bool
    next_form: bool
    refusal: str

    @classmethod
    def read(cls, html: str) -> Table:
        seq = re.search(r'data-seq="(\d+)"', html)
        phase = re.search(r'class="table phase-(\w+)"', html)
        hand = re.search(r'class="hand-form"(?: action="/(\w+)")?', html)
        button = re.search(
            r'class="button-form" action="/(\w+)"[^>]*>.*?id="pass-button"( disabled)?', html, re.S
        )
        refusal = re.search(r'class="status-line refusal">([^<]*)<', html)
        cards = [
            (code, "raised" in classes, not disabled)
            for code, classes, disabled in re.findall(
                r'name="card" value="(\w\w)" class="([^"]*)"( aria-disabled="true")?', html
            )
        ]
        return cls(
            seq=seq.group(1) if seq else "",
            phase=phase.group(1) if phase else "",
            hand_action=(hand.group(1) or "") if hand else "",
            cards=cards,
            button_action=button.group(1) if button else "",
            button_enabled=bool(button) and not button.group(2),
            next_form='action="/next"' in html,
            refusal=refusal.group(1) if refusal else "",
        )


class Player:
    def __init__(self, port: int, record: Record, seed: int) -> None:
        self.browser = Browser(port, record)
        self.record = record
        self.rng = random.Random(seed)

    def sit_down(self) -> Table | None:
        if self.browser.request("GET", "/", htmx=False) is None:
            return None
        html = self.browser.request("POST", "/name", {"name": f"Player {self.rng.randrange(999)}"})
        return None if html is None else Table.read(html)

    def move(self, table: Table) -> tuple[Table | None, bool]:
        """One legal move chosen from the table; returns the new table and whether a game ended."""
        if table.hand_action == "select":
            raised = [code for code, up, _ in table.cards if up]
            if len(raised) == 3 and table.button_enabled:
                path, form = "/" + table.button_action, {}
            else:
                down = [code for code, up, _ in table.cards if not up]
                path, form = "/select", {"card": self.rng.choice(down)}
        elif table.button_enabled and table.button_action:
            path, form = "/" + table.button_action, {}
        elif table.hand_action == "play":
            lit = [code for code, _, enabled in table.cards if enabled]
            path, form = "/play", {"card": self.rng.choice(lit)}
        elif table.next_form:
            path, form = "/next", {}
        else:
            self.record.error(f"no move on a table in phase {table.phase!r}")
            return None, False
        html = self.browser.request("POST", path, {"seq": table.seq, **form})
        if html is None:
            return None, False
        new = Table.read(html)
        if new.refusal:
            self.record.error(f"POST {path} {form} refused: {new.refusal}")
            return None, False
        return new, table.phase == "game_over" and path == "/next"

    def play(self, deadline: float, games: int, moves: int | None = None) -> None:
        table = self.sit_down()
        done = played = 0
        while table is not None and time.monotonic() < deadline and done < games:
            if moves is not None and played >= moves:
                break
            table, ended = self.move(table)
            played += 1
            if ended:
                done += 1
                with self.record.lock:
                    self.record.games += 1
        self.browser.close()


def hammer_health(port: int, record: Record, deadline: float, pause: float = 0.0) -> None:
    browser = Browser(port, record)
    while time.monotonic() < deadline:
        browser.request("GET", "/healthz", htmx=False)
        if pause:
            time.sleep(pause)
    browser.close()


def probe_pages(port: int, record: Record, deadline: float) -> None:
    """A player who sits at a dealt table and reloads pages while the others play: the table
    (GET /, no thinking: the game is under way), the statistics and the help, in turn."""
    player = Player(port, Record(), 99)
    player.sit_down()
    browser = player.browser
    browser.record = record
    pages = ("/", "/stats", "/help")
    count = 0
    while time.monotonic() < deadline:
        browser.request("GET", pages[count % len(pages)], htmx=False)
        count += 1
        time.sleep(PROBE_PAUSE)
    browser.close()


def timing_sums(samples: list[Sample]) -> tuple[list[float], list[float]]:
    """For each response with a Server-Timing total: the sum of its parts, and the total."""
    sums, totals = [], []
    for sample in samples:
        if "total" in sample.timing:
            sums.append(sum(ms for name, ms in sample.timing.items() if name != "total"))
            totals.append(sample.timing["total"])
    return sums, totals


# ---- the first visit --------------------------------------------------------------------------


def first_visit(port: int) -> tuple[int, list[tuple[str, int, str]], int]:
    """The bytes a first visit transfers: a newly dealt table's page and everything it uses."""
    record = Record()
    player = Player(port, record, 1)
    player.sit_down()
    browser = player.browser
    browser.cookies.pop("csrftoken", None)  # keep the game; the page is fetched like a reload
    conn = http.client.HTTPConnection(HOST, port, timeout=TIMEOUT)

    def fetch(path: str) -> tuple[int, str, bytes]:
        headers = {"Host": HOST, "Accept-Encoding": "br, gzip"}
        if path == "/":
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in browser.cookies.items())
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        body = response.read()
        if response.status != 200:
            raise RuntimeError(f"GET {path}: HTTP {response.status}")
        return len(body), response.headers.get("Content-Encoding") or "identity", body

    items: list[tuple[str, int, str]] = []
    faces: list[int] = []  # every card face's compressed size
    size, encoding, page = fetch("/")
    items.append(("/", size, encoding))
    html = page.decode()  # Django sends the page itself uncompressed
    assets = re.findall(r'<(?:link|script)[^>]+(?:href|src)="(/static/[^"]+)"', html)
    shown = set(re.findall(r"\bface-(\w\w)\b", html))
    for path in assets:
        size, encoding, body = fetch(path)
        items.append((path, size, encoding))
        if path.endswith(".css"):
            css = fetch_identity(port, path)
            for rule, url in re.findall(r'([^{}]*)\{[^{}]*url\("?([^")]+)"?\)', css):
                face = re.search(r"\.face-(\w\w)\b", rule)
                image = urllib.parse.urljoin(path, url)
                if face and face.group(1) not in shown:
                    faces.append(fetch(image)[0])  # for the worst case of another deal
                    continue
                if image not in (name for name, _, _ in items):
                    size, encoding, _ = fetch(image)
                    items.append((image, size, encoding))
                    if face:
                        faces.append(size)
    conn.close()
    total = sum(size for _, size, _ in items)
    shown_faces = sum(size for name, size, _ in items if re.search(r"/cards/\w\w\.", name))
    worst = total - shown_faces + sum(sorted(faces)[-len(shown) :]) if shown else total
    return total, items, worst


def fetch_identity(port: int, path: str) -> str:
    conn = http.client.HTTPConnection(HOST, port, timeout=TIMEOUT)
    try:
        conn.request("GET", path, headers={"Host": HOST, "Accept-Encoding": "identity"})
        return conn.getresponse().read().decode()
    finally:
        conn.close()


# ---- the server -----------------------------------------------------------------------------


def production_env(static_root: Path, workers: int | None) -> dict[str, str]:
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("DJANGO_", "GUNICORN_")) and name not in {"PORT", "WEB_CONCURRENCY"}
    }
    env.update(
        DJANGO_SETTINGS_MODULE="hearts_site.settings",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS=HOST,
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_SECURE_COOKIES="0",
        DJANGO_STATIC_ROOT=str(static_root),
        DJANGO_LOG_LEVEL="WARNING",
    )
    if workers:
        env["WEB_CONCURRENCY"] = str(workers)
    return env


@contextlib.contextmanager
def gunicorn(env: dict[str, str], log: Path, app: str = "hearts_site.asgi", extra: tuple = ()):
    """The Procfile's command (tools.server); ``app`` and ``extra`` only to compare arrangements."""
    with server.gunicorn(env, log, app=app, extra=extra) as (_, port):
        yield port


def manage(env: dict[str, str], command: str) -> subprocess.CompletedProcess:
    """``python -m django <command> --noinput`` in the repository, with ``env``."""
    return subprocess.run(
        [sys.executable, "-m", "django", command, "--noinput", "-v", "0"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def collectstatic(env: dict[str, str]) -> None:
    result = manage(env, "collectstatic")
    if result.returncode:
        raise RuntimeError(f"collectstatic failed:\n{result.stdout}\n{result.stderr}")


# ---- the report -------------------------------------------------------------------------------


def run_all(threads: list[threading.Thread]) -> float:
    """Start every thread at once, wait for all of them; the seconds it took."""
    start = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.monotonic() - start


def line(label: str, samples: list[Sample], errors: int, seconds: float) -> str:
    ms = [s.ms for s in samples]
    rps = len(samples) / seconds if seconds else 0.0
    return (
        f"  {label:<30} {len(samples):>7} requests {rps:>8.1f}/s   median {median(ms):7.1f} ms"
        f"   p99 {percentile(ms, 99):7.1f} ms   errors {errors}"
    )


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def run(args: argparse.Namespace) -> int:
    print(f"Hearts load test: {args.players} players for up to {args.seconds:g} s on {HOST} only")
    with tempfile.TemporaryDirectory(prefix="hearts-loadtest-") as folder:
        env = production_env(Path(folder) / "static", args.workers)
        collectstatic(env)
        with gunicorn(env, Path(folder) / "gunicorn.log") as port:
            workers = env.get("WEB_CONCURRENCY", "gunicorn.conf.py's default")
            print(
                f"gunicorn on http://{HOST}:{port}/ with {workers} workers, {os.cpu_count()} CPUs"
            )
            return measure(args, port)


def measure(args: argparse.Namespace, port: int) -> int:
    results: list[tuple[str, bool]] = []

    # 1. The first visit.
    total, items, worst = first_visit(port)
    print("\nFirst visit (page and assets, Accept-Encoding: br, gzip):")
    for path, size, encoding in items:
        print(f"  {size:>8,} B  {encoding:<8} {path}")
    print(f"  {total:>8,} B  in all, {len(items)} responses")
    print(f"  {worst:>8,} B  with the 13 heaviest card faces instead (the worst deal)")

    # 2. The trivial view, with as many clients as there will be players.
    health = Record()
    span = max(1.0, min(10.0, args.seconds / 6))
    deadline = time.monotonic() + span
    threads = [
        threading.Thread(target=hammer_health, args=(port, health, deadline))
        for _ in range(args.players)
    ]
    health_seconds = run_all(threads)

    # 3. The players, all at once, with /healthz and pages probed as they play.
    load = Record()
    health_under = Record()
    pages = Record()
    deadline = time.monotonic() + args.seconds
    threads = [
        threading.Thread(target=Player(port, load, seed).play, args=(deadline, args.games))
        for seed in range(args.players)
    ]
    threads.append(
        threading.Thread(target=hammer_health, args=(port, health_under, deadline, PROBE_PAUSE))
    )
    threads.append(threading.Thread(target=probe_pages, args=(port, pages, deadline)))
    load_seconds = run_all(threads)
    moves = [s for s in load.samples if s.path in MOVES]
    print(
        f"\nUnder load: {args.players} players, {load_seconds:.1f} s, {load.games} games finished"
    )
    print(line("all requests", load.samples, len(load.errors), load_seconds))
    print(line("moves (POST)", moves, 0, load_seconds))
    probe_errors = len(health_under.errors)
    print(line("/healthz, probed meanwhile", health_under.samples, probe_errors, load_seconds))
    print(line("pages (GET), probed meanwhile", pages.samples, len(pages.errors), load_seconds))
    print(
        line(
            f"/healthz, {args.players} clients", health.samples, len(health.errors), health_seconds
        )
        + "  (before the players)"
    )
    for error in (load.errors + health.errors + health_under.errors + pages.errors)[:10]:
        print(f"  error: {error}")
    think = [s.think for s in moves]
    wait = [s.waiting for s in moves]
    rest = [s.server - s.think - s.waiting for s in moves]
    print(
        f"  Server-Timing of a move: think median {median(think):.1f} ms, p99 "
        f"{percentile(think, 99):.1f} ms; waiting for its turn median {median(wait):.1f} ms,"
        f" p99 {percentile(wait, 99):.1f} ms; the rest median {median(rest):.1f} ms, p99 "
        f"{percentile(rest, 99):.1f} ms"
    )
    sums, totals = timing_sums(moves)
    print(
        f"  Server-Timing parts added up against the measured total, moves: sum median "
        f"{median(sums):.1f} ms, total median {median(totals):.1f} ms; sum p99 "
        f"{percentile(sums, 99):.1f} ms, total p99 {percentile(totals, 99):.1f} ms; largest "
        f"difference {max(map(abs, map(float.__sub__, sums, totals)), default=0):.1f} ms; "
        f"as the client saw them median {median([s.ms for s in moves]):.1f} ms"
    )
    health_p99 = percentile([s.ms for s in health_under.samples], 99)
    page_p99 = percentile([s.ms for s in pages.samples], 99)
    health_ok = bool(health_under.samples) and health_p99 < TARGET_HEALTH_P99_MS
    page_ok = bool(pages.samples) and not pages.errors and page_p99 < TARGET_PAGE_P99_MS
    results += [
        (f"/healthz p99 < {TARGET_HEALTH_P99_MS:g} ms under load ({health_p99:.1f} ms)", health_ok),
        (f"a page GET p99 < {TARGET_PAGE_P99_MS:g} ms under load ({page_p99:.1f} ms)", page_ok),
    ]
    zero = not load.errors and not health.errors and not health_under.errors and bool(moves)
    results.append((f"zero errors at {args.players} concurrent players", zero))

    # 4. One player alone, /healthz between its moves.
    alone = Record()
    probe = Record()
    deadline = time.monotonic() + args.single_seconds
    player = Player(port, alone, 4096)
    table = player.sit_down()
    start = time.monotonic()
    count = 0
    while table is not None and time.monotonic() < deadline and count < args.single_moves:
        table, _ = player.move(table)
        Browser(port, probe).request("GET", "/healthz", htmx=False)
        count += 1
    single_seconds = time.monotonic() - start
    player.browser.close()
    solo = [s for s in alone.samples if s.path in MOVES]
    plays = [s for s in alone.samples + load.samples if s.path == "/play"]
    print(f"\nOne player alone: {len(solo)} moves in {single_seconds:.1f} s")
    print(line("moves (POST)", solo, len(alone.errors), single_seconds))
    print(line("/healthz between moves", probe.samples, len(probe.errors), single_seconds))
    whole = [s.server for s in solo]
    solo_think = [s.think for s in solo]
    not_thinking = [s.ms - s.think for s in solo]
    trivial = median([s.ms for s in probe.samples])
    ratio = median(not_thinking) / trivial if trivial else float("inf")
    print(
        f"  Server-Timing of a move: whole median {median(whole):.1f} ms, p99 "
        f"{percentile(whole, 99):.1f} ms; think median {median(solo_think):.1f} ms, p99 "
        f"{percentile(solo_think, 99):.1f} ms"
    )
    print(
        f"  a move less its thinking, as the client sees it: median {median(not_thinking):.1f} ms;"
        f" /healthz median {trivial:.1f} ms; ratio {ratio:.2f}"
    )
    move_p99 = percentile([s.ms for s in solo], 99)
    sizes = [s.body_bytes for s in plays]
    print(
        f"  a move's response (/play, htmx): median {median(sizes):,.0f} B, "
        f"largest {max(sizes, default=0):,} B"
    )
    results += [
        (f"a move's non-thinking part <= {TARGET_RATIO:g}x /healthz (ratio {ratio:.2f})",
         ratio <= TARGET_RATIO),
        (f"a move's whole server time p99 <= {TARGET_MOVE_P99_MS:g} ms with one player "
         f"({move_p99:.1f} ms)", bool(solo) and move_p99 <= TARGET_MOVE_P99_MS),
        (f"first visit < {TARGET_FIRST_VISIT // 1024} KB compressed ({total / 1024:.1f} KB;"
         f" worst deal {worst / 1024:.1f} KB)", worst < TARGET_FIRST_VISIT),
        (f"a move's response < {TARGET_MOVE_BYTES // 1024} KB ({max(sizes, default=0):,} B)",
         bool(sizes) and max(sizes) < TARGET_MOVE_BYTES),
    ]  # fmt: skip
    if args.players < TARGET_ERRORS_AT:
        print(f"\n(The zero-errors target is for {TARGET_ERRORS_AT} players; this run had fewer.)")
    print("\nTargets:")
    for label, ok in results:
        print(f"  {verdict(ok)}  {label}")
    return 0 if all(ok for _, ok in results) else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.loadtest", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--players", type=int, default=50, help="concurrent players (50)")
    parser.add_argument("--seconds", type=float, default=60, help="time bound of the load (60)")
    parser.add_argument("--games", type=int, default=20, help="games per player at most (20)")
    parser.add_argument(
        "--workers", type=int, default=int(os.environ.get("WEB_CONCURRENCY") or 0) or None,
        help="gunicorn workers (WEB_CONCURRENCY; default: gunicorn.conf.py's)",
    )  # fmt: skip
    parser.add_argument("--single-seconds", type=float, default=20, help="the one-player part (20)")
    parser.add_argument("--single-moves", type=int, default=500, help="its moves at most (500)")
    args = parser.parse_args(argv)
    if args.players < 1 or args.seconds <= 0:
        parser.error("players and seconds must be positive")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
