"""Attacks from outside, against a production-like run: ``python -m tools.attacks``.

Collects the static files into a temporary folder, starts gunicorn (the Procfile's command) on
127.0.0.1 only with production settings and an empty temporary folder of its own, and tries what
the hardening review found, printing one line per check, PASS or FAIL:

- a form posted with a charset other than UTF-8, at several URLs, with a CSRF cookie;
- slow clients (by default 200) each sending a request's headers or body one byte a second,
  while /healthz and a player's moves are timed;
- a 300 MB multipart upload, a large form, a body of unannounced length;
- HEAD on the pages;
- Server-Timing's parts against its total; a name with an emoji sequence and right-to-left
  letters; the notice for an unreadable cookie on /stats.

Every loop is bounded in count and time; the exit status is 1 if any check fails. Nothing but
loopback is contacted.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import re
import socket
import sys
import tempfile
import threading
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path

from tools.loadtest import HOST, Browser, Player, Record, collectstatic, gunicorn, production_env

CHARSETS = ("latin-1", "utf8", "ascii", "utf-16")
SECURITY_HEADERS = (
    "Content-Security-Policy",
    "X-Frame-Options",
    "X-Content-Type-Options",
    "Referrer-Policy",
    "Cross-Origin-Opener-Policy",
    "Cross-Origin-Resource-Policy",
)
CSRF_COOKIE = "csrftoken=" + "a" * 32
SLOW_LIMIT_MS = 1000.0
UPLOAD_BYTES = 300 * 1024 * 1024
UPLOAD_SENT_AT_MOST = 8 * 1024 * 1024  # what the attacker pushes before it expects an answer
TIMEOUT = 5


class Check:
    def __init__(self) -> None:
        self.results: list[bool] = []

    def __call__(self, ok: bool, label: str) -> None:
        self.results.append(ok)
        print(f"{'PASS' if ok else 'FAIL'}  {label}", flush=True)


def send(
    port: int, method: str, path: str, body: bytes = b"", headers: dict | None = None
) -> tuple[int, http.client.HTTPMessage, bytes]:
    conn = http.client.HTTPConnection(HOST, port, timeout=TIMEOUT)
    try:
        conn.request(method, path, body=body or None, headers={"Host": HOST, **(headers or {})})
        response = conn.getresponse()
        return response.status, response.headers, response.read()
    finally:
        conn.close()


def missing_headers(headers: http.client.HTTPMessage) -> list[str]:
    return [name for name in SECURITY_HEADERS if not headers.get(name)]


def log_lines(log: Path) -> int:
    return len(log.read_bytes().splitlines())


def charsets(port: int, log: Path, check: Check) -> None:
    time.sleep(0.5)  # the start's own /healthz reaches the log first
    for charset in CHARSETS:
        answers = []
        before = log_lines(log)
        for path in ("/healthz", "/", "/play", "/static/css/hearts.css", "/no-such-page"):
            status, headers, body = send(
                port,
                "POST",
                path,
                b"a=b&card=2C",
                {
                    "Content-Type": f"application/x-www-form-urlencoded; charset={charset}",
                    "Cookie": CSRF_COOKIE,
                    "Origin": f"http://{HOST}:{port}",
                },
            )
            ours = b"forms must be sent as UTF-8" in body
            answers.append((path, status, ours, missing_headers(headers)))
        time.sleep(0.3)  # let the workers' log lines reach the file
        lines = log_lines(log) - before
        bad = [a for a in answers if a[1] != 400 or not a[2] or a[3]]
        check(
            not bad and lines <= 2 * len(answers),
            f"charset={charset}: POST to {len(answers)} URLs with a CSRF cookie -> 400, our page, "
            f"security headers; {lines} log lines for {len(answers)} requests (ours, access)"
            + (f"; wrong: {bad}" if bad else ""),
        )


class SlowClients:
    """Connections that each send one byte a second: half a request's headers, half a body."""

    def __init__(self, port: int, count: int) -> None:
        self.port = port
        self.socks: list[tuple[socket.socket, bytes]] = []
        self.stopped = threading.Event()
        self.refused = 0
        self.closed_by_server = 0
        for index in range(count):
            try:
                sock = socket.create_connection((HOST, port), timeout=TIMEOUT)
            except OSError:
                self.refused += 1
                continue
            sock.setblocking(False)
            if index % 2:
                head = (
                    f"POST /play HTTP/1.1\r\nHost: {HOST}\r\nCookie: {CSRF_COOKIE}\r\n"
                    "Content-Type: application/x-www-form-urlencoded\r\n"
                    "Content-Length: 1000\r\n\r\n"
                ).encode()
                with contextlib.suppress(OSError):
                    sock.send(head)
                trickle = b"card=" + b"x" * 995
            else:
                trickle = f"GET /healthz HTTP/1.1\r\nHost: {HOST}\r\nX-Slow: ".encode() + b"a" * 990
            self.socks.append((sock, trickle))
        self.thread = threading.Thread(target=self.trickle, daemon=True)

    def trickle(self) -> None:
        position = 0
        while not self.stopped.wait(1.0):
            for sock, data in self.socks:
                if sock.fileno() < 0:
                    continue
                try:
                    sock.send(data[position : position + 1])
                except (BlockingIOError, InterruptedError):
                    pass
                except OSError:
                    self.closed_by_server += 1
                    sock.close()
            position += 1

    def __enter__(self) -> SlowClients:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopped.set()
        self.thread.join()
        for sock, _ in self.socks:
            sock.close()


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def status_of(port: int, path: str) -> int:
    """The status of a GET, 0 for no answer within the timeout."""
    try:
        return send(port, "GET", path)[0]
    except (OSError, http.client.HTTPException):
        return 0


