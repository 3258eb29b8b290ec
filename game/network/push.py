"""A network table in real time: each page holds one Server-Sent Events stream of its table.

The stream carries only the table's version: one event when it opens (the version as it is
then) and one each time a change is saved; between them a comment every ``HEARTBEAT_SECONDS``
keeps a router from closing an idle connection. The page compares the version with the one it
shows and, when it is behind, fetches what came after its own version through its poll's URL,
so the table is drawn and animated exactly as after a poll (hearts.js). Nothing of the table
itself goes down the stream: each seat's page is drawn for that seat by the usual view.

The streams are native async Django code (an ``async def`` view whose response is an async
generator), served on gunicorn's asyncio worker by ``serve`` below (hearts_site.streams routes
them there): an open stream costs a socket and a few objects, no thread and no connection.

How a save reaches the streams: ``announce`` runs inside the transaction that saves the row.
On PostgreSQL it sends ``NOTIFY hearts_tables, '<code> <version>'``, which PostgreSQL delivers
at commit (never for a rolled-back save) to every session listening; each worker process of
each instance holds one such session (``Hub.listen``, psycopg 3's async notifications), started
with the first stream it serves, and wakes the streams of that table. On SQLite (one machine)
the announcement stays in the process (at commit); for saves made by another worker process, a
process with open streams asks the database file every ``CHANGE_SECONDS`` (25 ms) whether any
other connection committed (``PRAGMA data_version``, answered from the WAL index in shared
memory) and reads its streamed tables' versions when one did, and once a second anyway. A listener
that loses its connection reconnects, then reads the versions of every table it streams, so a
notification lost meanwhile costs a delay, never a move.

The same listener answers most polls without a thread or a query. While it is connected, every
save of every table reaches it, so the newest version it heard of a table is the table's
version (give or take the notification's few milliseconds in flight): a poll that shows that
version, and whose redraw time has not come, gets its 204 on the event loop (``quiet_poll``),
before the Bridge, Django or the database. What the listener has not heard since it connected
goes on to QuietPollMiddleware's query, as on SQLite; a lost connection forgets everything
heard, and a round trip every ``ALIVE_SECONDS`` tells a silently dead one.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import os
import sqlite3
import threading
import time
import urllib.parse
from collections.abc import AsyncIterator

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.db import DatabaseError, close_old_connections, connection, transaction
from django.db import connections as django_connections
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponsePermanentRedirect,
    StreamingHttpResponse,
)

from game.models import Table
from game.network.state import TableState

log = logging.getLogger(__name__)

CHANNEL = "hearts_tables"
# many routers close a connection silent for 55 s (Heroku, for one)
HEARTBEAT_SECONDS = float(os.environ.get("HEARTS_HEARTBEAT_SECONDS") or 20)
STREAM_SECONDS = 600  # a stream ends after ten minutes and the page opens another (spreads
# streams over the instances after a deploy; a stream is never a connection for ever)
RETRY_MS = 1000  # how long the browser waits before it reconnects a stream that ended
WATCH_SECONDS = float(os.environ.get("HEARTS_SQLITE_WATCH_SECONDS") or 1)  # SQLite: a process
# with open streams reads their versions at least this often
# SQLite: how often a process with open streams asks the file whether another process saved
CHANGE_SECONDS = float(os.environ.get("HEARTS_SQLITE_CHANGE_SECONDS") or 0.025)
LISTEN_BACKOFF = (0.2, 5.0)  # a lost listener connection is tried again after 0.2 s, ..., 5 s
ALIVE_SECONDS = 5.0  # the listener's round trip: a connection dead without a word is left
GONE = 0  # the version announced for a table removed (expired)
BEHIND = "hearts.behind"  # scope and environ: a newer version of the polled table was heard


def announce(code: str, version: int) -> None:
    """Tell every stream of table ``code`` that ``version`` is saved: call inside the saving
    transaction. PostgreSQL sends the notification at commit; this process's own streams are
    woken at commit on any database (at once, without the round trip)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{code} {version}"])
    transaction.on_commit(lambda: hub.wake(code, version))


def announce_gone(codes: list[str]) -> None:
    """Tell every listener that these tables are removed (call inside the deleting
    transaction): a poll of one must reach the view, which says the table is gone."""
    if codes and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            for code in codes:
                cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{code} {GONE}"])


