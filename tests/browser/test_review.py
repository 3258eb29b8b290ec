"""Review Last Hand in Debian's Chromium: by mouse, by keyboard alone, without JavaScript, at
a network table from two seats, and axe-core over the review."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from game.engine.handlog import HandRecord
from game.web.hand_review import cards_text, review
from game.web.player import PlayerState
from tests.support.browser import DIALOG, Axe, hand_played_high, open_at, wait_modal
from tests.support.network import hand_over, settle, started, table_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ("Ada", "Pauline", "Michele", "Ben")


def the_review(state: PlayerState):
    return review(HandRecord.of(state.game), 0, NAMES)


def visible_step(page: Page) -> int:
    sections = page.locator(f"{DIALOG} section.review-step:visible")
    expect(sections).to_have_count(1)
    return int(sections.get_attribute("id").rsplit("-", 1)[1])


def step_is(page: Page, number: int) -> None:
    expect(page.locator(f"{DIALOG} #review-step-{number}")).to_be_visible()
    assert visible_step(page) == number


def test_reviewing_a_hand_by_mouse(page: Page, live_server):
    state = hand_played_high()
    found = the_review(state)
    assert found.costliest is not None and found.costliest.trick > 0
    open_at(page, live_server.url, state)
    page.locator("#table dialog.sheet").get_by_role("link", name="Review Hand").click()
    wait_modal(page, "dialog-review")
    dialog = page.locator(DIALOG)
    expect(dialog.locator("#dialog-title")).to_have_text("Review of Hand 1")
    expect(dialog).to_contain_text(found.pauline_sentence[1:])
    step_is(page, 0)
    expect(dialog.locator("#review-step-0 .review-sentence")).to_have_text(found.pass_sentence)
    dialog.get_by_role("link", name="Next").click()
    step_is(page, 1)
    expect(dialog.locator("#review-step-1 .review-sentence")).to_have_text(found.steps[0].sentence)
    dialog.locator('.review-index a[data-review-step="7"]').click()
    step_is(page, 7)
    dialog.get_by_role("link", name="Previous").click()
    step_is(page, 6)
    worst = found.costliest.trick
    dialog.locator(".review-costliest-line a").click()
    step_is(page, worst)
    shown = dialog.locator(f"#review-step-{worst} .review-judgement.costliest")
    expect(shown).to_be_visible()
    expect(shown).to_contain_text(found.costliest.sentence)
    expect(dialog.locator(f'.review-index a.costliest[data-review-step="{worst}"]')).to_be_visible()
    dialog.get_by_role("link", name="Last").click()
    step_is(page, 13)
    dialog.get_by_role("button", name="OK").click()
    expect(page.locator(DIALOG)).to_have_count(0)
    expect(page.locator("#table dialog.sheet")).to_be_visible()  # the score sheet is still there


def test_reviewing_a_hand_by_keyboard_alone(page: Page, live_server):
    state = hand_played_high()
    found = the_review(state)
    open_at(page, live_server.url, state)
    page.keyboard.press("r")
    wait_modal(page, "dialog-review")
    step_is(page, 0)
    page.keyboard.press("ArrowRight")
    step_is(page, 1)
    said = page.locator(f"{DIALOG} #review-said")
    expect(said).to_contain_text(found.steps[0].sentence)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    step_is(page, 3)
    expect(said).to_contain_text(found.steps[2].sentence)
    judged = found.steps[2].judgement
    if judged is not None:
        expect(said).to_contain_text(judged.sentence)
    page.keyboard.press("End")
    step_is(page, 13)
    page.keyboard.press("ArrowRight")
    step_is(page, 13)
    page.keyboard.press("Home")
    step_is(page, 0)
    page.keyboard.press("ArrowLeft")
    step_is(page, 0)
    assert page.evaluate(
        "document.getElementById('dialog-review').contains(document.activeElement)"
    )
    page.keyboard.press("Escape")
    expect(page.locator(DIALOG)).to_have_count(0)
    # and from the Game menu, by keyboard
    page.keyboard.press("Alt+g")
    item = page.get_by_role("menuitem", name="Review Last Hand")
    for _ in range(12):
        if page.evaluate("document.activeElement.textContent.startsWith('Review Last Hand')"):
            break
        page.keyboard.press("ArrowDown")
    expect(item).to_be_focused()
    page.keyboard.press("Enter")
    wait_modal(page, "dialog-review")
    step_is(page, 0)


def test_reviewing_a_hand_without_javascript(fresh_context, live_server):
    state = hand_played_high()
    found = the_review(state)
    page = fresh_context(java_script_enabled=False).new_page()
    open_at(page, live_server.url, state)
    page.locator("#table dialog.sheet").get_by_role("link", name="Review Hand").click()
    expect(page).to_have_url(re.compile(r"/review$"))
    step_is(page, 0)
    page.locator(DIALOG).get_by_role("link", name="Next").click()
    expect(page).to_have_url(re.compile(r"/review/1$"))
    step_is(page, 1)
    expect(page.locator(f"{DIALOG} #review-step-1 .review-sentence")).to_have_text(
        found.steps[0].sentence
    )
    page.locator(f'{DIALOG} .review-index a[data-review-step="9"]').click()
    expect(page).to_have_url(re.compile(r"/review/9$"))
    step_is(page, 9)
    page.locator(DIALOG).get_by_role("link", name="Previous").click()
    expect(page).to_have_url(re.compile(r"/review/8$"))
    step_is(page, 8)
    page.locator(DIALOG).get_by_role("button", name="OK").click()
    expect(page.locator(DIALOG)).to_have_count(0)
    expect(page.locator("#table dialog.sheet")).to_be_visible()


def test_axe_finds_nothing_on_the_review(fresh_context, live_server):
    state = hand_played_high()
    found = the_review(state)
    for size in ((1280, 800), (375, 667)):
        context = fresh_context(
            bypass_csp=True,
            viewport={"width": size[0], "height": size[1]},
            reduced_motion="reduce",
        )
        page = context.new_page()
        axe = Axe(page)
        open_at(page, live_server.url, state)
        page.keyboard.press("r")
        wait_modal(page, "dialog-review")
        axe.check(f"review, the pass, {size}")
        page.keyboard.press("ArrowRight")
        axe.check(f"review, trick 1, {size}")
        page.locator(f"{DIALOG} .review-costliest-line a").click()
        step_is(page, found.costliest.trick)
        axe.check(f"review, the costliest trick, {size}")
        assert axe.found == [], "\n".join(axe.found)


def test_at_a_network_table_two_seats_each_review_only_what_they_could_know(
    fresh_context, live_server
):
    people = started("Ada", "Bob", number=0)  # a secret deal
    settle(people, until=hand_over)
    game = table_of(people[0].code)[1].game
    passes = [game.passed(seat) for seat in range(4)]
    names = [seat.name for seat in table_of(people[0].code)[1].seats]
    base = live_server.url
    for person in people:
        seat = person.seat
        giver = (seat - 1) % 4
        context = fresh_context(reduced_motion="reduce")
        token = person.client.cookies["hearts_seats"].value
        context.add_cookies([{"name": "hearts_seats", "value": token, "url": f"{base}/t/"}])
        page = context.new_page()
        bodies: list[str] = []
        page.on("response", lambda response, bodies=bodies: bodies.append(_text(response)))
        page.goto(f"{base}/t/{person.code}/")
        page.locator("#table dialog.sheet").get_by_role("link", name="Review Hand").click()
        wait_modal(page, "dialog-review")
        dialog = page.locator(DIALOG)
        expect(dialog.locator("#review-step-0 .review-sentence")).to_contain_text(
            f"You passed {cards_text(passes[seat])} to {names[(seat + 1) % 4]}, and received "
            f"{cards_text(passes[giver])} from {names[giver]}."
        )
        page.keyboard.press("End")
        step_is(page, 13)
        page.keyboard.press("Escape")
        page.goto(f"{base}/t/{person.code}/review/4")  # a step's own page, as without script
        step_is(page, 4)
        others = [s for s in range(4) if s not in (seat, giver)]
        assert bodies
        for body in bodies:
            for other in others:
                assert cards_text(passes[other]) not in body
                assert f"{names[other]} passed" not in body


def _text(response) -> str:
    try:
        return response.text()
    except Exception:  # a redirect or a body the browser did not keep
        return ""
