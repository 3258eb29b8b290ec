"""A network table's event stream, spoken to as a browser's EventSource speaks, on gunicorn as
the Procfile runs it: the version at once and after each save, heartbeats, no stream without a
seat, none on Django's development server (the page polls there), from one instance to the
other, and across a lost listener connection (PostgreSQL)."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
from django.test import Client

from game.models import Table
from tests.support import network as network_support
from tests.support.push import (
    EventStream,
    Person,
    a_table_for_two,
    hand_of,
    instance,
    listeners,
    on_postgres,
    site_env,
    version_of,
)


def test_a_stream_tells_the_version_at_once_then_each_save_and_beats_between(tmp_path):
    env = site_env(tmp_path, HEARTS_HEARTBEAT_SECONDS="0.5")
    with instance(env, tmp_path, "a") as server:
        ada, bea = a_table_for_two(server.port)
        stranger = Person("Cy", server.port)
        stranger.code = ada.code
        refused = EventStream(stranger, server.port)
        assert refused.closed.wait(10)
        assert refused.head.startswith("HTTP/1.1 404")
        assert refused.events.empty()

        stream = EventStream(bea, server.port)
        first = stream.next_version(10)
        assert first == version_of(bea.table())
        head = stream.head.lower()
        assert "content-type: text/event-stream" in head
        assert "cache-control: no-store" in head
        assert "content-security-policy:" in head
        versions = [version_of(ada.act("start"))]
        assert stream.next_version(10) == versions[-1]
        stream.wait_for_beats(stream.comments + 2)  # two beats, and nothing saved meanwhile:
        assert stream.events.empty()  # no event either
        versions.append(version_of(bea.act("select", card=hand_of(bea)[0])))
        assert stream.next_version(10) == versions[-1]
        assert versions[-1] > versions[0] > first
        stream.close()


def test_a_card_selected_wakes_only_that_seats_pages(tmp_path):
    """A card selected (or put back) shows on its own seat's pages alone: the other seats'
    streams are not told, so their pages do not fetch a table drawn as they have it; the
    seat's other tab is told."""
    env = site_env(tmp_path)
    with instance(env, tmp_path, "a") as server:
        ada, bea = a_table_for_two(server.port)
        started = version_of(ada.act("start"))
        beas, adas = EventStream(bea, server.port), EventStream(ada, server.port)
        assert beas.next_version(10) == started and adas.next_version(10) == started
        selected = version_of(ada.act("select", card=hand_of(ada)[0]))
        assert adas.next_version(10) == selected  # Ada's other tab
        again = version_of(ada.act("select", card=hand_of(ada)[0]))  # put back
        assert adas.next_version(10) == again
        mine = version_of(bea.act("select", card=hand_of(bea)[0]))
        assert beas.next_version(10) == mine  # Ada's two were never told to Bea's page
        beas.close()
        adas.close()


