"""The seat cookie: ``hearts_seats`` (path /t/) holds only this browser's seat tokens, newest
first, one a table; the row keeps their SHA-256."""

from __future__ import annotations

import hashlib
import hmac

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from game.models import Table
from game.network.codes import CODE_PATTERN
from game.network.state import TableState

COOKIE = "hearts_seats"
COOKIE_PATH = "/t/"
COOKIE_TABLES = 32  # seats one browser keeps: 32 entries of 48 bytes, well inside 4,096
COOKIE_AGE = 60 * 60 * 24 * 400  # browsers keep a cookie 400 days at most; a table may live on


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_tokens(request: HttpRequest) -> dict[str, str]:
    """table code -> this browser's seat token, from the cookie (newest first)."""
    tokens: dict[str, str] = {}
    for entry in request.COOKIES.get(COOKIE, "").split("|")[:COOKIE_TABLES]:
        code, _, token = entry.partition(".")
        if CODE_PATTERN.fullmatch(code) and token:
            tokens.setdefault(code, token)
    return tokens


def live_seats(request: HttpRequest) -> dict[str, str]:
    """This browser's seats at tables that still exist (table code -> token)."""
    tokens = seat_tokens(request)
    live = set(Table.objects.filter(code__in=list(tokens)).values_list("code", flat=True))
    return {code: token for code, token in tokens.items() if code in live}


TOO_MANY_SEATS = (
    f"This browser already holds seats at {COOKIE_TABLES} open tables, the most it can "
    "remember. Finish or leave one of those games (a table closes a day after its last "
    "move), or use another browser."
)


def remember_seat(request: HttpRequest, response: HttpResponse, code: str, token: str) -> None:
    """Keep this seat's token with the others of tables still open; the caller has made sure
    (``room_for_a_seat``) that none of those is dropped."""
    kept = [f"{c}.{t}" for c, t in live_seats(request).items() if c != code]
    value = "|".join([f"{code}.{token}", *kept][:COOKIE_TABLES])
    response.set_cookie(
        COOKIE,
        value,
        max_age=COOKIE_AGE,
        path=COOKIE_PATH,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def room_for_a_seat(request: HttpRequest) -> bool:
    return len(seat_tokens(request)) < COOKIE_TABLES or len(live_seats(request)) < COOKIE_TABLES


def seat_of(request: HttpRequest, code: str, state: TableState) -> int | None:
    """The seat this browser holds at the table, or None."""
    return holding(request, code, [seat.token_hash for seat in state.seats])


def heir_of(request: HttpRequest, code: str, state: TableState) -> int | None:
    """The computer's seat this browser (a friend who came after the start) will take at the
    next deal, or None. It holds no seat until then: nothing of that seat is drawn for it."""
    return holding(request, code, [seat.heir for seat in state.seats])


def holding(request: HttpRequest, code: str, hashes: list[str]) -> int | None:
    """The index of this browser's token's hash among ``hashes``, or None."""
    token = seat_tokens(request).get(code)
    if not token:
        return None
    wanted = token_hash(token)
    for index, held in enumerate(hashes):
        if held and hmac.compare_digest(held, wanted):
            return index
    return None
