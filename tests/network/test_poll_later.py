"""A busy process puts polls off: while every page thread of the front is busy and others wait
for one, a poll is answered at once with the quiet 204 and ``Hearts-Poll: later`` instead of
joining the queue, and is drawn as before once the threads are free (hearts_site.streams,
hearts_site.bridge, game.network.quiet.quiet_poll)."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.wsgi import get_wsgi_application

from hearts_site.bridge import Bridge
from hearts_site.streams import Streams

CODE = "Q" * 22  # no such table: drawn, the poll is the view's 404 page
POLL = f"/t/{CODE}/poll"


def scope_of(path: str, query: str = "", method: str = "GET") -> dict:
    headers = [(b"host", b"testserver")]
    if method == "POST":
        headers.append((b"content-length", b"0"))
    return {
        "type": "http", "method": method, "path": path, "query_string": query.encode(),
        "headers": headers, "http_version": "1.1", "scheme": "http",
        "server": ("testserver", 80), "client": ("127.0.0.1", 5000), "root_path": "",
    }  # fmt: skip


async def ask(app, path: str, query: str = "", method: str = "GET") -> tuple[int, dict, bytes]:
    sent: list[dict] = []

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    await app(scope_of(path, query, method), receive, send)
    start, body = sent
    return start["status"], dict(start["headers"]), body["body"]


class Gated:
    """Django's own WSGI handler, except that /healthz waits at a gate: a thread held (a page
    thread for a GET, a move thread for a POST)."""

    def __init__(self) -> None:
        self.django = get_wsgi_application()
        self.gate = threading.Event()
        self.paths: list[str] = []

    def __call__(self, environ, start_response):
        self.paths.append(environ["PATH_INFO"])
        if environ["PATH_INFO"] == "/healthz":
            self.gate.wait(30)
        return self.django(environ, start_response)


async def until(condition, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the front never got there")


def close(bridge: Bridge) -> None:
    """The pools' threads each hold a database connection: closed, so the test database can go."""
    from django.db import connections

    for pool in (bridge.pages, bridge.moves):
        pool.submit(connections.close_all).result()
        pool.shutdown()


def run_in_a_thread(coroutine):
    # a thread of its own: the browser tests leave Playwright's event loop running in this one
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


@pytest.mark.django_db(transaction=True)
def test_a_crowded_front_puts_a_poll_off_and_draws_it_once_its_threads_are_free():
    app = Gated()
    bridge = Bridge(app, pages=1, moves=1, backlog=1)
    front = Streams(bridge, "game.network.stream.serve", "game.network.quiet.quiet_poll")

    async def scenario():
        held = [asyncio.ensure_future(ask(front, "/healthz")) for _ in range(2)]
        await until(lambda: bridge.waiting == 1)  # one request in the thread, one waiting
        assert bridge.crowded()
        status, headers, body = await ask(front, POLL, "v=3&i=0")
        assert (status, body) == (204, b"")
        assert headers[b"hearts-poll"] == b"later"
        assert headers[b"cache-control"] == b"no-store"
        assert headers[b"x-content-type-options"] == b"nosniff"
        assert POLL not in app.paths  # answered on the event loop: no thread, no Django
        app.gate.set()
        assert [answer[0] for answer in await asyncio.gather(*held)] == [200, 200]
        assert bridge.waiting == 0 and not bridge.crowded()
        return await ask(front, POLL, "v=3&i=0")

    try:
        status, headers, body = run_in_a_thread(scenario())
    finally:
        close(bridge)
    assert status == 404 and b"hearts-poll" not in headers  # the view's own answer, drawn
    assert POLL in app.paths


@pytest.mark.django_db(transaction=True)
def test_one_request_waiting_is_not_crowded_below_the_backlog_and_zero_turns_it_off():
    for backlog, crowded in ((2, False), (0, False), (1, True)):
        app = Gated()
        bridge = Bridge(app, pages=1, moves=1, backlog=backlog)
        front = Streams(bridge, "game.network.stream.serve", "game.network.quiet.quiet_poll")

        async def scenario(bridge=bridge, front=front, app=app):
            held = [asyncio.ensure_future(ask(front, "/healthz")) for _ in range(2)]
            await until(lambda: bridge.waiting == 1)
            seen = bridge.crowded()
            answer = asyncio.ensure_future(ask(front, POLL, "v=3&i=0"))
            await asyncio.sleep(0.05)
            app.gate.set()
            await asyncio.gather(*held)
            return seen, await answer

        try:
            seen, (status, headers, _) = run_in_a_thread(scenario())
        finally:
            close(bridge)
        assert seen is crowded
        assert (headers.get(b"hearts-poll") == b"later") is crowded
        assert status == (204 if crowded else 404)


@pytest.mark.django_db(transaction=True)
def test_a_move_being_worked_out_puts_a_poll_off_until_it_is_answered():
    app = Gated()
    bridge = Bridge(app, pages=2, moves=2, backlog=0, moving=1)
    front = Streams(bridge, "game.network.stream.serve", "game.network.quiet.quiet_poll")

    async def scenario():
        assert not bridge.crowded()
        move = asyncio.ensure_future(ask(front, "/healthz", method="POST"))
        await until(lambda: "/healthz" in app.paths)  # in a move thread, at the gate
        assert bridge.moving == 1 and bridge.crowded()
        later = await ask(front, POLL, "v=3&i=0")
        assert POLL not in app.paths
        app.gate.set()
        await move
        assert bridge.moving == 0 and not bridge.crowded()
        return later, await ask(front, POLL, "v=3&i=0")

    try:
        later, drawn = run_in_a_thread(scenario())
    finally:
        close(bridge)
    assert later[0] == 204 and later[1][b"hearts-poll"] == b"later"
    assert drawn[0] == 404 and b"hearts-poll" not in drawn[1]


def test_a_page_a_whole_trick_behind_is_drawn_however_busy(monkeypatch):
    from game.network import bus, quiet

    heard = bus.Hub()
    heard.listening = True  # as the process's PostgreSQL listener sets it once connected
    monkeypatch.setattr(heard, "start", lambda: None)  # no listener task: what it heard is set here
    monkeypatch.setattr(bus, "hub", heard)
    heard.hear(f"{CODE} 7")

    async def answer(version: int | str) -> list[dict]:
        sent: list[dict] = []

        async def send(message):
            sent.append(message)

        put_off = await quiet.quiet_poll(scope_of(POLL, f"v={version}&i=0"), send, crowded=True)
        assert put_off == bool(sent)
        return sent

    def put_off(version: int | str) -> bool:
        sent = run_in_a_thread(answer(version))
        return bool(sent) and dict(sent[0]["headers"]).get(b"hearts-poll") == b"later"

    assert quiet.LATER_VERSIONS == 4
    assert [put_off(version) for version in (6, 5, 4, 3, 2)] == [True, True, True, False, False]
    # a version that is no number is never put off: the view answers it with its own page
    assert [put_off(version) for version in ("%C2%B2", "", "-1", "x")] == [False] * 4
