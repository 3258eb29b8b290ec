"""The bus: how a saved table reaches the streams and the quiet polls of every process. It
imports only the row's model; the stream (``game.network.stream``) and the quiet poll
(``game.network.quiet``) sit above it, and the row store announces through it.

How a save reaches the streams: ``announce`` runs inside the transaction that saves the row.
On PostgreSQL it sends ``NOTIFY hearts_tables, '<code> <version>'``, which PostgreSQL delivers
at commit (never for a rolled-back save) to every session listening; each worker process of
each instance holds one such session (``Hub.listen``, psycopg 3's async notifications), started
with the first stream it serves, and wakes the streams of that table. On SQLite (one machine)
the announcement stays in the process (at commit); for saves made by another worker process, a
process with open streams asks the database file every ``CHANGE_SECONDS`` (25 ms) whether any
other connection committed (``PRAGMA data_version``, answered from the WAL index in shared
memory) and reads its streamed tables' versions when one did, and once a second anyway. A
listener that loses its connection reconnects, then reads the versions of every table it
streams, so a notification lost meanwhile costs a delay, never a move.

The same listener answers most polls without a thread or a query. While it is connected, every
save of every table reaches it, so the newest version it heard of a table is the table's
version (give or take the notification's few milliseconds in flight): ``Hub.current`` says so
for ``game.network.quiet``. A lost connection forgets everything heard, and a round trip every
``ALIVE_SECONDS`` tells a silently dead one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import threading
import time

from asgiref.sync import sync_to_async
from django.db import DatabaseError, close_old_connections, connection, transaction
from django.db import connections as django_connections

from game.models import LIFETIME, Table

log = logging.getLogger(__name__)

CHANNEL = "hearts_tables"
WATCH_SECONDS = float(os.environ.get("HEARTS_SQLITE_WATCH_SECONDS") or 1)  # SQLite: a process
# with open streams reads their versions at least this often
# SQLite: how often a process with open streams asks the file whether another process saved
CHANGE_SECONDS = float(os.environ.get("HEARTS_SQLITE_CHANGE_SECONDS") or 0.025)
LISTEN_BACKOFF = (0.2, 5.0)  # a lost listener connection is tried again after 0.2 s, ..., 5 s
ALIVE_SECONDS = 5.0  # the listener's round trip: a connection dead without a word is left
GONE = 0  # the version announced for a table removed (expired)
SAVED_KEPT = 16  # the versions of a table saved here whose seat a read-back version is told by


def payload(code: str, version: int, only: int | None = None) -> str:
    """What a notification of ``version`` of table ``code`` says (``only``: see ``announce``)."""
    return f"{code} {version}" if only is None else f"{code} {version} {only}"


def announce(code: str, version: int, only: int | None = None, sent: bool = False) -> None:
    """Tell every stream of table ``code`` that ``version`` is saved: call inside the saving
    transaction. PostgreSQL sends the notification at commit; this process's own streams are
    woken at commit on any database (at once, without the round trip). ``only``: the one seat
    whose pages see anything new (a card selected), so the other seats' pages are not woken
    to fetch a table drawn as they have it (``<code> <version> <seat>``). ``sent``: the saving
    statement itself called ``pg_notify`` with ``payload`` (``store.save_if_current``)."""
    if connection.vendor == "postgresql" and not sent:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, payload(code, version, only)])
    hub.saving(code, version, only)
    transaction.on_commit(lambda: hub.committed(code, version, only))


def announce_gone(codes: list[str]) -> None:
    """Tell every listener that these tables are removed (call inside the deleting
    transaction): a poll of one must reach the view, which says the table is gone."""
    if codes and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            for code in codes:
                cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{code} {GONE}"])


class Watch:
    """One open stream's view of its table: the newest version announced, and a wake-up; its
    ``seat`` (None until known, or for a page waiting for a seat) is woken by the versions
    that concern one seat only when they are its own."""

    def __init__(self) -> None:
        self.version = 0
        self.event = asyncio.Event()
        self.seat: int | None = None

    def offer(self, version: int, only: int | None = None) -> None:
        if only is not None and self.seat is not None and self.seat != only:
            return  # another seat's private change: nothing of this page's table moved
        if version > self.version:
            self.version = version
            self.event.set()


class Hub:
    """The streams open in this process, by table, and what wakes them."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.watches: dict[str, set[Watch]] = {}
        self.task: asyncio.Task | None = None
        self.listening = False  # PostgreSQL: the LISTEN session is connected now
        self.watched = asyncio.Event()  # SQLite: set when a stream opens here
        # PostgreSQL: code -> (the newest version heard since the session connected, when)
        self.heard: dict[str, tuple[int, float]] = {}
        # code -> {a version saved in this process: the one seat it concerns or None}, the last
        # SAVED_KEPT, written by the saving thread before it commits: a version read back from
        # the database (SQLite's watch, a catch-up) wakes only that seat's pages, as its
        # announcement does, even when the read is older than a save made meanwhile
        self.saved_here: dict[str, dict[int, int | None]] = {}
        self.saving_lock = threading.Lock()

    def start(self) -> None:
        """Start the listener if it is not running (call on the event loop)."""
        loop = asyncio.get_running_loop()
        if loop is not self.loop:
            self.watched = asyncio.Event()  # an event belongs to one loop
        self.loop = loop
        if self.task is None or self.task.done():
            self.task = self.loop.create_task(self.listen())

    def watch(self, code: str) -> Watch:
        """A new stream's watch (call on the event loop); starts the listener with the first."""
        found = Watch()
        self.watches.setdefault(code, set()).add(found)
        self.start()
        self.watched.set()
        return found

    def hear(self, payload: str) -> None:
        """A notification: ``<code> <version>`` saved (``<code> <version> <seat>``: a change
        only that seat's pages see), or ``<code> 0``, removed."""
        code, _, rest = payload.partition(" ")
        version, _, seat = rest.partition(" ")
        if not (version.isascii() and version.isdigit()):
            return
        only = int(seat) if seat in ("0", "1", "2", "3") else None
        number = int(version)
        if number == GONE:
            self.heard.pop(code, None)
            return
        before = self.heard.get(code, (0, 0.0))[0]
        self.heard[code] = (max(before, number), time.time())
        self.offer(code, number, only)

    def forget(self, older_than: float) -> None:
        """Drop what was heard of tables silent since ``older_than`` (a Unix time)."""
        self.heard = {code: found for code, found in self.heard.items() if found[1] >= older_than}

    def behind(self, code: str, since: int, by: int = 0) -> bool:
        """Whether a version of ``code`` newer than ``since`` by more than ``by`` was heard."""
        found = self.heard.get(code) if self.listening else None
        return found is not None and found[0] > since + by

    def current(self, code: str, since: int, lifetime: float, now: float) -> bool:
        """Whether version ``since`` of table ``code`` is, as heard, its newest and alive."""
        found = self.heard.get(code) if self.listening else None
        return found is not None and found[0] == since and now - found[1] < lifetime

    def unwatch(self, code: str, found: Watch) -> None:
        watching = self.watches.get(code)
        if watching is not None:
            watching.discard(found)
            if not watching:
                del self.watches[code]
                self.saved_here.pop(code, None)

    def streams(self) -> int:
        return sum(len(watching) for watching in self.watches.values())

    def saving(self, code: str, version: int, only: int | None) -> None:
        """A save of this process, about to commit (its announcement is the last thing in its
        transaction): note whom it concerns now, not at commit, and beside the versions saved
        before it, so that a version read back from the database (SQLite's watch looks every
        25 ms) wakes only that seat's pages too: read between the commit and ``committed``, or
        read before a later save committed and offered after it."""
        if code not in self.watches:
            return
        with self.saving_lock:
            saved = self.saved_here.setdefault(code, {})
            saved[version] = only
            if len(saved) > SAVED_KEPT:
                del saved[min(saved)]

    def committed(self, code: str, version: int, only: int | None) -> None:
        """A save of this process is committed (in the saving thread; ``saving`` noted whom it
        concerns before): wake the streams."""
        self.wake(code, version, only)

    def wake(self, code: str, version: int, only: int | None = None) -> None:
        """Wake the streams of ``code`` from any thread (a move's, the loop's own)."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self.offer(code, version, only)
        else:
            loop.call_soon_threadsafe(self.offer, code, version, only)

    def offer(self, code: str, version: int, only: int | None = None) -> None:
        for found in list(self.watches.get(code, ())):
            found.offer(version, only)

    async def catch_up(self) -> None:
        """Read the versions of every table streamed here and wake those that moved."""
        codes = list(self.watches)
        if codes:
            for code, version in await sync_to_async(versions, thread_sensitive=False)(codes):
                self.offer(code, version, self.saved_here.get(code, {}).get(version))

    async def watch_sqlite(self) -> None:
        """SQLite: while streams are open here, ask the database file every ``CHANGE_SECONDS``
        whether any other connection (another worker's save) has committed since the last look
        (``PRAGMA data_version``: a read of the WAL index in shared memory, no query, no lock
        waited for), and read the streamed tables' versions only when one has. A database SQLite
        holds in memory (no file another process could share) is read once a second instead."""
        path = sqlite_file()
        looker = None
        seen = None
        looked = 0.0
        while True:
            if not self.watches:  # no stream here, nothing to tell: wait for the first
                self.watched.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.watched.wait(), WATCH_SECONDS)
                continue
            await asyncio.sleep(CHANGE_SECONDS if path else WATCH_SECONDS)
            changed = True
            if path:
                try:
                    if looker is None:
                        looker = sqlite3.connect(path, timeout=0, check_same_thread=False)
                    now = looker.execute("PRAGMA data_version").fetchone()[0]
                except sqlite3.Error:
                    log.warning("streams: the database file unread", exc_info=True)
                    if looker is not None:
                        looker.close()
                    looker = None
                    now = None
                # a change, or (whatever the looks said) a read once every WATCH_SECONDS
                changed = now is None or now != seen or time.monotonic() - looked > WATCH_SECONDS
                seen = now
            if changed:
                looked = time.monotonic()
                try:
                    await self.catch_up()
                except DatabaseError:
                    log.warning("streams: versions unread", exc_info=True)

    async def listen(self) -> None:
        """The process's one listener: PostgreSQL's notifications, else a look once a second."""
        if connection.vendor != "postgresql":
            await self.watch_sqlite()
        import psycopg  # only PostgreSQL needs it

        delay = LISTEN_BACKOFF[0]
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    os.environ.get("HEARTS_LISTEN_DATABASE_URL", ""),
                    **listen_params(),
                    autocommit=True,
                ) as session:
                    await session.execute(f"LISTEN {CHANNEL}")
                    self.listening = True
                    delay = LISTEN_BACKOFF[0]
                    await self.catch_up()  # whatever was saved while nobody listened
                    while True:
                        async for note in session.notifies(timeout=ALIVE_SECONDS):
                            self.hear(note.payload)
                        # a connection cut without a word would leave polls answered from
                        # stale news: a round trip proves it alive (psycopg keeps what
                        # arrives meanwhile for the next notifies())
                        await asyncio.wait_for(session.execute("SELECT 1"), ALIVE_SECONDS)
                        self.forget(time.time() - lifetime())
            except (psycopg.Error, OSError, DatabaseError, TimeoutError):
                log.warning("streams: the listener reconnects", exc_info=True)
            finally:
                self.listening = False
                self.heard.clear()  # saves may go unheard from now on
            await asyncio.sleep(delay)
            delay = min(delay * 2, LISTEN_BACKOFF[1])


hub = Hub()


def lifetime() -> float:
    return LIFETIME.total_seconds()


def listen_params() -> dict:
    """How to reach the database, as Django does, without what only a sync connection takes;
    none of it when HEARTS_LISTEN_DATABASE_URL names another address (a direct one, where
    DATABASE_URL is a pooler in transaction mode, which does not carry LISTEN)."""
    params = {}
    if not os.environ.get("HEARTS_LISTEN_DATABASE_URL"):
        params = django_connections["default"].get_connection_params()
        for key in ("cursor_factory", "context", "prepare_threshold"):
            params.pop(key, None)
    params["application_name"] = f"hearts-listener-{os.getpid()}"  # in pg_stat_activity
    return params


def sqlite_file() -> str | None:
    """The SQLite database's file, or None when it is held in memory (tests) or not SQLite."""
    if connection.vendor != "sqlite":
        return None
    name = str(django_connections["default"].settings_dict["NAME"])
    if not name or name == ":memory:" or "mode=memory" in name or not os.path.exists(name):
        return None
    return name


def versions(codes: list[str]) -> list[tuple[str, int]]:
    """The current version of each of these tables (in a worker thread)."""
    close_old_connections()
    try:
        return list(Table.objects.filter(code__in=codes).values_list("code", "version"))
    finally:
        if threading.current_thread() is not threading.main_thread():
            connection.close()  # the executor's threads keep no connection between looks
