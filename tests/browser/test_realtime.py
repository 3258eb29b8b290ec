"""A network table in real time both ways, in Chromium: two people (Anna deals, Bea joins by the
link) each playing the moment their page lets them, with the default animation.

The figures test prints, for each setup, how long each card of one person takes to reach the
other person's page, both ways, with the two people arriving as people do (Anna deals through
the Game menu, Bea opens the link she shows and types her name at the prompt): ``bash
bin/serve`` as the README starts it, and the Procfile's gunicorn with two workers on the
database the environment names (SQLite by default; PostgreSQL under bin/with-postgres). Timings
are printed, never asserted; it asserts that every card came.

The others show that no notice of a newer version is lost: with the page's timed poll
silenced, only the stream can bring the other person's moves, so a notice dropped anywhere (or
a page that never opened its stream: one that gained its seat at the prompt) stops the hand
there (the card never arrives) instead of costing a poll's two seconds. One follows a page's
stream as its seat comes and goes."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Browser, expect

from game.network.views import NO_SEAT
from tests.support.browser import STATUS, join_at_the_prompt
from tests.support.push import a_table_for_two, hand_of, instance, on_postgres, site_env, version_of
from tests.support.realtime import (
    CARDS_EACH,
    arrivals,
    bin_serve,
    joined_by_the_link,
    listening_to_her_stream,
    measure,
    play_a_hand,
    seated,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_friend_who_joins_at_the_prompt_plays_a_hand_brought_by_the_stream_alone(
    browser: Browser, tmp_path
):
    """Bea's page was drawn without a seat (the name prompt) and gains one when the table is
    swapped in: from then on her stream must bring Anna's moves, as Anna's (drawn seated after
    dealing) brings Bea's. With both timed polls silenced, a page that never opened its stream
    stops the hand at Anna's Start."""
    env = site_env(tmp_path)
    with (
        instance(env, tmp_path, "a") as server,
        joined_by_the_link(browser, server.port) as (
            anna,
            bea,
        ),
    ):
        play_a_hand([anna, bea], silence_poll=True)
        assert len(arrivals(anna, bea)) == len(arrivals(bea, anna)) == CARDS_EACH


OPEN_STREAMS = "() => (window.__sources || []).filter(s => s.readyState !== EventSource.CLOSED)"


def test_the_stream_follows_the_seat_removed_seated_again_and_in_a_second_tab(
    browser: Browser, tmp_path
):
    """A page holds one stream while it holds a seat: Bea's, live from her answer at the
    prompt, closes when the dealer removes her (the notice takes the table's place, brought by
    that stream); she opens the link and sits down again, and a second tab of hers streams too.
    Every poll silenced: only the streams bring the dealer's Remove and Start. Then the seat is
    handed to a computer and taken back (Sit Down): the same stream all along."""
    env = site_env(tmp_path, HEARTS_IDLE_SECONDS="4")
    with (
        instance(env, tmp_path, "a") as server,
        joined_by_the_link(browser, server.port) as (
            anna,
            bea,
        ),
    ):
        silence = "() => { window.__silence_poll = true; }"
        for page in (anna, bea):
            page.evaluate(silence)
            page.wait_for_function("() => window.__told.length > 0")
        assert bea.evaluate(f"({OPEN_STREAMS})().length") == 1
        anna.get_by_role("button", name="Remove Bea").click()
        expect(bea.locator("#table").get_by_text(NO_SEAT)).to_be_visible()
        bea.wait_for_function(f"() => ({OPEN_STREAMS})().length === 0")
        assert bea.evaluate("() => window.__sources.length") == 1  # and none opened again

        join_at_the_prompt(bea, anna.locator("#table-link").input_value(), "Bea")
        expect(bea.locator(STATUS)).to_have_text("Waiting for Anna to start the game...")
        second = bea.context.new_page()
        second.goto(bea.url)
        expect(second.locator(STATUS)).to_have_text("Waiting for Anna to start the game...")
        for page in (bea, second):
            page.evaluate(silence)
            page.wait_for_function("() => window.__told.length > 0")
            assert page.evaluate(f"({OPEN_STREAMS})().length") == 1
        anna.get_by_role("button", name="Start").click()
        for page in (bea, second):
            expect(page.locator(STATUS)).to_have_text("Select three cards to pass to Michele.")

        # Bea does not pass: once her idle time is up, Anna's page (streaming, its poll asking
        # only when the button falls due) offers to let a computer play for her; Bea's pages
        # hear of it by their streams and she sits down again, keeping her seat and her stream
        anna.evaluate("() => { window.__silence_poll = false; }")
        replace = anna.get_by_role("button", name="Let a computer play for Bea")
        expect(replace).to_be_visible(timeout=15_000)
        replace.click()
        away = "A computer player is playing for you. Press Sit Down to play again."
        for page in (bea, second):
            expect(page.locator(STATUS)).to_have_text(away)
        bea.get_by_role("button", name="Sit Down").click()
        expect(second.get_by_role("button", name="Sit Down")).to_have_count(0)
        for page in (bea, second):
            assert page.evaluate(f"({OPEN_STREAMS})().length") == 1
            assert page.evaluate("() => window.__sources.length") == 1


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
    with listening_to_her_stream(browser, tmp_path) as (anna, bea, _):
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


@pytest.mark.serial  # a gap under 0.8 s: with the machine to itself
def test_after_fetches_put_off_the_pages_own_move_ends_the_waiting(browser: Browser, tmp_path):
    """Fetches put off with 204 make the page wait longer each time (50 ms, doubled); once a
    newer table is drawn (here by the page's own move), that waiting is over: the next notice's
    fetch, put off once, is asked again 50 ms on, not after the long wait the earlier ones
    built up (which a poll's URL in the access log makes look like the timed poll)."""
    with listening_to_her_stream(browser, tmp_path) as (anna, bea, tab):
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
        cards = hand_of(tab)  # Bea's other tab raises and lowers a card: her page is told
        tab.act("select", card=cards[0])
        while len(asked) < 5:  # put off five times: 50, 100, 200, 400 ms apart
            bea.wait_for_timeout(10)
        version = version_of(tab.act("select", card=cards[0]))  # lowered again: one more save
        bea.wait_for_function("v => window.__told.includes(v)", arg=version)
        expect(bea.locator("#table .net-poll")).to_have_attribute("data-version", str(version))
        # Bea raises a card herself: her move's answer draws the table as it is now
        card = bea.locator(f'#table .hand .card:not(.raised):not([value="{cards[0]}"])').first
        card.click(position={"x": 6, "y": card.bounding_box()["height"] - 8})
        expect(bea.locator("#table .hand .card.raised")).to_have_count(1)
        drawn = int(bea.locator("#table .net-poll").get_attribute("data-version"))
        put_off["left"] = 1
        before = len(asked)
        version = version_of(tab.act("select", card=cards[0]))
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
