"""People at one network table, each in a browser context of their own (Debian's Chromium
through Playwright): one by mouse with JavaScript, the others with JavaScript turned off, one
of whom leaves and comes back."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Browser, expect
from playwright.sync_api import Error as PlaywrightError

from game.models import Table
from game.network.state import TableState
from tests.support.browser import (
    CARDS,
    STATUS,
    STRIP_SIZES,
    deal_by_the_game_menu,
    join_at_the_prompt,
    visible_strips,
    wait_modal,
    walk_focus_across_hand,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# of games 1 to 10, the one that ends soonest when played this way here (six hands with the
# players of 2026-12-06; game 6, the pick before, ten): a change of the players can move it
SHORT_GAME = 5
STEP_DEADLINE = 60  # seconds a person may wait for their turn before the test fails
LIT = "#table .hand-form[action] .card:not([aria-disabled='true'])"


class Seat:
    """One person's browser context and page; ``js`` says whether its JavaScript runs."""

    def __init__(self, browser: Browser, base: str, name: str, js: bool) -> None:
        self.context = browser.new_context(
            base_url=base, java_script_enabled=js, reduced_motion="reduce"
        )
        self.context.set_default_timeout(30_000)
        self.page = self.context.new_page()
        self.name = name
        self.js = js

    def click(self, locator, card: bool = False) -> bool:
        """A mouse click that sends a form; waits until the answer is on the page. A card is
        clicked near its bottom left corner, the part no other card covers. Whether it clicked:
        not when the card went before it could be measured (the page without JavaScript
        reloaded itself meanwhile; the next step looks again)."""
        where = {}
        if card:
            # near the bottom: a raised (or focused) card beside it may cover the strip's top
            box = locator.bounding_box()
            if box is None:
                return False
            where = {"position": {"x": 6, "y": box["height"] - 8}}
        if self.js:
            before = self.page.locator("#table").get_attribute("data-seq")
            locator.click(**where)
            self.page.wait_for_function(
                "before => { const t = document.querySelector('#table');"
                " return t && t.dataset.seq !== before && !document.querySelector("
                "'.htmx-request, .htmx-swapping, .htmx-settling'); }",
                arg=before,
            )
        else:
            with self.page.expect_navigation():
                locator.click(**where)
        return True

    def look(self, code: str) -> None:
        """Without JavaScript, see the table as its next self-reload would show it."""
        for _ in range(5):
            if self.js:
                return
            try:
                self.page.goto(f"/t/{code}/")
                return
            except PlaywrightError as error:  # the page's own reload came first: fine too
                if "interrupted by another navigation" not in str(error) and (
                    "ERR_ABORTED" not in str(error)
                ):
                    raise
                self.page.wait_for_load_state()

    def step(self) -> bool:
        """Do what the table needs of this person, if anything; whether something was done."""
        page = self.page
        sheet_ok = page.locator("#table dialog.sheet button.push")
        if sheet_ok.count():
            self.click(sheet_ok)
            return True
        ok = page.locator("#table form.continue button.push")
        if ok.count():
            self.click(ok)
            return True
        button = page.locator("#pass-button:not([disabled])")
        if button.count():
            self.click(button)
            return True
        if page.locator("#table .hand-form[action$='/select']").count():
            return self.click(page.locator("#table .hand .card:not(.raised)").first, card=True)
        lit = page.locator(LIT)
        if lit.count():
            return self.click(lit.first, card=True)
        return False


def deal_from_the_game_menu(seat: Seat, number: int) -> str:
    link = deal_by_the_game_menu(seat.page, seat.name, number)
    expect(seat.page.locator(".net-warning")).to_contain_text(f"This table deals game #{number}")
    return re.search(r"/t/([^/]+)/", link).group(1)


def join_by_link(seat: Seat, link: str) -> None:
    join_at_the_prompt(seat.page, link, seat.name)


def table_state(code: str) -> TableState:
    return TableState.from_json(Table.objects.get(code=code).state)


def play_until(seats: list[Seat], code: str, done) -> None:
    """Everyone does what their page asks, by mouse, until ``done(state)``."""
    waited_since = time.monotonic()
    while not done(table_state(code)):
        acted = False
        for seat in seats:
            if seat.step():
                acted = True
            else:
                seat.look(code)
        if acted:
            waited_since = time.monotonic()
        else:
            assert time.monotonic() - waited_since < STEP_DEADLINE, "nobody could act"
            seats[0].page.wait_for_timeout(200)


@pytest.fixture
def people(browser: Browser, live_server):
    made: list[Seat] = []

    def make(name: str, js: bool) -> Seat:
        made.append(Seat(browser, live_server.url, name, js))
        return made[-1]

    yield make
    for seat in made:
        seat.context.close()


