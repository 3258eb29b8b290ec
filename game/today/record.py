"""The end of a daily game: its result goes on the day's board once, from the game the server
played (the signed cookie), never from a posted score. Called by every solo action that
succeeded; it does nothing (and touches no database) until the fourth hand of a daily game
has ended."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.http import HttpRequest
from django_ratelimit.core import is_ratelimited

from game.engine import Phase
from game.today import day as days
from game.today import store
from game.web.player import PlayerState

TOO_LATE = "This play began on a day now past, so it is practice: it does not go on the board."
TOO_MANY = "Too many results have come from here lately, so this one is practice."
ALREADY = "This play's result is already on today's board."


def limited(request: HttpRequest) -> bool:
    """Counted in the shared cache (every instance alike), as the network's tables are."""
    limits = [
        ("today-address", "ip", settings.HEARTS_TODAY_PER_ADDRESS),
        ("today-all", lambda group, request: "all", settings.HEARTS_TODAY_IN_ALL),
    ]
    hit = False
    for group, key, rate in limits:
        hit = is_ratelimited(request, group=group, key=key, rate=rate, increment=True) or hit
    return hit


def settle(request: HttpRequest, state: PlayerState) -> None:
    """Once the daily game in ``state`` is over: write its result if it is the browser's first
    of the day (else it is practice), and carry the streak on."""
    daily, game = state.daily, state.game
    if daily is None or daily.settled or game is None or game.phase != Phase.GAME_OVER:
        return
    daily.settled = True
    if daily.practice or state.streak.last == daily.day:
        daily.practice = True
        return
    day = dt.date.fromordinal(daily.day)
    today = days.today()
    if game.number != days.number_of(day) or not today - dt.timedelta(days=1) <= day <= today:
        daily.practice, state.notice = True, TOO_LATE
        return
    if limited(request):
        daily.practice, state.notice = True, TOO_MANY
        return
    tally = state.tally
    written = store.write(
        day,
        daily.token,
        state.options.name,
        store.points_of(game),
        daily.passes,
        hints=tally.hints if tally else 0,
        undos=tally.undos if tally else 0,
    )
    if written is None:  # a cookie from before this play's end, sent again
        daily.practice, state.notice = True, ALREADY
        return
    state.streak = state.streak.after(daily.day, daily.token)
