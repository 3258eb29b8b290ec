"""In a real browser the page keeps to its Content-Security-Policy: no violation is reported
while playing, and every request goes to the site's own origin."""

import pytest
from playwright.sync_api import Page, expect

from tests.support.browser import (
    LIT,
    STATUS,
    Watch,
    act,
    arrive,
    click_button,
    give_name,
    origin,
    pass_by_mouse,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_playing_a_hand_raises_no_csp_violation_and_stays_on_the_origin(page: Page, live_server):
    watch = Watch(page)
    response = page.goto(live_server.url)
    policy = response.headers["content-security-policy"]
    assert "default-src 'none'" in policy and "script-src 'self'" in policy
    arrive(page, live_server.url)  # a reload, then the name prompt's form by htmx
    pass_by_mouse(page)
    expect(page.locator(STATUS)).to_have_text("Select a card to play.")
    for _ in range(13):
        act(page, page.locator(LIT).first)
    sheet = page.locator("dialog.sheet")
    expect(sheet).to_be_visible()  # the score sheet after the hand
    expect(sheet.locator("tbody tr")).to_have_count(1)
    click_button(page, "OK")
    expect(page.locator(STATUS)).to_contain_text("Select three cards to pass")

    assert watch.violations() == []
    assert len(watch.requests) > 20  # the page, its assets, the card images and the moves
    assert any("/static/cards/" in url for url in watch.requests)
    foreign = [url for url in watch.requests if origin(url) != origin(live_server.url)]
    assert foreign == []


def test_the_watch_does_see_a_violation(page: Page, live_server):
    """The check above is not vacuous: an inline style, which the policy forbids, is reported."""
    watch = Watch(page)
    page.goto(live_server.url)
    page.evaluate(
        "document.head.appendChild(Object.assign(document.createElement('style'),"
        " {textContent: 'body { color: red; }'}))"
    )
    page.wait_for_function("() => window.__csp.length > 0")
    assert any("style-src" in violation for violation in watch.violations())


def test_a_dealers_lobby_redrawn_with_a_friend_raises_no_csp_violation(
    page: Page, live_server, fresh_context
):
    """htmx "settles" a swapped element's style attribute by copying the old element's with
    setAttribute, which the policy blocks as an inline style: a dealer's lobby logged it twice
    when a friend arrived, because something had styled the link's field through the CSSOM
    (which the policy allows: the browser, an extension). The page keeps htmx from settling
    style."""
    watch = Watch(page)
    page.goto(f"{live_server.url}/")
    give_name(page, "Anna")
    page.get_by_role("menuitem", name="Game").click()
    page.get_by_role("menuitem", name="Network...").click()
    page.locator("dialog#dialog-network").get_by_role("button", name="OK").click()
    expect(page.locator("#lobby-title")).to_have_text("Hearts Network: Anna's table")
    page.evaluate(
        "for (const id of ['table-link', 'lobby-title'])"
        " document.getElementById(id).style.outline = '1px solid #000'"
    )
    friend = fresh_context(base_url=live_server.url).new_page()
    friend.goto(page.locator("#table-link").input_value())
    friend.get_by_label("What is your name?").fill("Bob")
    friend.get_by_role("button", name="OK").click()
    expect(page.get_by_role("button", name="Remove Bob")).to_be_visible()  # the lobby redrawn
    assert watch.violations() == []
