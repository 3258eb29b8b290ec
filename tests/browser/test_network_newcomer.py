"""What a newcomer to a network table runs into, each along the person's own path: the dealer
deals from the Game menu, a friend opens the link in a browser of their own (a phone with touch,
or a desktop) and types at the prompt."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from game.network.seats import COOKIE
from tests.support.browser import (
    CARDS,
    STATUS,
    Axe,
    deal_by_the_game_menu,
    give_name,
    join_at_the_prompt,
)
from tests.support.network import Person, settle, table_of

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 375, "height": 667}, "has_touch": True, "is_mobile": True}
WIDTHS = [(320, 568), (375, 667), (1024, 768), (1920, 1080)]
LONG_NAME = "Maximilian-Alexander"  # twenty characters, the most a name may have


def code_in(link: str) -> str:
    """The table's code in its link, /t/<code>/."""
    return re.search(r"/t/([^/]+)/", link).group(1)


def names_clipped(page: Page) -> list[str]:
    """The opponents' names (and who plays for them) not wholly inside the table: each line
    of each name must lie within the table's box, none cut by its edge or its own box."""
    return page.evaluate(
        """() => {
          const table = document.querySelector('#table').getBoundingClientRect();
          const cut = [];
          for (const name of document.querySelectorAll('#table .seat:not(.seat-bottom) .name')) {
            const box = name.getBoundingClientRect();
            const lines = [...name.getClientRects()];
            const range = document.createRange();
            range.selectNodeContents(name);
            const text = range.getBoundingClientRect();
            const outside = [box, text, ...lines].some((r) =>
              r.left < table.left - 0.5 || r.right > table.right + 0.5);
            if (outside || name.scrollWidth > name.clientWidth + 1) cut.push(name.innerText);
          }
          return cut;
        }"""
    )


def test_every_seat_name_is_whole_at_phone_and_desktop_widths_solo_and_at_a_table(
    browser: Browser, fresh_context, live_server
):
    anna = fresh_context(base_url=live_server.url).new_page()
    link = deal_by_the_game_menu(anna, "Anna")
    code = code_in(link)
    friend = fresh_context(base_url=live_server.url, **PHONE).new_page()
    friend.goto(link)  # typing more than a name may hold: the field says so and stops
    expect(friend.locator("#invited")).to_have_text("Anna has invited you to their table.")
    field = friend.get_by_label("What is your name?")
    expect(field).to_have_accessible_description("At most 20 characters.")
    field.press_sequentially(LONG_NAME + " von")
    expect(field).to_have_value(LONG_NAME)
    join_at_the_prompt(friend, link, LONG_NAME)
    expect(friend.locator(STATUS)).to_have_text("Waiting for Anna to start the game...")
    expect(anna.locator(".net-seats")).to_contain_text(LONG_NAME)
    anna.keyboard.press("F2")
    expect(anna.locator(STATUS)).to_have_text(f"Select three cards to pass to {LONG_NAME}.")
    expect(friend.locator(STATUS)).to_have_text("Select three cards to pass to Michele.")
    solo = fresh_context(base_url=live_server.url).new_page()
    solo.goto("/")
    give_name(solo, "Ada")
    for page, left in ((anna, LONG_NAME), (friend, "Michele"), (solo, "Pauline")):
        for width, height in WIDTHS:
            page.set_viewport_size({"width": width, "height": height})
            page.goto(f"/t/{code}/" if page is not solo else "/")
            expect(page.locator("#table .seat-left .name bdi")).to_have_text(left)
            assert names_clipped(page) == [], (left, width)


def person_of(page: Page, name: str, code: str) -> Person:
    """A set-up shortcut beside the browsers: the same seat as ``page``'s, its cookie in a test
    client, so that ``settle`` may play its cards while the test watches another browser."""
    person = Person(name, code)
    cookie = next(c for c in page.context.cookies() if c["name"] == COOKIE)
    person.client.cookies[COOKIE] = cookie["value"]
    person.seat = [s.name for s in table_of(code)[1].seats].index(name)
    return person


