"""In Debian's Chromium, what a newcomer tripped over in the solo game (issue 40), each along
the person's own path: the Game menu above the score sheet on a phone, a card chosen while the
last trick is gathered, Undo once the next trick is led, Review Last Hand after Select Game,
the hint's ring, and the address after a move without JavaScript."""

from __future__ import annotations

import base64
import re
import time

import pytest
from playwright.sync_api import Page, expect

from game.solo.actions import NEXT_TRICK_BEGUN
from tests.support.browser import (
    CARDS,
    LIT,
    STATUS,
    TITLE,
    Axe,
    act,
    after,
    arrive,
    dialog,
    expect_modal,
    keys,
    open_at,
    played_until,
    seq,
    start,
)
from tests.support.web import card_a_computer_takes, winning_card

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {
    "viewport": {"width": 375, "height": 667},
    "has_touch": True,
    "is_mobile": True,
    "reduced_motion": "reduce",
}
REVIEW_READY = 60_000  # ms: the review is worked out on demand, a decision at a time


def last_card_of_the_hand(state) -> bool:
    game = state.game
    return game.phase == "playing" and game.turn == 0 and game.tricks_played == 12


def on_top(locator) -> bool:
    """Whether a tap at the middle of ``locator`` reaches it (nothing lies over it)."""
    return locator.evaluate(
        "el => { const r = el.getBoundingClientRect();"
        " const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);"
        " return el.contains(hit); }"
    )


# 2 -----------------------------------------------------------------------------------------


def test_on_a_phone_the_game_menu_opens_above_the_score_sheet(fresh_context, live_server):
    page = fresh_context(**PHONE, bypass_csp=True).new_page()  # bypass: axe is injected
    open_at(page, live_server.url, played_until(617, last_card_of_the_hand))
    before = seq(page)
    page.locator(LIT).first.tap(position={"x": 6, "y": 24})  # the hand's last card
    after(page, before)
    expect(page.locator("#table dialog.sheet")).to_be_visible()
    game_menu = page.locator("#menu-game-button")
    game_menu.tap()
    for name in ("Last Trick", "Review Last Hand", "Exit"):
        item = page.get_by_role("menuitem", name=name)
        expect(item).to_be_visible()
        assert on_top(item), f"{name} lies under the score sheet"
    axe = Axe(page)
    axe.check("the Game menu over the score sheet, on a phone")
    assert not axe.found, axe.found
    page.get_by_role("menuitem", name="Review Last Hand").tap()
    expect(dialog(page, "dialog-review").locator("#dialog-title")).to_have_text(
        "Review of Hand 1", timeout=REVIEW_READY
    )
    dialog(page, "dialog-review").get_by_role("button", name="OK").tap()
    expect(dialog(page, "dialog-review")).to_have_count(0)
    game_menu.tap()
    last_trick = page.get_by_role("menuitem", name="Last Trick")
    assert on_top(last_trick), "Last Trick lies under the score sheet"
    last_trick.tap()
    expect_modal(page, "dialog-last-trick")


# 3 -----------------------------------------------------------------------------------------

WAITING = (
    "() => { const h = document.querySelector('#table .hand');"
    " return !!h && h.getAnimations().some(a => a.animationName === 'wait-turn'"
    " && a.playState === 'running'); }"
)


def test_a_card_chosen_while_the_trick_is_gathered_is_played_when_the_hand_lights(
    fresh_context, live_server
):
    """At the default speed: game 617 after passing the three hearts, your two of clubs; while
    that trick is still shown and gathered (Michele then leads the next), a click on a card
    lays it down as soon as your turn is drawn."""
    page = fresh_context(reduced_motion="no-preference").new_page()
    start(page, live_server.url)
    for i in (10, 11, 12):
        act(page, page.locator(CARDS).nth(i))
    act(page, page.get_by_role("button", name="Pass Left"))
    act(page, page.get_by_role("button", name="OK", exact=True))
    act(page, page.locator(f'{CARDS}[value="2C"]'))
    card = page.locator(LIT).first
    code = card.get_attribute("value")
    played = seq(page)
    assert page.evaluate(WAITING), "the trick was no longer being shown"
    card.click(position={"x": 6, "y": 24}, force=True)  # force: no wait for the hand to light
    expect(page.locator(f'{CARDS}[value="{code}"]')).to_have_count(0, timeout=15_000)
    after(page, played)
    expect(page.locator(f"#table .center .played.at-bottom.face-{code}")).to_have_count(1)
    assert page.locator(CARDS).count() == 11
    expect(page.locator(STATUS)).not_to_contain_text("must")  # no refusal: it was played


