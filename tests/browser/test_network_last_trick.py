"""Last Trick (L) at a network table, opened the way a person opens it: the key, over the table
drawn for their seat, showing the trick the table's row holds as the last one taken."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from game.web.last_trick import NOTHING_YET
from tests.support.browser import (
    CARDS,
    LIT,
    STATUS,
    act,
    deal_by_the_game_menu,
    wait_modal,
)
from tests.support.network import table_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def last_trick(page):
    return page.locator("#dialogs dialog#dialog-last-trick")


def test_l_opens_the_network_tables_last_trick_and_l_puts_it_away(fresh_context, live_server):
    page = fresh_context(base_url=live_server.url, reduced_motion="reduce").new_page()
    deal_by_the_game_menu(page, "Ada", 617)
    code = re.search(r"/t/([^/]+)/", page.url).group(1)
    page.keyboard.press("F2")  # Pauline, Michele and Ben sit down
    expect(page.locator(STATUS)).to_contain_text("Select three cards to pass")
    for place in range(3):
        act(page, page.locator(CARDS).nth(place))
    act(page, page.locator("#pass-button"))
    act(page, page.get_by_role("button", name="OK", exact=True))
    expect(page.locator(LIT).first).to_be_visible(timeout=10_000)  # her turn
    if not table_of(code)[1].game.tricks_played:
        page.locator(LIT).first.focus()
        page.keyboard.press("l")
        wait_modal(page, "dialog-last-trick")
        expect(last_trick(page)).to_have_accessible_description(NOTHING_YET)
        page.keyboard.press("l")
        expect(last_trick(page)).to_have_count(0)
    while not table_of(code)[1].game.tricks_played:
        act(page, page.locator(LIT).first)
        expect(page.locator(LIT).first).to_be_visible(timeout=10_000)
    taken = table_of(code)[1].game.last_trick
    card = page.locator(LIT).first
    card.focus()
    chosen = card.get_attribute("value")
    page.keyboard.press("L")
    shown = last_trick(page)
    expect(shown).to_be_visible()
    wait_modal(page, "dialog-last-trick")
    faces = shown.locator(".seen-card").evaluate_all(
        "cards => cards.map(c => c.className.match(/face-(\\w+)/)[1])"
    )
    assert sorted(faces) == sorted(code for _, code in taken.plays)
    expect(shown.locator(".seen.won")).to_have_count(1)
    sentence = shown.locator("#last-trick-sentence").inner_text()
    assert sentence and sentence != NOTHING_YET
    expect(shown).to_have_accessible_description(sentence)
    page.keyboard.press("l")
    expect(shown).to_have_count(0)
    assert page.evaluate("document.activeElement.value") == chosen  # the focus is back
