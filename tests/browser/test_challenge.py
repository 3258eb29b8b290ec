"""Challenge a Friend (our addition) in Chromium, as two people would: Anna plays game #617 to its
end and copies the challenge link; Bea, in another browser context, opens it, plays #617 to its
end, sees both results hand by hand and the verdict, and sends hers back; Anna then sees both.
By mouse with JavaScript (Bea at a phone's width, axe on every new page), with JavaScript off,
and by keyboard alone; without animation, as the other browser tests play. Every figure is read
from the game as each person played it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.support.browser import (
    CARDS,
    LIT,
    SHEET,
    TITLE,
    Axe,
    Watch,
    act,
    expect_modal,
    heard,
    keys,
    listen,
    one_card_from_the_end,
    open_at,
    origin,
    play_to_the_end_by_keyboard,
    play_to_the_end_by_mouse,
    play_to_the_end_without_javascript,
    state_in,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

COMPARED = "table.challenge-table"
CLIPBOARD = ["clipboard-read", "clipboard-write"]


def points_of(context: BrowserContext) -> list[int]:
    return [row[0] for row in state_in(context).game.history]


def anna_at_her_last_card(fresh_context, base: str, **options) -> tuple[BrowserContext, Page]:
    """Anna at game #617 played through the site's own actions up to her last card (a set-up
    shortcut: test 1 plays her whole game by hand); its tally was kept from the first deal, as
    in a browser."""
    state = one_card_from_the_end(617)
    state.options.name = "Anna"
    context = fresh_context(reduced_motion="reduce", **options)
    page = context.new_page()
    open_at(page, base, state)
    expect(page.locator(TITLE)).to_have_text("Hearts - Game #617")
    return context, page


def expect_both(page: Page, anna: list[int], bea: list[int]) -> None:
    """Anna opens what Bea sent back: Bea's reply (issue 50: not "Bea challenges you"), the
    verdict from Anna's side, and the table holds both results hand by hand, Anna's first."""
    box = page.locator("#dialog-challenge")
    expect(box).to_contain_text("Bea has played game #617 too and sends back the result.")
    expect(box).not_to_contain_text("challenges you")
    expect(box.locator("#challenge-verdict")).to_contain_text(
        f"You took {sum(anna)} to Bea's {sum(bea)} on the same cards: "
    )
    table = box.get_by_role("table", name=re.compile("the same deals"))
    heads = table.locator("thead th").all_inner_texts()
    assert heads == ["Hand", "You", "Bea", "Better"]
    rows = table.locator("tbody tr")
    expect(rows).to_have_count(max(len(anna), len(bea)))
    first = rows.first.locator("td").all_inner_texts()
    assert first[:2] == [str(anna[0]), str(bea[0])]
    totals = table.locator("tfoot tr").first.locator("td").all_inner_texts()
    assert totals[:2] == [str(sum(anna)), str(sum(bea))]


def expect_verdict(page: Page, anna: list[int], bea: list[int]) -> str:
    verdict = f"You took {sum(bea)} to Anna's {sum(anna)} on the same cards: "
    sheet = page.locator(SHEET)
    expect(sheet.locator(".verdict")).to_contain_text(verdict)
    expect(sheet).to_have_attribute("aria-describedby", "challenge-verdict")
    table = sheet.get_by_role("table", name=re.compile("the same deals"))
    expect(table.locator("thead th")).to_have_text(["Hand", "You", "Anna", "Better"])
    expect(table.locator("tbody tr")).to_have_count(max(len(anna), len(bea)))
    return sheet.locator(".verdict").inner_text()


# 1 -- by mouse, JavaScript on ----------


def test_anna_challenges_bea_by_mouse_and_bea_sends_hers_back(fresh_context, live_server):
    base = live_server.url
    anna_context = fresh_context(permissions=CLIPBOARD, reduced_motion="reduce")
    anna = anna_context.new_page()
    watch = Watch(anna)  # the Copy button's script keeps to the policy
    anna.goto(f"{base}/#617")
    anna.wait_for_load_state("networkidle")
    anna.get_by_label("What is your name?").fill("Anna")
    anna.get_by_role("button", name="OK").click()
    expect(anna.locator(TITLE)).to_have_text("Hearts - Game #617")
    play_to_the_end_by_mouse(anna)
    anna_points = points_of(anna_context)
    anna.locator(SHEET).get_by_role("link", name="Challenge a Friend").click()
    expect_modal(anna, "dialog-challenge-friend")
    field = anna.get_by_label("Challenge link")
    link = field.input_value()
    assert link.startswith(f"{base}/challenge/617.") and len(link) < 200
    anna.get_by_role("button", name="Copy Link").click()
    expect(anna.locator("#challenge-copied")).to_have_text("The link is copied.")
    assert anna.evaluate("navigator.clipboard.readText()") == link
    assert watch.violations() == []
    assert all(origin(url) == origin(base) for url in watch.requests)

    bea_context = fresh_context(
        permissions=CLIPBOARD,
        bypass_csp=True,
        viewport={"width": 375, "height": 667},
        reduced_motion="reduce",
    )
    bea = bea_context.new_page()
    axe = Axe(bea)
    damaged = link.replace("/challenge/617.", "/challenge/618.")
    bea.goto(damaged)
    expect_modal(bea, "dialog-challenge-damaged")
    expect(bea.locator("#dialog-challenge-damaged")).to_contain_text(
        "This challenge link is damaged"
    )
    expect(bea.get_by_role("link", name="Play Game #618")).to_be_visible()
    axe.check("a damaged challenge link")
    bea.goto(link)
    expect_modal(bea, "dialog-challenge")
    box = bea.locator("#dialog-challenge")
    expect(box).to_contain_text("Anna challenges you to game #617")
    total = sum(anna_points)
    expect(box).to_contain_text(
        f"Anna took {total} point{'s' * (total != 1)} in {len(anna_points)} hands and "
    )
    axe.check("the challenge, a first visit")
    bea.get_by_label("Your name").fill("Bea")
    bea.get_by_role("button", name="Play the Same Deals").click()
    expect(bea.locator(TITLE)).to_have_text("Hearts - Game #617")
    expect(bea.locator("#dialogs dialog")).to_have_count(0)

    def after_the_first_hand() -> None:
        if len(state_in(bea_context).game.history) != 1:
            return
        table = bea.locator(SHEET).get_by_role("table", name=re.compile("the same deals"))
        expect(table.locator("tbody tr")).to_have_count(1)  # only the hands she has played
        cells = table.locator("tbody tr td").all_inner_texts()
        assert cells[:2] == [str(points_of(bea_context)[0]), str(anna_points[0])]
        assert cells[2] in ("You", "Anna", "Even")
        axe.check("the sheet after a challenged hand")
        bea.keyboard.press("F4")
        expect_modal(bea, "dialog-score")
        expect(bea.locator(f"#dialog-score {COMPARED} tbody tr")).to_have_count(1)
        bea.keyboard.press("Escape")
        expect(bea.locator("#dialog-score")).to_have_count(0)
        width = bea.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, f"the page scrolls sideways at a phone's width: {width}"

    play_to_the_end_by_mouse(bea, after_the_first_hand)
    bea_points = points_of(bea_context)
    expect_verdict(bea, anna_points, bea_points)
    assert state_in(bea_context).options.moon_off_shooter is False
    axe.check("the final sheet of a challenge")
    bea.locator(SHEET).get_by_role("link", name="Send Your Result").click()
    expect_modal(bea, "dialog-challenge-friend")
    expect(bea.locator("#dialog-challenge-friend")).to_contain_text(
        "It carries the results of Anna and Bea"
    )
    axe.check("the link sent back")
    bea.get_by_role("button", name="Copy Link").click()
    expect(bea.locator("#challenge-copied")).to_have_text("The link is copied.")
    back = bea.evaluate("navigator.clipboard.readText()")
    assert back == bea.get_by_label("Challenge link").input_value()

    anna.goto(back)
    expect_modal(anna, "dialog-challenge")
    expect_both(anna, anna_points, bea_points)
    bea.goto(back)
    expect_modal(bea, "dialog-challenge")
    axe.check("both results on the same deals")
    assert axe.found == [], axe.found


# 2 -- JavaScript off ----------


def test_the_same_challenge_with_javascript_off(fresh_context, live_server):
    base = live_server.url
    anna_context, anna = anna_at_her_last_card(fresh_context, base, java_script_enabled=False)
    anna.locator(LIT).click(position={"x": 6, "y": 24})
    expect(anna.locator(SHEET).locator(".result")).to_be_visible()
    anna_points = points_of(anna_context)
    anna.locator(SHEET).get_by_role("link", name="Challenge a Friend").click()
    expect(anna).to_have_url(f"{base}/challenge")
    expect(anna.locator("#dialog-challenge-friend")).to_be_visible()
    expect(anna.locator(SHEET)).to_be_hidden()  # one dialog at a time (issue 50)
    expect(anna.get_by_role("button", name="Copy Link")).to_be_hidden()  # JavaScript's own
    link = anna.get_by_label("Challenge link").input_value()  # selected and copied by hand
    assert link.startswith(f"{base}/challenge/617.")

    bea_context = fresh_context(java_script_enabled=False, reduced_motion="reduce")
    bea = bea_context.new_page()
    bea.goto(link)
    expect(bea.locator("#dialog-challenge")).to_contain_text("Anna challenges you to game #617")
    bea.get_by_label("Your name").fill("Bea")
    bea.get_by_role("button", name="Play the Same Deals").click()
    expect(bea.locator(TITLE)).to_have_text("Hearts - Game #617")
    play_to_the_end_without_javascript(bea)
    bea_points = points_of(bea_context)
    expect_verdict(bea, anna_points, bea_points)
    bea.locator(SHEET).get_by_role("link", name="Send Your Result").click()
    back = bea.get_by_label("Challenge link").input_value()

    anna.goto(back)
    expect_both(anna, anna_points, bea_points)
    anna.locator("#dialog-challenge").get_by_role("button", name="OK", exact=True).click()
    expect(anna.locator(SHEET).locator(".result")).to_be_visible()  # her own game as it was


# 3 -- by keyboard alone, and what a screen reader hears ----------


def test_the_same_challenge_by_keyboard_alone(fresh_context, live_server):
    base = live_server.url
    anna_context, anna = anna_at_her_last_card(fresh_context, base, permissions=CLIPBOARD)
    anna.keyboard.press("Tab")
    expect(anna.get_by_role("link", name="Skip to your cards")).to_be_focused()
    anna.keyboard.press("Enter")
    anna.keyboard.press("Tab")
    expect(anna.locator(CARDS)).to_be_focused()  # her last card
    keys(anna, "Enter")
    expect(anna.locator(f"{SHEET} button.push")).to_be_focused()
    anna_points = points_of(anna_context)
    link = copy_by_keyboard(anna, "Challenge a Friend")

    bea_context = fresh_context(permissions=CLIPBOARD, reduced_motion="reduce")
    bea = bea_context.new_page()
    listen(bea)
    bea.goto(link)
    expect_modal(bea, "dialog-challenge")
    expect(bea.get_by_label("Your name")).to_be_focused()
    bea.keyboard.type("Bea")
    bea.keyboard.press("Enter")
    expect(bea.locator(TITLE)).to_have_text("Hearts - Game #617")
    expect(bea.locator(CARDS).first).to_be_focused()
    play_to_the_end_by_keyboard(bea)
    bea_points = points_of(bea_context)
    verdict = expect_verdict(bea, anna_points, bea_points)  # the comparison, fetched, is in
    expect(bea.locator(f"{SHEET} button.push")).to_be_focused()  # OK kept the focus meanwhile
    assert any(verdict in said for said in heard(bea)), heard(bea)  # the live region told it
    back = copy_by_keyboard(bea, "Send Your Result")

    anna.goto(back)
    expect_modal(anna, "dialog-challenge")
    expect_both(anna, anna_points, bea_points)
    expect(anna.get_by_role("button", name="OK", exact=True)).to_be_focused()  # no new game
    anna.keyboard.press("Escape")
    expect(anna.locator("#dialog-challenge")).to_have_count(0)


def copy_by_keyboard(page: Page, name: str) -> str:
    """From the final sheet's OK (in focus), Tab to the challenge link, Enter; the link's field
    has the focus; Tab to Copy Link, Enter; Esc closes the dialog."""
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name=name)).to_be_focused()
    page.keyboard.press("Enter")
    expect_modal(page, "dialog-challenge-friend")
    field = page.get_by_label("Challenge link")
    expect(field).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Copy Link")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#challenge-copied")).to_have_text("The link is copied.")
    link = page.evaluate("navigator.clipboard.readText()")
    assert link == field.input_value()
    page.keyboard.press("Escape")
    expect(page.locator("#dialog-challenge-friend")).to_have_count(0)
    return link


VISIBLE_DIALOGS = """() => [...document.querySelectorAll('dialog[open]')]
  .filter(d => getComputedStyle(d).visibility === 'visible' && d.getClientRects().length)
  .map(d => d.id || d.className)"""


def test_one_dialog_at_a_time_the_challenge_over_the_final_sheet(fresh_context, live_server):
    """Issue 50: the Challenge dialog opened stacked on the score sheet (two title bars, two
    rows of OK buttons); closing it brings the sheet back."""
    _, anna = anna_at_her_last_card(fresh_context, live_server.url, bypass_csp=True)
    act(anna, anna.locator(LIT).first)
    expect(anna.locator(f"{SHEET} .result")).to_be_visible()
    anna.locator(SHEET).get_by_role("link", name="Challenge a Friend").click()
    expect_modal(anna, "dialog-challenge-friend")
    shown = anna.evaluate(VISIBLE_DIALOGS)
    assert shown == ["dialog-challenge-friend"], shown
    axe = Axe(anna)
    axe.check("the challenge dialog alone")
    anna.keyboard.press("Escape")
    expect(anna.locator("#dialog-challenge-friend")).to_have_count(0)
    expect(anna.locator(SHEET)).to_be_visible()
    assert len(anna.evaluate(VISIBLE_DIALOGS)) == 1
    anna.keyboard.press("F4")  # the sheet on demand, and the challenge from it
    expect_modal(anna, "dialog-score")
    anna.locator("#dialog-score").get_by_role("link", name="Challenge a Friend").click()
    expect_modal(anna, "dialog-challenge-friend")
    shown = anna.evaluate(VISIBLE_DIALOGS)
    assert shown == ["dialog-challenge-friend"], shown
    assert not axe.found, axe.found


def test_the_reply_says_so_and_axe_finds_nothing(fresh_context, live_server):
    """A set-up shortcut to the reply's state (test 1 reaches it by hand): Anna's own result
    with Bea's after it, signed as the site signs it."""
    from game.solo.challenge import link_of
    from game.web.challenge import Result, with_result

    context, anna = anna_at_her_last_card(fresh_context, live_server.url, bypass_csp=True)
    act(anna, anna.locator(LIT).first)
    expect(anna.locator(f"{SHEET} .result")).to_be_visible()
    game = state_in(context).game
    mine = Result("Anna", tuple(row[0] for row in game.history), 0 in game.winners)
    bea = Result("Bea", tuple(row[1] for row in game.history), 1 in game.winners, 1, 2)
    link = link_of(with_result(game, with_result(game, None, mine), bea))
    anna.goto(f"{live_server.url}/challenge/{link}")
    expect_modal(anna, "dialog-challenge")
    expect(anna.locator("#dialog-challenge")).to_contain_text("Bea has played game #617 too")
    axe = Axe(anna)
    axe.check("a challenge's reply")
    assert axe.found == [], axe.found