def as_wsgi_serves(get, path: str):
    """``get(path)`` from a thread of its own, as a WSGI server calls a view: once the browser
    tests have run, Playwright keeps an event loop running in this process's main thread, where
    Django could not run an async view for a sync client."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(get, path).result()


@pytest.mark.django_db
def test_the_streams_address_comes_with_every_table_drawn_for_a_seat_and_no_notice():
    """network.js opens the stream when what is swapped in names one, and closes it when that
    is gone: the name prompt names none, the table the join's answer leads to (htmx follows
    the 303 with its header) does, and so does each poll; the notice a removed person's poll
    gets, and a table gone, name none."""
    ada = network_support.Person("Ada")
    code = ada.deal(0)
    bea = network_support.Person("Bea")
    address = f'data-events="/t/{code}/events"'
    prompt = bea.client.get(f"/t/{code}/", **network_support.HX).content.decode()
    assert "What is your name?" in prompt and "data-events" not in prompt
    assert bea.join(code, htmx=True).status_code == 303
    joined = bea.client.get(f"/t/{code}/", **network_support.HX)
    assert joined.status_code == 200 and address in joined.content.decode()
    version = version_of(joined.content.decode())
    assert ada.post("remove", seat="1").status_code == 200
    removed = bea.poll(version)
    assert removed.status_code == 286  # htmx swaps it in, and its timed poll stops
    assert "You have no seat at this table" in removed.content.decode()
    assert "data-events" not in removed.content.decode()
    assert address in ada.poll(version).content.decode()
    Table.objects.filter(code=code).delete()
    gone = ada.poll(version + 1)
    assert gone.status_code == 286 and "data-events" not in gone.content.decode()


@pytest.mark.django_db(transaction=True)
def test_without_the_asyncio_front_the_stream_is_refused_and_the_page_polls():
    """Django's development server (WSGI) cannot hold a stream: a 204 at once (EventSource
    does not reconnect after one), never a hang; the page then polls as before."""
    ada = network_support.Person("Ada")
    code = ada.deal(0)
    response = as_wsgi_serves(ada.client.get, f"/t/{code}/events")
    assert response.status_code == 204
    assert response.content == b""
    page = ada.page().content.decode()
    assert f'data-events="/t/{code}/events"' in page
    assert f'hx-get="/t/{code}/poll?v=' in page
    assert as_wsgi_serves(Client().get, f"/t/{code}/events").status_code == 204


def test_a_move_through_one_instance_is_told_on_a_stream_from_the_other(tmp_path):
    env = site_env(tmp_path)
    with instance(env, tmp_path, "a") as first, instance(env, tmp_path, "b") as second:
        ada, bea = a_table_for_two(first.port)
        stream = EventStream(bea, second.port)
        stream.next_version(10)
        version = version_of(ada.act("start"))
        assert stream.wait_for(version, 10) == version
        for card in hand_of(bea)[:3]:  # Bea's own selections, from another tab through A
            version = version_of(bea.act("select", port=first.port, card=card))
            assert stream.wait_for(version, 10) == version
        # what B's stream told, B draws: the table after the version Bea's page showed
        status, html, _ = bea.send(
            "GET", f"/t/{bea.code}/poll?v={version - 1}&i=0", port=second.port
        )
        assert status == 200 and version_of(html) == version
        stream.close()


@pytest.mark.skipif(
    not on_postgres(), reason="PostgreSQL's listener: run under bin/with-postgres, as bin/test does"
)
def test_a_killed_listener_connection_loses_no_move(tmp_path):
    env = site_env(tmp_path)
    database = os.environ["DATABASE_URL"]
    with instance(env, tmp_path, "a") as first, instance(env, tmp_path, "b") as second:
        ada, bea = a_table_for_two(first.port)
        stream = EventStream(bea, second.port)
        stream.next_version(10)
        names = [f"hearts-listener-{pid}" for pid in second.worker_pids()]
        found = listeners(database)
        assert any(name in found for name in names), found
        with psycopg.connect(database, autocommit=True) as conn:
            for name in names:
                if name in found:
                    conn.execute("SELECT pg_terminate_backend(%s)", [found[name]])
        version = version_of(ada.act("start"))  # saved while B's listener is gone or coming back
        assert stream.wait_for(version, 15) == version
        deadline = time.monotonic() + 15
        while not any(name in listeners(database) for name in names):
            assert time.monotonic() < deadline, "B's listener did not come back"
            time.sleep(0.1)
        old = found
        assert all(listeners(database).get(name) != old.get(name) for name in names)
        version = version_of(bea.act("select", card=hand_of(bea)[0]))  # and B hears again
        assert stream.wait_for(version, 10) == version
        stream.close()


def rows(env: dict[str, str], sql: str, args: tuple) -> list[tuple]:
    """A query on the instances' own database (SQLite's file, or the PostgreSQL they share)."""
    url = env["DATABASE_URL"]
    if on_postgres():
        with psycopg.connect(url) as connection:
            return connection.execute(sql, args).fetchall()
    with contextlib.closing(sqlite3.connect(url.removeprefix("sqlite:///"))) as connection:
        return connection.execute(sql.replace("%s", "?"), args).fetchall()


def eventually(check, timeout: float = 30):
    """Wait until ``check()`` gives something true (what the server writes in the background)."""
    deadline = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < deadline, "the server never wrote it"
        time.sleep(0.05)
    return found


def test_a_seat_with_two_tabs_on_two_processes_has_left_only_when_both_close(tmp_path):
    """Bea's two tabs hold their streams from two instances (two worker processes): one closed
    leaves her at the table, as Ada's page shows; the second closed marks her gone."""
    env = site_env(tmp_path, HEARTS_LEFT_SECONDS="0")
    with instance(env, tmp_path, "a") as one, instance(env, tmp_path, "b") as two:
        ada, bea = a_table_for_two(one.port)
        ada.act("start")
        holds = (
            "SELECT count(*) FROM game_streamhold h JOIN game_table t ON h.table_id = t.id"
            " WHERE t.code = %s"
        )

        def left() -> float:
            (state,) = rows(env, "SELECT state FROM game_table WHERE code = %s", (ada.code,))[0]
            return json.loads(state)["seats"][1].get("g", 0.0)

        tabs = [EventStream(bea, one.port), EventStream(bea, two.port)]
        for tab in tabs:
            tab.next_version(10)
        eventually(lambda: rows(env, holds, (ada.code,))[0][0] == 2)
        tabs[0].close()  # one tab closed: instance one holds no stream of Bea's any more
        eventually(lambda: rows(env, holds, (ada.code,))[0][0] == 1)
        between = time.time()
        assert "has left the table" not in ada.table(two.port)
        tabs[1].close()
        assert eventually(left) >= between  # marked by the second tab's closing, not the first
        assert "Bea (has left the table)" in ada.table(one.port)


