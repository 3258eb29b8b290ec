"""What the tests of streamed tables share: the site under gunicorn as the Procfile runs it (its
database PostgreSQL when DATABASE_URL names one, else a SQLite file of the test's own), people
speaking plain HTTP to it, an event stream read as a browser reads it, and a small router in
front of several instances that sends each new connection to the first one alive."""

from __future__ import annotations

import atexit
import contextlib
import functools
import http.client
import os
import queue
import re
import shutil
import socket
import tempfile
import threading
import time
from pathlib import Path

from game.network.codes import TABLE_PATH
from tests.support.production import gunicorn, make_secret_key, production_env, run
from tools.server import browser_answer, browser_request

HOST = "127.0.0.1"


def on_postgres() -> bool:
    return os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://"))


def site_env(tmp: Path, **variables: str) -> dict[str, str]:
    """The production settings on loopback, one secret key, the database every instance shares
    (migrated: PostgreSQL's, else a SQLite file in ``tmp``); the static files collected."""
    static, migrated = prepared_site()
    if on_postgres():
        database = os.environ["DATABASE_URL"]
    else:
        shutil.copyfile(migrated, tmp / "db.sqlite3")  # a fresh database, as migrate makes it
        database = f"sqlite:///{tmp / 'db.sqlite3'}"
    return production_env(
        DJANGO_SECRET_KEY=make_secret_key(),
        DJANGO_ALLOWED_HOSTS=HOST,
        DJANGO_SECURE_SSL_REDIRECT="0",
        DJANGO_SECURE_COOKIES="0",
        DJANGO_STATIC_ROOT=str(static),
        DATABASE_URL=database,
        WEB_CONCURRENCY="1",
        **variables,
    )


PREPARE = """import django
django.setup()
from django.core.management import call_command
call_command("migrate", interactive=False, verbosity=0)
call_command("collectstatic", interactive=False, verbosity=0)
"""


