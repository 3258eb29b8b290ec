"""The front's forks: a network table's event stream goes to game.network.stream.serve (native
async Django code, no thread held while the stream is open); a poll of a table whose newest
version the process heard of may be answered by game.network.quiet.quiet_poll on the event
loop, and so may any poll while the front is crowded (answered "later": Bridge.crowded); the
rest goes to the Bridge."""

from __future__ import annotations

from collections.abc import Callable

from django.utils.module_loading import import_string

from game.network.codes import path_pattern

EVENTS_PATH = path_pattern("events")  # /t/<code>/events (game.network.stream)
POLL_PATH = path_pattern("poll")


class Streams:
    """Send ``GET /t/<code>/events`` without a body to ``streams``, the rest to ``front``.

    A request with a body (or another method) goes to the front, whose guard and thread
    pools answer it as any other request: the ASGI handler would read a body of any size."""

    def __init__(self, front: Callable, streams: str, polls: str = "") -> None:
        self.front = front
        self.streams_path = streams  # imported at the first stream, once Django is set up
        self.streams: Callable | None = None
        self.polls_path = polls  # the same, at the first poll
        self.polls: Callable | None = None

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        bodiless = scope["type"] == "http" and not any(
            name in (b"content-length", b"transfer-encoding") for name, _ in scope["headers"]
        )
        if bodiless and scope["method"] == "GET" and EVENTS_PATH.fullmatch(scope["path"]):
            if self.streams is None:
                self.streams = import_string(self.streams_path)
            await self.streams(scope, receive, send)
            return
        if (
            bodiless
            and self.polls_path
            and scope["method"] in ("GET", "HEAD")
            and POLL_PATH.fullmatch(scope["path"])
        ):
            if self.polls is None:
                self.polls = import_string(self.polls_path)
            crowded = getattr(self.front, "crowded", None)
            if await self.polls(scope, send, crowded() if crowded else False):
                return
        await self.front(scope, receive, send)