def test_two_browsers_play_a_whole_game_one_without_javascript_who_leaves_and_comes_back(
    people, live_server, settings
):
    anna = people("Anna", js=True)
    bob = people("Bob", js=False)
    code = deal_from_the_game_menu(anna, SHORT_GAME)
    link = anna.page.locator("#table-link").input_value()
    assert link == f"{live_server.url}/t/{code}/"
    join_by_link(bob, link)
    expect(bob.page.locator(STATUS)).to_have_text("Waiting for Anna to start the game...")
    expect(anna.page.locator(".net-seats")).to_contain_text("Bob")  # Anna's page polled
    anna.page.keyboard.press("F2")  # the dealer starts
    # Bob's page reloads itself (meta refresh, no script) and shows his hand
    expect(bob.page.locator(STATUS)).to_have_text(
        "Select three cards to pass to Michele.", timeout=15_000
    )
    expect(anna.page.locator(STATUS)).to_have_text("Select three cards to pass to Bob.")
    names = anna.page.locator(".seat .name bdi").all_inner_texts()
    assert names[:3] == ["Bob", "Michele", "Ben"] and names[-1] == "Anna"

    play_until([anna, bob], code, lambda state: state.game.tricks_played >= 2)
    # Bob leaves; after the idle limit Anna lets a computer play for him
    bob.page.close()
    settings.HEARTS_IDLE_SECONDS = 1
    replace = anna.page.get_by_role("button", name="Let a computer play for Bob")
    deadline = time.monotonic() + STEP_DEADLINE
    while not replace.count():
        assert time.monotonic() < deadline
        anna.step()
        anna.page.wait_for_timeout(300)
    anna.click(replace)
    settings.HEARTS_IDLE_SECONDS = 60
    assert table_state(code).seats[1].away
    # Bob comes back in the same browser and sits down again
    bob.page = bob.context.new_page()
    bob.page.goto(link)
    expect(bob.page.locator(STATUS)).to_have_text(
        "A computer player is playing for you. Press Sit Down to play again."
    )
    with bob.page.expect_navigation():
        bob.page.get_by_role("button", name="Sit Down").click()
    assert not table_state(code).seats[1].away

    play_until([anna, bob], code, lambda state: state.game.phase == "game_over")
    for seat in (anna, bob):
        seat.look(code)
    expect(anna.page.locator("dialog.sheet .result")).to_be_visible()
    expect(bob.page.locator("dialog.sheet .result")).to_be_visible()
    # the finished table offers a new game to the same two
    play_until([anna, bob], code, lambda state: state.game.number != SHORT_GAME)
    state = table_state(code)
    assert [s.name for s in state.seats] == ["Anna", "Bob", "Michele", "Ben"]


def test_four_browsers_two_without_javascript_play_a_hand_to_the_score_sheet(people):
    seats = [
        people("Anna", js=True),
        people("Bob", js=False),
        people("Cleo", js=True),
        people("Dan", js=False),
    ]
    code = deal_from_the_game_menu(seats[0], 617)
    link = seats[0].page.locator("#table-link").input_value()
    for seat in seats[1:]:
        join_by_link(seat, link)
    expect(seats[0].page.locator(".net-seats li")).to_have_count(4)
    seats[0].click(seats[0].page.get_by_role("button", name="Start"))
    for seat in seats:
        seat.look(code)
    for seat, target in zip(seats, ("Bob", "Cleo", "Dan", "Anna"), strict=True):
        expect(seat.page.locator(STATUS)).to_have_text(f"Select three cards to pass to {target}.")
        expect(seat.page.locator("#table .seat-bottom .name")).to_have_text(seat.name)
    play_until(seats, code, lambda state: state.game.phase == "hand_over")
    for seat in seats:
        seat.look(code)
        expect(seat.page.locator("dialog.sheet tbody tr")).to_have_count(1)
        expect(seat.page.locator("dialog.sheet thead th").nth(1)).to_have_text(seat.name)
    # the sheet's Review Hand, reached as people reach it (the other review tests plant a seat)
    anna = seats[0].page
    anna.locator("#table dialog.sheet").get_by_role("link", name="Review Hand").click()
    wait_modal(anna, "dialog-review")
    expect(anna.locator("#dialog-review #review-step-0 .review-sentence")).to_contain_text(
        "You passed "
    )
    anna.keyboard.press("Escape")
    expect(anna.locator("#dialog-review")).to_have_count(0)
    play_until(seats, code, lambda state: state.game.hand_number == 2)
    assert [s.name for s in table_state(code).seats] == ["Anna", "Bob", "Cleo", "Dan"]


def test_at_a_network_table_a_focused_card_hides_none_of_the_hand(people):
    """The table's hand is the solo hand: at every window size the solo strip test checks,
    walking the keyboard focus across it leaves every card a strip of at least 24 px."""
    anna = people("Anna", js=True)
    deal_from_the_game_menu(anna, 617)
    anna.click(anna.page.get_by_role("button", name="Start"))  # with three computers
    expect(anna.page.locator(STATUS)).to_have_text("Select three cards to pass to Pauline.")
    expect(anna.page.locator(CARDS)).to_have_count(13)
    for width, height in STRIP_SIZES:
        anna.page.set_viewport_size({"width": width, "height": height})
        assert min(visible_strips(anna.page)) >= 24, (width, height, visible_strips(anna.page))
        walked = walk_focus_across_hand(anna.page)
        narrowest = min((min(seen), card) for card, seen in walked)
        assert narrowest[0] >= 24, (
            f"{width}x{height}: {narrowest[0]} px with {narrowest[1]} focused"
        )
