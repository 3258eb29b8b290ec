"""A person at the table: Debian's Chromium driven by Playwright against a live server."""

import pytest
from playwright.sync_api import Page, expect

from game.engine import card_name
from tests.support.browser import (
    LIT,
    STATUS,
    act,
    after,
    arrive,
    click_button,
    pass_by_mouse,
    seq,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def play_hand(page: Page) -> None:
    """Your thirteen cards, each time the first one lit."""
    for _ in range(13):
        act(page, page.locator(LIT).first)


def first_choices_result(number: int) -> tuple[int, str]:
    """The hands and the result of game ``number`` when you always pass your first three cards
    and play your first lit card, as the test below does by clicking."""
    from game.solo import actions
    from game.web.player import PlayerState
    from game.web.table import result_sentence, seat_names

    state, clock = PlayerState(), actions.Clock()
    state.options.name = "Ada"
    actions.start_game(state, number, clock)
    game = state.game
    while game.phase != "game_over":
        if game.phase == "hand_over":
            actions.next_hand(state, clock)
            game = state.game
        elif game.phase == "passing":
            state.selected = game.hand(0)[:3]
            actions.pass_selected(state, clock)
            actions.accept(state, clock)
            game = state.game
        else:
            actions.play(state, game.legal_plays(0)[0], clock)
    return len(game.history), result_sentence(seat_names(state), list(game.winners), 0)


def test_a_whole_game_by_clicking_from_the_name_prompt_to_the_final_sheet(page: Page, live_server):
    expected_hands, expected_result = first_choices_result(617)
    arrive(page, live_server.url)
    for hands in range(1, expected_hands + 1):
        if hands % 4:  # pass left, right, across; every fourth hand everyone keeps
            pass_by_mouse(page)
        else:
            expect(page.locator("#pass-button")).to_have_count(0)
        expect(page.locator(STATUS)).to_have_text("Select a card to play.")
        play_hand(page)
        sheet = page.locator("dialog.sheet")
        expect(sheet).to_be_visible()
        expect(sheet.locator("tbody tr")).to_have_count(hands)
        expect(sheet.locator("td.leader, td.winner").first).to_be_visible()
        if hands < expected_hands:
            expect(page.locator(".result")).to_have_count(0)
            click_button(page, "OK")
    expect(page.locator(".result")).to_have_text(expected_result)
    expect(page.locator("td.winner").first).to_have_css("color", "rgb(127, 0, 0)")
    click_button(page, "OK")
    expect(page.locator(STATUS)).to_contain_text("Select three cards to pass to Pauline.")


def test_a_dimmed_card_is_refused_with_the_rules_sentence(page: Page, live_server):
    arrive(page, live_server.url)
    pass_by_mouse(page)  # game 617: Pauline leads the two of clubs, you follow clubs
    dimmed = page.locator('#table .hand .card[aria-disabled="true"]')
    expect(dimmed).to_have_count(10)
    dimmed.first.click(position={"x": 6, "y": 24}, force=True)
    expect(page.locator("#status .refusal")).to_have_text("You must follow suit. Play a club.")
    expect(page.locator("#table .hand .card")).to_have_count(13)


def test_one_full_hand_with_javascript_turned_off(browser, live_server):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    arrive(page, live_server.url, "Nojs")
    for i in range(3):
        page.locator("#table .hand .card").nth(i).click(position={"x": 6, "y": 24})
        expect(page.locator("#table .hand .card.raised")).to_have_count(i + 1)
    page.get_by_role("button", name="Pass Left").click()
    expect(page.locator(STATUS)).to_have_text("Press OK to accept cards.")
    page.get_by_role("button", name="OK").click()
    for _ in range(13):
        expect(page.locator(STATUS)).to_have_text("Select a card to play.")
        page.locator(LIT).first.click(position={"x": 6, "y": 24})
    expect(page.locator("dialog.sheet tbody tr")).to_have_count(1)
    page.get_by_role("button", name="OK").click()
    expect(page.locator(STATUS)).to_have_text("Select three cards to pass to Ben.")
    expect(page.locator("#titlebar #title")).to_have_text("Hearts - Game #4242")
    context.close()


def test_a_reload_in_the_middle_of_a_trick_comes_back_exactly(page: Page, live_server):
    arrive(page, live_server.url)
    pass_by_mouse(page)
    act(page, page.locator(LIT).first)
    faces = "cards => cards.map(c => c.className.match(/face-(\\w\\w)/)[1])"
    trick = page.locator("#table .center .played:not(.gather)").evaluate_all(faces)
    hand = page.locator("#table .hand .card").evaluate_all(
        "cards => cards.map(c => [c.value, c.getAttribute('aria-disabled')])"
    )
    title = page.title()
    page.reload()
    assert page.title() == title
    # the trick as it stands: the one just gathered is not played again
    assert page.locator("#table .center .played").evaluate_all(faces) == trick
    expect(page.locator("#table .center .arrive, #table .center .gather")).to_have_count(0)
    assert (
        page.locator("#table .hand .card").evaluate_all(
            "cards => cards.map(c => [c.value, c.getAttribute('aria-disabled')])"
        )
        == hand
    )


def test_cards_are_buttons_named_in_english_and_the_status_is_live(page: Page, live_server):
    arrive(page, live_server.url)
    cards = page.locator("#table .hand .card")
    expect(cards).to_have_count(13)
    names = [cards.nth(i).get_attribute("value") for i in range(13)]
    assert names == sorted(names, key=lambda c: ("CDSH".index(c[1]), "23456789TJQKA".index(c[0])))
    for i, code in enumerate(names):
        expect(cards.nth(i)).to_have_accessible_name(card_name(code))
    expect(page.locator("#status")).to_have_attribute("aria-live", "polite")
    cards.first.focus()
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.value")
    assert focused == names[1]
    page.keyboard.press("Space")
    expect(page.locator("#table .hand .card.raised")).to_have_count(1)


@pytest.mark.parametrize("size", [(375, 667), (1920, 1080)])
def test_the_table_fits_without_scrolling(browser, live_server, size):
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    arrive(page, live_server.url)
    scroll = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
    )
    assert scroll[0] <= width and scroll[1] <= height
    for i in range(13):
        box = page.locator("#table .hand .card").nth(i).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width
        assert box["y"] >= 0 and box["y"] + box["height"] <= height
    status = page.locator("#status").bounding_box()
    assert status["y"] + status["height"] <= height
    context.close()


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_reduced_motion_turns_the_card_animation_off(browser, live_server, motion):
    context = browser.new_context(reduced_motion=motion)
    page = context.new_page()
    arrive(page, live_server.url)
    pass_by_mouse(page)  # game 617: the computers' three cards arrive after your OK
    expect(page.locator("#table .played.arrive")).to_have_count(3)
    arriving = page.locator("#table .played.arrive").first
    duration = arriving.evaluate("card => getComputedStyle(card).animationDuration")
    delays = page.locator("#table .played.arrive").evaluate_all(
        "cards => cards.map(card => getComputedStyle(card).animationDelay)"
    )
    if motion == "reduce":
        assert duration.split(",")[0].strip() == "0s"
        assert all(d.split(",")[0].strip() == "0s" for d in delays)
    else:
        assert duration.split(",")[0].strip() != "0s"
        assert any(d.split(",")[0].strip() != "0s" for d in delays)
    context.close()