def test_a_friend_on_a_phone_arriving_after_the_start_waits_then_takes_michele_s_seat(
    fresh_context, live_server
):
    anna = fresh_context(base_url=live_server.url).new_page()
    link = deal_by_the_game_menu(anna, "Anna")
    code = code_in(link)
    bob = fresh_context(base_url=live_server.url).new_page()
    join_at_the_prompt(bob, link, "Bob")
    expect(anna.locator(".net-seats")).to_contain_text("Bob")
    anna.keyboard.press("F2")
    expect(anna.locator(STATUS)).to_have_text("Select three cards to pass to Bob.")

    lee = fresh_context(base_url=live_server.url, **PHONE).new_page()
    lee.goto(link)
    invited = lee.locator("#invited")
    expect(invited).to_have_text(
        "Anna has invited you to their table. The game has begun: you take Michele's seat,"
        " where a computer player plays now, when the next hand is dealt."
    )
    lee.get_by_label("What is your name?").fill("Lee")
    lee.get_by_role("button", name="OK").tap()
    expect(lee.locator(STATUS)).to_have_text(
        "Waiting for this hand to end: Michele's seat is yours from the next hand."
    )
    expect(lee.locator("#arriving-title")).to_have_text("Hearts Network: Anna's table")
    expect(lee.locator("#table .card, #table .backs")).to_have_count(0)  # no card of the hand
    # Help, from the menu on the phone while waiting, says what a late friend gets
    lee.get_by_role("menuitem", name="Help").tap()
    lee.get_by_role("menuitem", name="Help Contents").tap()
    help_text = lee.locator("dialog#dialog-help")
    expect(help_text.locator("#help-network")).to_have_text(
        "The Hearts Network: a table for friends (our addition)"
    )
    expect(help_text).to_contain_text("takes a computer player's seat when the next hand is dealt")
    help_text.get_by_role("button", name="OK").tap()
    expect(help_text).to_have_count(0)
    anna.reload()
    expect(anna.locator(".seat-left")).to_contain_text("Bob")
    # and by F1 at the table: inviting, the minute's wait, Undo and the hint at a shared table
    anna.keyboard.press("F1")
    help_text = anna.locator("dialog#dialog-help")
    expect(help_text).to_contain_text("the dealer sends the table's link to friends")
    expect(help_text).to_contain_text("when the table has waited a minute for one person")
    expect(help_text).to_contain_text("the others read beside their seat and in the status bar")
    expect(help_text).to_contain_text("Reading the score sheet is not being away")
    expect(help_text).to_contain_text("Undo Card does nothing at a shared table")
    expect(help_text).to_contain_text("The hint (H) and Review Last Hand work as in a game alone")
    anna.keyboard.press("Escape")
    expect(help_text).to_have_count(0)
    expect(anna.locator(".seat-top")).to_contain_text("Lee sits here from the next hand")

    people = [person_of(anna, "Anna", code), person_of(bob, "Bob", code)]
    settle(people, until=lambda state: state.game.phase == "hand_over")
    expect(lee.locator(STATUS)).to_contain_text("Waiting for this hand to end")
    expect(lee.locator("#table .card")).to_have_count(0)
    settle(people, until=lambda state: state.game.hand_number == 2)
    # Lee's page, polling, shows his own hand of the next deal: he passes by touch
    expect(lee.locator(STATUS)).to_have_text("Select three cards to pass to Bob.", timeout=15_000)
    expect(lee.locator("#table .seat-bottom .name")).to_have_text("Lee")
    for place in range(3):
        before = lee.locator("#table").get_attribute("data-seq")
        lee.locator(CARDS).nth(place).tap(position={"x": 6, "y": 40})
        lee.wait_for_function(
            "before => document.querySelector('#table').dataset.seq !== before", arg=before
        )
    expect(lee.locator(f"{CARDS}.raised")).to_have_count(3)
    lee.locator("#pass-button").tap()
    expect(lee.locator(STATUS)).to_have_text("Waiting for other players to pass...")
    assert table_of(code)[1].game.has_passed(2)


@pytest.mark.parametrize("size", [(375, 667), (1280, 800)])
def test_axe_finds_nothing_on_a_late_friends_prompt_waiting_page_and_help(
    fresh_context, live_server, size
):
    anna = fresh_context(base_url=live_server.url).new_page()
    link = deal_by_the_game_menu(anna, "Anna")
    anna.get_by_role("button", name="Start").click()  # F2 may come before the page's script
    expect(anna.locator(STATUS)).to_have_text("Select three cards to pass to Pauline.")
    width, height = size
    lee = fresh_context(
        base_url=live_server.url, bypass_csp=True, viewport={"width": width, "height": height}
    ).new_page()
    axe = Axe(lee)
    lee.goto(link)
    expect(lee.locator("#invited")).to_contain_text("you take Pauline's seat")
    axe.check("a late friend's name prompt")
    lee.get_by_label("What is your name?").fill("Lee")
    lee.get_by_role("button", name="OK").click()
    expect(lee.locator("#arriving-title")).to_be_visible()
    axe.check("a late friend's waiting page")
    lee.keyboard.press("F1")
    expect(lee.locator("dialog#dialog-help #help-network")).to_be_visible()
    axe.check("Help at a table")
    assert axe.found == [], "\n".join(axe.found)


def test_the_dealer_copies_the_link_with_a_button_and_a_click_selects_the_field(
    fresh_context, live_server
):
    anna = fresh_context(
        base_url=live_server.url,
        permissions=["clipboard-read", "clipboard-write"],
        bypass_csp=True,  # for axe alone
    ).new_page()
    link = deal_by_the_game_menu(anna, "Anna")
    field = anna.locator("#table-link")
    axe = Axe(anna)
    axe.check("the dealer's lobby with Copy")
    assert axe.found == [], "\n".join(axe.found)
    field.click()
    assert anna.evaluate(
        "() => { const f = document.getElementById('table-link');"
        " return f.selectionStart === 0 && f.selectionEnd === f.value.length; }"
    )
    copy = anna.get_by_role("button", name="Copy the link")
    copy.focus()
    anna.keyboard.press("Enter")  # by the keyboard
    expect(anna.locator("#link-copied")).to_have_text("The link is copied: paste it to friends.")
    assert anna.evaluate("() => navigator.clipboard.readText()") == link
    # the lobby redrawn (a friend arrives): the button is still there and still copies
    join_at_the_prompt(fresh_context(base_url=live_server.url).new_page(), link, "Bob")
    expect(anna.locator(".net-seats")).to_contain_text("Bob")
    anna.evaluate("() => navigator.clipboard.writeText('')")
    anna.get_by_role("button", name="Copy the link").click()
    expect(anna.locator("#link-copied")).to_have_text("The link is copied: paste it to friends.")
    assert anna.evaluate("() => navigator.clipboard.readText()") == link
    # without JavaScript: no button that cannot work, and the field can still be selected
    plain = fresh_context(base_url=live_server.url, java_script_enabled=False).new_page()
    plain.goto("/network")
    plain.get_by_label("Your name").fill("Cleo")
    plain.get_by_role("button", name="OK").click()
    expect(plain.locator("#lobby-title")).to_have_text("Hearts Network: Cleo's table")
    expect(plain.get_by_role("button", name="Copy the link")).to_have_count(0)
    plain_field = plain.get_by_label("The table's link, for your friends")
    expect(plain_field).to_have_value(re.compile(r"/t/[^/]+/$"))  # a field, to select and copy
    expect(plain_field).to_have_attribute("readonly", "")