def probe(port: int, player: Player, table, seconds: float, record: Record):
    """/healthz and a move in turn for ``seconds``: the worst of each, a move less the computer
    players' thinking (their wait for a turn included: the site may make the thinking wait)."""
    health: list[float] = []
    moves: list[float] = []
    statuses: set[int] = set()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and len(health) < 500:
        health.append(timed(lambda: statuses.add(status_of(port, "/healthz"))))
        if table is not None:
            table, _ = player.move(table)
            if table is not None:
                sample = record.samples[-1]
                moves.append(sample.ms - sample.think - sample.timing.get("wait", 0.0))
        time.sleep(0.1)
    return table, health, moves, statuses


def slow_clients(port: int, count: int, seconds: float, check: Check) -> None:
    record = Record()
    player = Player(port, record, 11)
    table = player.sit_down()
    table, idle_health, idle_moves, _ = probe(port, player, table, 2, record)
    with SlowClients(port, count) as slow:
        time.sleep(2.5)  # every slow client has begun
        table, health, moves, statuses = probe(port, player, table, seconds, record)
        held = len(slow.socks) - slow.closed_by_server
    player.browser.close()
    worst_health = max(health, default=float("inf"))
    worst_move = max(moves, default=float("inf"))
    check(
        statuses == {200}
        and not record.errors
        and not slow.refused
        and worst_health < SLOW_LIMIT_MS
        and worst_move < SLOW_LIMIT_MS,
        f"{count} slow clients (one byte a second, {held} still connected after {seconds:g} s):"
        f" /healthz worst {worst_health:.0f} ms of {len(health)} (without them "
        f"{max(idle_health):.0f} ms); a move less its thinking worst {worst_move:.0f} ms of "
        f"{len(moves)} (without them {max(idle_moves, default=0):.0f} ms); limit "
        f"{SLOW_LIMIT_MS:g} ms" + (f"; errors {record.errors[:3]}" if record.errors else ""),
    )


def upload(port: int, scratch: Path, check: Check) -> None:
    """A 300 MB multipart POST: the answer must come before the body has been sent."""
    head = (
        f"POST /play HTTP/1.1\r\nHost: {HOST}\r\nCookie: {CSRF_COOKIE}\r\n"
        "Content-Type: multipart/form-data; boundary=xyz\r\n"
        f"Content-Length: {UPLOAD_BYTES}\r\n\r\n"
    ).encode()
    part = b"--xyz\r\nContent-Disposition: form-data; name=f; filename=a\r\n\r\n"
    sent = 0
    answer = b""
    start = time.perf_counter()
    with socket.create_connection((HOST, port), timeout=TIMEOUT) as sock:
        sock.sendall(head + part)
        sock.settimeout(0.05)
        chunk = b"x" * 65536
        while sent < UPLOAD_SENT_AT_MOST and not answer:
            try:
                sent += sock.send(chunk)
            except TimeoutError:
                pass
            except OSError:
                break
            with contextlib.suppress(TimeoutError):
                answer = sock.recv(4096)
        sock.settimeout(TIMEOUT)
        with contextlib.suppress(OSError):
            answer = answer or sock.recv(4096)
    ms = (time.perf_counter() - start) * 1000
    status = answer.split(b"\r\n", 1)[0].decode("latin-1")
    written = [path.name for path in scratch.rglob("*")]
    check(
        " 413 " in status + " " and not written,
        f"300 MB multipart POST /play -> {status or 'no answer'!r} after {sent / 2**20:.1f} MB "
        f"sent, {ms:.0f} ms; files in the server's temporary folder: {len(written)}",
    )
    status, headers, body = send(
        port,
        "POST",
        "/name",
        urllib.parse.urlencode({"name": "x" * 100_000}).encode(),
        {"Content-Type": "application/x-www-form-urlencoded", "Cookie": CSRF_COOKIE},
    )
    check(
        status == 413 and not missing_headers(headers),
        f"a 100 KB form POST /name -> {status}, security headers"
        + (f" missing {missing_headers(headers)}" if missing_headers(headers) else ""),
    )
    with socket.create_connection((HOST, port), timeout=TIMEOUT) as sock:
        sock.sendall(
            f"POST /play HTTP/1.1\r\nHost: {HOST}\r\nTransfer-Encoding: chunked\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\n\r\n"
            "4\r\na=bb\r\n".encode()
        )
        first = sock.recv(4096).split(b"\r\n", 1)[0].decode("latin-1")
    check(" 411 " in first + " ", f"a chunked body of unannounced length -> {first!r}")


