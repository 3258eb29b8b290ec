"""The ASGI application gunicorn's asyncio worker serves: Django's WSGI handler in two thread pools.

gunicorn's ``asgi`` worker reads every request's headers and body on its event loop, so a slow
client costs an idle socket, never a thread. Once a request is whole, it runs through Django's
plain WSGI handler (the same middleware and views as everywhere, in one thread hop) in one of
two pools: moves (POST) run in a few threads of their own, and the CPU work among them, the
computer players' thinking, is one at a time per process (game.seating.Clock), so a move that
needs no thinking does not queue behind one that does; everything else (pages, /healthz,
static files) has threads of its own and never waits behind a move. The time a request waited
for its thread is its Server-Timing ``queue``.

The body is read only after ``hearts_site.guard.refusal`` has accepted the headers (so at most
``MAX_BODY_BYTES``, in memory); a refused request reaches Django with no body, and the guard
middleware answers it with our page.
"""

from __future__ import annotations

import asyncio
import io
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from game.network.codes import BEHIND  # game.network.quiet: this poll's page is behind
from hearts_site.accesslog import ANSWER, CLIENT_CLOSED
from hearts_site.guard import max_body_bytes, refusal

QUEUE_KEY = "hearts.queue_ms"  # the environ key ServerTimingMiddleware reads
GONE_WAIT_SECONDS = 0.05  # client_gone: a client still there is heard of no sooner


class Bridge:
    """Serve a WSGI application over ASGI: ``moves`` threads for POST, ``pages`` for the rest."""

    def __init__(
        self,
        wsgi_app: Callable,
        pages: int = 2,
        moves: int = 1,
        backlog: int = 0,
        moving: int = 0,
    ) -> None:
        self.wsgi_app = wsgi_app
        self.pages = ThreadPoolExecutor(pages, thread_name_prefix="pages")
        self.moves = ThreadPoolExecutor(moves, thread_name_prefix="moves")
        self.backlog = backlog  # 0: page requests waiting never make the process crowded
        self.waiting = 0  # page requests handed to the pool that no thread has begun yet
        self.moving_limit = moving  # 0: moves never make the process crowded
        self.moving = 0  # moves handed to their pool and not yet answered (on the event loop)
        self.counting = threading.Lock()

    def crowded(self) -> bool:
        """Whether ``backlog`` page requests or more wait for a thread (all of them busy), or
        ``moving`` moves or more are being worked out: hearts_site.streams then answers a poll
        "later" rather than draw a table that would take the interpreter from them."""
        return 0 < self.backlog <= self.waiting or 0 < self.moving_limit <= self.moving

    def _count(self, change: int) -> None:
        with self.counting:
            self.waiting += change

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] == "lifespan":
            await lifespan(receive, send)
            return
        if scope["type"] != "http":  # no websockets here
            return
        headers = header_map(scope)
        method = scope["method"]
        refused = refusal(method, headers)
        body = b"" if refused else await read_body(receive, max_body_bytes())
        environ = build_environ(scope, headers, body)
        pool = self.moves if method == "POST" and not refused else self.pages
        queued = time.perf_counter()
        loop = asyncio.get_running_loop()
        page = pool is self.pages
        if page:
            self._count(1)
        else:
            self.moving += 1
        try:
            status, response_headers, content = await loop.run_in_executor(
                pool, self.run, environ, queued, page
            )
        except asyncio.CancelledError:
            # gunicorn cancels a request asgi_disconnect_grace_period after its client went away
            # (or when a worker stops): say which in the access log (hearts_site.accesslog).
            if await client_gone(receive):
                ANSWER.set(CLIENT_CLOSED)
            raise
        finally:
            if not page:
                self.moving -= 1
        # Once the client has gone, gunicorn drops the answer silently (hearts_site.accesslog).
        await send({"type": "http.response.start", "status": status, "headers": response_headers})
        ANSWER.set(status)
        await send({"type": "http.response.body", "body": b"" if method == "HEAD" else content})

    def run(self, environ: dict, queued: float, page: bool = False) -> tuple[int, list, bytes]:
        """Call the WSGI application in a pool's thread; the whole answer, as bytes."""
        if page:
            self._count(-1)
        environ[QUEUE_KEY] = (time.perf_counter() - queued) * 1000
        started: list = []

        def start_response(status: str, headers: list, exc_info: Any = None) -> Callable:
            started[:] = [status, headers]
            return lambda data: None  # Django never uses write()

        result = self.wsgi_app(environ, start_response)
        try:
            content = b"".join(result)
        finally:
            close = getattr(result, "close", None)
            if close is not None:
                close()
        status, headers = started
        encoded = [
            (name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers
        ]
        return int(status.split(" ", 1)[0]), encoded, content


async def lifespan(receive: Callable, send: Callable) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


def header_map(scope: dict) -> dict[str, str]:
    """Lower-case names to values; repeated headers joined (cookies with "; ")."""
    found: dict[str, list[str]] = {}
    for raw_name, raw_value in scope.get("headers", []):
        found.setdefault(raw_name.decode("latin-1").lower(), []).append(raw_value.decode("latin-1"))
    return {
        name: ("; " if name == "cookie" else ",").join(values) for name, values in found.items()
    }


async def client_gone(receive: Callable) -> bool:
    """Whether the client has gone away, asked of ``receive`` once the body is read: gunicorn
    answers ``http.disconnect`` at once then, and otherwise only when the client goes."""
    try:
        message = await asyncio.wait_for(receive(), GONE_WAIT_SECONDS)
    except TimeoutError:
        return False
    return message["type"] == "http.disconnect"


async def read_body(receive: Callable, limit: int) -> bytes:
    """The body the server framed by its Content-Length (at most ``limit``: refusal() checked)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break  # the client went away
        chunks.append(message.get("body", b""))
        size += len(chunks[-1])
        if size > limit or not message.get("more_body", False):
            break
    return b"".join(chunks)[:limit]


def build_environ(scope: dict, headers: dict[str, str], body: bytes) -> dict:
    """The WSGI environ for an ASGI HTTP scope, as gunicorn's own WSGI workers build it."""
    script_name = scope.get("root_path", "").encode("utf-8").decode("latin-1")
    path_info = scope["path"].encode("utf-8").decode("latin-1")
    if script_name and path_info.startswith(script_name):
        path_info = path_info[len(script_name) :]
    server = scope.get("server") or ("localhost", 80)
    environ = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": script_name,
        "PATH_INFO": path_info,
        "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "SERVER_NAME": str(server[0]),
        "SERVER_PORT": str(server[1] if server[1] is not None else 80),
        "REMOTE_ADDR": (scope.get("client") or ("", 0))[0],
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    if scope.get(BEHIND):
        environ[BEHIND] = True
    for name, value in headers.items():
        if "_" in name:
            continue  # X_Forwarded_Proto must not pass for X-Forwarded-Proto (gunicorn drops it)
        if name == "content-type":
            environ["CONTENT_TYPE"] = value
        elif name == "content-length":
            environ["CONTENT_LENGTH"] = value  # as sent: the guard refuses from it
        else:
            environ["HTTP_" + name.upper().replace("-", "_")] = value
    return environ
