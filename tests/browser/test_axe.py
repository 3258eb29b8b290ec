"""axe-core over every phase of a game, every dialog, the menus and the desktop, at a desktop
and a phone size: no violation. axe-core is vendored for the tests only (tests/vendor/README)
and injected into a context that bypasses the page's CSP, which would rightly block it."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.support.browser import (
    CARDS,
    MENU_DIALOGS,
    STATUS,
    Axe,
    act,
    keys,
    open_at,
    played_until,
    start,
    wait_modal,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"desktop": (1280, 800), "phone": (375, 667)}


def close(page: Page, dialog_id: str) -> None:
    page.keyboard.press("Escape")
    expect(page.locator(f"#{dialog_id}")).to_have_count(0)


@pytest.mark.parametrize("size", SIZES.keys())
def test_axe_finds_nothing_in_any_phase_dialog_or_menu(fresh_context, live_server, size):
    width, height = SIZES[size]
    context = fresh_context(
        bypass_csp=True, viewport={"width": width, "height": height}, reduced_motion="reduce"
    )
    page = context.new_page()
    axe = Axe(page)
    base = live_server.url

    page.goto(f"{base}/#617")
    expect(page.get_by_label("What is your name?")).to_be_visible()
    axe.check("name prompt")
    start(page, base)
    axe.check("passing")
    for i in (10, 11, 12):
        act(page, page.locator(CARDS).nth(i))
    act(page, page.locator("#pass-button"))
    axe.check("received cards")
    act(page, page.get_by_role("button", name="OK", exact=True))
    expect(page.locator(STATUS)).to_have_text("Select a card to play.")
    axe.check("playing")
    page.locator(f'{CARDS}[value="2C"]').focus()
    keys(page, "Enter")
    axe.check("playing, a trick gathered")

    page.keyboard.press("Alt+g")
    axe.check("Game menu open")
    page.keyboard.press("ArrowRight")
    axe.check("Help menu open")
    page.keyboard.press("Escape")

    for key, dialog_id in (
        ("F1", "dialog-help"),
        ("F2", "dialog-new-game"),
        ("F3", "dialog-select-game"),
        ("F4", "dialog-score"),
        ("F5", "dialog-options"),
    ):
        page.keyboard.press(key)
        wait_modal(page, dialog_id)
        axe.check(f"{dialog_id} ({key})")
        close(page, dialog_id)
    for menu, item, dialog_id in MENU_DIALOGS:
        page.locator(menu).click()
        page.get_by_role("menuitem", name=item).click()
        wait_modal(page, dialog_id)
        axe.check(dialog_id)
        if dialog_id == "dialog-stats":
            page.get_by_role("button", name="Reset...").click()
            wait_modal(page, "dialog-stats-reset")
            axe.check("dialog-stats-reset")
            close(page, "dialog-stats-reset")
        else:
            close(page, dialog_id)
    page.keyboard.press("F3")
    wait_modal(page, "dialog-select-game")
    page.keyboard.type("0")
    page.keyboard.press("Enter")
    expect(page.locator("#number-refusal")).to_be_visible()
    axe.check("dialog-select-game refusing a number")
    close(page, "dialog-select-game")
    page.evaluate("location.hash = '#618'")
    wait_modal(page, "dialog-open-game")
    axe.check("dialog-open-game")
    close(page, "dialog-open-game")
    page.wait_for_function("() => location.hash === '#617'")
    page.evaluate("location.hash = '#0'")
    wait_modal(page, "dialog-refusal")
    axe.check("dialog-refusal")
    close(page, "dialog-refusal")

    hand_over = played_until(617, lambda s: s.game.phase == "hand_over")
    open_at(page, base, hand_over)
    expect(page.locator("#table dialog.sheet")).to_be_visible()
    axe.check("hand over, score sheet")
    hand_over.options.sheet_after_hand = False
    hand_over.options.message_boxes = True
    open_at(page, base, hand_over)
    expect(page.locator("#table .continue")).to_be_visible()
    axe.check("hand over, no sheet")
    game_over = played_until(617, lambda s: s.game.phase == "game_over")
    open_at(page, base, game_over)
    expect(page.locator("#table dialog.sheet .result")).to_be_visible()
    axe.check("game over")

    page.keyboard.press("Alt+g")
    page.keyboard.press("End")
    page.keyboard.press("Enter")
    expect(page.locator("#window")).to_be_hidden()
    axe.check("the desktop after Exit")
    page.goto(f"{base}/exit")
    axe.check("the desktop page without JavaScript's window")
    page.goto(f"{base}/help")
    axe.check("Help as a page of its own")

    assert len(axe.places) >= 20
    assert axe.found == [], "\n".join(axe.found)


def test_axe_does_report_a_violation(fresh_context, live_server):
    """The run above is not vacuous: a button with no name is reported."""
    context = fresh_context(bypass_csp=True)
    page = context.new_page()
    page.goto(live_server.url)
    page.evaluate("document.body.appendChild(document.createElement('button'))")
    axe = Axe(page)
    axe.check("a nameless button")
    assert any("button-name" in found for found in axe.found)