class Watch:
    """One open stream's view of its table: the newest version announced, and a wake-up."""

    def __init__(self) -> None:
        self.version = 0
        self.event = asyncio.Event()

    def offer(self, version: int) -> None:
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
        """A notification: ``<code> <version>`` saved, or ``<code> 0``, removed."""
        code, _, version = payload.partition(" ")
        if not (version.isascii() and version.isdigit()):
            return
        number = int(version)
        if number == GONE:
            self.heard.pop(code, None)
            return
        before = self.heard.get(code, (0, 0.0))[0]
        self.heard[code] = (max(before, number), time.time())
        self.offer(code, number)

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

    def streams(self) -> int:
        return sum(len(watching) for watching in self.watches.values())

    def wake(self, code: str, version: int) -> None:
        """Wake the streams of ``code`` from any thread (a move's, the loop's own)."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self.offer(code, version)
        else:
            loop.call_soon_threadsafe(self.offer, code, version)

    def offer(self, code: str, version: int) -> None:
        for found in list(self.watches.get(code, ())):
            found.offer(version)

    async def catch_up(self) -> None:
        """Read the versions of every table streamed here and wake those that moved."""
        codes = list(self.watches)
        if codes:
            for code, version in await sync_to_async(versions, thread_sensitive=False)(codes):
                self.offer(code, version)

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
    from game.network import store  # the store announces through this module

    return store.LIFETIME.total_seconds()


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


def admit(request: HttpRequest, code: str) -> int | None:
    """The table's version if this browser holds a seat at it, else None."""
    from game.network import seats, store  # the store announces through this module

    close_old_connections()
    row = store.fetch(code)
    if row is None:
        return None
    if seats.seat_of(request, code, TableState.from_json(row.state)) is None:
        return None
    return row.version


def frame(version: int) -> str:
    return f"event: table\nid: {version}\ndata: {version}\n\n"


async def stream(code: str, found: Watch) -> AsyncIterator[str]:
    """The events of one page: the version at once, then each new one, with heartbeats."""
    loop = asyncio.get_running_loop()
    try:
        yield f"retry: {RETRY_MS}\n" + frame(found.version)
        sent = found.version
        ends = loop.time() + STREAM_SECONDS
        while loop.time() < ends:
            try:
                await asyncio.wait_for(found.event.wait(), HEARTBEAT_SECONDS)
            except TimeoutError:
                yield ": still here\n\n"
                continue
            found.event.clear()
            if found.version > sent:
                sent = found.version
                yield frame(sent)
    finally:
        hub.unwatch(code, found)


def plain(status: int, text: str) -> HttpResponse:
    response = HttpResponse(text, status=status, content_type="text/plain; charset=utf-8")
    response["Cache-Control"] = "no-store"
    return response


async def events(request: HttpRequest, code: str) -> HttpResponse:
    """GET /t/<code>/events: this seat's stream of its table's versions. Only on the asyncio
    front (hearts_site.streams); elsewhere (Django's development server) a 204, which tells
    EventSource not to reconnect, and the page polls instead. A browser without a seat at the
    table gets a 404 and no stream."""
    if request.method != "GET":
        return plain(405, "Only GET opens a stream.")
    if not isinstance(request, ASGIRequest):
        response = HttpResponse(status=204)  # no stream here; not an error either
        response["Cache-Control"] = "no-store"
        return response
    found = hub.watch(code)  # before the version is read: nothing saved in between is missed
    try:
        # in the loop's shared executor: a stream keeps no thread (nor connection) of its own
        version = await sync_to_async(admit, thread_sensitive=False)(request, code)
    except DatabaseError:
        hub.unwatch(code, found)
        log.warning("streams: the table could not be read", exc_info=True)
        return plain(503, "The table could not be reached just now; the page will try again.")
    if version is None:
        hub.unwatch(code, found)
        return plain(404, "No table you sit at has this address.")
    found.offer(version)
    response = StreamingHttpResponse(stream(code, found), content_type="text/event-stream")
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # nginx, if one is in front: pass each event at once
    return response


# ---- the stream's own ASGI application ---------------------------------------------------------
#
# Django's ASGI handler would do, but it runs each request in a context of its own whose sync
# code (the middleware, the signals) gets a thread that lives as long as the request: for a
# stream, as long as the page is open. So the stream is served here: the same request object,
# the view above, and the headers the middleware would add, with no thread held meanwhile.


def stream_headers(request: HttpRequest) -> list[tuple[str, str]]:
    """What the security middleware sends with every response (a stream is no document)."""
    headers = [
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", settings.SECURE_REFERRER_POLICY or "same-origin"),
        ("Cross-Origin-Opener-Policy", settings.SECURE_CROSS_ORIGIN_OPENER_POLICY or "same-origin"),
        ("Cross-Origin-Resource-Policy", getattr(settings, "CROSS_ORIGIN_RESOURCE_POLICY", "")),
        ("X-Frame-Options", settings.X_FRAME_OPTIONS),
        ("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'"),
    ]
    if request.is_secure() and settings.SECURE_HSTS_SECONDS:
        hsts = f"max-age={settings.SECURE_HSTS_SECONDS}"
        if settings.SECURE_HSTS_INCLUDE_SUBDOMAINS:
            hsts += "; includeSubDomains"
        if settings.SECURE_HSTS_PRELOAD:
            hsts += "; preload"
        headers.append(("Strict-Transport-Security", hsts))
    return [(name, value) for name, value in headers if value]


