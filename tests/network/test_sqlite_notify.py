"""SQLite with several workers: a save made by one worker process reaches the streams the other
worker serves, through that process's one listener asking the file whether another connection
committed (``PRAGMA data_version``), not through a timed read of the versions.

The timed read is put off to a minute here, so a stream on the sibling worker of the one that
saved can learn of the save only by the change check; gunicorn's access log names the worker
(its pid) that served each stream and each move, and the test asserts that some moves were
saved by a worker other than one that streamed them."""

from __future__ import annotations

import re
import time

import pytest

from tests.support.push import EventStream, Person, instance, version_of
from tests.support.push import site_env as shared_site_env

pytestmark = [pytest.mark.django_db(transaction=True)]

STREAMS = 8
MOVES = 8
LOGGED = re.compile(r"\[(\d+)\] \[INFO\] \S+ - - \[[^]]+\] \"(\w+) (/t/[^ ]+)")


def worker_of(log: str, method: str, path_end: str) -> list[int]:
    return [
        int(pid) for pid, m, path in LOGGED.findall(log) if m == method and path.endswith(path_end)
    ]


def test_a_save_on_one_worker_reaches_the_streams_of_the_other_at_once(tmp_path):
    env = {
        **shared_site_env(tmp_path, HEARTS_SQLITE_WATCH_SECONDS="60"),
        "WEB_CONCURRENCY": "2",
    }
    assert env["DATABASE_URL"].startswith("sqlite:")
    with instance(env, tmp_path, "a") as server:
        deadline = time.monotonic() + 30
        while len(server.worker_pids()) < 2:
            assert time.monotonic() < deadline, "the second worker never started"
            time.sleep(0.05)
        anna, bea = Person("Anna", server.port), Person("Bea", server.port)
        bea.join(anna.deal())
        streams = [EventStream(bea, server.port) for _ in range(STREAMS)]
        try:
            first = [stream.next_version() for stream in streams]
            assert len(set(first)) == 1
            version = version_of(anna.act("start"))
            for stream in streams:
                assert stream.wait_for(version, timeout=10) == version
            cards = re.findall(r'name="card" value="(\w\w)" class="card face-\w\w"', bea.table())
            for _ in range(MOVES - 1):  # one card of Bea's raised and lowered, each a save
                version = version_of(bea.act("select", card=cards[0]))  # her pages see it
                for stream in streams:
                    # well within the minute the timed read waits: the change check told it
                    stream.wait_for(version, timeout=10)
        finally:
            for stream in streams:
                stream.close()
        log_file = tmp_path / "a" / "gunicorn.stdout"
        deadline = time.monotonic() + 30
        while len(worker_of(log_file.read_text(), "GET", "/events")) < STREAMS:
            assert time.monotonic() < deadline, "the streams' access lines never came"
            time.sleep(0.05)
        log = log_file.read_text()
        streamed_by = set(worker_of(log, "GET", "/events"))
        saved_by = set(worker_of(log, "POST", "/select")) | set(worker_of(log, "POST", "/start"))
        # some stream was served by a worker other than one that saved: the case under test
        assert any(streamer != saver for streamer in streamed_by for saver in saved_by)
