"""In Debian's Chromium: the last trick and the dead hand, by mouse, by keyboard and
with JavaScript turned off.

Every test plays game #7 the same way: the first three cards are passed, then the last card
that may be played each time. Your first card wins the first trick; after your fourth,
Pauline has taken the fourth; after one of your cards before the last (``DEAD_AFTER``), the
queen of spades and every heart are gone. The computers' choices decide the cards of those
tricks, which card ends the hand and its score, so all of these are read off the engine's own
replay of the hand (tests/support/game_7.py); when this was written, your seventh card, and
19, 7, 0, 0.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.support import game_7 as replay
from tests.support.browser import (
    CARDS,
    LIT,
    STATUS,
    TITLE,
    act,
    keys,
    pass_by_keyboard,
    pass_by_mouse,
    seq,
    start,
    wait_modal,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIRST = replay.sentence(1)  # "Last trick, won by you: Michele the two of clubs, ..."
FIRST_CARDS = dict(replay.trick(1).plays)  # seat -> card
FOURTH = replay.sentence(4)  # "Last trick, won by Pauline: you the seven of hearts, ..."
FOURTH_WON = dict(replay.trick(4).plays)[1]  # Pauline's card
DEAD_STATUS = "No points are left in this hand. Press OK to deal the next hand."
TOTALS = [str(points) for points in replay.score()]
PILES = [replay.pile(seat) for seat in range(4)]  # (label, how many point cards)
DEAD_OPTION = "Finish the hand when no points are left"
DEAD_AFTER = replay.dead_after()  # your card that takes the last point out of play


def last_trick(page: Page):
    return page.locator("#dialogs dialog#dialog-last-trick")


def expect_modal_last_trick(page: Page, sentence: str) -> None:
    shown = last_trick(page)
    expect(shown).to_be_visible()
    wait_modal(page, "dialog-last-trick")
    expect(shown).to_have_accessible_description(sentence)
    expect(shown.locator("#last-trick-sentence")).to_have_text(sentence)


def described(page: Page) -> str:
    """The dialog's description, the sentence a screen reader speaks when it opens."""
    return last_trick(page).evaluate(
        "d => document.getElementById(d.getAttribute('aria-describedby')).textContent"
    )


def play_by_mouse(page: Page, times: int) -> None:
    for _ in range(times):
        expect(page.locator(STATUS)).to_have_text("Select a card to play.")
        act(page, page.locator(LIT).last)


def play_by_keyboard(page: Page, times: int) -> None:
    for _ in range(times):
        expect(page.locator(STATUS)).to_have_text("Select a card to play.")
        page.locator(LIT).last.focus()
        keys(page, "Enter")


def expect_dead_hand_over(page: Page) -> None:
    expect(page.locator(STATUS)).to_have_text(DEAD_STATUS)
    expect(page.locator("dialog.sheet")).to_be_visible()
    expect(page.locator("dialog.sheet tbody tr")).to_have_count(1)
    expect(page.locator("dialog.sheet tfoot td")).to_have_text(TOTALS)
    expect(page.locator("#table .taken")).to_have_count(4)
    for label, cards in PILES:
        expect(page.get_by_label(label, exact=True).locator(".small")).to_have_count(cards)
    queen = next(label for label, _ in PILES if "the queen of spades" in label)
    expect(page.get_by_label(queen, exact=True).locator(".small.face-QS")).to_be_visible()
    expect(page.locator(CARDS)).to_have_count(0)


# -- the last trick ------------------------------------------------------------------------------