def head(port: int, check: Check) -> None:
    browser = Browser(port, Record())
    browser.request("GET", "/", htmx=False)
    cookie = "; ".join(f"{k}={v}" for k, v in browser.cookies.items())
    answers = []
    for path in ("/", "/healthz", "/help", "/about", "/stats", "/score", "/options"):
        status, headers, body = send(port, "HEAD", path, headers={"Cookie": cookie})
        answers.append((path, status, len(body)))
    check(
        all(status == 200 and not size for _, status, size in answers),
        "HEAD " + ", ".join(f"{path} {status}" for path, status, _ in answers),
    )


def server_timing(port: int, check: Check) -> None:
    record = Record()
    player = Player(port, record, 5)
    table = player.sit_down()
    worst = 0.0
    count = 0
    for _ in range(20):
        if table is None:
            break
        table, _ = player.move(table)
        sample = record.samples[-1]
        parts = sum(ms for name, ms in sample.timing.items() if name != "total")
        total = sample.timing.get("total", 0.0)
        worst = max(worst, abs(parts - total))
        count += 1
    player.browser.close()
    view = [s.timing for s in record.samples if "total" in s.timing]
    last = view[-1] if view else {}
    check(
        count > 0 and worst <= 0.1 * len(last) and bool(last),
        f"Server-Timing over {count} moves: parts add up to the total within {worst:.2f} ms; "
        f"last move {', '.join(f'{k} {v:g}' for k, v in last.items())}",
    )


def names(port: int, check: Check) -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"  # one emoji, 7 points
    name = family + " \u05e9\u05dc\u05d5\u05dd " + "\u0915\u094d\u0937" * 10  # Hebrew, Devanagari
    browser = Browser(port, Record())
    browser.request("GET", "/", htmx=False)
    html = browser.request("POST", "/name", {"name": name}, htmx=True) or ""
    html = browser.request("GET", "/", htmx=False) or html
    shown = re.findall(r"<bdi>([^<]*)</bdi>", html)
    whole = [text for text in shown if text.startswith(family)]
    check(
        bool(whole) and all(not text.endswith("\u094d") for text in whole),
        f"a name with an emoji family, Hebrew and conjuncts is shown isolated in <bdi> "
        f"{len(shown)} times, the emoji whole, cut at a cluster: {whole[:1]!r}",
    )
    browser.close()


def unreadable_cookie(port: int, check: Check) -> None:
    status, headers, body = send(
        port, "GET", "/stats", headers={"Cookie": "hearts=not-a-signed-cookie"}
    )
    notice = b"Your saved game could not be read" in body
    check(status == 200 and notice, f"/stats with an unreadable cookie -> {status}, notice shown")


def run(args: argparse.Namespace) -> int:
    check = Check()
    with tempfile.TemporaryDirectory(prefix="hearts-attacks-") as folder:
        scratch = Path(folder) / "tmp"
        scratch.mkdir()
        env = production_env(Path(folder) / "static", args.workers)
        collectstatic(env)
        env["TMPDIR"] = str(scratch)  # anything written to disk would show up here
        log = Path(folder) / "gunicorn.log"
        extra = ("--worker-class", args.worker_class) if args.worker_class else ()
        app = "hearts_site.wsgi" if args.worker_class in ("sync", "gthread") else "hearts_site.asgi"
        with gunicorn(env, log, app, extra) as port:
            print(
                f"gunicorn {app} -c gunicorn.conf.py {' '.join(extra)} on http://{HOST}:{port}/,"
                " production settings"
            )
            charsets(port, log, check)
            upload(port, scratch, check)
            head(port, check)
            slow_clients(port, args.slow_clients, args.seconds, check)
            server_timing(port, check)
            names(port, check)
            unreadable_cookie(port, check)
            errors = [line for line in log.read_text().splitlines() if "Traceback" in line]
            check(not errors, f"no traceback in the server's log ({len(errors)})")
    passed = sum(check.results)
    print(f"{passed} of {len(check.results)} checks passed")
    return 0 if all(check.results) else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tools.attacks", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--slow-clients", type=int, default=200, help="slow connections (200)")
    parser.add_argument("--seconds", type=float, default=8, help="time under slow clients (8)")
    parser.add_argument("--workers", type=int, default=None, help="gunicorn workers")
    parser.add_argument(
        "--worker-class", choices=["asgi", "sync", "gthread"], default=None,
        help="compare another arrangement (default: gunicorn.conf.py's)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if args.slow_clients < 1 or not 0 < args.seconds <= 60:
        parser.error("slow clients must be positive, seconds between 0 and 60")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
