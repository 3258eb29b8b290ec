"""A network table in real time both ways, in Chromium: two people (Anna deals, Bea joins by the
link) each playing the moment their page lets them, with the default animation.

The figures test prints, for each setup, how long each card of one person takes to reach the
other person's page, both ways: ``bash bin/serve`` as the README starts it, and the Procfile's
gunicorn with two workers on the database the environment names (SQLite by default; PostgreSQL
under bin/with-postgres). Timings are printed, never asserted; it asserts that every card came.

The other two show that no notice of a newer version is lost: with the page's timed poll
silenced, only the stream can bring the other person's moves, so a notice dropped anywhere
stops the hand there (the card never arrives) instead of costing a poll's two seconds."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Browser, expect

from tests.support.push import a_table_for_two, hand_of, instance, on_postgres, site_env, version_of
from tests.support.realtime import (
    arrivals,
    bin_serve,
    listening_to_her_stream,
    play_a_hand,
    seated,
    summary,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CARDS_EACH = 13


def measure(browser: Browser, port: int, label: str) -> None:
    anna_person, bea_person = a_table_for_two(port, ("Anna", "Bea"))
    anna = seated(browser, anna_person, port)
    bea = seated(browser, bea_person, port)
    try:
        for page in (anna, bea):
            page.wait_for_load_state("load")
        play_a_hand([anna, bea])
        to_bea, to_anna = arrivals(anna, bea), arrivals(bea, anna)
        print(f"\n{label}: Anna's cards -> Bea's page: {summary(to_bea)}")
        print(f"{label}: Bea's cards -> Anna's page: {summary(to_anna)}")
        assert len(to_bea) == len(to_anna) == CARDS_EACH  # every card of each reached the other
    finally:
        anna.context.close()
        bea.context.close()


@pytest.mark.parametrize("setup", ["bin/serve", "Procfile, two workers"])
def test_figures_each_card_to_the_other_page_both_ways(browser: Browser, tmp_path, setup):
    if setup == "bin/serve":
        with bin_serve(tmp_path) as port:
            measure(browser, port, "bash bin/serve (SQLite)")
    else:
        env = {**site_env(tmp_path), "WEB_CONCURRENCY": "2"}
        database = "PostgreSQL" if on_postgres() else "SQLite"
        with instance(env, tmp_path, "a") as server:
            measure(browser, server.port, f"Procfile gunicorn, 2 workers, {database}")


def test_two_people_playing_as_fast_as_their_pages_allow_lose_no_notice(browser: Browser, tmp_path):
    """A whole hand with the timed poll silenced: every card of each reaches the other's page,
    brought by the stream alone, however the notices and the pages' own moves interleave."""
    env = site_env(tmp_path)
    with instance(env, tmp_path, "a") as server:
        anna_person, bea_person = a_table_for_two(server.port, ("Anna", "Bea"))
        anna = seated(browser, anna_person, server.port)
        bea = seated(browser, bea_person, server.port)
        for page in (anna, bea):
            page.wait_for_function("() => window.__told.length > 0")
        play_a_hand([anna, bea], silence_poll=True)
        assert len(arrivals(anna, bea)) == len(arrivals(bea, anna)) == CARDS_EACH
        anna.context.close()
        bea.context.close()


def test_a_notice_arriving_during_a_moves_answer_is_fetched_once_the_answer_is_in(
    browser: Browser, tmp_path
):
    """Bea presses Pass; the server saves it, but its answer is held on the way. Meanwhile Anna
    passes, and Bea's stream tells her page of that newer version while her own request is out.
    When her answer comes, the page draws it and then fetches Anna's pass: no timed poll."""
    with listening_to_her_stream(browser, tmp_path) as (anna, bea):
        for _ in range(3):
            before = bea.locator("#table").get_attribute("data-seq")
            card = bea.locator("#table .hand .card:not(.raised)").first
            card.click(position={"x": 6, "y": card.bounding_box()["height"] - 8})
            bea.wait_for_function(
                "b => document.querySelector('#table').dataset.seq !== b"
                " && !document.querySelector('.htmx-request')",
                arg=before,
            )
        held = []
        bea.route(re.compile(r"/pass$"), lambda route: held.append((route, route.fetch())))
        bea.locator("#pass-button").click()
        bea.wait_for_function("() => !!document.querySelector('#table .htmx-request')")
        while not held:
            bea.wait_for_timeout(10)
        route, answer = held[0]
        for card in hand_of(anna)[:3]:
            anna.act("select", card=card)
        version = version_of(anna.act("pass"))
        bea.wait_for_function("v => window.__told.includes(v)", arg=version)
        assert bea.locator("#table .htmx-request").count() == 1  # her Pass is still out
        route.fulfill(response=answer)
        expect(bea.locator("#table .net-poll")).to_have_attribute(
            "data-version", str(version), timeout=10_000
        )
        bea.context.close()


def test_after_fetches_put_off_the_pages_own_move_ends_the_waiting(browser: Browser, tmp_path):
    """Fetches put off with 204 make the page wait longer each time (50 ms, doubled); once a
    newer table is drawn (here by the page's own move), that waiting is over: the next notice's
    fetch, put off once, is asked again 50 ms on, not after the long wait the earlier ones
    built up (which a poll's URL in the access log makes look like the timed poll)."""
    with listening_to_her_stream(browser, tmp_path) as (anna, bea):
        asked: list[tuple[float, str]] = []
        put_off = {"left": 5}

        def answer(route) -> None:
            if put_off["left"] > 0:
                put_off["left"] -= 1
                asked.append((time.monotonic(), "204"))
                route.fulfill(
                    status=204, headers={"Cache-Control": "no-store", "Hearts-Poll": "later"}
                )
            else:
                asked.append((time.monotonic(), "on"))
                route.continue_()

        bea.route(re.compile(r"/poll\?"), answer)
        cards = hand_of(anna)
        anna.act("select", card=cards[0])
        while len(asked) < 5:  # put off five times: 50, 100, 200, 400 ms apart
            bea.wait_for_timeout(10)
        version = version_of(anna.act("select", card=cards[0]))  # lowered again: one more save
        bea.wait_for_function("v => window.__told.includes(v)", arg=version)
        # Bea raises a card herself: her move's answer draws the table as it is now
        card = bea.locator("#table .hand .card:not(.raised)").first
        card.click(position={"x": 6, "y": card.bounding_box()["height"] - 8})
        expect(bea.locator("#table .hand .card.raised")).to_have_count(1)
        drawn = int(bea.locator("#table .net-poll").get_attribute("data-version"))
        put_off["left"] = 1
        before = len(asked)
        version = version_of(anna.act("select", card=cards[0]))
        assert version > drawn
        expect(bea.locator("#table .net-poll")).to_have_attribute(
            "data-version", str(version), timeout=10_000
        )
        (first, said), (second, _) = asked[before], asked[before + 1]
        assert said == "204"
        gap_ms = 1000 * (second - first)
        print(f"\nput off once after the page's own move: asked again {gap_ms:.0f} ms on")
        assert second - first < 0.8  # the first step (50 ms), not 1.6 s built up before
        bea.context.close()
