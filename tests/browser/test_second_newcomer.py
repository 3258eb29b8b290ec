"""In Debian's Chromium, what a second newcomer tripped over (issue 44), each along the person's
own path: dialogs that fit the window, a status bar that never contradicts the table, a damaged
challenge link for a first visitor, Undo Card saying what came back, cards a finger can tap on a
phone, and Tab from the hand never landing on the page itself."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.support.browser import (
    CARDS,
    LIT,
    STATUS,
    act,
    after,
    open_at,
    pass_by_mouse,
    played_until,
    seq,
    start,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 375, "height": 667}


def last_card_of_the_hand(state) -> bool:
    game = state.game
    return game.phase == "playing" and game.turn == 0 and game.tricks_played == 12


# 2: the status bar says one thing, and only what the table shows --------------------------

# Each animation frame: the status bar's line as painted (the line on top at its first letters,
# unless transparent), whether the hand is dimmed (its wait-turn filter) and whether the score
# sheet or the hand's OK is shown.
WATCH_THE_STATUS_BAR = """() => {
  window.__frames = [];
  const look = () => {
    const bar = document.getElementById('status').getBoundingClientRect();
    const hit = document.elementFromPoint(bar.left + 10, bar.top + bar.height / 2);
    const line = hit && hit.closest('.status-line, .status-step, .status-wait');
    const painted = !!line && parseFloat(getComputedStyle(line).opacity) > 0;
    const lines = painted ? [line.textContent.replace(/\\s+/g, ' ').trim()] : [];
    const hand = document.querySelector('#table .hand');
    const dimmed = !!hand && getComputedStyle(hand).filter !== 'none';
    const ok = document.querySelector('#table dialog.sheet, #table .continue');
    const okShown = !!ok && getComputedStyle(ok).visibility === 'visible';
    window.__frames.push({lines, dimmed, okShown});
    if (window.__frames.length < 20000) requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}"""


def contradictions(frames: list[dict]) -> list[str]:
    """The frames at which the status bar said nothing, or what the table did not show: your
    turn while the hand is dimmed, an OK to press with none on the screen."""
    wrong = []
    for i, frame in enumerate(frames):
        lines = frame["lines"]
        if len(lines) != 1:
            wrong.append(f"frame {i}: no line")
        elif lines[0] == "Select a card to play." and frame["dimmed"]:
            wrong.append(f"frame {i}: 'Select a card to play.' with the hand dimmed")
        elif lines[0].startswith("Press OK") and not frame["okShown"]:
            wrong.append(f"frame {i}: {lines[0]!r} with no OK on the screen")
    return wrong


# The table drawn whole: every animation of the page has played (those that keep their end
# state, the gathering, stay as finished).
DRAWN = "() => document.getAnimations().every(a => a.playState === 'finished')"


def watch(page: Page) -> None:
    page.evaluate(WATCH_THE_STATUS_BAR)


def frames(page: Page) -> list[dict]:
    return page.evaluate("() => window.__frames")


def test_on_a_phone_the_status_bar_follows_the_table_as_the_computers_play(
    fresh_context, live_server
):
    """At the default speed on a phone, game 617 from its link: pass three cards, play the two
    of clubs; while the computers' cards arrive and the trick is shown and gathered (the hand
    dimmed), the bar never says "Select a card to play.", and never two lines at once."""
    page = fresh_context(
        viewport=PHONE, has_touch=True, is_mobile=True, reduced_motion="no-preference"
    ).new_page()
    start(page, live_server.url)
    pass_by_mouse(page, (10, 11, 12))
    watch(page)
    before = seq(page)
    page.locator(f'{CARDS}[value="2C"]').tap(position={"x": 6, "y": 24})
    after(page, before)
    page.wait_for_function(DRAWN, timeout=20_000)
    page.wait_for_timeout(100)  # a few more frames of the table as it stays
    seen = frames(page)
    assert any(f["dimmed"] for f in seen), "the computers' cards were not drawn"
    assert seen[-1]["lines"] == ["Select a card to play."]
    expect(page.locator(STATUS)).to_have_text("Select a card to play.")
    bad = contradictions(seen)
    assert bad == [], bad[:5]


def test_after_the_last_card_the_bar_asks_for_ok_only_with_the_sheet_on_the_screen(
    fresh_context, live_server
):
    """At the default speed, the hand's last card: while that trick is shown and gathered the
    bar says who takes it; "Press OK to deal the next hand." comes with the score sheet."""
    page = fresh_context(reduced_motion="no-preference").new_page()
    open_at(page, live_server.url, played_until(617, last_card_of_the_hand))
    watch(page)
    act(page, page.locator(LIT).first)
    sheet = page.locator("#table dialog.sheet")
    expect(sheet).to_be_visible(timeout=20_000)
    page.wait_for_timeout(100)
    seen = frames(page)
    bad = contradictions(seen)
    assert bad == [], bad[:5]
    said = [f["lines"][0] for f in seen if len(f["lines"]) == 1]
    assert any(line.endswith("the trick.") for line in said), said
    assert said[-1] == "Press OK to deal the next hand."
