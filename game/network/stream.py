"""A network table in real time: each page holds one Server-Sent Events stream of its table.

The stream tells the table's version: one event when it opens (the version as it is then) and
one each time a change is saved; between them a comment every ``HEARTBEAT_SECONDS`` keeps a
router from closing an idle connection. The page compares the version with the one it shows
and, when it is behind, fetches what came after its own version through its poll's URL, so the
table is drawn and animated exactly as after a poll (static/js/network.js). During a hand's
play a seat that did nothing in the step is sent the step's public part instead (a ``drawn``
event, ``game.network.public``: drawn once in this process for all the table's streams, the
seat whose turn came with its lit hand), which its page turns to itself and draws without a
request. The bus (``game.network.bus``) wakes the streams when a save is announced.

The streams are native async Django code (an ``async def`` view whose response is an async
generator), served on gunicorn's asyncio worker by ``serve`` below (hearts_site.streams routes
them there): an open stream costs a socket and a few objects, no thread and no connection.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
from collections.abc import AsyncIterator

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.db import DatabaseError, close_old_connections
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponsePermanentRedirect,
    StreamingHttpResponse,
)

from game.network import bus, presence, public, seats, store
from game.network.bus import Watch
from game.network.state import TableState

log = logging.getLogger(__name__)

# many routers close a connection silent for 55 s (Heroku, for one)
HEARTBEAT_SECONDS = float(os.environ.get("HEARTS_HEARTBEAT_SECONDS") or 20)
STREAM_SECONDS = 600  # a stream ends after ten minutes and the page opens another (spreads
# streams over the instances after a deploy; a stream is never a connection for ever)
RETRY_MS = 1000  # how long the browser waits before it reconnects a stream that ended


def admit(request: HttpRequest, code: str) -> tuple[int, str, int | None] | None:
    """The table's version if this browser holds a seat at it (or waits for one), with the
    seat's token hash and number (empty and None for one waiting), else None. A person marked
    as gone is back."""
    close_old_connections()
    row = store.fetch(code)
    if row is None:
        return None
    state = TableState.from_json(row.state)
    seat = seats.seat_of(request, code, state)
    if seat is None:
        return None if seats.heir_of(request, code, state) is None else (row.version, "", None)
    presence.hold(row, state.seats[seat].token_hash)
    presence.back(row, state, seat)
    return row.version, state.seats[seat].token_hash, seat


def frame(version: int) -> str:
    return f"event: table\nid: {version}\ndata: {version}\n\n"


def drawn_frame(step: public.Step, seat: int, own: str = "") -> str:
    """The public part of a step, for the page of ``seat`` to turn to itself. Its first line:
    the version the page must show to take it, the version it draws, the seat, and how many
    lines of the seat's own part (its lit hand, for the seat whose turn came) come first."""
    count = own.count("\n") + 1 if own else 0
    head = f"event: drawn\nid: {step.version}\ndata: {step.since} {step.version} {seat} {count}\n"
    return f"{head}{own}\n{step.data}\n\n" if own else f"{head}{step.data}\n\n"


async def told(code: str, since: int, version: int, holder: str) -> str:
    """What a seat's page is sent of a new version: the public part of the step, drawn once
    for all the streams of the table here, when the seat only watched it (with its lit hand
    when its turn came); else the version, and the page fetches."""
    if holder:
        try:
            step = await public.step(code, since, version)
        except Exception:  # the database failing, or worse: the page fetches, as it would
            log.exception("streams: the step could not be drawn")
            step = None
        own = None if step is None else step.own(holder)
        if own is not None:
            return drawn_frame(step, *own)
    return frame(version)


async def stream(code: str, found: Watch, holder: str = "") -> AsyncIterator[str]:
    """The events of one page: the version at once, then each new one (or the step's public
    part, for a seat that only watched it), with heartbeats. ``holder``: the seat's token
    hash ("" for a page waiting for a seat)."""
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
                since, sent = sent, found.version
                yield await told(code, since, sent, holder)
    finally:
        bus.hub.unwatch(code, found)
        if code not in bus.hub.watches:
            public.forget(code)


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
    found = bus.hub.watch(code)  # before the version is read: nothing saved in between is missed
    try:
        # in the loop's shared executor: a stream keeps no thread (nor connection) of its own
        admitted = await sync_to_async(admit, thread_sensitive=False)(request, code)
    except DatabaseError:
        bus.hub.unwatch(code, found)
        log.warning("streams: the table could not be read", exc_info=True)
        return plain(503, "The table could not be reached just now; the page will try again.")
    if admitted is None:
        bus.hub.unwatch(code, found)
        return plain(404, "No table you sit at has this address.")
    version, holder, found.seat = admitted
    found.offer(version)
    response = StreamingHttpResponse(stream(code, found, holder), content_type="text/event-stream")
    response.seat_holder = holder  # for ``serve``: whose presence this stream is
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


def code_of(scope: dict) -> str:
    """The table's code in a stream's path, /t/<code>/events."""
    return scope["path"].split("/")[2]


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
            response = await events(request, code_of(scope))
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
    holder = getattr(response, "seat_holder", "")  # a seat's page: it is here while this lasts
    if holder:
        presence.opened(code_of(scope), holder)
    by_browser = False  # the stream ended by the browser going, not by the server's doing
    try:
        done, _ = await asyncio.wait([pump, gone], return_when=asyncio.FIRST_COMPLETED)
        # the stream's ten minutes are up: the page reconnects at once; anything else (the
        # browser disconnected, or a send to it failed) is the page gone
        by_browser = not (pump in done and pump.exception() is None)
    finally:
        for task in (pump, gone):
            task.cancel()
        await asyncio.gather(pump, gone, return_exceptions=True)
        if holder:
            presence.closed(code_of(scope), holder, by_browser)


async def relay(response: StreamingHttpResponse, send) -> None:
    async for chunk in response.streaming_content:
        await send({"type": "http.response.body", "body": chunk, "more_body": True})
    await send({"type": "http.response.body", "body": b""})


async def disconnected(receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass
