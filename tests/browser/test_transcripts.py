"""What a keyboard-only player and a listening player do and hear through one whole hand of
game 617, from a real run in Debian's Chromium: the keys pressed, the focus as a screen reader
announces it, and each change of the live region (the status bar). Run with ``-s`` to read the
transcripts; the assertions hold the story in order, each event told once."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from game.engine import Card
from game.solo import actions
from game.web.table import COMPUTER_NAMES, result_sentence, seat_names
from tests.support.browser import (
    CARDS,
    STATUS,
    after,
    focus_said,
    heard,
    listen,
    one_card_from_the_end,
    open_at,
    seq,
    start,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


class Transcript:
    def __init__(self, page: Page, listening: bool):
        self.page = page
        self.listening = listening
        self.lines: list[str] = []
        self.seen = 0

    def press(self, key: str, wait: bool = False) -> None:
        before = seq(self.page)
        self.page.keyboard.press(key)
        if wait:
            after(self.page, before)
            self.page.evaluate("document.getAnimations().forEach(a => a.finish())")
        line = f"[{key}]"
        if self.listening:
            line += f" focus: {focus_said(self.page)}"
        self.lines.append(line)
        self.hear()

    def hear(self) -> None:
        said = heard(self.page)
        for text in said[self.seen :]:
            self.lines.append(f"    hears: {text}")
        self.seen = len(said)

    def focused_card(self) -> int:
        return self.page.evaluate(
            "Array.from(document.querySelectorAll('#table .hand .card'))"
            ".indexOf(document.activeElement)"
        )

    def to_card(self, index: int) -> None:
        self.press("Home")
        for _ in range(index):
            self.press("ArrowRight")

    def play_lit_card(self) -> None:
        """Home, then right until a card that may be played, then Enter."""
        lit = self.page.locator(CARDS).evaluate_all(
            "cs => cs.findIndex(c => c.getAttribute('aria-disabled') !== 'true')"
        )
        self.to_card(lit)
        self.press("Enter", wait=True)

    def text(self) -> str:
        return "\n".join(self.lines)


def one_hand(page: Page, base: str, listening: bool) -> tuple[Transcript, list[str]]:
    listen(page)
    start(page, base)
    t = Transcript(page, listening)
    t.hear()
    page.locator("#menu-game-button").focus()
    t.press("Tab")  # from the menu bar into the hand: one Tab stop
    for index in (10, 11, 12):
        t.to_card(index)
        t.press("Space", wait=True)
    t.press("Enter", wait=True)  # Pass Left
    t.press("Enter", wait=True)  # OK
    while page.locator(CARDS).count():
        t.play_lit_card()
    expect(page.locator("#table dialog.sheet button.push")).to_be_focused()
    t.hear()
    return t, heard(page)


def check_the_story(said: list[str]) -> None:
    told = " ".join(said)
    assert said[0] == "Select three cards to pass to Pauline."
    assert (
        "You pass the four of hearts, the nine of hearts and the king of hearts to Pauline."
        " Ben passes you the " in told
    )
    plays = [s for s in told.split(". ") if " play the " in s or " plays the " in s]
    assert len(plays) == 52  # every card of the hand, once
    cards = {s.split(" the ", 1)[1].rstrip(".") for s in plays}
    assert len(cards) == 52
    assert told.count(" the trick with the ") == 13
    assert told.count("Hearts has been broken.") == 1
    assert told.index("Hearts has been broken.") > told.index(" of hearts.")
    assert told.count("Points this hand: Ada ") == 1 and told.count("Totals: Ada ") == 1
    assert "queen of spades, 13 points" in told or "the queen of spades, 1" in told
    # nothing is told twice: each change of the live region is new
    for before, now in zip(said, said[1:], strict=False):
        assert before != now, now


def test_5_a_keyboard_only_player_goes_through_a_whole_hand(page: Page, live_server):
    t, said = one_hand(page, live_server.url, listening=False)
    print("\n--- keyboard only, game 617, hand 1 ---\n" + t.text())
    check_the_story(said)


def test_5_a_listener_hears_the_whole_story_once_and_in_order(page: Page, live_server):
    t, said = one_hand(page, live_server.url, listening=True)
    print("\n--- listening, game 617, hand 1 ---\n" + t.text())
    check_the_story(said)
    assert "focus: Your cards toolbar, two of clubs, button" in t.text()
    # a refusal is told alone, without the plays before it
    t.press("Enter", wait=True)  # OK on the sheet: hand 2
    for index in (0, 1, 2):
        t.to_card(index)
        t.press("Space", wait=True)
    count = len(heard(page))
    t.to_card(3)
    page.keyboard.press("Space")  # a fourth card is refused
    expect(page.locator("#status .refusal")).to_be_visible()
    assert heard(page)[count:] == [
        "You can pass only three cards. Click a raised card to lower it."
    ]


def test_5_the_last_card_of_the_game_tells_the_points_the_totals_and_the_winner(
    page: Page, live_server
):
    state = one_card_from_the_end(617)
    final = one_card_from_the_end(617)
    card = final.game.legal_plays(0)[0]
    actions.play(final, card, actions.Clock())
    names = seat_names(final)
    row, totals = final.game.history[-1], final.game.totals
    listen(page)
    open_at(page, live_server.url, state)
    page.locator(CARDS).first.focus()
    before = seq(page)
    page.keyboard.press("Enter")
    after(page, before)
    said = " ".join(heard(page))
    assert said.startswith(f"You play the {Card.parse(card).name}.")
    assert said.endswith(
        "Points this hand: " + ", ".join(f"{names[s]} {row[s]}" for s in range(4)) + ". "
        "Totals: "
        + ", ".join(f"{names[s]} {totals[s]}" for s in range(4))
        + ". "
        + result_sentence(names, list(final.game.winners), 0)
        + " The game is over. Press OK to begin a new game."
    )
    expect(page.locator(STATUS)).to_have_text("The game is over. Press OK to begin a new game.")
    assert COMPUTER_NAMES[0] in said