async def serve(scope: dict, receive, send) -> None:
    """ASGI: ``GET /t/<code>/events`` (hearts_site.streams routes it here)."""
    request = ASGIRequest(scope, io.BytesIO())
    try:
        request.get_host()  # ALLOWED_HOSTS, as Django checks it
    except DisallowedHost:
        response = plain(400, "Bad Request")
    else:
        if settings.SECURE_SSL_REDIRECT and not request.is_secure():
            response = HttpResponsePermanentRedirect(f"https://{request.get_host()}{request.path}")
        else:
            response = await events(request, scope["path"].split("/")[2])
    headers = [*response.items(), *stream_headers(request)]
    await send(
        {
            "type": "http.response.start",
            "status": response.status_code,
            "headers": [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers],
        }
    )
    if not response.streaming:
        await send({"type": "http.response.body", "body": response.content})
        return
    pump = asyncio.ensure_future(relay(response, send))
    gone = asyncio.ensure_future(disconnected(receive))
    try:
        await asyncio.wait([pump, gone], return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (pump, gone):
            task.cancel()
        await asyncio.gather(pump, gone, return_exceptions=True)


async def relay(response: StreamingHttpResponse, send) -> None:
    async for chunk in response.streaming_content:
        await send({"type": "http.response.body", "body": chunk, "more_body": True})
    await send({"type": "http.response.body", "body": b""})


async def disconnected(receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


# ---- a quiet poll, answered on the event loop ------------------------------------------------


# A poll is put off only while its page is fewer versions behind than this (a trick's four cards),
# as the listener heard them: a page never falls further behind for a busy process.
LATER_VERSIONS = int(os.environ.get("HEARTS_POLL_LATER_VERSIONS") or 4)
LATER_HEADER = "Hearts-Poll"  # "later": put off by a busy process; "retry": the database failed


def query_value(query: str, name: str) -> str:
    """The last value of ``name`` in a query string, as Django's request.GET.get gives it."""
    values = [v for k, v in urllib.parse.parse_qsl(query, keep_blank_values=True) if k == name]
    return values[-1] if values else ""


async def quiet_poll(scope: dict, send, crowded: bool = False) -> bool:
    """``GET /t/<code>/poll?v=..&i=..`` of a page that shows the newest version the listener
    heard, before its redraw time: answered here with the 204 QuietPollMiddleware would give
    (its headers too), and True. False, and nothing sent, for every other poll: the front
    answers it as before.

    ``crowded``: the process's page threads all busy with others waiting, or a move being worked
    out (the front's ``Bridge.crowded``). Then a poll that would be drawn is answered here too,
    with the same 204 and ``Hearts-Poll: later``: htmx swaps nothing and asks again in two
    seconds, when one drawing shows everything that came meanwhile. A busy process thus draws
    fewer tables, and none beside a move. A page ``LATER_VERSIONS`` behind the newest version
    heard is not put off: it is drawn however busy the process."""
    from game.network.views import since_of_value, whole  # the view's own reading of ?v= ?i=

    hub.start()
    extra: list[tuple[str, str]] = []
    query = scope.get("query_string", b"").decode("latin-1")
    since = since_of_value(query_value(query, "v"))
    redraw = whole(query_value(query, "i"))
    now = time.time()
    code = scope["path"].split("/")[2]
    if since is None or (redraw is not None and 0 < redraw <= now):
        quiet = False
    else:
        quiet = hub.current(code, since, lifetime(), now)
        if not quiet and hub.behind(code, since):
            scope[BEHIND] = True  # the view draws it: QuietPollMiddleware need not ask
    if not quiet:
        if not crowded or since is None or hub.behind(code, since, LATER_VERSIONS - 1):
            return False  # the view answers it (a bad ?v= with its own page)
        extra.append((LATER_HEADER, "later"))
    request = ASGIRequest(scope, io.BytesIO())
    try:
        request.get_host()  # ALLOWED_HOSTS, as Django checks it
    except DisallowedHost:
        return False
    if settings.SECURE_SSL_REDIRECT and not request.is_secure():
        return False  # the front redirects it
    headers = [("Cache-Control", "no-store"), *extra] + [
        (name, value)
        for name, value in stream_headers(request)
        if name not in ("Content-Security-Policy", "X-Frame-Options")  # no document
    ]
    await send(
        {
            "type": "http.response.start",
            "status": 204,
            "headers": [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers],
        }
    )
    await send({"type": "http.response.body", "body": b""})
    return True
