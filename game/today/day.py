"""Which deal is today's: a game number drawn from the date and a secret (HEARTS_TODAY_SECRET,
else the site's secret key), so that nobody can look a day's deal up before the day comes, and
every instance agrees on it. A site that rotates its secret key sets HEARTS_TODAY_SECRET so that
the rotation does not change the day's deal halfway through the day."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from django.conf import settings
from django.utils.crypto import salted_hmac

from game.engine import MAX_NUMBER
from game.solo.actions import DAILY_HANDS

HANDS = DAILY_HANDS  # one hand of each pass: left, right, across, keep
SALT = "hearts.today"


def utc_today() -> dt.date:
    return dt.datetime.now(dt.UTC).date()


# What "today" is: the UTC date. A test sets its own to move the days along.
clock: Callable[[], dt.date] = utc_today


def today() -> dt.date:
    return clock()


def number_of(day: dt.date) -> int:
    """The game number whose first four hands are ``day``'s deal (1 to 1,000,000)."""
    secret = settings.HEARTS_TODAY_SECRET or settings.SECRET_KEY
    digest = salted_hmac(SALT, day.isoformat(), secret=secret, algorithm="sha256").digest()
    return int.from_bytes(digest[:8], "big") % MAX_NUMBER + 1


def readable(day: dt.date) -> str:
    """ "4 December 2026", as the share line and the titles say it."""
    return f"{day.day} {day:%B %Y}"


def parse(text: str) -> dt.date | None:
    """A day written in a URL (2026-12-04), or None for anything else."""
    try:
        return dt.date.fromisoformat(text) if len(text) == 10 else None
    except ValueError:
        return None
