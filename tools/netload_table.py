"""What both of netload's measurements share (``python -m tools.netload`` is the one entry point):
the simulated people and how they play, the two gunicorn instances on one PostgreSQL, their
access logs, the CPU shares, and the printed figures. ``tools.netload`` measures polling pages
with it, ``tools.netload_stream`` pages that hold an event stream."""

from __future__ import annotations

import http.client
import json
import multiprocessing
import os
import random
import re
import statistics
import threading
import time
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from game.network.codes import CODE_PATTERN, TABLE_PATH
from tools import loadtest
from tools.loadtest import HOST, collectstatic, production_env
from tools.server import browser_answer, browser_request
from tools.stats import median, percentile

TIMEOUT = 30
POLL_SECONDS = 2.0
TARGET_POLL_SERVER_MS = 3.0
TARGET_POLL_BYTES = 300
TARGET_MOVE_P99_MS = 300.0
ACCESS_FORMAT = "%(m)s %(U)s %(s)s %(D)s %({hearts-poll}o)s"  # method, path, status, microseconds
# in the app, and "later" on a poll a busy process put off (game.network.quiet.quiet_poll), else -
FRESH_CONNECTIONS = False  # --fresh-connections: a new TCP connection for every request


@dataclass
class Stats:
    lock: threading.Lock = field(default_factory=threading.Lock)
    polls_quiet: list[float] = field(default_factory=list)
    polls_new: list[float] = field(default_factory=list)
    polls_later: list[float] = field(default_factory=list)  # 204s of a busy process: "later"
    moves: list[tuple[float, float]] = field(default_factory=list)  # (seconds in, ms)
    setup: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    quiet_bytes: list[int] = field(default_factory=list)
    later_runs: list[int] = field(default_factory=list)  # polls put off in a row, run by run
    since: float = 0.0  # time.monotonic(): requests sent before it are not counted

    def add(self, kind: str, ms: float, sent: float | None = None) -> None:
        if sent is not None and sent < self.since:
            return
        at = 0.0 if sent is None else sent - self.since
        with self.lock:
            getattr(self, kind).append((at, ms) if kind == "moves" else ms)

    def move_ms(self) -> list[float]:
        return [ms for _, ms in self.moves]

    def error(self, what: str) -> None:
        with self.lock:
            self.errors.append(what)


