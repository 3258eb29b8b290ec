"""A card chosen while a trick is gathered at a network table survives another player's redraw:
against gunicorn as the Procfile runs it, where each page follows its stream. Ada (slow
animations) chooses her next card while her page still shows the trick being gathered; Bea
closes her window meanwhile, which draws Ada's table again; the card chosen is still laid down
when Ada's hand lights."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.browser import (
    CARDS,
    HAND_WAITING,
    PLAYABLE,
    STATUS,
    dealer_and_friend,
    one_step,
)
from tests.support.push import HOST, instance, site_env

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def version(page: Page) -> int:
    return int(page.locator("#table .net-poll").get_attribute("data-version"))


def slow_dealer(page: Page, name: str) -> str:
    """The site, a name, Options (F5) set to slow animations, then Game, Network..., OK as the
    dealer of game 617: the lobby's link."""
    page.goto("/")
    page.get_by_label("What is your name?").fill(name)
    page.get_by_role("button", name="OK").click()
    expect(page.locator(STATUS)).to_contain_text("Select three cards")
    page.keyboard.press("F5")
    page.get_by_label("Slow").check()
    page.get_by_role("button", name="OK").click()
    page.wait_for_function("() => document.body.classList.contains('speed-slow')")
    page.get_by_role("menuitem", name="Game").click()
    page.get_by_role("menuitem", name="Network...").click()
    dialog = page.locator("dialog#dialog-network")
    dialog.get_by_label("Game number (empty for a secret deal)").fill("617")
    dialog.get_by_role("button", name="OK").click()
    expect(page.locator("#lobby-title")).to_have_text(f"Hearts Network: {name}'s table")
    return page.locator("#table-link").input_value()


def test_a_card_chosen_while_a_trick_is_gathered_survives_another_players_redraw(
    browser: Browser, tmp_path
):
    env = site_env(tmp_path)
    with instance(env, tmp_path, "a") as server:
        base = f"http://{HOST}:{server.port}"
        ada, bea_context, bea = dealer_and_friend(
            browser, base, lambda page: slow_dealer(page, "Ada"), "Bea", reduced_motion="reduce"
        )
        try:
            expect(bea.locator(STATUS)).to_contain_text("Select three cards to pass")
            for _ in range(400):  # both play on until Ada's own answer leaves her hand waiting
                if ada.evaluate(HAND_WAITING) and ada.locator(PLAYABLE).count():
                    break
                if not (one_step(ada, unless_waiting=True) or one_step(bea)):
                    ada.wait_for_timeout(100)
            else:
                pytest.fail("Ada's page never waited for a trick to be gathered on her turn")
            card = ada.locator(PLAYABLE).last
            chosen = card.get_attribute("value")
            card.click(position={"x": 6, "y": 24}, force=True)  # no wait for the hand to light
            expect(ada.locator(f"{CARDS}.chosen")).to_have_count(1)
            drawn = version(ada)
            bea_context.close()  # Bea leaves: a new version, drawn again on Ada's page
            ada.wait_for_function(
                "v => Number(document.querySelector('#table .net-poll').dataset.version) > v",
                arg=drawn,
            )
            expect(ada.locator(f"#table .center .played.at-bottom.face-{chosen}")).to_have_count(
                1, timeout=15_000
            )
            expect(ada.locator(f'{CARDS}[value="{chosen}"]')).to_have_count(0)
            expect(ada.locator(STATUS)).not_to_contain_text("must")  # played, not refused
        finally:
            ada.context.close()