@functools.cache
def prepared_site() -> tuple[Path, Path]:
    """Once a process (a pytest-xdist worker), in one start of Django: the static files
    collected, and the database migrated: PostgreSQL's (DATABASE_URL), else a SQLite file that
    ``site_env`` copies for each test. Their folder is removed when the process ends."""
    folder = Path(tempfile.mkdtemp(prefix="hearts-site-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    static, migrated = folder / "static", folder / "migrated.sqlite3"
    database = os.environ["DATABASE_URL"] if on_postgres() else f"sqlite:///{migrated}"
    env = production_env(DJANGO_STATIC_ROOT=str(static), DATABASE_URL=database)
    done = run(["-c", PREPARE], env)
    assert done.returncode == 0, done.stderr
    return static, migrated


@contextlib.contextmanager
def instance(env: dict[str, str], tmp: Path, name: str):
    """One gunicorn instance, its logs in ``tmp/name``."""
    folder = tmp / name
    folder.mkdir(exist_ok=True)
    with gunicorn(env, folder) as server:
        yield server


class Person:
    """A browser's cookies and CSRF token, speaking to one port at a time."""

    def __init__(self, name: str, port: int) -> None:
        self.name = name
        self.port = port
        self.cookies: dict[str, str] = {}
        self.token = ""
        self.code = ""

    def cookie_header(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.cookies.items())

    def send(self, method: str, path: str, form: dict | None = None, port: int = 0):
        headers, body = browser_request(self.cookies, self.token, form)
        conn = http.client.HTTPConnection(HOST, port or self.port, timeout=30)
        try:
            conn.request(method, path, body=body, headers=headers)
            answer = conn.getresponse()
            status, text = answer.status, answer.read().decode()
            self.token = browser_answer(self.cookies, self.token, answer.headers, text)
            location = answer.headers.get("Location", "")
        finally:
            conn.close()
        return status, text, location

    def deal(self) -> str:
        self.send("GET", "/network")
        status, text, location = self.send(
            "POST", "/network", {"role": "dealer", "name": self.name, "number": ""}
        )
        assert status == 303, text[:500]
        self.code = TABLE_PATH.search(location).group(1)
        return self.code

    def join(self, code: str) -> None:
        self.code = code
        self.send("GET", f"/t/{code}/")
        status, text, _ = self.send("POST", f"/t/{code}/name", {"name": self.name})
        assert status == 303, text[:500]

    def table(self, port: int = 0) -> str:
        status, text, _ = self.send("GET", f"/t/{self.code}/", port=port)
        assert status == 200, text[:500]
        return text

    def act(self, action: str, port: int = 0, **form: str) -> str:
        seq = re.search(r'data-seq="(\d+)"', self.table(port)).group(1)
        status, text, _ = self.send("POST", f"/t/{self.code}/{action}", {"seq": seq, **form}, port)
        assert status == 200, text[:500]
        refusal = re.search(r'class="status-line refusal">([^<]*)<', text)
        assert not refusal, refusal.group(1)
        return text


def version_of(html: str) -> int:
    return int(re.search(r'class="net-poll"[^>]*data-version="(\d+)"', html).group(1))


class EventStream:
    """``GET /t/<code>/events`` as EventSource sends it, read in a thread: each event's
    (name, data) goes to ``events``; ``closed`` is set when the server ends the stream."""

    def __init__(self, person: Person, port: int) -> None:
        self.sock = socket.create_connection((HOST, port), timeout=60)
        request = (
            f"GET /t/{person.code}/events HTTP/1.1\r\nHost: {HOST}\r\n"
            f"Accept: text/event-stream\r\nCookie: {person.cookie_header()}\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        self.events: queue.Queue = queue.Queue()
        self.raw = bytearray()  # every byte the server sent, its head too
        self.head = ""
        self.comments = 0  # heartbeats so far
        self.beat = threading.Condition()
        self.closed = threading.Event()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self) -> None:
        buffer = b""
        try:
            while b"\r\n\r\n" not in buffer:
                chunk = self.sock.recv(4096)
                if not chunk:
                    return
                self.raw += chunk
                buffer += chunk
            head, buffer = buffer.split(b"\r\n\r\n", 1)
            self.head = head.decode("latin-1")
            chunked = "transfer-encoding: chunked" in self.head.lower()
            text = ""
            while True:
                body, buffer = dechunk(buffer) if chunked else (buffer, b"")
                text += body.decode()
                while "\n\n" in text:
                    block, text = text.split("\n\n", 1)
                    self.parse(block)
                chunk = self.sock.recv(4096)
                if not chunk:
                    return
                self.raw += chunk
                buffer += chunk
        except OSError:
            return
        finally:
            self.closed.set()

    def parse(self, block: str) -> None:
        name, data = "message", []
        for line in block.split("\n"):
            if line.startswith(":"):
                with self.beat:
                    self.comments += 1
                    self.beat.notify_all()
            elif line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].strip())
        if data:
            self.events.put((name, "\n".join(data)))

    def next_version(self, timeout: float = 30) -> int:
        """The next version told: by itself, or as the step's public part ("drawn", its first
        line the version before, the version and the seat)."""
        name, data = self.events.get(timeout=timeout)
        assert name in ("table", "drawn"), name
        return int(data) if name == "table" else int(data.split("\n")[0].split()[1])

    def wait_for(self, version: int, timeout: float = 30) -> int:
        """The first version told that is at least ``version``."""
        deadline = time.monotonic() + timeout
        while True:
            told = self.next_version(max(0.01, deadline - time.monotonic()))
            if told >= version:
                return told

    def wait_for_beats(self, count: int, timeout: float = 30) -> None:
        """Wait until ``count`` heartbeats have come in all: however slow the machine, a
        heartbeat comes; only a stream that has stopped beating runs out the ``timeout``."""
        with self.beat:
            beating = self.beat.wait_for(lambda: self.comments >= count, timeout)
        assert beating, f"{self.comments} heartbeats of {count} in {timeout} s"

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