class Person:
    """One browser at one table: cookies, the CSRF token, the table's version, what to do."""

    def __init__(self, name: str, ports: list[int], stats: Stats) -> None:
        self.name = name
        self.ports = ports
        self.stats = stats
        self.sent = 0
        self.cookies: dict[str, str] = {}
        self.token = ""
        self.code = ""
        self.version = 0
        self.idle = "0"
        self.seq = ""
        self.todo: tuple[str, dict] | None = None
        self.accepted = 0
        self.connections: dict[int, http.client.HTTPConnection] = {}
        self.start_at: float | None = None  # a dealer with --stagger: when to press Start
        self.later = False  # the last answer was a poll put off ("Hearts-Poll: later")
        self.put_off = 0  # polls put off in a row so far

    def send(self, method: str, path: str, form: dict | None = None, kind: str = "setup"):
        port = self.ports[self.sent % len(self.ports)]
        self.sent += 1
        headers, body = browser_request(self.cookies, self.token, form)
        sent = time.monotonic()
        start = time.perf_counter()
        try:
            response, data = self.exchange(port, method, path, body, headers)
        except (OSError, http.client.HTTPException) as error:
            self.stats.error(f"{method} {path}: {type(error).__name__}: {error}")
            return None, ""
        ms = (time.perf_counter() - start) * 1000
        status = response.status
        later = response.headers.get("Hearts-Poll") == "later"
        self.later = later and sent >= self.stats.since
        if kind == "poll":
            kind = "polls_new" if status != 204 else "polls_later" if later else "polls_quiet"
        self.stats.add(kind, ms, sent)
        if status == 204 and not later and sent >= self.stats.since:
            size = len(f"HTTP/1.1 {status} {response.reason}\r\n") + 2 + len(data)
            size += sum(len(f"{k}: {v}\r\n") for k, v in response.headers.items())
            with self.stats.lock:
                self.stats.quiet_bytes.append(size)
        if status >= 400:
            self.stats.error(f"{method} {path}: HTTP {status}")
            return status, ""
        html = data.decode("utf-8", "replace")
        self.token = browser_answer(self.cookies, self.token, response.headers, html)
        if status == 303:
            location = response.headers.get("Location", "")
            code = TABLE_PATH.match(location)
            if code:
                self.code = code.group(1)
        return status, html

    def exchange(self, port: int, method: str, path: str, body, headers: dict):
        """One request and its answer. As a browser does, over a connection kept open to each
        instance (HTTP/1.1 keep-alive), opened again, and the request sent once more, only if
        the server had closed it before reading the request (``RemoteDisconnected`` at once,
        or a reset on sending); with ``FRESH_CONNECTIONS`` a new connection every time."""
        for attempt in (1, 2):
            conn = self.connections.pop(port, None)
            reused = conn is not None
            if conn is None:
                conn = http.client.HTTPConnection(HOST, port, timeout=TIMEOUT)
            try:
                conn.request(method, path, body=body, headers=headers)
                response = conn.getresponse()
                data = response.read()
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                conn.close()
                if reused and attempt == 1:
                    continue  # the server closed an idle connection: not a failure
                raise
            except BaseException:
                conn.close()
                raise
            if FRESH_CONNECTIONS or response.will_close:
                conn.close()
            else:
                self.connections[port] = conn
            return response, data
        raise AssertionError("unreachable")

    def close(self) -> None:
        for conn in self.connections.values():
            conn.close()
        self.connections.clear()

    def read(self, html: str) -> None:
        """What the table says: its version, this person's seq, and what they must do."""
        poll = re.search(r'/poll\?v=(\d+)&amp;i=(\d+)"', html)
        if poll:
            self.version, self.idle = int(poll.group(1)), poll.group(2)
        seq = re.search(r'name="seq" value="(\d*)"', html)
        if seq:
            self.seq = seq.group(1)
        self.todo = next_move(html, self.code)

    def poll(self) -> bool:
        """Whether the answer redrew the table (a 200, not a quiet 204)."""
        status, html = self.send(
            "GET", f"/t/{self.code}/poll?v={self.version}&i={self.idle}", kind="poll"
        )
        if status == 200:
            self.read(html)
        if self.later:
            self.put_off += 1
        else:
            self.end_put_off()
        return status == 200

    def start_if_due(self, now: float) -> None:
        """A dealer with --stagger: Start is what to press once its moment has come."""
        if self.start_at is not None and now >= self.start_at:
            self.start_at, self.todo = None, ("start", {})

    def end_put_off(self) -> None:
        if self.put_off:
            with self.stats.lock:
                self.stats.later_runs.append(self.put_off)
        self.put_off = 0

    def act(self) -> bool:
        """Whether an answer redrew the table."""
        if self.todo is None:  # a poll since the turn came says there is nothing to do now
            return False
        action, form = self.todo
        status, html = self.send(
            "POST", f"/t/{self.code}/{action}", {"seq": self.seq, **form}, "moves"
        )
        if status != 200:
            return False
        refusal = re.search(r'class="status-line refusal">([^<]*)<', html)
        if refusal:
            with self.stats.lock:
                self.stats.refusals.append(f"{action}: {refusal.group(1)}")
        else:
            self.accepted += 1
        self.read(html)


def next_move(html: str, code: str) -> tuple[str, dict] | None:
    at = f"/t/{code}/"
    if f'action="{at}next"' in html:
        return "next", {}
    if re.search(rf'action="{at}accept"', html):
        return "accept", {}
    cards = [
        (m.group(1), "raised" in m.group(2), "aria-disabled" in m.group(3))
        for m in re.finditer(r'name="card" value="(\w\w)" class="([^"]*)"([^>]*)>', html)
    ]
    if f'class="hand-form" action="{at}select"' in html:
        raised = [c for c, up, _ in cards if up]
        if len(raised) < 3:
            return "select", {"card": next(c for c, up, _ in cards if not up)}
        return "pass", {}
    if f'class="hand-form" action="{at}play"' in html:
        lit = [c for c, _, off in cards if not off]
        return ("play", {"card": lit[0]}) if lit else None
    return None