def test_your_own_link_opened_again_says_so_and_axe_finds_nothing(fresh_context, live_server):
    """Anna opens the link she is about to send: it read "Anna challenges you" and offered her
    own deals as a challenge to herself."""
    from game.solo.challenge import link_of
    from game.web.challenge import Result, with_result

    context, anna = anna_at_her_last_card(fresh_context, live_server.url, bypass_csp=True)
    act(anna, anna.locator(LIT).first)
    expect(anna.locator(f"{SHEET} .result")).to_be_visible()
    game = state_in(context).game
    mine = Result("Anna", tuple(row[0] for row in game.history), 0 in game.winners)
    anna.goto(f"{live_server.url}/challenge/{link_of(with_result(game, None, mine))}")
    expect_modal(anna, "dialog-challenge")
    dialog = anna.locator("#dialog-challenge")
    expect(dialog).to_contain_text("This is your challenge to game #617: send this link")
    expect(dialog).not_to_contain_text("challenges you")
    expect(dialog.get_by_role("button", name="Play the Same Deals")).to_have_count(0)
    expect(dialog.get_by_role("button", name="OK")).to_be_focused()
    axe = Axe(anna)
    axe.check("your own challenge link")
    assert axe.found == [], axe.found
    dialog.get_by_role("button", name="OK").click()
    expect(anna.locator("#dialog-challenge")).to_have_count(0)