def test_last_trick_by_mouse_from_the_game_menu_and_the_winners_pile(page: Page, live_server):
    start(page, live_server.url, 7)
    pass_by_mouse(page)
    play_by_mouse(page, 1)
    table_before = seq(page)
    page.locator("#menu-game-button").click()
    page.get_by_role("menuitem", name="Last Trick").click()
    expect_modal_last_trick(page, FIRST)
    shown = last_trick(page)
    expect(shown.locator(".seen")).to_have_count(4)
    for seat in (1, 2, 3):
        card = shown.locator(f".seen-{replay.PLACES[seat]} .seen-card")
        expect(card).to_have_class(f"seen-card face-{FIRST_CARDS[seat]}")
    expect(shown.locator(".seen.won")).to_have_count(1)
    expect(shown.locator(".seen.won .seen-card")).to_have_class(f"seen-card face-{FIRST_CARDS[0]}")
    expect(shown.locator(".seen.won .seen-name")).to_have_text("You: took it")
    print(f"\nscreen reader hears: {described(page)}")
    shown.locator(".last-trick").click()  # a click anywhere puts it away
    expect(last_trick(page)).to_have_count(0)

    pile = page.locator("#trick-pile")
    expect(pile).to_have_class(re.compile(r"\bpile-bottom\b"))
    expect(pile).to_have_accessible_name("Show the last trick, won by you")
    pile.click()
    expect_modal_last_trick(page, FIRST)
    page.mouse.click(4, 4)  # on the backdrop, outside the dialog
    expect(last_trick(page)).to_have_count(0)
    assert seq(page) == table_before  # looking changed nothing
    expect(page.locator(STATUS)).to_have_text("Select a card to play.")


def test_last_trick_by_keyboard_l_shows_it_l_or_esc_puts_it_away(page: Page, live_server):
    start(page, live_server.url, 7)
    pass_by_keyboard(page)
    play_by_keyboard(page, 4)
    expect(page.locator("#trick-pile")).to_have_class(re.compile(r"\bpile-left\b"))
    page.locator(LIT).first.focus()
    card = page.evaluate("document.activeElement.value")
    page.keyboard.press("l")
    expect_modal_last_trick(page, FOURTH)
    print(f"\nscreen reader hears: {described(page)}")
    expect(last_trick(page).locator(".seen.won.seen-left .seen-card")).to_have_class(
        f"seen-card face-{FOURTH_WON}"
    )
    page.keyboard.press("l")
    expect(last_trick(page)).to_have_count(0)
    assert page.evaluate("document.activeElement.value") == card  # focus is back on the card
    page.keyboard.press("L")
    expect_modal_last_trick(page, FOURTH)
    page.keyboard.press("Escape")
    expect(last_trick(page)).to_have_count(0)
    assert page.evaluate("document.activeElement.value") == card
    page.keyboard.press("F1")
    help_box = page.locator("#dialogs dialog#dialog-help")
    expect(help_box.locator("table.keys tr", has_text="Show the last trick")).to_have_text(
        "LShow the last trick again; L, Esc or a click puts it away (our addition)"
    )
    expect(help_box).to_have_attribute("open", "")  # shown: not only swapped in
    page.keyboard.press("l")  # the last trick does not open over another dialog
    expect(last_trick(page)).to_have_count(0)
    page.keyboard.press("Escape")
    expect(help_box).to_have_count(0)


def name_without_javascript(page: Page, base: str) -> None:
    page.goto(base)
    page.get_by_label("What is your name?").fill("Ada")
    page.get_by_role("button", name="OK").click()


def game_7_without_javascript(page: Page, base: str) -> None:
    """Select Game as a page of its own, then the pass: each click a form sent."""
    page.goto(f"{base}/select-game")
    page.get_by_label("Game number (1 to 1,000,000)").fill("7")
    page.get_by_role("button", name="OK").click()
    expect(page.locator(TITLE)).to_have_text("Hearts - Game #7")
    for i in range(3):
        page.locator(CARDS).nth(i).click(position={"x": 6, "y": 24})
        expect(page.locator("#table .hand .card.raised")).to_have_count(i + 1)
    page.get_by_role("button", name="Pass Left").click()
    page.get_by_role("button", name="OK").click()
    expect(page.locator(STATUS)).to_have_text("Select a card to play.")


