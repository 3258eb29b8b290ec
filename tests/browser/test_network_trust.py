"""A table strangers can trust, in Chromium: the dealer without JavaScript removes a person
from the lobby with a plain form; a browser that opens the link again holds its one seat; the
computers are marked; F4, H and Ctrl+Z answer at the table; axe finds nothing on the way."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.support.browser import STATUS, Axe
from tests.support.network import table_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_lobby_kept_by_a_dealer_without_javascript_and_the_menu_keys_at_the_table(
    fresh_context, live_server, settings
):
    # Every page here without script is driven by the test itself: a reload of its own (the
    # lobby's meta refresh) starting during a goto or a click aborts that navigation, which CI
    # saw once. What a page without script sees by reloading is tested in
    # tests/browser/test_network.py.
    settings.HEARTS_REFRESH_SECONDS = 600
    base = live_server.url
    dealer = fresh_context(base_url=base, java_script_enabled=False, bypass_csp=True).new_page()
    bob_context = fresh_context(base_url=base, bypass_csp=True, reduced_motion="reduce")
    bob = bob_context.new_page()
    cleo = fresh_context(base_url=base, java_script_enabled=False).new_page()

    dealer.goto("/network")
    network = dealer.locator("dialog#dialog-network")
    network.get_by_label("Your name", exact=True).fill("Anna")
    expect(network.get_by_text("Anyone who knows a game number can look up")).to_be_visible()
    network.get_by_role("button", name="OK").click()
    expect(dealer.locator("#lobby-title")).to_have_text("Hearts Network: Anna's table")
    expect(dealer).to_have_title("Hearts - Anna's table")
    code = re.search(r"/t/([^/]+)/", dealer.url).group(1)
    link = f"{base}/t/{code}/"

    for page, name in ((bob, "Bob"), (cleo, "Cleo")):
        page.goto(link)
        page.get_by_label("What is your name?").fill(name)
        page.get_by_role("button", name="OK").click()
        expect(page.locator(STATUS)).to_have_text("Waiting for Anna to start the game...")
    # a person named like a computer is asked for another name
    stranger = fresh_context(base_url=base, java_script_enabled=False).new_page()
    stranger.goto(link)
    stranger.get_by_label("What is your name?").fill("Pauline")
    stranger.get_by_role("button", name="OK").click()
    expect(stranger.get_by_role("alert")).to_contain_text(
        "Pauline is the name of a computer player here."
    )
    # Bob opens the link again in a second tab: the same seat, no second name asked
    again = bob_context.new_page()
    again.goto(link)
    expect(again.locator(STATUS)).to_have_text("Waiting for Anna to start the game...")
    expect(again.get_by_label("What is your name?")).to_have_count(0)
    again.close()
    assert [seat.name for seat in table_of(code)[1].seats] == ["Anna", "Bob", "Cleo"]

    dealer.goto(link)
    # axe runs as a script: it looks at the dealer's lobby in a context with the same cookie
    seen = fresh_context(base_url=base, bypass_csp=True)
    seen.add_cookies(dealer.context.cookies())
    lobby = seen.new_page()
    lobby.goto(link)
    expect(lobby.get_by_role("button", name="Remove Cleo")).to_be_visible()
    axe = Axe(lobby)
    axe.check("lobby with remove buttons")
    lobby.close()
    with dealer.expect_navigation():
        dealer.get_by_role("button", name="Remove Cleo").click()
    expect(dealer.locator(".net-seats")).not_to_contain_text("Cleo")
    assert [seat.name for seat in table_of(code)[1].seats] == ["Anna", "Bob"]
    cleo.goto(link)
    expect(cleo.get_by_label("What is your name?")).to_be_visible()

    with dealer.expect_navigation():
        dealer.get_by_role("button", name="Start").click()
    expect(bob.locator(STATUS)).to_have_text("Select three cards to pass to Michele.")
    expect(bob.locator(".seat-left")).to_have_attribute(
        "aria-label", "Michele (a computer player), 13 cards"
    )
    expect(bob.locator(".seat-right .net-computer")).to_have_count(0)  # Anna is a person
    expect(bob.locator(".seat-top .net-computer")).to_have_text("(a computer player)")
    bob_axe = Axe(bob)
    bob_axe.check("network table, passing")

    bob.locator("#table").click(position={"x": 5, "y": 5})
    bob.keyboard.press("F4")
    expect(bob.locator("#dialog-score")).to_be_visible()
    expect(bob.locator("#dialog-score")).to_contain_text("Hand 1.")
    bob_axe.check("network score sheet")
    bob.keyboard.press("Escape")
    expect(bob.locator("#dialog-score")).to_have_count(0)

    bob.keyboard.press("h")
    expect(bob.locator("#table .hand .card.hinted")).to_have_count(3)
    expect(bob.locator(STATUS)).to_contain_text("Hint: pass the ")
    assert table_of(code)[1].seats[1].selected == []  # a hint chooses nothing

    bob.keyboard.press("Control+z")
    expect(bob.locator(STATUS)).to_have_text(
        "Undo is not possible at a shared table: the other players have seen every card played."
    )
    assert axe.found == [] and bob_axe.found == [], axe.found + bob_axe.found