def dechunk(buffer: bytes) -> tuple[bytes, bytes]:
    """The whole chunks at the start of ``buffer`` (their data), and what is left."""
    out = b""
    while b"\r\n" in buffer:
        size_line, rest = buffer.split(b"\r\n", 1)
        size = int(size_line.split(b";")[0] or b"0", 16)
        if len(rest) < size + 2:
            break
        out += rest[:size]
        buffer = rest[size + 2 :]
    return out, buffer


def listeners(database: str) -> dict[str, int]:
    """PostgreSQL's listener sessions (application name ``hearts-listener-<worker pid>``): the
    backend's pid of each."""
    import psycopg

    with psycopg.connect(database, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT application_name, pid FROM pg_stat_activity "
            "WHERE application_name LIKE 'hearts-listener-%'"
        ).fetchall()
    return dict(rows)


def wait_listening(database: str, workers: set[int], timeout: float = 30) -> None:
    """Wait until the listener of one of these worker processes has run its ``LISTEN``: from
    then on every save reaches it. pg_stat_activity shows the session idle after its latest
    statement, the ``LISTEN`` (or the round trip the listener makes every few seconds after
    it; it makes none before)."""
    import psycopg

    names = [f"hearts-listener-{pid}" for pid in workers]
    deadline = time.monotonic() + timeout
    with psycopg.connect(database, autocommit=True) as conn:
        while not conn.execute(
            "SELECT 1 FROM pg_stat_activity WHERE application_name = ANY(%s) AND state = 'idle'"
            " AND (query LIKE 'LISTEN %%' OR query = 'SELECT 1')",
            [names],
        ).fetchone():
            assert time.monotonic() < deadline, f"no listener of {sorted(workers)} listens"
            time.sleep(0.05)


class Router:
    """A router in front of instances, as a platform's: each new connection goes to the first
    backend that accepts it, in order; the bytes are copied both ways."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        self.listener = socket.create_server((HOST, 0))
        self.port = self.listener.getsockname()[1]
        self.sent_to: list[int] = []
        threading.Thread(target=self.serve, daemon=True).start()

    def serve(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self.carry, args=(client,), daemon=True).start()

    def carry(self, client: socket.socket) -> None:
        for port in self.ports:
            try:
                backend = socket.create_connection((HOST, port), timeout=2)
            except OSError:
                continue
            backend.settimeout(None)
            self.sent_to.append(port)
            threading.Thread(target=copy, args=(backend, client), daemon=True).start()
            copy(client, backend)
            return
        client.close()

    def close(self) -> None:
        self.listener.close()


def copy(source: socket.socket, sink: socket.socket) -> None:
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            sink.sendall(data)
    except OSError:
        pass
    finally:
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)


def a_table_for_two(port: int, names: tuple[str, str] = ("Ada", "Bea")) -> tuple[Person, Person]:
    """A dealer and a friend who sat down by the link: a table for two, not started."""
    dealer, friend = Person(names[0], port), Person(names[1], port)
    friend.join(dealer.deal())
    return dealer, friend


def hand_of(person: Person) -> list[str]:
    """The cards of the person's hand not raised (not yet chosen to pass)."""
    return re.findall(r'name="card" value="(\w\w)" class="card face-\w\w"', person.table())


LIT_IN_PLAY = re.compile(r'action="[^"]*/play".*?value="(\w\w)" class="card face-\w\w">', re.S)
UNRAISED = re.compile(r'name="card" value="(\w\w)" class="card face-\w\w"')
ON_THE_TABLE = re.compile(r'class="played at-\w+ face-\w\w" role="img"')


def act_as_asked(person: Person) -> str:
    """What ``person``'s table asks of them, done over HTTP: "accept", "select", "pass",
    "play" or "" (nothing)."""
    html = person.table()
    if '/accept"' in html:
        person.act("accept")
        return "accept"
    if '/select"' in html:
        if re.search(r'id="pass-button"(?! disabled)>', html):
            person.act("pass")
            return "pass"
        person.act("select", card=UNRAISED.search(html).group(1))
        return "select"
    lit = LIT_IN_PLAY.search(html)
    if lit and "Select a card to play." in html:
        person.act("play", card=lit.group(1))
        return "play"
    return ""
