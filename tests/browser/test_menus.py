"""In Debian's Chromium: every key of the product page's table, the menus by keyboard
alone, links to numbered games, undo and hint, options across a reload, statistics after a
finished game, and exit to the desktop and back."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.sessions.backends.signed_cookies import SessionStore
from playwright.sync_api import Page, expect

from game.solo import actions
from game.solo.challenge import link_of
from game.web.challenge import Challenge, Result
from game.web.session import save
from game.web.table import result_sentence, seat_names
from tests.support.browser import (
    CARDS,
    LIT,
    STATUS,
    TITLE,
    after,
    dialog,
    expect_modal,
    keys,
    one_card_from_the_end,
    open_at,
    pass_by_keyboard,
    played_until,
    seq,
    start,
)
from tests.support.web import winning_card

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


# -- helpers -----------------------------------------------------------------------------------


def focused(page: Page) -> str:
    return page.evaluate(
        "() => { const a = document.activeElement;"
        " return (a.getAttribute('aria-label') || a.textContent || '').trim(); }"
    )


# -- every key of the table ---------------------------------------------------------------------


def test_f1_help_modal_then_esc_restores_focus(page: Page, live_server):
    start(page, live_server.url)
    page.locator(CARDS).nth(4).focus()
    name = focused(page)
    page.evaluate("window.stillHere = true")
    page.keyboard.press("F1")
    expect_modal(page, "dialog-help")
    expect(dialog(page, "dialog-help")).to_contain_text("Our additions")
    assert page.evaluate("window.stillHere === true")  # the browser's own F1 did not run
    page.keyboard.press("Escape")
    expect(dialog(page, "dialog-help")).to_have_count(0)
    assert focused(page) == name


def test_f2_new_game_and_f3_select_game(page: Page, live_server):
    start(page, live_server.url, 617)
    page.keyboard.press("F2")  # nothing is lost yet: no question (tests/conftest.py numbers it)
    expect(page.locator(TITLE)).to_have_text("Hearts - Game #4242")
    page.wait_for_function("() => location.hash === '#4242'")
    page.evaluate("window.stillHere = true")
    page.keyboard.press("F3")
    expect_modal(page, "dialog-select-game")
    page.keyboard.type("1000001")
    page.keyboard.press("Enter")
    expect(page.locator("#number-refusal")).to_have_text(
        "Choose a game number from 1 to 1,000,000."
    )
    expect_modal(page, "dialog-select-game")
    page.get_by_label("Game number (1 to 1,000,000)").fill("4242")
    page.keyboard.press("Enter")
    expect(page.locator(TITLE)).to_have_text("Hearts - Game #4242")
    expect(dialog(page, "dialog-select-game")).to_have_count(0)
    assert page.evaluate("location.hash") == "#4242"
    assert page.evaluate("window.stillHere === true")  # F3 did not open the find bar's page


def test_f4_score_sheet_and_f5_options_keep_the_page(page: Page, live_server):
    start(page, live_server.url)
    page.keyboard.press("F4")
    expect_modal(page, "dialog-score")
    expect(dialog(page, "dialog-score")).to_contain_text("Game #617, hand 1.")
    # before any hand has ended, nothing but the sentence: no blank gap above it (issue 50)
    said = dialog(page, "dialog-score").locator("p", has_text="No hand has been finished yet.")
    gap = said.evaluate("p => p.getBoundingClientRect().top")
    gap -= (
        dialog(page, "dialog-score")
        .locator("p", has_text="Game #617")
        .evaluate("p => p.getBoundingClientRect().bottom")
    )
    assert gap < 16, f"a blank gap of {gap:.0f} px above 'No hand has been finished yet.'"
    page.keyboard.press("Enter")  # OK
    expect(dialog(page, "dialog-score")).to_have_count(0)
    page.evaluate("window.stillHere = true")
    page.keyboard.press("F5")
    expect_modal(page, "dialog-options")
    assert page.evaluate("window.stillHere === true")  # no reload
    expect(page.get_by_label("Your name")).to_be_focused()
    page.keyboard.press("Escape")
    expect(dialog(page, "dialog-options")).to_have_count(0)


def test_enter_passes_and_says_ok_arrows_and_space_pick_cards(page: Page, live_server):
    start(page, live_server.url)
    cards = page.locator(CARDS)
    cards.first.focus()
    page.keyboard.press("ArrowRight")
    assert focused(page) == cards.nth(1).text_content().strip()
    page.keyboard.press("ArrowRight")
    assert focused(page) == cards.nth(2).text_content().strip()
    page.keyboard.press("ArrowLeft")
    assert focused(page) == cards.nth(1).text_content().strip()
    pass_by_keyboard(page, (3, 1))


def test_h_hint_and_ctrl_z_undo(page: Page, live_server):
    start(page, live_server.url)
    page.locator(CARDS).first.focus()
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("h")  # while passing: three cards
    expect(page.locator("#table .hand .card.hinted")).to_have_count(3)
    expect(page.locator(STATUS)).to_contain_text("Hint: pass the ")
    expect(page.locator("#table .hand .card.raised")).to_have_count(0)  # nothing chosen
    pass_by_keyboard(page, (3, 1))
    page.keyboard.press("h")  # while playing: one card
    hinted = page.locator("#table .hand .card.hinted")
    expect(hinted).to_have_count(1)
    card = hinted.get_attribute("value")
    said = f"Hint: play the {hinted.inner_text().strip()}"  # then why: see test_hint_why
    expect(page.locator(STATUS)).to_contain_text(re.compile(rf"^{re.escape(said)}[.,] "))
    expect(page.locator(CARDS)).to_have_count(13)  # nothing was played for you
    # Undo stays offered only until anybody plays to the next trick (issue 40): game 617 at the
    # first moment you can take a trick, which you then lead
    state = played_until(617, lambda state: winning_card(state) is not None)
    card = winning_card(state)
    open_at(page, live_server.url, state)
    held = page.locator(CARDS).count()
    on_table = page.locator("#table .center .played").count()
    page.locator(f'{CARDS}[value="{card}"]').focus()
    keys(page, "Enter")
    expect(page.locator(f'{CARDS}[value="{card}"]')).to_have_count(0)
    first_plays = page.locator("#table .center .played").evaluate_all(
        "cards => cards.map(c => c.className.match(/face-(\\w\\w)/)[1])"
    )
    keys(page, "Control+z")
    expect(page.locator(f'{CARDS}[value="{card}"]')).to_have_count(1)
    expect(page.locator(CARDS)).to_have_count(held)
    expect(page.locator(STATUS)).to_have_text(
        re.compile(r" is back in your hand\. Select a card to play\.$")
    )
    assert page.locator("#table .center .played").count() == on_table
    # choose the same card again: the computers, fixed by the number, answer the same way
    page.locator(f'{CARDS}[value="{card}"]').focus()
    keys(page, "Enter")
    again = page.locator("#table .center .played").evaluate_all(
        "cards => cards.map(c => c.className.match(/face-(\\w\\w)/)[1])"
    )
    assert again == first_plays
    # and the menu item does the same as Ctrl+Z; a second undo in a row is refused
    page.locator("#menu-game-button").click()
    before = seq(page)
    page.get_by_role("menuitem", name="Undo Card").click()
    after(page, before)
    expect(page.locator(f'{CARDS}[value="{card}"]')).to_have_count(1)
    page.keyboard.press("Control+z")  # refused: the table stays, the status bar says why
    expect(page.locator(STATUS)).to_have_text(
        "There is no card of yours on the table to take back."
    )
    expect(page.locator(CARDS)).to_have_count(held)


def test_alt_g_alt_h_arrows_and_esc_in_the_menus(page: Page, live_server):
    start(page, live_server.url)
    game, help_ = page.locator("#menu-game-button"), page.locator("#menu-help-button")
    page.keyboard.press("Alt+g")
    expect(game).to_have_attribute("aria-expanded", "true")
    expect(page.get_by_role("menu", name="Game")).to_be_visible()
    assert focused(page).startswith("New Game")
    page.keyboard.press("ArrowDown")
    assert focused(page).startswith("Select Game...")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")  # wraps round to the last item
    assert focused(page) == "Exit"
    page.keyboard.press("Home")
    assert focused(page).startswith("New Game")
    page.keyboard.press("ArrowRight")  # the next menu
    expect(help_).to_have_attribute("aria-expanded", "true")
    expect(game).to_have_attribute("aria-expanded", "false")
    assert focused(page).startswith("Help Contents")
    page.keyboard.press("Escape")
    expect(page.get_by_role("menu", name="Help")).to_be_hidden()
    expect(help_).to_be_focused()
    page.keyboard.press("Escape")
    page.locator(CARDS).first.focus()
    page.keyboard.press("Alt+h")
    expect(help_).to_have_attribute("aria-expanded", "true")
    assert focused(page).startswith("Help Contents")
    page.keyboard.press("Escape")
    expect(help_).to_have_attribute("aria-expanded", "false")


# -- the menus by keyboard alone -----------------------------------------------------------------


def test_every_dialog_through_the_menus_by_keyboard(page: Page, live_server):
    start(page, live_server.url)
    page.reload()
    page.keyboard.press("Tab")  # into the page: the skip link comes first, then the menu bar
    expect(page.get_by_role("link", name="Skip to your cards")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.locator("#menu-game-button")).to_be_focused()
    page.keyboard.press("Enter")
    assert focused(page).startswith("New Game")
    for _ in range(4):
        page.keyboard.press("ArrowDown")
    assert focused(page) == "Statistics..."
    page.keyboard.press("Enter")
    expect_modal(page, "dialog-stats")
    expect(dialog(page, "dialog-stats")).to_contain_text("Games played")
    # focus stays in the dialog however far you tab
    for _ in range(6):
        page.keyboard.press("Tab")
        assert page.evaluate("!!document.activeElement.closest('#dialog-stats')")
    page.keyboard.press("Escape")
    expect(dialog(page, "dialog-stats")).to_have_count(0)

    for steps, dialog_id, words in (
        (0, "dialog-help", "Shooting the moon"),
        (1, "dialog-quote", "I come not, friends, to steal away your hearts..."),
        (2, "dialog-about", "Adrian Kennard"),
    ):
        page.keyboard.press("Alt+h")
        for _ in range(steps):
            page.keyboard.press("ArrowDown")
        page.keyboard.press("Enter")
        expect_modal(page, dialog_id)
        expect(dialog(page, dialog_id)).to_contain_text(words)
        page.keyboard.press("Enter")  # OK has the focus
        expect(dialog(page, dialog_id)).to_have_count(0)


def test_menus_and_dialogs_without_javascript(browser, live_server):
    context = browser.new_context(java_script_enabled=False, reduced_motion="reduce")
    page = context.new_page()
    page.goto(live_server.url)
    page.get_by_label("What is your name?").fill("Ada")
    page.get_by_role("button", name="OK").click()
    expect(page.locator(TITLE)).to_have_text("Hearts - Game #4242")
    page.locator("#menu-help-button").focus()  # the menu opens while focus is inside it
    expect(page.get_by_role("menu", name="Help")).to_be_visible()
    page.keyboard.press("Tab")
    expect(page.get_by_role("menuitem", name="Help Contents")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{live_server.url}/help")
    expect(page.locator("#dialog-help")).to_be_visible()
    page.get_by_role("button", name="OK").click()
    expect(page).to_have_url(re.compile(re.escape(live_server.url) + r"/\??$"))
    page.goto(f"{live_server.url}/select-game")
    page.get_by_label("Game number (1 to 1,000,000)").fill("617")
    page.get_by_role("button", name="OK").click()
    expect(page.locator(TITLE)).to_have_text("Hearts - Game #617")
    page.locator("#menu-game-button").hover()
    page.get_by_role("menuitem", name="Hint").click()
    expect(page.locator("#table .hand .card.hinted")).to_have_count(3)
    context.close()


# -- numbered games by link -------------------------------------------------------------------


def first_hand_and_plays(browser, base: str) -> tuple[list[str], list[str], list[str]]:
    context = browser.new_context(reduced_motion="reduce")
    page = context.new_page()
    start(page, base, 617)
    hand = page.locator(CARDS).evaluate_all("cards => cards.map(c => c.value)")
    pass_by_keyboard(page, (3, 1))
    received = page.locator(CARDS).evaluate_all("cards => cards.map(c => c.value)")
    page.locator(LIT).first.focus()
    keys(page, "Enter")
    plays = page.locator("#table .center .played").evaluate_all(
        "cards => cards.map(c => c.className.match(/face-(\\w\\w)/)[1])"
    )
    context.close()
    return hand, received, plays


def test_the_same_link_twice_gives_the_same_game(browser, live_server):
    one = first_hand_and_plays(browser, live_server.url)
    two = first_hand_and_plays(browser, live_server.url)
    assert len(one[0]) == 13 and len(one[2]) >= 4
    assert one == two


def test_a_link_asks_before_abandoning_a_game_in_progress(page: Page, live_server):
    start(page, live_server.url, 617)
    pass_by_keyboard(page, (3, 1))
    page.evaluate("location.hash = '#618'")
    expect_modal(page, "dialog-open-game")
    expect(dialog(page, "dialog-open-game")).to_contain_text(
        "Abandon game #617 and start game #618?"
    )
    page.get_by_role("link", name="No").click()
    expect(dialog(page, "dialog-open-game")).to_have_count(0)
    expect(page.locator(TITLE)).to_have_text("Hearts - Game #617")
    page.wait_for_function("() => location.hash === '#617'")
    page.evaluate("location.hash = '#618'")
    expect_modal(page, "dialog-open-game")
    page.get_by_role("button", name="Yes").click()
    expect(page.locator(TITLE)).to_have_text("Hearts - Game #618")
    expect(dialog(page, "dialog-open-game")).to_have_count(0)
    page.wait_for_function(
        "() => location.hash === '#618'"
        " && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
    )
    page.evaluate("location.hash = '#0'")
    expect_modal(page, "dialog-refusal")
    expect(dialog(page, "dialog-refusal")).to_contain_text(
        "Choose a game number from 1 to 1,000,000."
    )


# -- options across a reload ---------------------------------------------------------------------


def test_options_survive_a_reload_and_cancel_changes_nothing(page: Page, live_server):
    start(page, live_server.url)
    page.keyboard.press("F5")
    expect_modal(page, "dialog-options")
    page.get_by_label("Your name").fill("Zed")
    page.get_by_label("Fast").check()
    page.get_by_label("Show the score sheet after each hand").uncheck()
    page.get_by_label("Show refused moves in a message box").check()
    page.get_by_role("button", name="OK").click()
    page.wait_for_function("() => document.body.classList.contains('speed-fast')")
    expect(page.locator("#table .seat-bottom .name")).to_have_text("Zed")
    page.reload()
    expect(page.locator("body")).to_have_class(re.compile(r"\bspeed-fast\b"))
    expect(page.locator(TITLE)).to_have_text("Hearts - Game #617")
    page.keyboard.press("F5")
    expect_modal(page, "dialog-options")
    expect(page.get_by_label("Your name")).to_have_value("Zed")
    expect(page.get_by_label("Fast")).to_be_checked()
    expect(page.get_by_label("Show the score sheet after each hand")).not_to_be_checked()
    expect(page.get_by_label("Show refused moves in a message box")).to_be_checked()
    page.get_by_label("Your name").fill("Nobody")
    page.get_by_label("None").check()
    page.get_by_role("link", name="Cancel").click()
    expect(dialog(page, "dialog-options")).to_have_count(0)
    page.reload()
    expect(page.locator("#table .seat-bottom .name")).to_have_text("Zed")
    expect(page.locator("body")).to_have_class(re.compile(r"\bspeed-fast\b"))


# -- statistics after a finished game ------------------------------------------------------------


def test_statistics_after_a_finished_game(page: Page, live_server):
    state = one_card_from_the_end(617)
    final = one_card_from_the_end(617)
    actions.play(final, final.game.hand(0)[0], actions.Clock())
    won = 0 in final.game.winners
    store = SessionStore()
    save(store, state)
    store.save()
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": store.session_key, "url": live_server.url}]
    )
    page.goto(live_server.url)
    expect(page.locator(TITLE)).to_have_text("Hearts - Game #617")
    expect(page.locator(CARDS)).to_have_count(1)
    page.locator(LIT).first.focus()
    keys(page, "Enter")  # your last card ends the game
    expect(page.locator("#table dialog.sheet .result")).to_have_text(
        result_sentence(seat_names(final), list(final.game.winners), 0)
    )
    page.keyboard.press("Alt+g")
    page.get_by_role("menuitem", name="Statistics...").click()
    expect_modal(page, "dialog-stats")
    stats = dialog(page, "dialog-stats")
    row = "table.stats tr:has(th:text-is('{}')) td"
    expect(stats.locator(row.format("Games played"))).to_have_text("1")
    expect(stats.locator(row.format("Games won"))).to_have_text("1" if won else "0")
    expect(stats.locator(row.format("Win percentage"))).to_have_text("100%" if won else "0%")
    expect(stats.locator(row.format("Current streak"))).to_have_text("1 win" if won else "1 loss")
    score = str(final.game.totals[0])
    expect(stats.locator(row.format("Best (lowest) final score"))).to_have_text(score)
    # Reset asks first
    stats.get_by_role("button", name="Reset...").click()
    expect_modal(page, "dialog-stats-reset")
    page.get_by_role("button", name="Reset", exact=True).click()
    expect_modal(page, "dialog-stats")
    expect(dialog(page, "dialog-stats").locator(row.format("Games played"))).to_have_text("0")


# -- exit and reopen -----------------------------------------------------------------------------


def test_exit_to_the_desktop_and_reopen(page: Page, live_server):
    start(page, live_server.url)
    pass_by_keyboard(page, (3, 1))
    hand = page.locator(CARDS).evaluate_all("cards => cards.map(c => c.value)")
    page.keyboard.press("Alt+g")
    page.keyboard.press("End")
    assert focused(page) == "Exit"
    page.keyboard.press("Enter")
    expect(page.locator("#window")).to_be_hidden()
    icon = page.get_by_role("link", name="Hearts")
    expect(icon).to_be_visible()
    expect(icon).to_be_focused()
    page.keyboard.press("Enter")  # Enter on the icon reopens the window
    expect(page.locator("#window")).to_be_visible()
    expect(icon).to_be_hidden()
    assert page.locator(CARDS).evaluate_all("cards => cards.map(c => c.value)") == hand
    page.locator("#menu-game-button").click()
    page.get_by_role("menuitem", name="Exit").click()
    expect(page.locator("#window")).to_be_hidden()
    icon.click()  # a click reopens it, as the product page says
    expect(page.locator("#window")).to_be_visible()
    expect(page.locator(TITLE)).to_have_text("Hearts - Game #617")
    expect(page.locator(STATUS)).to_have_text("Select a card to play.")


# -- a name's 20 characters, said and held, in Options and in a challenge's dialog --------------

LONG_NAME = "Bartholomew Jeremiah Smith"  # 26 characters; its first 20 are "Bartholomew Jeremiah"


def test_options_name_says_its_limit_and_holds_no_more(page: Page, live_server):
    start(page, live_server.url)
    page.keyboard.press("F5")
    expect_modal(page, "dialog-options")
    field = page.get_by_label("Your name")
    expect(field).to_have_attribute("aria-describedby", "option-name-limit")
    expect(page.locator("#option-name-limit")).to_have_text("At most 20 characters.")
    expect(page.locator("#option-name-limit")).to_be_visible()
    field.fill("")
    field.press_sequentially(LONG_NAME)
    expect(field).to_have_value(LONG_NAME[:20])
    page.get_by_role("button", name="OK").click()
    expect(page.locator("#table .seat-bottom .name")).to_have_text(LONG_NAME[:20])


def test_a_challenges_name_field_says_its_limit_and_holds_no_more(page: Page, live_server):
    anna = Result(name="Anna", points=(26, 0, 0, 0), won=False)
    link = link_of(Challenge(number=617, moon_off_shooter=False, results=(anna,)))
    page.goto(f"{live_server.url}/challenge/{link}")
    expect_modal(page, "dialog-challenge")
    field = page.get_by_label("Your name")
    expect(field).to_be_focused()
    expect(page.locator("#challenge-name-limit")).to_have_text("At most 20 characters.")
    expect(page.locator("#challenge-name-limit")).to_be_visible()
    page.keyboard.type(LONG_NAME)
    expect(field).to_have_value(LONG_NAME[:20])
    page.keyboard.press("Enter")
    expect(page.locator(TITLE)).to_have_text("Hearts - Game #617")
    expect(page.locator("#table .seat-bottom .name")).to_have_text(LONG_NAME[:20])


def test_on_a_touch_screen_the_menus_name_no_keys(fresh_context, live_server):
    """Issue 50: the menus showed F2, Ctrl+Z and H on a phone, which has none of them; a
    desktop keeps them."""
    for touch in (True, False):
        size = {"width": 375, "height": 667} if touch else {"width": 1024, "height": 768}
        context = fresh_context(viewport=size, has_touch=touch, is_mobile=touch)
        page = context.new_page()
        start(page, live_server.url)
        opener = page.locator("#menu-game-button")
        opener.tap() if touch else opener.click()
        expect(page.get_by_role("menuitem", name="Hint")).to_be_visible()
        keys_shown = page.locator("#menu-game .key:visible").count()
        if touch:
            assert keys_shown == 0, "F-key and Ctrl names on a touch screen"
        else:
            assert keys_shown >= 5
