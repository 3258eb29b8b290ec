"""What a newcomer to a network table runs into, each along the person's own path: the dealer
deals from the Game menu, a friend opens the link in a browser of their own (a phone with touch,
or a desktop) and types at the prompt."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.browser import STATUS, give_name

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 375, "height": 667}, "has_touch": True, "is_mobile": True}
WIDTHS = [(320, 568), (375, 667), (1024, 768), (1920, 1080)]
LONG_NAME = "Maximilian-Alexander"  # twenty characters, the most a name may have


def deal(page: Page, name: str) -> str:
    """From a first visit, Game, Network..., I will be the dealer: the table's code."""
    page.goto("/")
    give_name(page, name)
    page.get_by_role("menuitem", name="Game").click()
    page.get_by_role("menuitem", name="Network...").click()
    dialog = page.locator("dialog#dialog-network")
    expect(dialog.get_by_label("Your name")).to_have_value(name)
    dialog.get_by_role("button", name="OK").click()
    expect(page.locator("#lobby-title")).to_have_text(f"Hearts Network: {name}'s table")
    return re.search(r"/t/([^/]+)/", page.url).group(1)


def open_link(page: Page, link: str, name: str) -> None:
    """A friend opens the dealer's link and answers the prompt."""
    page.goto(link)
    page.get_by_label("What is your name?").fill(name)
    page.get_by_role("button", name="OK").click()


def names_clipped(page: Page) -> list[str]:
    """The opponents' names (and who plays for them) not wholly inside the table: each line
    of each name must lie within the table's box, none cut by its edge or its own box."""
    return page.evaluate(
        """() => {
          const table = document.querySelector('#table').getBoundingClientRect();
          const cut = [];
          for (const name of document.querySelectorAll('#table .seat:not(.seat-bottom) .name')) {
            const box = name.getBoundingClientRect();
            const lines = [...name.getClientRects()];
            const range = document.createRange();
            range.selectNodeContents(name);
            const text = range.getBoundingClientRect();
            const outside = [box, text, ...lines].some((r) =>
              r.left < table.left - 0.5 || r.right > table.right + 0.5);
            if (outside || name.scrollWidth > name.clientWidth + 1) cut.push(name.innerText);
          }
          return cut;
        }"""
    )


def test_every_seat_name_is_whole_at_phone_and_desktop_widths_solo_and_at_a_table(
    browser: Browser, fresh_context, live_server
):
    anna = fresh_context(base_url=live_server.url).new_page()
    code = deal(anna, "Anna")
    friend = fresh_context(base_url=live_server.url, **PHONE).new_page()
    open_link(friend, anna.locator("#table-link").input_value(), LONG_NAME)
    expect(friend.locator(STATUS)).to_have_text("Waiting for Anna to start the game...")
    expect(anna.locator(".net-seats")).to_contain_text(LONG_NAME)
    anna.keyboard.press("F2")
    expect(anna.locator(STATUS)).to_have_text(f"Select three cards to pass to {LONG_NAME}.")
    expect(friend.locator(STATUS)).to_have_text("Select three cards to pass to Michele.")
    solo = fresh_context(base_url=live_server.url).new_page()
    solo.goto("/")
    give_name(solo, "Ada")
    for page, left in ((anna, LONG_NAME), (friend, "Michele"), (solo, "Pauline")):
        for width, height in WIDTHS:
            page.set_viewport_size({"width": width, "height": height})
            page.goto(f"/t/{code}/" if page is not solo else "/")
            expect(page.locator("#table .seat-left .name bdi")).to_have_text(left)
            assert names_clipped(page) == [], (left, width)
