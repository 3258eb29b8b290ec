"""A friend who closes the window is told as gone: against gunicorn as the Procfile runs it, where
each page holds its event stream, the presence the server already has."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Browser, expect

from game.network.views import idle_limit
from tests.support.browser import (
    PLAYABLE,
    STATUS,
    act,
    deal_by_the_game_menu,
    dealer_and_friend,
    one_step,
)
from tests.support.push import HOST, instance, site_env

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_when_bob_closes_his_window_mid_hand_anna_reads_that_he_left(browser: Browser, tmp_path):
    env = site_env(tmp_path, HEARTS_LEFT_SECONDS="2")
    with instance(env, tmp_path, "a") as server:
        base = f"http://{HOST}:{server.port}"
        anna, bob_context, bob = dealer_and_friend(
            browser, base, lambda page: deal_by_the_game_menu(page, "Anna"), "Bob"
        )
        try:
            expect(bob.locator(STATUS)).to_have_text("Select three cards to pass to Michele.")
            # both pass; Anna plays until it is Bob's turn. Bob never plays: his turn may come
            # between a look at his page and his step (it did, on a busy machine: he played
            # the hand out)
            deadline = time.monotonic() + 120
            while not bob.locator(PLAYABLE).count():
                assert time.monotonic() < deadline, "Bob's turn never came"
                if not (one_step(anna) or one_step(bob, play=False)):
                    bob.wait_for_timeout(20)
            expect(bob.locator(STATUS)).to_have_text("Select a card to play.")
            bob_context.close()  # Bob closes his window on his turn
            expect(anna.locator(STATUS)).to_have_text(
                "Bob has left the table. You may let a computer play for them.",
                timeout=(idle_limit() - 30) * 1000,  # well before the idle limit's minute
            )
            expect(anna.locator(".seat-left")).to_contain_text("has left the table")
            button = anna.get_by_role("button", name="Let a computer play for Bob")
            act(anna, button)
            expect(anna.locator(".seat-left")).to_contain_text("a computer plays for them")
            expect(anna.locator(STATUS)).not_to_contain_text("Bob")
        finally:
            anna.context.close()