TAP_TARGETS = """sel => [...document.querySelectorAll(sel)].map(card => {
  // the largest square of the card a finger can touch (hit-tested every 2 px, as painted)
  const r = card.getBoundingClientRect();
  const step = 2, w = Math.floor(r.width / step), h = Math.floor(r.height / step);
  const run = new Array(w).fill(0);
  let best = 0;
  for (let j = 0; j < h; j++) {
    for (let i = 0; i < w; i++) {
      const hit = document.elementFromPoint(r.left + i * step + 1, r.top + j * step + 1);
      run[i] = hit && card.contains(hit) ? run[i] + 1 : 0;  // visible rows above, this column
    }
    for (let i = 0; i < w; i++) {  // the widest span of columns each at least k high
      let k = run[i];
      for (let e = i; e < w && run[e] > 0; e++) {
        k = Math.min(k, run[e]);
        best = Math.max(best, Math.min(k, e - i + 1));
      }
    }
  }
  return best * step;
})"""


def test_on_a_phone_every_card_keeps_a_40_px_tap_target_while_others_are_raised(
    fresh_context, live_server
):
    """Issue 50: on a phone a raised (chosen) card covered the row of cards above it."""
    context = fresh_context(
        viewport={"width": 375, "height": 667}, has_touch=True, is_mobile=True,
        reduced_motion="reduce",
    )  # fmt: skip
    page = context.new_page()
    arrive(page, live_server.url)
    cards = page.locator("#table .hand .card")
    for index in (8, 10, 12):  # three of the second row, each below cards of the first
        before = seq(page)
        cards.nth(index).tap(position={"x": 6, "y": 24})
        after(page, before)
    expect(page.locator("#table .hand .card.raised")).to_have_count(3)
    sizes = page.evaluate(TAP_TARGETS, "#table .hand .card")
    small = {i: s for i, s in enumerate(sizes) if s < 40}
    assert not small, f"cards whose largest square to tap is under 40 px: {small}"