# 8 -----------------------------------------------------------------------------------------


def test_ctrl_z_is_refused_at_once_under_reduced_motion(page: Page, live_server):
    """By keyboard alone, with reduced motion (the page draws the next lead at once), game 617:
    the three hearts passed, the two of clubs played; Michele takes that trick and leads the
    next (a fact of the computers' choices in game 617). Undo is greyed and says why."""
    start(page, live_server.url)
    page.locator(CARDS).first.focus()
    page.keyboard.press("End")
    keys(page, "Space")
    for _ in range(2):
        page.keyboard.press("ArrowLeft")
        keys(page, "Space")
    page.evaluate("document.activeElement.blur()")
    keys(page, "Enter")  # Pass Left
    keys(page, "Enter")  # OK
    page.locator(CARDS).first.focus()
    page.keyboard.press("Home")
    expect(page.locator(CARDS).first).to_have_attribute("value", "2C")
    keys(page, "Enter")
    expect(page.locator("#table .center .played:not(.gather)")).not_to_have_count(0)
    undo = page.locator("#menu-undo")
    expect(undo).to_have_attribute("aria-disabled", "true")
    page.keyboard.press("Control+z")
    expect(page.locator(STATUS)).to_have_text(NEXT_TRICK_BEGUN)
    expect(page.locator(f'{CARDS}[value="2C"]')).to_have_count(0)
    expect(page.locator("#table .center .played.face-2C")).to_be_hidden()  # gathered
    page.keyboard.press("Alt+g")  # the menu says so too: Undo Card is dimmed
    expect(page.get_by_role("menuitem", name="Undo Card")).to_have_attribute(
        "aria-disabled", "true"
    )
    page.keyboard.press("Escape")


LEAD_DRAWN = (
    "() => { const t = document.querySelector('#table');"
    " const lead = t && t.querySelectorAll('.center .played:not(.gather)');"
    " return !!lead && lead.length > 0"
    " && [...t.querySelectorAll('.center .played')].every(c => c.getAnimations()"
    ".every(a => a.playState === 'finished')); }"
)


def before_a_computer_takes_your_card(fresh_context, live_server) -> tuple[Page, str]:
    """At the default animation, the first moment of game 617 at which a card you may play goes
    to a trick a computer takes and leads the next one from; that card focused."""
    page = fresh_context(reduced_motion="no-preference").new_page()
    state = played_until(617, lambda state: card_a_computer_takes(state) is not None)
    code = card_a_computer_takes(state)
    open_at(page, live_server.url, state)
    page.locator(f'{CARDS}[value="{code}"]').focus()
    return page, code


def test_ctrl_z_takes_your_card_back_while_its_trick_is_still_drawn(fresh_context, live_server):
    """A computer takes your card's trick and leads the next in the same answer; while the page
    still draws that trick (before it gathers it), Ctrl+Z brings your card back."""
    page, code = before_a_computer_takes_your_card(fresh_context, live_server)
    shown = page.locator("#table .center .played")
    before = shown.count()
    undo = page.locator("#menu-undo")
    expect(undo).to_have_attribute("aria-disabled", "true")
    keys(page, "Enter")
    expect(undo).not_to_have_attribute("aria-disabled", "true")  # the trick is drawn
    expect(page.locator(f"#table .center .played.at-bottom.face-{code}")).to_be_visible()
    keys(page, "Control+z")
    expect(page.locator(f'{CARDS}[value="{code}"]')).to_have_count(1)
    expect(shown).to_have_count(before)  # the trick as it was before your card
    expect(undo).to_have_attribute("aria-disabled", "true")
    expect(page.locator(STATUS)).to_have_text(
        re.compile(r" is back in your hand\. Select a card to play\.$")
    )


def test_ctrl_z_after_the_next_lead_is_drawn_is_refused(fresh_context, live_server):
    """Once the page has gathered your card's trick and drawn the next lead, Undo Card is
    greyed and Ctrl+Z sends nothing: the status bar says why, the card stays played."""
    page, code = before_a_computer_takes_your_card(fresh_context, live_server)
    keys(page, "Enter")
    page.wait_for_function(LEAD_DRAWN, timeout=15_000)
    undo = page.locator("#menu-undo")
    expect(undo).to_have_attribute("aria-disabled", "true")
    played = seq(page)
    page.keyboard.press("Control+z")
    expect(page.locator(STATUS)).to_have_text(NEXT_TRICK_BEGUN)
    assert seq(page) == played  # no request: the table is the one drawn
    expect(page.locator(f'{CARDS}[value="{code}"]')).to_have_count(0)
    page.keyboard.press("Alt+g")  # the menu says so too: Undo Card is dimmed
    expect(page.get_by_role("menuitem", name="Undo Card")).to_have_attribute(
        "aria-disabled", "true"
    )
    page.keyboard.press("Escape")


