"""Today's Deal's own marks keep the signed cookie under 4,096 bytes in every state."""

import datetime as dt

import pytest
from django.conf import settings

from game.web.challenge import COUNT_MAX, Tally
from game.web.player import Daily, PlayerState, Streak
from tests.support.web import (
    LIMIT,
    LONG_NAME,
    big_client,
    game_of,
    largest_over_the_longest_game,
    post,
    state_of,
)

DAY = dt.date(2026, 12, 4)  # conftest.py's

pytestmark = pytest.mark.django_db

TOKEN = "A" * 16


def test_every_state_of_the_longest_game_fits_with_the_daily_marks_at_their_largest():
    def daily(state: PlayerState) -> None:
        state.tally = Tally(1_000_000, COUNT_MAX, COUNT_MAX, 10**6)
        state.daily = Daily(DAY.toordinal(), TOKEN, True, True, ["QSKSAS", "AHKHQH", "JDTD9D"])
        state.streak = Streak(DAY.toordinal(), DAY.toordinal(), TOKEN)

    largest, count = largest_over_the_longest_game(daily)
    print(f"largest Set-Cookie with Today's Deal's marks over {count} states: {largest} bytes")
    assert largest < LIMIT


def test_a_whole_daily_game_through_the_site_never_sends_a_cookie_too_large():
    client = big_client()
    response = client.post("/today/", {"name": LONG_NAME})
    assert response.status_code == 303 and state_of(client).daily is not None
    largest = 0
    while game_of(client).phase != "game_over":
        game = game_of(client)
        if game.phase == "passing":
            for code in game.hand(0)[-3:]:
                post(client, "/select", card=code)
            response = post(client, "/pass")
        elif state_of(client).awaiting_ok:
            response = post(client, "/accept")
        elif game.phase == "hand_over":
            response = post(client, "/next")
        else:
            response = post(client, "/hint")
            response = post(client, "/play", card=game.legal_plays(0)[-1])
        cookie = response.cookies.get(settings.SESSION_COOKIE_NAME)
        if cookie is not None:
            largest = max(largest, len(cookie.output(header="Set-Cookie:")))
    state = state_of(client)
    assert state.daily.settled and len(state.daily.passes) == 3 and state.streak.days == 1
    print(f"largest Set-Cookie in a whole daily game: {largest} bytes")
    assert 0 < largest < LIMIT
    assert dt.date.fromordinal(state.daily.day) == DAY
