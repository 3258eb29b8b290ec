"""A move whose client goes away before the answer (htmx aborting a request a newer click
replaced, a closed tab), on gunicorn as the Procfile runs it: the move stands, nothing logs a
traceback, and the access log says 499 ("client closed request"), not the 500 gunicorn's ASGI
worker writes for an answer it dropped because the client had gone (hearts_site.accesslog)."""

from __future__ import annotations

import contextlib
import re
import socket
import sqlite3
import time
from pathlib import Path

import psycopg
import pytest

from game.network.codes import CODE
from hearts_site.accesslog import CLIENT_CLOSED, logged_status
from tests.support.push import HOST, Person, instance, on_postgres, site_env, version_of
from tools.server import browser_request

SELECT_LINE = re.compile(rf'"POST /t/{CODE}/select HTTP/1\.1" (\d{{3}}) (\d+|-) ')
DEADLINE_SECONDS = 15


def post_and_leave(person: Person, path: str, form: dict) -> bytes:
    """POST ``form`` whole, then close the connection's sending side at once, as an aborted
    request leaves it; what the server sent before it saw the client go (b"": nothing)."""
    headers, body = browser_request(person.cookies, person.token, form)
    data = body.encode()
    head = f"POST {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    with socket.create_connection((HOST, person.port), timeout=30) as sock:
        sock.sendall(f"{head}Content-Length: {len(data)}\r\n\r\n".encode() + data)
        sock.shutdown(socket.SHUT_WR)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    return received


def select_lines(log: Path) -> list[tuple[int, str]]:
    return [(int(status), size) for status, size in SELECT_LINE.findall(log.read_text())]


@contextlib.contextmanager
def tables_held(env: dict[str, str]):
    """Hold the tables' write lock, as a slow move would: a move waits for it (at most
    game.network.store.LOCK_WAIT_MS), so its answer comes only after the client has gone."""
    url = env["DATABASE_URL"]
    if on_postgres():
        with psycopg.connect(url, autocommit=False) as conn:
            conn.execute("SELECT 1 FROM game_table FOR UPDATE")
            yield
            conn.rollback()
    else:
        conn = sqlite3.connect(url.removeprefix("sqlite:///"), isolation_level=None)
        try:
            conn.execute("BEGIN IMMEDIATE")
            yield
            conn.execute("ROLLBACK")
        finally:
            conn.close()


def wait_for(check, what: str) -> None:
    deadline = time.monotonic() + DEADLINE_SECONDS
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def leave_a_move(tmp: Path, **variables: str) -> tuple[int, str]:
    """Ada selects a card to pass and leaves before the answer (the move held until the server
    has seen her go, and, with ``cancelled``, until gunicorn has given up on the request): the
    status its access-log line gives, and all that gunicorn logged."""
    env = site_env(tmp, **variables)
    cancelled = "GUNICORN_CMD_ARGS" in variables
    with instance(env, tmp, "a") as server:
        ada, bea = Person("Ada", server.port), Person("Bea", server.port)
        bea.join(ada.deal())
        ada.act("start")
        table = ada.table()
        seq = re.search(r'data-seq="(\d+)"', table).group(1)
        card = re.findall(r'name="card" value="(\w\w)" class="card face-\w\w"', table)[0]
        with tables_held(env):
            got = post_and_leave(ada, f"/t/{ada.code}/select", {"seq": seq, "card": card})
            assert got == b""  # the server closed the connection without an answer
            if cancelled:
                wait_for(lambda: select_lines(server.stdout), "the request was never given up")
        wait_for(lambda: select_lines(server.stdout), "no access-log line for the move")
        if not cancelled:
            # the move stands (its thread went on without the client): the pages show it
            wait_for(lambda: version_of(ada.table()) > version_of(table), "the move was lost")
        ((status, size),) = select_lines(server.stdout)
        assert size == "0"
        return status, server.stdout.read_text() + server.stderr.read_text()


def test_a_move_answered_after_its_client_left_is_logged_499(tmp_path):
    """The answer is ready after the client has gone: gunicorn drops it (and would log 500)."""
    status, log = leave_a_move(tmp_path)
    assert status == CLIENT_CLOSED, log[-3000:]
    assert "Traceback" not in log and "[ERROR]" not in log, log[-3000:]


def test_a_move_cancelled_after_its_client_left_is_logged_499(tmp_path):
    """gunicorn cancels the request a grace period after the disconnect (here 1 s), while the
    move's thread still waits: nothing at all was sent (and it would log 500)."""
    status, log = leave_a_move(tmp_path, GUNICORN_CMD_ARGS="--asgi-disconnect-grace-period 1")
    assert status == CLIENT_CLOSED, log[-3000:]
    assert "Traceback" not in log and "[ERROR]" not in log, log[-3000:]


@pytest.mark.parametrize(
    ("reported", "answered", "logged"),
    [
        (200, 200, 200),  # answered as the application said
        (500, None, 500),  # nothing recorded (gunicorn's own error answer): its word stands
        (500, 200, 499),  # answered 200, dropped: the client had gone
        (500, 303, 499),
        (500, 499, 499),  # cancelled after the client had gone
        (500, 503, 503),  # a server error stays one, whoever went away
        (500, 500, 500),
    ],
)
def test_the_logged_status(reported, answered, logged):
    assert logged_status(reported, answered) == logged