def test_ctrl_z_takes_back_the_card_of_a_trick_you_took_before_anyone_leads(
    page: Page, live_server
):
    state = played_until(617, lambda state: winning_card(state) is not None)
    code = winning_card(state)
    open_at(page, live_server.url, state)
    expect(page.locator("#menu-undo")).to_have_attribute("aria-disabled", "true")
    page.locator(f'{CARDS}[value="{code}"]').focus()
    keys(page, "Enter")
    expect(page.locator(STATUS)).to_have_text("Select a card to play.")  # your lead
    expect(page.locator("#menu-undo")).not_to_have_attribute("aria-disabled", "true")
    keys(page, "Control+z")
    expect(page.locator(f'{CARDS}[value="{code}"]')).to_have_count(1)
    expect(page.locator("#table .center .played")).to_have_count(3)  # the trick as it was
    expect(page.locator("#menu-undo")).to_have_attribute("aria-disabled", "true")


# 9 -----------------------------------------------------------------------------------------


def test_review_last_hand_after_select_game_names_the_game_it_was_played_in(
    page: Page, live_server
):
    open_at(page, live_server.url, played_until(617, last_card_of_the_hand))
    act(page, page.locator(LIT).first)  # the hand ends: the score sheet
    expect(page.locator("#table dialog.sheet")).to_be_visible()
    page.keyboard.press("F3")
    expect_modal(page, "dialog-select-game")
    page.get_by_label("Game number (1 to 1,000,000)").fill("905685")
    page.keyboard.press("Enter")
    expect(page.locator(TITLE)).to_have_text("Hearts - Game #905685")
    page.keyboard.press("r")
    review = dialog(page, "dialog-review")
    expect(review.locator("#dialog-title")).to_have_text(
        "Review of Hand 1 of Game #617", timeout=REVIEW_READY
    )
    expect_modal(page, "dialog-review")
    page.keyboard.press("Escape")
    expect(review).to_have_count(0)
    page.locator("#menu-game-button").click()
    page.get_by_role("menuitem", name="Review Last Hand").click()
    expect(review.locator("#dialog-title")).to_have_text("Review of Hand 1 of Game #617")


# 10 ----------------------------------------------------------------------------------------

NEW_YELLOW_PIXELS = """async ([a, b]) => {
  const read = async (data) => {
    const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: "image/png" }));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext("2d");
    context.drawImage(bitmap, 0, 0);
    return context.getImageData(0, 0, bitmap.width, bitmap.height);
  };
  const [one, two] = [await read(a), await read(b)];
  // the ring's yellow: a pixel yellow in the second picture and not in the first
  const yellow = (d, i) => d[i] > 200 && d[i + 1] > 200 && d[i + 2] < 90;
  const found = [];
  for (let i = 0; i < one.data.length; i += 4) {
    if (yellow(two.data, i) && !yellow(one.data, i)) {
      found.push([(i / 4) % one.width, Math.floor(i / 4 / one.width)]);
    }
  }
  return found;
}"""

STRIPS = """sel => [...document.querySelectorAll(sel)].map((card, i, cards) => {
  const r = card.getBoundingClientRect();
  const next = cards[i + 1] && cards[i + 1].getBoundingClientRect();
  // what of the card shows: up to the next card of its row, if that one covers it
  const shows = next && Math.abs(next.top - r.top) < 1 && next.left < r.right ? next.left : r.right;
  return { hinted: card.classList.contains("hinted"), left: r.left, right: shows,
           top: r.top, bottom: r.bottom };
})"""


UNRING = """sel => document.querySelectorAll(sel + ".hinted").forEach(
  c => { c.classList.remove("hinted"); c.dataset.wasHinted = "1"; })"""
RING = """sel => document.querySelectorAll(sel + "[data-was-hinted]").forEach(
  c => c.classList.add("hinted"))"""


def steady_picture(page: Page, clip: dict) -> bytes:
    """A screenshot once the page has stopped changing (the cards' faces are drawn as their
    images arrive): two in a row alike."""
    deadline = time.monotonic() + 10
    shot = page.screenshot(clip=clip)
    while time.monotonic() < deadline:
        again = page.screenshot(clip=clip)
        if again == shot:
            return shot
        shot = again
    raise AssertionError("the page kept changing")