@pytest.mark.django_db(transaction=True)
def test_a_selection_read_back_by_the_watch_wakes_only_its_seat(monkeypatch):
    """A process's watch reads the versions back from the database (SQLite's every 25 ms) and
    may do so between a save's commit and the announcement its commit then makes, or read a
    version before a later save committed and offer it after (CI met the second twice): a card
    selected still wakes only its own seat's streams, not the others'."""
    import asyncio

    from game.network import bus

    def read_back(hub, told=None):
        """The watch's catch-up, in a thread of its own (Playwright may hold this one's loop);
        ``told``: the version its read returns, else the table's."""
        if told is not None:
            monkeypatch.setattr(bus, "versions", lambda codes: [(code, told)])
        with ThreadPoolExecutor(1) as thread:
            thread.submit(lambda: asyncio.run(hub.catch_up())).result()

    people = network_support.started("Ada", "Bea")
    code = people[0].code
    hub = bus.Hub()
    monkeypatch.setattr(bus, "hub", hub)
    before = Table.objects.get(code=code).version
    ada, bea = bus.Watch(), bus.Watch()
    for seat, found in enumerate((ada, bea)):
        found.seat, found.version = seat, before
    hub.watches[code] = {ada, bea}
    waiting = []  # the commits' callbacks, held back: the window before each announcement
    monkeypatch.setattr(bus.transaction, "on_commit", waiting.append)
    card = network_support.table_of(code)[1].game.hand(0)[0]
    assert people[0].post("select", card=card).status_code == 200
    selected = Table.objects.get(code=code).version
    assert selected == before + 1 and len(waiting) == 1
    read_back(hub)  # the table's version, read before its announcement
    assert (ada.version, bea.version) == (selected, before)
    assert people[0].post("select", card=card).status_code == 200  # put back
    read_back(hub, told=selected)  # a read begun before the put back's commit, offered after
    assert (ada.version, bea.version) == (selected, before)
    assert ada.event.is_set() and not bea.event.is_set()