def play(person: Person, deadline: float, think: float) -> None:
    """Poll and act as a page with htmx does: its poll (``every 2s``) belongs to the table's
    markup, so an answer that redraws the table starts a new two seconds; after a quiet 204 the
    ticks go on, and a tick that comes while the poll is still out is dropped (htmx's default
    hx-sync), never made up for afterwards."""
    next_poll = time.monotonic() + random.uniform(0, POLL_SECONDS)
    act_at = None
    while True:
        now = time.monotonic()
        if now >= deadline:
            return
        person.start_if_due(now)
        if person.todo is not None and act_at is None:
            act_at = now + think
        if act_at is not None and now >= act_at:
            act_at = None
            if person.act():
                next_poll = time.monotonic() + POLL_SECONDS
            continue
        if now >= next_poll:
            if person.poll():
                next_poll = time.monotonic() + POLL_SECONDS
            else:
                answered = time.monotonic()
                while next_poll <= answered:
                    next_poll += POLL_SECONDS
            continue
        wake = min(next_poll, act_at or next_poll, deadline)
        time.sleep(max(0.0, wake - time.monotonic()))


def play_in_processes(
    people: list[Person], stats: Stats, deadline: float, think: float, processes: int
) -> None:
    """Let ``people`` play until ``deadline``, in this many client processes (forked, each
    with a thread a person), so that no one interpreter's lock paces the clients; each sends
    back its figures, merged into ``stats``, and its people's counts of accepted moves."""
    for person in people:
        person.close()  # each process opens its own connections
    context = multiprocessing.get_context("fork")
    shares = [people[index::processes] for index in range(processes)]
    pipes, children = [], []
    for share in shares:
        receive, send = context.Pipe(duplex=False)
        child = context.Process(target=play_share, args=(share, deadline, think, send))
        child.start()
        send.close()
        pipes.append(receive)
        children.append(child)
    for share, receive, child in zip(shares, pipes, children, strict=True):
        try:
            figures, accepted = (
                receive.recv() if receive.poll(deadline - time.monotonic() + TIMEOUT) else ({}, [])
            )
        except EOFError:
            figures, accepted = {}, []
        child.join(TIMEOUT)
        if not figures:
            stats.error(f"a client process (pid {child.pid}) sent no figures")
        for name, values in figures.items():
            getattr(stats, name).extend(values)
        for person, count in zip(share, accepted, strict=False):
            person.accepted = count


def play_share(people: list[Person], deadline: float, think: float, send) -> None:
    stats = Stats(since=people[0].stats.since if people else 0.0)
    for person in people:
        person.stats = stats
    in_threads([lambda p=p: play(p, deadline, think) for p in people], deadline + TIMEOUT)
    for person in people:
        person.end_put_off()
        person.close()
    names = (
        "polls_quiet",
        "polls_new",
        "polls_later",
        "moves",
        "errors",
        "refusals",
        "quiet_bytes",
        "later_runs",
    )
    send.send(({name: getattr(stats, name) for name in names}, [p.accepted for p in people]))
    send.close()


def seat_a_table(
    index: int, ports: list[int], stats: Stats, number: int, computers: int = 0, kind=None
) -> list[Person]:
    people = [(kind or Person)(f"P{index}-{seat}", ports, stats) for seat in range(4)]
    dealer = people[0]
    dealer.send("GET", "/network")
    form = {"role": "dealer", "name": dealer.name, "number": str(number)}
    people = people[: 4 - computers]
    dealer.send("POST", "/network", form)
    if not dealer.code:
        stats.error(f"table {index}: no table was dealt")
        return []
    for person in people[1:]:
        person.code = dealer.code
        person.send("GET", f"/t/{dealer.code}/")
        person.send("POST", f"/t/{dealer.code}/name", {"name": person.name})
    _, html = dealer.send("GET", f"/t/{dealer.code}/")
    dealer.read(html)
    return people


def start_table(people: list[Person]) -> None:
    dealer = people[0]
    status, html = dealer.send("POST", f"/t/{dealer.code}/start", {"seq": dealer.seq}, "moves")
    if status == 200:
        dealer.accepted += 1
        dealer.read(html)
    for person in people[1:]:
        _, html = person.send("GET", f"/t/{person.code}/")
        person.read(html)


def stagger_starts(tables: list[list[Person]], begin: float, stagger: float) -> None:
    """Tables begin as people arrive, not in the same second: each dealer presses Start at a
    moment drawn over the ``stagger`` seconds from ``begin``; the figures count from then."""
    draw = random.Random(0)
    for table in tables:
        table[0].start_at = begin + draw.uniform(0, stagger)


def in_threads(jobs, deadline: float) -> None:
    threads = [threading.Thread(target=job, daemon=True) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=max(0.1, deadline - time.monotonic()))


