"""A quiet poll answered on the event loop from what the process's PostgreSQL listener heard:
with no thread, no query and no Django, yet never a 204 where the view would draw something
(a newer version saved through another instance, a table removed, a redraw time come, a
listener connection lost)."""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import time

import psycopg
import pytest

from game.network.bus import GONE, Hub
from game.network.quiet import query_value, since_of_value
from tests.support.production import run
from tests.support.push import (
    Person,
    instance,
    on_postgres,
    site_env,
    version_of,
    wait_listening,
)

DAY = 24 * 3600.0


def listening_hub() -> Hub:
    hub = Hub()
    hub.listening = True
    return hub


def test_the_newest_version_heard_is_current_and_nothing_else():
    hub = listening_hub()
    hub.hear("A" * 22 + " 7")
    now = time.time()
    assert hub.current("A" * 22, 7, DAY, now)
    assert not hub.current("A" * 22, 6, DAY, now)  # the page is behind: draw it
    assert hub.behind("A" * 22, 6) and not hub.behind("A" * 22, 7)
    assert not hub.behind("B" * 22, 0)
    assert not hub.current("A" * 22, 8, DAY, now)  # ahead of what was heard: ask the view
    assert not hub.current("B" * 22, 7, DAY, now)  # never heard of: ask the view
    hub.hear("A" * 22 + " 5")  # an older notice arriving late changes nothing
    assert hub.current("A" * 22, 7, DAY, now)
    hub.hear("A" * 22 + " 8")
    assert not hub.current("A" * 22, 7, DAY, now) and hub.current("A" * 22, 8, DAY, now)


def test_a_table_removed_an_old_notice_or_a_listener_gone_is_never_quiet():
    hub = listening_hub()
    code = "C" * 22
    hub.hear(f"{code} 3")
    hub.hear(f"{code} {GONE}")
    assert not hub.current(code, 3, DAY, time.time())
    hub.hear(f"{code} 4")
    assert not hub.current(code, 4, DAY, time.time() + DAY)  # silent a day: expired
    hub.forget(time.time() + 1)
    assert code not in hub.heard
    hub.hear(f"{code} 5")
    hub.listening = False  # the connection is lost: what it heard proves nothing
    assert not hub.current(code, 5, DAY, time.time())
    for payload in (f"{code} ²", f"{code} ", f"{code}", f"{code} -1"):
        hub.hear(payload)  # nothing but ASCII digits is a version
    assert hub.heard.get(code, (5, 0))[0] == 5


def test_the_query_is_read_as_django_reads_it():
    assert query_value("v=3&i=0", "v") == "3"
    assert query_value("v=3&v=4", "v") == "4"  # the last value, as request.GET.get
    assert query_value("i=1", "v") == ""
    assert since_of_value(query_value("v=%C2%B2", "v")) is None
    assert since_of_value(query_value("v=", "v")) is None
    assert since_of_value(query_value("v=99999999999", "v")) is None


postgres_only = pytest.mark.skipif(
    not on_postgres(), reason="PostgreSQL's listener: run under bin/with-postgres, as bin/test does"
)


def poll(person: Person, version: int, port: int, redraw: int = 0) -> int:
    status, _, _ = person.send("GET", f"/t/{person.code}/poll?v={version}&i={redraw}", port=port)
    return status


def quiet_headers(person: Person, version: int, port: int) -> tuple[dict[str, str], int]:
    """A poll that must be a 204: its headers (lower-case names) and its size in bytes."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request(
            "GET",
            f"/t/{person.code}/poll?v={version}&i=0",
            headers={"Host": "127.0.0.1", "HX-Request": "true", "Cookie": person.cookie_header()},
        )
        answer = conn.getresponse()
        body = answer.read()
    finally:
        conn.close()
    assert answer.status == 204 and body == b""
    headers = {name.lower(): value for name, value in answer.getheaders()}
    size = len(f"HTTP/1.1 204 {answer.reason}\r\n") + 2
    size += sum(len(f"{name}: {value}\r\n") for name, value in answer.getheaders())
    return headers, size


def until_quiet(person: Person, version: int, port: int) -> None:
    """Wait until the instance on ``port`` answers a poll of ``version`` with a 204."""
    deadline = time.monotonic() + 20
    while poll(person, version, port) != 204:
        assert time.monotonic() < deadline, "the poll never became quiet"
        time.sleep(0.05)


@contextlib.contextmanager
def tables_locked(database: str):
    """Another session holds the tables' table locked: no query of it can run meanwhile."""
    with psycopg.connect(database) as conn:
        conn.execute("LOCK TABLE game_table IN ACCESS EXCLUSIVE MODE")
        yield
        conn.rollback()


@contextlib.contextmanager
def two_instances_heard(env: dict[str, str], tmp_path):
    """Ada at instance A starts a table Bea sits at; instance B has heard of the start (its
    listener began with Bea's first poll there): (ada, bea, B, the version)."""
    with instance(env, tmp_path, "a") as first, instance(env, tmp_path, "b") as second:
        ada, bea = Person("Ada", first.port), Person("Bea", first.port)
        bea.join(ada.deal())
        poll(bea, 0, second.port)  # B's listener starts with its first poll
        wait_listening(env["DATABASE_URL"], second.worker_pids())
        version = version_of(ada.act("start"))  # saved through A, heard by B
        until_quiet(bea, version, second.port)
        yield ada, bea, second, version


@postgres_only
def test_a_quiet_poll_needs_no_database_and_a_save_elsewhere_is_drawn(tmp_path):
    env = site_env(tmp_path)
    database = os.environ["DATABASE_URL"]
    with two_instances_heard(env, tmp_path) as (ada, bea, second, version):
        with tables_locked(database):
            # answered while no query of the table could run: from what B heard, with the
            # headers of QuietPollMiddleware's 204 and nothing a document needs
            headers, size = quiet_headers(bea, version, second.port)
        assert headers["cache-control"] == "no-store"
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "same-origin"
        assert headers["cross-origin-opener-policy"] == "same-origin"
        assert headers["cross-origin-resource-policy"] == "same-origin"
        assert not {"content-type", "content-security-policy", "set-cookie"} & set(headers)
        assert size <= 300
        # a save through A: B draws it (the old version is behind), then is quiet again
        hand = re.findall(r'name="card" value="(\w\w)" class="card face-\w\w"', ada.table())
        newer = version_of(ada.act("select", card=hand[0]))
        deadline = time.monotonic() + 20
        while poll(bea, version, second.port) != 200:
            assert time.monotonic() < deadline, "B kept answering 204 for an old version"
            time.sleep(0.05)
        until_quiet(bea, newer, second.port)
        # a redraw time come: the view answers, whatever was heard
        assert poll(bea, newer, second.port, redraw=int(time.time()) - 1) == 200


@postgres_only
def test_a_removed_table_is_told_not_quiet(tmp_path):
    env = site_env(tmp_path)
    database = os.environ["DATABASE_URL"]
    with two_instances_heard(env, tmp_path) as (ada, bea, second, version):
        with psycopg.connect(database, autocommit=True) as conn:  # a day without a move
            conn.execute(
                "UPDATE game_table SET touched = touched - interval '25 hours' WHERE code = %s",
                [ada.code],
            )
        done = run(["-m", "django", "purge_tables"], env)
        assert done.returncode == 0, done.stderr
        deadline = time.monotonic() + 20
        while poll(bea, version, second.port) == 204:
            assert time.monotonic() < deadline, "B still answers for a removed table"
            time.sleep(0.05)
        assert poll(bea, version, second.port) == 286  # htmx: stop polling, the table is gone