@pytest.mark.parametrize("size", [(1024, 768), (375, 667)])
def test_the_hints_ring_marks_only_the_cards_it_hints(fresh_context, live_server, size):
    """H while passing rings three cards; every pixel the rings turn yellow lies on the part of a
    hinted card that shows (or just round it), never on the next cards' strips."""
    width, height = size
    context = fresh_context(viewport={"width": width, "height": height})
    page = context.new_page()
    start(page, live_server.url)
    page.mouse.move(0, 0)
    page.keyboard.press("h")
    expect(page.locator(f"{CARDS}.hinted")).to_have_count(3)
    page.evaluate("document.activeElement.blur()")  # no focus ring in either picture
    page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-settling')")
    # the hint's sentence may take more lines of the status bar: the table is measured, and
    # pictured with and without the rings, as the hint drew it (the rings alone differ)
    hand = page.locator("#table .hand").bounding_box()
    clip = {
        "x": 0,
        "y": max(0, hand["y"] - 40),
        "width": width,
        "height": min(height - max(0, hand["y"] - 40), hand["height"] + 60),
    }
    ringed = steady_picture(page, clip)
    page.evaluate(UNRING, CARDS)
    plain = steady_picture(page, clip)
    page.evaluate(RING, CARDS)
    cards = page.evaluate(STRIPS, CARDS)
    hinted = [c for c in cards if c["hinted"]]
    assert any(c["right"] < cards[-1]["right"] for c in hinted), "no hinted card is covered"
    blank = context.new_page()
    yellow = blank.evaluate(
        NEW_YELLOW_PIXELS,
        [base64.b64encode(plain).decode(), base64.b64encode(ringed).decode()],
    )
    assert yellow, "the hint drew no ring"
    pixels = [(x + 0.5, y + clip["y"] + 0.5) for x, y in yellow]  # their centres, on the page
    margin = 6  # the ring's width and its gap, round the part that shows

    def near(card: dict, x: float, y: float) -> bool:
        return (
            card["left"] - margin <= x <= card["right"] + 1
            and card["top"] - margin <= y <= card["bottom"] + margin
        )

    stray = [(x, y) for x, y in pixels if not any(near(card, x, y) for card in hinted)]
    assert not stray, f"{len(stray)} ring pixels lie on other cards, such as {stray[:5]}"
    for card in hinted:  # each hinted card is ringed on its left, where it shows
        left = [
            x for x, y in pixels if card["left"] - margin <= x < card["left"] and near(card, x, y)
        ]
        assert left, f"no ring on the left of the hinted card at {card['left']}"


# 11 ----------------------------------------------------------------------------------------


def test_without_javascript_the_address_after_a_move_names_the_game(fresh_context, live_server):
    page = fresh_context(java_script_enabled=False).new_page()
    base = live_server.url
    arrive(page, base, "Nojs")  # the link's number needs JavaScript: the game is 4242
    assert page.url == f"{base}/#4242"
    for i in range(3):
        page.locator(CARDS).nth(i).click(position={"x": 6, "y": 24})
        expect(page.locator(f"{CARDS}.raised")).to_have_count(i + 1)
        assert page.url == f"{base}/#4242"
    page.get_by_role("button", name="Pass Left").click()
    page.get_by_role("button", name="OK").click()
    expect(page.locator(STATUS)).to_have_text("Select a card to play.")
    form_seq = page.locator("#table .hand-form input[name=seq]").get_attribute("value")
    page.locator(LIT).first.click(position={"x": 6, "y": 24})
    expect(page.locator(CARDS)).to_have_count(12)
    assert page.url == f"{base}/#4242"
    said = page.locator("#status .vh")
    expect(said).to_contain_text("You play the")  # the move's answer tells what happened
    page.reload()
    expect(page.locator("#status .vh")).to_have_count(0)  # once: a reload does not repeat it
    # a form from the page before the move (sent twice, or another tab) is still refused
    stale = page.request.post(
        f"{base}/play",
        form={
            "seq": form_seq,
            "card": page.locator(LIT).first.get_attribute("value"),
            "csrfmiddlewaretoken": page.locator(
                "input[name=csrfmiddlewaretoken]"
            ).first.get_attribute("value"),
        },
        headers={"Referer": f"{base}/"},
        max_redirects=0,
    )
    assert stale.status == 303 and stale.headers["location"] == "/#4242"
    page.reload()  # what the 303 leads to: the same address
    expect(page.locator(STATUS)).to_have_text(re.compile(r"^That was already done\."))
    expect(page.locator(CARDS)).to_have_count(12)