def test_last_trick_without_javascript_is_a_page_that_returns_to_the_table(browser, live_server):
    context = browser.new_context(java_script_enabled=False, reduced_motion="reduce")
    page = context.new_page()
    name_without_javascript(page, live_server.url)
    game_7_without_javascript(page, live_server.url)
    page.locator(LIT).last.click(position={"x": 6, "y": 24})
    expect(page.locator(STATUS)).to_have_text("Select a card to play.")

    page.locator("#trick-pile").click()
    expect(page).to_have_url(f"{live_server.url}/last-trick")
    shown = last_trick(page)
    expect(shown).to_be_visible()
    expect(shown.locator("#last-trick-sentence")).to_have_text(FIRST)
    expect(shown.locator(".seen.won .seen-card")).to_have_class(f"seen-card face-{FIRST_CARDS[0]}")
    shown.get_by_role("button", name="OK").click()
    expect(page).to_have_url(re.compile(r"^[^?]*/\??$"))  # the table, "/" or "/?"
    expect(last_trick(page)).to_have_count(0)
    expect(page.locator(STATUS)).to_have_text("Select a card to play.")

    page.locator("#menu-game-button").hover()
    page.get_by_role("menuitem", name="Last Trick").click()
    expect(page).to_have_url(f"{live_server.url}/last-trick")
    expect(last_trick(page).locator("#last-trick-sentence")).to_have_text(FIRST)
    page.wait_for_load_state("networkidle")  # no request left for the server to answer
    context.close()


# -- the dead hand -------------------------------------------------------------------------------


def test_dead_hand_by_mouse_the_option_then_the_hand_ends_at_once(page: Page, live_server):
    start(page, live_server.url, 7)
    page.locator("#menu-game-button").click()
    page.get_by_role("menuitem", name="Options...").click()
    page.get_by_label(DEAD_OPTION).check()
    with page.expect_navigation():  # the options reload the page
        page.get_by_role("button", name="OK").click()
    page.locator("#menu-game-button").click()
    page.get_by_role("menuitem", name="Select Game...").click()
    page.get_by_label("Game number (1 to 1,000,000)").fill("7")
    page.get_by_role("button", name="OK").click()
    expect(page.locator(TITLE)).to_have_text("Hearts - Game #7")
    pass_by_mouse(page)
    play_by_mouse(page, DEAD_AFTER)
    expect_dead_hand_over(page)
    act(page, page.locator("dialog.sheet").get_by_role("button", name="OK"))
    expect(page.locator(STATUS)).to_have_text("Select three cards to pass to Ben.")


def test_dead_hand_by_keyboard(page: Page, live_server):
    start(page, live_server.url, 7)
    page.keyboard.press("F5")
    options = page.locator("#dialogs dialog#dialog-options")
    expect(options).to_be_visible()
    page.get_by_label(DEAD_OPTION).focus()
    page.keyboard.press("Space")
    expect(page.get_by_label(DEAD_OPTION)).to_be_checked()
    page.get_by_label("Your name").focus()
    with page.expect_navigation():  # the options reload the page
        page.keyboard.press("Enter")
    expect(options).to_have_count(0)
    page.keyboard.press("F3")
    expect(page.get_by_label("Game number (1 to 1,000,000)")).to_be_focused()
    page.keyboard.type("7")
    keys(page, "Enter")
    expect(page.locator(TITLE)).to_have_text("Hearts - Game #7")
    pass_by_keyboard(page)
    play_by_keyboard(page, DEAD_AFTER)
    expect_dead_hand_over(page)
    keys(page, "Enter")  # the sheet's OK has the focus
    expect(page.locator(STATUS)).to_have_text("Select three cards to pass to Ben.")


def test_dead_hand_without_javascript(browser, live_server):
    context = browser.new_context(java_script_enabled=False, reduced_motion="reduce")
    page = context.new_page()
    name_without_javascript(page, live_server.url)
    page.goto(f"{live_server.url}/options")
    page.get_by_label(DEAD_OPTION).check()
    page.get_by_role("button", name="OK").click()
    expect(page).to_have_url(f"{live_server.url}/")
    game_7_without_javascript(page, live_server.url)
    for plays in range(DEAD_AFTER):
        expect(page.locator(STATUS)).to_have_text("Select a card to play.")
        expect(page.locator(CARDS)).to_have_count(13 - plays)
        page.locator(LIT).last.click(position={"x": 6, "y": 24})
    expect_dead_hand_over(page)
    page.locator("dialog.sheet").get_by_role("button", name="OK").click()
    expect(page.locator(STATUS)).to_have_text("Select three cards to pass to Ben.")
    page.wait_for_load_state("networkidle")  # no request left for the server to answer
    context.close()
