"""In Debian's Chromium: every flow by mouse, keyboard and screen reader without glitches,
each test on a fixed game number."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from tests.support.browser import (
    CARDS,
    LIT,
    STATUS,
    STRIP_SIZES,
    TITLE,
    act,
    after,
    keys,
    open_at,
    pass_by_mouse,
    played_until,
    seq,
    start,
    visible_strips,
    walk_focus_across_hand,
    your_lead_with_hearts_unbroken,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DIMMED = '#table .hand .card[aria-disabled="true"]'
OLD_TRICK = "#table .center .played.gather, #table .center .played.arrive"


def play_two_of_clubs(page: Page) -> None:
    """Game 617 after passing the three hearts: Michele takes the first trick (with the queen of
    clubs) and leads a spade (the nine); Ben follows, and it is your turn."""
    page.locator(f'{CARDS}[value="2C"]').focus()
    keys(page, "Enter")
    expect(page.locator(STATUS)).to_have_text("Select a card to play.")


def still_hand(page: Page) -> None:
    """Let every running animation finish, as if the player had waited for it."""
    page.evaluate("document.getAnimations().forEach(a => a.finish())")


# 1 -----------------------------------------------------------------------------------------


def test_enter_passes_the_three_cards_picked_by_click_or_by_space(page: Page, live_server):
    start(page, live_server.url)
    for i in (10, 11):
        act(page, page.locator(CARDS).nth(i))
    page.locator(CARDS).nth(12).focus()
    keys(page, "Space")  # Space picks the card in focus
    expect(page.locator("#table .hand .card.raised")).to_have_count(3)
    expect(page.locator(CARDS).nth(12)).to_be_focused()
    keys(page, "Enter")  # the default button: Pass Left, not the focused card
    expect(page.locator(STATUS)).to_have_text("Press OK to accept cards.")
    expect(page.locator("#table .hand .card.raised")).to_have_count(3)  # the three received
    keys(page, "Enter")  # OK
    expect(page.locator(STATUS)).to_have_text("Select a card to play.")
    expect(page.locator(CARDS)).to_have_count(13)


# 2 -----------------------------------------------------------------------------------------


def test_a_refusal_a_hint_or_a_reload_does_not_play_the_last_trick_again(page: Page, live_server):
    start(page, live_server.url)
    pass_by_mouse(page, (10, 11, 12))  # the three hearts
    play_two_of_clubs(page)
    expect(page.locator("#table .center .played.gather")).to_have_count(4)  # shown once
    still_hand(page)
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("h")
    expect(page.locator(STATUS)).to_contain_text("Hint: play the ")
    expect(page.locator(OLD_TRICK)).to_have_count(0)
    expect(page.locator("#table .center .played")).to_have_count(2)  # Michele's, Ben's
    page.locator(DIMMED).first.click(position={"x": 6, "y": 24}, force=True)
    expect(page.locator("#status .refusal")).to_have_text("You must follow suit. Play a spade.")
    expect(page.locator(OLD_TRICK)).to_have_count(0)
    page.reload()
    expect(page.locator("#table .center .played")).to_have_count(2)
    expect(page.locator(OLD_TRICK)).to_have_count(0)


# 3 -----------------------------------------------------------------------------------------


def test_a_shared_link_keeps_the_name_typed_while_the_page_loads(page: Page, live_server):
    held = []
    page.route("**/static/js/hearts*.js", lambda route: held.append(route))
    page.goto(f"{live_server.url}/#617", wait_until="commit")
    page.get_by_label("What is your name?").fill("Ada")  # while the scripts still load
    for _ in range(100):  # the script was asked for before the form was parsed
        if held:
            break
        page.wait_for_timeout(50)
    held[0].continue_()
    page.wait_for_load_state("networkidle")
    expect(page.get_by_label("What is your name?")).to_have_value("Ada")
    page.get_by_role("button", name="OK").click()
    expect(page.locator(TITLE)).to_have_text("Hearts - Game #617")
    expect(page.locator("#table .seat-bottom .name")).to_have_text("Ada")
    expect(page.locator(STATUS)).to_have_text("Select three cards to pass to Pauline.")


# 4 -----------------------------------------------------------------------------------------


def test_focus_goes_to_the_hand_after_ok_and_to_the_sheet_at_the_end_of_a_hand(
    page: Page, live_server
):
    start(page, live_server.url)
    for i in (10, 11, 12):
        act(page, page.locator(CARDS).nth(i))
    act(page, page.locator("#pass-button"))
    act(page, page.get_by_role("button", name="OK", exact=True))  # by mouse
    expect(page.locator(f'{CARDS}[value="2C"]')).to_be_focused()  # the hand's one Tab stop
    last = played_until(
        617, lambda s: s.game.phase == "playing" and s.game.turn == 0 and len(s.game.hand(0)) == 1
    )
    open_at(page, live_server.url, last)
    page.locator(LIT).focus()
    keys(page, "Enter")  # your last card ends the hand
    expect(page.locator("#table dialog.sheet button.push")).to_be_focused()
    keys(page, "Enter")  # and Enter deals the next hand
    expect(page.locator(STATUS)).to_have_text("Select three cards to pass to Ben.")
    expect(page.locator(CARDS).first).to_be_focused()


# 5 is test_5_a_listener_hears_the_whole_story_once_and_in_order in
# tests/browser/test_transcripts.py


# 6 -----------------------------------------------------------------------------------------


def test_your_hand_lights_only_when_the_computers_have_played(fresh_context, live_server):
    context = fresh_context(bypass_csp=True, reduced_motion="no-preference")
    page = context.new_page()
    start(page, live_server.url)
    page.add_style_tag(content="body { --tick: 30s !important; }")  # a very slow table
    pass_by_mouse(page, (10, 11, 12))  # the three hearts
    play_two_of_clubs(page)
    expect(page.locator("#status .status-step").first).to_be_attached()
    hand = page.locator("#table .hand")
    assert hand.evaluate(
        "h => h.getAnimations().some(a => a.animationName === 'wait-turn')"
        " && getComputedStyle(h).filter !== 'none'"
    )
    before = seq(page)
    page.locator(LIT).first.focus()
    page.keyboard.press("Enter")  # too early: nothing is sent, the card rises (issue 40)
    expect(page.locator(LIT).first).to_have_class(re.compile(r"\bchosen\b"))
    chosen = page.locator(LIT).nth(1)
    code = chosen.get_attribute("value")
    chosen.click(position={"x": 6, "y": 24})  # a second thought: this one instead
    expect(page.locator(f"{CARDS}.chosen")).to_have_count(1)
    expect(chosen).to_have_class(re.compile(r"\bchosen\b"))
    assert page.evaluate("!document.querySelector('.htmx-request')")
    assert seq(page) == before
    expect(page.locator(CARDS)).to_have_count(12)
    still_hand(page)  # the computers' cards are down: your turn, and the card chosen is played
    after(page, before)
    expect(page.locator(f'{CARDS}[value="{code}"]')).to_have_count(0)
    expect(page.locator(CARDS)).to_have_count(11)


# 7 -----------------------------------------------------------------------------------------


def test_your_card_leaves_your_hand_before_the_server_answers(page: Page, live_server):
    start(page, live_server.url)
    pass_by_mouse(page, (10, 11, 12))  # the three hearts
    held = []
    page.route("**/play", lambda route: held.append(route))
    page.locator(f'{CARDS}[value="2C"]').focus()
    before = seq(page)
    page.keyboard.press("Enter")
    expect(page.locator("#table .center .played.at-bottom.face-2C")).to_be_visible()
    expect(page.locator(f'{CARDS}[value="2C"]')).to_have_class(re.compile(r"\bleaving\b"))
    assert held, "the server has not answered yet"
    assert seq(page) == before
    held[0].continue_()
    page.unroute("**/play")
    after(page, before)
    played = page.locator("#table .center .played.face-2C")
    expect(played).to_have_count(1)
    expect(played).not_to_have_class(re.compile(r"\barrive\b"))  # it does not arrive twice
    expect(page.locator(f'{CARDS}[value="2C"]')).to_have_count(0)


# 8 -----------------------------------------------------------------------------------------


def test_f2_asks_before_abandoning_a_game_in_progress(page: Page, live_server):
    start(page, live_server.url)
    page.keyboard.press("F2")  # nothing to lose yet: no question
    expect(page.locator(TITLE)).to_have_text("Hearts - Game #4242")
    for i in (10, 11, 12):
        act(page, page.locator(CARDS).nth(i))
    act(page, page.locator("#pass-button"))
    page.keyboard.press("F2")
    question = page.locator("#dialogs dialog#dialog-new-game")
    expect(question).to_contain_text(
        "Abandon game #4242 and start a new game? The game you leave counts as played and lost."
    )
    page.get_by_role("link", name="No").click()
    expect(question).to_have_count(0)
    expect(page.locator(TITLE)).to_have_text("Hearts - Game #4242")
    expect(page.locator(STATUS)).to_have_text("Press OK to accept cards.")
    page.keyboard.press("F2")
    expect(question).to_be_visible()
    page.get_by_role("button", name="Yes").click()
    expect(page.locator(TITLE)).to_have_text("Hearts - Game #4243")
    page.keyboard.press("Alt+g")
    page.get_by_role("menuitem", name="Statistics...").click()
    stats = page.locator("#dialogs dialog#dialog-stats")
    expect(stats.locator("tr:has(th:text-is('Games played')) td")).to_have_text("1")
    expect(stats.locator("tr:has(th:text-is('Games won')) td")).to_have_text("0")


# 9 -----------------------------------------------------------------------------------------


def test_the_hand_stays_put_when_the_pass_button_goes(page: Page, live_server):
    start(page, live_server.url)
    y = page.locator("#table .hand").bounding_box()["y"]
    pass_by_mouse(page, (10, 11, 12))  # the three hearts
    assert page.locator("#pass-button").count() == 0
    assert page.locator("#table .hand").bounding_box()["y"] == y


@pytest.mark.parametrize("size", STRIP_SIZES)
def test_cards_scale_with_the_window_and_show_24_px_each(fresh_context, live_server, size):
    width, height = size
    context = fresh_context(viewport={"width": width, "height": height})
    page = context.new_page()
    start(page, live_server.url)
    pass_by_mouse(page, (10, 11, 12))  # the three hearts
    boxes = [page.locator(CARDS).nth(i).bounding_box() for i in range(13)]
    strips = [b["x"] - a["x"] for a, b in zip(boxes, boxes[1:], strict=False) if b["y"] == a["y"]]
    assert len(strips) >= 11 and min(strips) >= 24, strips
    assert min(visible_strips(page)) >= 24, visible_strips(page)
    # the keyboard focus walks the hand: no card, the focused one included, hides another
    walked = walk_focus_across_hand(page)
    narrowest = min((min(seen), card) for card, seen in walked)
    assert narrowest[0] >= 24, f"narrowest strip {narrowest[0]} px with {narrowest[1]} focused"
    for box in boxes:
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
        assert box["y"] >= 0 and box["y"] + box["height"] <= height
    scroll = page.evaluate("[document.body.scrollWidth, document.body.scrollHeight]")
    assert scroll == [width, height]
    if width >= 1920:
        assert boxes[0]["width"] > 100  # the cards grow with a big window
    play_two_of_clubs(page)
    still_hand(page)
    page.locator(LIT).first.focus()
    keys(page, "Enter")
    mine = page.locator("#table .center .played.at-bottom").bounding_box()
    name = page.locator("#table .seat-bottom .name").bounding_box()
    assert mine["y"] + mine["height"] <= name["y"], "your card on the table covers your name"


# 10 ----------------------------------------------------------------------------------------


def test_the_hand_is_one_tab_stop_and_the_page_has_a_heading(page: Page, live_server):
    start(page, live_server.url)
    expect(page.get_by_role("heading", level=1)).to_have_text("Hearts - Game #617")
    page.locator("#menu-game-button").focus()
    page.keyboard.press("Tab")
    expect(page.locator(CARDS).first).to_be_focused()
    assert page.locator(CARDS).evaluate_all("cs => cs.map(c => c.tabIndex)") == [0] + [-1] * 12
    expect(page.get_by_role("toolbar", name="Your cards")).to_be_visible()
    page.keyboard.press("End")
    expect(page.locator(CARDS).last).to_be_focused()
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    expect(page.locator(CARDS).nth(1)).to_be_focused()
    page.keyboard.press("Tab")  # out of the hand in one step
    expect(page.locator("#pass-button")).to_be_disabled()
    assert page.evaluate("!document.activeElement.closest('.hand')")
    page.keyboard.press("Shift+Tab")
    expect(page.locator(CARDS).nth(1)).to_be_focused()  # the stop remembers the card


def test_a_skip_link_reaches_the_hand_without_javascript(fresh_context, live_server):
    context = fresh_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(live_server.url)
    page.get_by_label("What is your name?").fill("Ada")
    page.get_by_role("button", name="OK").click()
    expect(page.locator(TITLE)).to_have_text("Hearts - Game #4242")
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Skip to your cards")).to_be_focused()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    expect(page.locator(CARDS).first).to_be_focused()


# 11 ----------------------------------------------------------------------------------------

CONTRAST = """around => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => {
    const [r, g, b] = rgb(c).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const el = document.activeElement;
  const style = getComputedStyle(el);
  const back = getComputedStyle(document.querySelector(around)).backgroundColor;
  return [style.outlineStyle, ratio(style.outlineColor, style.backgroundColor),
          ratio(style.outlineColor, back)];
}"""


def test_the_focus_ring_stands_out_from_what_it_touches(page: Page, live_server):
    start(page, live_server.url)
    page.locator("#menu-game-button").focus()
    page.keyboard.press("Tab")  # by keyboard: the ring shows
    expect(page.locator(CARDS).first).to_be_focused()
    style, own, felt = page.evaluate(CONTRAST, "#table")  # a white card on the green felt
    assert style == "solid" and own >= 3 and felt >= 3, (own, felt)
    page.keyboard.press("Shift+Tab")
    expect(page.locator("#menu-game-button")).to_be_focused()
    style, own, chrome = page.evaluate(CONTRAST, ".menubar")  # the grey chrome
    assert style == "solid" and chrome >= 3, chrome


# 12 ----------------------------------------------------------------------------------------


def test_leading_a_heart_too_early_is_refused_in_the_originals_words(page: Page, live_server):
    state = played_until(617, your_lead_with_hearts_unbroken)
    open_at(page, live_server.url, state)
    heart = page.locator(f'{CARDS}[value$="H"]').first
    expect(heart).to_have_attribute("aria-disabled", "true")
    heart.click(position={"x": 6, "y": 24}, force=True)
    expect(page.locator("#status .refusal")).to_have_text(
        "Hearts has not been broken. Choose another suit."
    )
