"""A quiet poll: most polls find nothing new and get a 204 of a few hundred bytes, answered as
early as can be. ``quiet_poll`` answers on the event loop, before the Bridge, Django or the
database, a poll whose page shows the newest version the bus's listener heard
(``game.network.bus``); ``QuietPollMiddleware`` answers the others that are quiet with one
indexed query of one row, before the session, CSRF or the view. Whatever is not quiet goes on
to the ``poll`` view, which draws the table. Here too: how a poll's ``?v=`` (the version its
page shows) and ``?i=`` (when it must be drawn again) are read, once for all three.
"""

from __future__ import annotations

import io
import os
import time
import urllib.parse

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from game.models import LIFETIME, Table
from game.network import bus, store
from game.network.codes import BEHIND, CODE_PATTERN, path_pattern
from game.network.stream import stream_headers

# A poll is put off only while its page is fewer versions behind than this (a trick's four cards),
# as the listener heard them: a page never falls further behind for a busy process.
LATER_VERSIONS = int(os.environ.get("HEARTS_POLL_LATER_VERSIONS") or 4)
LATER_HEADER = "Hearts-Poll"  # "later": put off by a busy process; "retry": the database failed


def whole(value: str) -> int | None:
    """A whole number of at most 11 ASCII digits, or None (Unicode digits such as "²" too)."""
    return int(value) if value.isascii() and value.isdigit() and len(value) < 12 else None


def since_of(request: HttpRequest) -> int | None:
    """The version a page showed, from ?v=: ASCII digits only (str.isdigit() takes "²")."""
    return since_of_value(request.GET.get("v", ""))


def since_of_value(value: str) -> int | None:
    return int(value) if value.isascii() and value.isdigit() and len(value) < 10 else None


def ask_again() -> HttpResponse:
    """A poll's answer when the database failed: the quiet 204, ``Hearts-Poll: retry``."""
    response = nothing_new()
    response[LATER_HEADER] = "retry"
    return response


def nothing_new() -> HttpResponse:
    """The answer to most polls, kept to a few hundred bytes: no body, so none of the headers
    that only a document needs (its Content-Type, the CSP, X-Frame-Options); htmx swaps
    nothing on a 204."""
    response = HttpResponse(status=204)
    del response["Content-Type"]
    response["Cache-Control"] = "no-store"  # a caching proxy must not answer the next poll
    response._csp_exempt = True  # django-csp's own flag, as its @csp_exempt sets it
    response.xframe_options_exempt = True
    return response


QUIET_SQL = "SELECT 1 FROM {table} WHERE code = %s AND version = %s AND touched >= %s"


def quiet(code: str, since: int | None, redraw: int | None) -> bool:
    """Whether a page showing version ``since`` of this table has nothing new to draw: the
    version is current, the table alive, and the time the page said it must be redrawn
    (``redraw``, a Unix second from ?i=, when a seat's replace button falls due) has not come.
    One indexed query of one row, no model built."""
    if since is None or not CODE_PATTERN.fullmatch(code):
        return False
    now = timezone.now()
    if redraw is not None and 0 < redraw <= now.timestamp():
        return False
    adapt = connection.ops.adapt_datetimefield_value
    with connection.cursor() as cursor:
        cursor.execute(
            QUIET_SQL.format(table=connection.ops.quote_name(Table._meta.db_table)),
            [code, since, adapt(now - LIFETIME)],
        )
        return cursor.fetchone() is not None


POLL_PATH = path_pattern("poll")
QUIET_ASKED = "hearts.quiet_asked"  # QuietPollMiddleware found this poll not quiet


class QuietPollMiddleware:
    """Answer a poll that finds nothing new (most of them) before the rest of the stack: no
    session, CSRF, URL routing or view, only ``quiet``'s query. Placed under the middleware
    that add the security headers, so the 204 carries them; any other request, or a poll
    that finds something, goes on to the ``poll`` view."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        found = POLL_PATH.fullmatch(request.path_info)
        if found and request.method in ("GET", "HEAD") and not request.META.get("CONTENT_LENGTH"):
            # the front may have heard of a newer version already: then it is not quiet
            behind = request.META.get(BEHIND)
            try:
                if not behind and quiet(
                    found.group(1), since_of(request), whole(request.GET.get("i", ""))
                ):
                    return nothing_new()
            except Exception as error:
                if not store.database_failed(error):
                    raise
                store.noted(error)
                return ask_again()
            request.META[QUIET_ASKED] = True  # the view need not ask again
        return self.get_response(request)


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
    bus.hub.start()
    extra: list[tuple[str, str]] = []
    query = scope.get("query_string", b"").decode("latin-1")
    since = since_of_value(query_value(query, "v"))
    redraw = whole(query_value(query, "i"))
    now = time.time()
    code = scope["path"].split("/")[2]
    if since is None or (redraw is not None and 0 < redraw <= now):
        quiet = False
    else:
        quiet = bus.hub.current(code, since, bus.lifetime(), now)
        if not quiet and bus.hub.behind(code, since):
            scope[BEHIND] = True  # the view draws it: QuietPollMiddleware need not ask
    if not quiet:
        if not crowded or since is None or bus.hub.behind(code, since, LATER_VERSIONS - 1):
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