@contextmanager
def gunicorn(env: dict[str, str], log: Path, workers: int):
    """The Procfile's server (loadtest's starter), with this many workers and an access log
    that says how long the app took."""
    extra = ("--workers", str(workers), "--access-logformat", ACCESS_FORMAT)
    with loadtest.gunicorn(env, log, extra=extra) as port:
        yield port


def access_entries(logs: list[Path], since: float = 0.0) -> list[tuple[str, str, str, float]]:
    """(method, path, status, milliseconds in the app) of each request in gunicorn's access
    logs, those logged from the Unix time ``since`` on (to the second). A poll a busy process
    put off has the status "204-later", so that no figure of quiet 204s counts it."""
    entries = []
    for log in logs:
        for line in log.read_text(errors="replace").splitlines():
            parts = line.split()[-5:]  # after the log handler's time, pid and level
            if len(parts) != 5 or not parts[3].isdigit():
                continue
            if since and logged_at(line) < int(since):
                continue
            status = parts[2] + ("-later" if parts[4] == "later" else "")
            entries.append((parts[0], parts[1], status, int(parts[3]) / 1000))
    return entries


def server_times(
    entries: list[tuple[str, str, str, float]], path_end: str, status: str, method: str = ""
) -> list[float]:
    """Milliseconds the app spent on each matching request of ``access_entries``."""
    methods = (method,) if method else ("GET", "POST")
    return [
        ms
        for verb, path, code, ms in entries
        if verb in methods and path.endswith(path_end) and code == status
    ]


def time_by_kind(entries: list[tuple[str, str, str, float]]) -> str:
    """Where the servers' time went: the app's seconds summed by request kind (a quiet or drawn
    poll, each action), from ``access_entries``."""
    totals: dict[str, tuple[int, float]] = {}
    for _, path, status, ms in entries:
        kind = path.rstrip("/").rsplit("/", 1)[-1]
        if CODE_PATTERN.fullmatch(kind):  # /t/<code>/: the table's whole page
            kind = "page"
        elif kind == "poll":
            kind = {"204": "poll 204", "204-later": "poll later"}.get(status, "poll drawn")
        count, seconds = totals.get(kind, (0, 0.0))
        totals[kind] = (count + 1, seconds + ms / 1000)
    ranked = sorted(totals.items(), key=lambda item: -item[1][1])
    return "  server time by kind (count, s): " + ", ".join(
        f"{kind} {count} {seconds:.1f}" for kind, (count, seconds) in ranked[:9]
    )


def logged_at(line: str) -> float:
    """The Unix second of an access log line ("[2026-12-01 05:53:29 +0000] ..."), or 0."""
    try:
        return datetime.strptime(line[1:26], "%Y-%m-%d %H:%M:%S %z").timestamp()
    except ValueError:
        return 0.0


TICK = os.sysconf("SC_CLK_TCK")


def process_tree() -> dict[int, int]:
    """pid -> parent pid, of every process on the machine."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    return parents


def descendants(root: int, parents: dict[int, int]) -> set[int]:
    found = {root}
    grew = True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in found} - found
        grew = bool(more)
        found |= more
    return found


def cpu_seconds(pids: set[int], root: int | None = None) -> float:
    """CPU time (user and system) the living processes ``pids`` have used so far, and that of
    the children ``root`` has reaped (a database connection that closed, say)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
        if pid == root:
            total += int(fields[13]) + int(fields[14])
    return total / TICK


