"""A network table's answers arriving out of order in a real browser (Debian's Chromium through
Playwright): a poll answered with an older table than the one already drawn is not drawn."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from game.models import Table
from game.network.state import TableState
from tests.support.network import Person

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def drawn_version(page) -> int:
    return int(page.locator("#table .net-poll").get_attribute("data-version"))


def test_a_poll_answered_after_a_newer_move_does_not_draw_the_older_table(
    browser: Browser, live_server
):
    context = browser.new_context(base_url=live_server.url, reduced_motion="reduce")
    context.set_default_timeout(30_000)
    page = context.new_page()
    try:
        ada = Person("Ada")
        code = ada.deal(617)
        seat = ada.client.cookies["hearts_seats"]
        context.add_cookies(
            [{"name": seat.key, "value": seat.value, "url": live_server.url + "/t/"}]
        )
        page.goto(f"/t/{code}/")
        bea = Person("Bea")
        bea.join(code)
        page.reload()
        page.get_by_role("button", name="Start").click()
        expect(page.locator("#table.phase-passing")).to_be_visible()
        first = drawn_version(page)

        held: list = []  # the one poll answer kept back: (route, response)
        holding = {"on": False}

        def on_poll(route) -> None:
            if holding["on"] and not held:
                held.append((route, route.fetch()))
            else:
                route.continue_()

        page.route(re.compile(r"/poll\?"), on_poll)
        holding["on"] = True
        bea.post("select", card=bea_card(code))
        while not held:  # Ada's page polls every two seconds; its next poll sees Bea's move
            page.wait_for_timeout(100)
        holding["on"] = False
        route, stale = held[0]
        assert stale.status == 200
        stale_version = int(re.search(r'data-version="(\d+)"', stale.text()).group(1))
        assert stale_version > first

        before = page.locator("#table").get_attribute("data-seq")
        page.locator("#table .hand .card:not(.raised)").first.click(position={"x": 6, "y": 40})
        page.wait_for_function(
            "before => document.querySelector('#table').dataset.seq !== before"
            " && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')",
            arg=before,
        )
        newest = drawn_version(page)
        assert newest > stale_version
        assert page.locator("#table .hand .card.raised").count() == 1

        page.evaluate(
            """() => document.addEventListener("htmx:afterRequest", (event) => {
                if (event.detail.pathInfo.requestPath.includes("/poll?")) window.staleDone = true;
            })"""
        )
        route.fulfill(response=stale)
        page.wait_for_function(
            "() => window.staleDone && !document.querySelector('.htmx-swapping, .htmx-settling')"
        )
        assert drawn_version(page) == newest
        assert page.locator("#table .hand .card.raised").count() == 1

        # The current page's own next poll answered with that older table (as a cache in the
        # way might): not drawn either; the version each answer carries is checked.
        page.unroute(re.compile(r"/poll\?"))
        page.route(
            re.compile(r"/poll\?"),
            lambda again: again.fulfill(status=200, headers=stale.headers, body=stale.body()),
        )
        page.evaluate("() => { window.staleDone = false; }")
        page.wait_for_function(
            "() => window.staleDone && !document.querySelector('.htmx-swapping, .htmx-settling')"
        )
        assert drawn_version(page) == newest
        assert page.locator("#table .hand .card.raised").count() == 1
        assert Table.objects.get(code=code).version == newest
    finally:
        context.close()


def bea_card(code: str) -> str:
    state = TableState.from_json(Table.objects.get(code=code).state)
    return state.game.hand(1)[0]
