"""A network table reads as the solo table does, in Chromium: passed cards leave the hand at
once, the received cards ask for OK in the status line while the others play on, and the
lobby says plainly who sits where and what a friend's arrival does to a computer's seat."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from game.network import state as tables
from tests.support.browser import STATUS, Axe, deal_by_the_game_menu, join_at_the_prompt
from tests.support.network import table_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CARDS = "#table .hand .card"


def sit(fresh_context, base: str, name: str, link: str = "") -> Page:
    page = fresh_context(base_url=base, bypass_csp=True, reduced_motion="reduce").new_page()
    if link:
        join_at_the_prompt(page, link, name)
        expect(page.locator(STATUS)).to_have_text("Waiting for Ada to start the game...")
        return page
    deal_by_the_game_menu(page, name, THE_GAME)
    return page


def computers_lead(number: int) -> bool:
    """Whether at game ``number``, Ada and Bea passing their three lowest cards, a computer
    plays first after the exchange (so cards arrive while the people are asked for OK)."""
    state = tables.new_table(number, "Ada", "a")
    tables.join(state, "Bea", "b")
    tables.start(state, 0)
    tables.advance(state)
    for seat in (0, 1):
        for card in state.game.hand(seat)[:3]:
            tables.toggle(state, seat, card)
        tables.pass_selected(state, seat)
        tables.advance(state)
    return bool(state.game.trick)


THE_GAME = next(number for number in range(1, 200) if computers_lead(number))


def pass_at_the_table(page: Page) -> list[str]:
    """Click the first three cards and Pass (a network table: the others may still choose);
    the cards passed."""
    chosen = []
    for _ in range(3):
        card = page.locator(f"{CARDS}:not(.raised)").first
        chosen.append(card.get_attribute("value"))
        card.click(position={"x": 6, "y": 20})
        expect(page.locator(f"{CARDS}.raised")).to_have_count(len(chosen))
    page.locator("#pass-button").click()
    return chosen


def test_the_lobby_says_who_sits_where_and_what_a_friend_does_to_a_computer_seat(
    fresh_context, live_server
):
    ada = sit(fresh_context, live_server.url, "Ada")
    seats = ada.locator(".net-seats li")
    expect(seats).to_have_text(
        [
            "Ada: you, the dealer",
            "Pauline: a computer player, until a friend takes this seat",
            "Michele: a computer player, until a friend takes this seat",
            "Ben: a computer player, until a friend takes this seat",
        ]
    )
    expect(ada.locator(".net-how")).to_have_text(
        "Each friend who opens the link sits down in the next free seat, in place of the "
        "computer player listed there. The dealer starts the game with Start (F2); computer "
        "players play in the seats still free."
    )
    bea = sit(fresh_context, live_server.url, "Bea", ada.locator("#table-link").input_value())
    # Ada's page is told (by its poll here): Bea sits where Pauline was listed, and says so
    expect(seats).to_have_text(
        [
            re.compile(r"^Ada: you, the dealer$"),
            re.compile(r"^Bea: in place of Pauline"),
            "Michele: a computer player, until a friend takes this seat",
            "Ben: a computer player, until a friend takes this seat",
        ],
        timeout=10_000,
    )
    expect(bea.locator(".net-seats li").first).to_have_text("Ada: the dealer")
    expect(bea.locator(".net-seats li").nth(1)).to_have_text("Bea: you, in place of Pauline")
    for page in (ada, bea):
        expect(page.locator(".net-seats")).not_to_contain_text("(dealer)")
        expect(page.locator(".net-seats")).not_to_contain_text("(you)")
    axe = Axe(ada)
    axe.check("lobby with a friend seated")
    assert axe.found == [], axe.found


def test_passed_cards_leave_the_hand_and_received_cards_ask_for_ok_as_in_solo(
    fresh_context, live_server
):
    ada = sit(fresh_context, live_server.url, "Ada")
    bea = sit(fresh_context, live_server.url, "Bea", ada.locator("#table-link").input_value())
    code = re.search(r"/t/([^/]+)/", ada.url).group(1)
    ada.keyboard.press("F2")
    expect(ada.locator(STATUS)).to_have_text("Select three cards to pass to Bea.")
    expect(bea.locator(STATUS)).to_contain_text("Select three cards to pass to", timeout=10_000)

    passed = pass_at_the_table(ada)  # Bea has not passed: Ada waits, without the three cards
    expect(ada.locator(STATUS)).to_have_text("Waiting for other players to pass...")
    expect(ada.locator(CARDS)).to_have_count(10)
    shown = ada.locator(CARDS).evaluate_all("cards => cards.map(c => c.value)")
    assert not set(passed) & set(shown)
    assert sorted(shown + passed) == sorted(table_of(code)[1].game.hand(0))
    expect(ada.locator(f"{CARDS}.raised")).to_have_count(0)

    pass_at_the_table(bea)  # the exchange; a computer leads and plays on at once
    expect(bea.locator(STATUS)).to_have_text("Press OK to accept cards.", timeout=10_000)
    state = table_of(code)[1]
    assert state.game.trick, "a computer should have led (see THE_GAME)"
    for page, seat in ((bea, 1), (ada, 0)):
        expect(page.locator(STATUS)).to_have_text("Press OK to accept cards.", timeout=10_000)
        expect(page.locator("#status .status-step")).to_have_count(0)
        expect(page.locator("#table .center .played")).not_to_have_count(0)
        expect(page.locator(CARDS)).to_have_count(13)
        expect(page.locator(f"{CARDS}.raised")).to_have_count(3)
        assert state.seats[seat].awaiting_ok