def machine_seconds() -> float:
    """CPU time used on the whole machine so far (all cores, idle and iowait left out)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return (sum(fields[:8]) - fields[3] - fields[4]) / TICK


def postmaster(url: str) -> int | None:
    import psycopg

    with psycopg.connect(url) as conn:
        folder = conn.execute("SHOW data_directory").fetchone()[0]
    try:
        return int(Path(folder, "postmaster.pid").read_text().split()[0])
    except OSError:
        return None  # another user's cluster: counted with everything else


class CPUShares:
    """CPU time during play: this process's (the clients), the servers', PostgreSQL's, the rest."""

    def __init__(self, url: str) -> None:
        parents = process_tree()
        me = os.getpid()
        self.servers = descendants(me, parents) - {me}
        self.postmaster = postmaster(url)
        self.start = self.read()

    def restart(self) -> None:
        """Count from now on."""
        self.start = self.read()

    def read(self) -> tuple[float, float, float, float]:
        usage = os.times()
        pg = self.postmaster
        database = descendants(pg, process_tree()) if pg else set()
        live_clients = descendants(os.getpid(), process_tree()) - self.servers - {os.getpid()}
        return (
            # this process, the client processes it has reaped, and those still running
            usage.user
            + usage.system
            + usage.children_user
            + usage.children_system
            + cpu_seconds(live_clients),
            cpu_seconds(self.servers),
            cpu_seconds(database, root=pg),
            machine_seconds(),
        )

    def report(self, wall: float) -> str:
        end = self.read()
        clients, servers, database, machine = (b - a for a, b in zip(self.start, end, strict=True))
        rest = max(0.0, machine - clients - servers - database)
        cores = os.cpu_count() or 1

        def share(seconds: float) -> str:
            return f"{seconds:6.1f} s ({100 * seconds / max(machine, 1e-9):4.1f}%)"

        return (
            f"  CPU time during play ({wall:.0f} s x {cores} cores = {wall * cores:.0f} s;"
            f" used {machine:.1f} s):\n"
            f"    clients (processes at nice {os.nice(0)})  {share(clients)}\n"
            f"    servers (gunicorn)               {share(servers)}\n"
            f"    PostgreSQL                       {share(database)}\n"
            f"    everything else on the machine   {share(rest)}\n"
            f"  load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
        )


def versions(url: str) -> dict[str, int]:
    import psycopg

    with psycopg.connect(url) as conn:
        return dict(conn.execute("SELECT code, version FROM game_table").fetchall())


def figures(label: str, values: list[float], seconds: float) -> str:
    rate = len(values) / seconds if seconds else 0.0
    return (
        f"  {label:<28} {len(values):>7} {rate:>8.1f}/s   median {median(values):7.1f} ms"
        f"   p99 {percentile(values, 99):7.1f} ms"
    )


def put_off_runs(runs: list[int]) -> str:
    """How many polls in a row a page had put off before one was drawn or found quiet: what
    putting polls off cost the people, two seconds a poll."""
    once = runs.count(1)
    twice = runs.count(2)
    more = len(runs) - once - twice
    return (
        f"  polls put off in a row: once {once}, twice {twice}, three times or more {more}"
        f" (longest {max(runs, default=0)})"
    )


def machine_speed() -> float:
    """Milliseconds of CPU a fixed piece of Python work takes here (the median of five), taken
    before anything starts: shared machines run the same code at different speeds from hour to
    hour, and this says how fast this one was when the figures were taken."""
    data = {"seats": [{"name": f"P{i}", "cards": list(range(13)), "seq": i} for i in range(4)]}
    times = []
    for _ in range(5):
        start = time.process_time()
        for _ in range(3000):
            json.loads(json.dumps(data))
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times)


def by_slice(moves: list[tuple[float, float]], seconds: float, count: int = 6) -> str:
    """Moves' p99 in each of ``count`` equal slices of the run: whether the tail comes from the
    start (the backlog of tables dealt and passing at once) or from the whole run."""
    width = seconds / count if seconds else 1.0
    slices: list[list[float]] = [[] for _ in range(count)]
    for at, ms in moves:
        slices[min(count - 1, max(0, int(at // width)))].append(ms)
    parts = [f"{percentile(s, 99):.0f}" if s else "-" for s in slices]
    return f"  moves' p99 by {width:.0f} s slice (ms): {' '.join(parts)}"


def serve_two(
    stack: ExitStack, folder: Path, url: str, workers: int, logs: list[Path]
) -> list[int] | None:
    """Migrate the database at ``url`` and start an instance for each of ``logs`` (its access
    log) on it, as the Procfile runs the site, each stopped when ``stack`` closes; their ports,
    or None (said why) if the migration failed."""
    env = production_env(folder / "static", None)
    env["DATABASE_URL"] = url
    # one address deals every table here: the limits on dealing are not what is measured
    for limit in ("BROWSER", "ADDRESS"):
        env[f"HEARTS_TABLES_PER_{limit}"] = "100000/h"
    env["HEARTS_TABLES_IN_ALL"] = "100000/h"
    collectstatic(env)
    migrate = loadtest.manage(env, "migrate")
    if migrate.returncode:
        print(migrate.stdout, migrate.stderr)
        return None
    return [stack.enter_context(gunicorn(env, log, workers)) for log in logs]
