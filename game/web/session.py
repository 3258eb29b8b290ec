"""The only code that reads and writes the signed cookie, which holds the player's state
(``game.web.player``: the game, its table state, the options and the statistics). Everything is
kept compact; the cookie must stay under 4,096 bytes, and ``save`` enforces it: if the signed
value would not fit, the oldest statistics detail goes first, then the undo snapshot, never the
game itself.

A cookie that was sent but cannot be read (tampered, truncated, expired, signed with a key we no
longer hold, or holding something that is not a consistent game) starts a fresh state with a
notice saying so: ``PlayerState.unreadable`` tells the views not to act on it.
"""

from __future__ import annotations

import logging
import math
import re
from typing import Any

from django.conf import settings
from django.contrib.sessions.backends import signed_cookies
from django.core import signing

from game.engine import Game
from game.web.challenge import Challenge, Tally, Unreadable, pack, unpack
from game.web.player import HUMAN, Daily, Options, PlayerState, Stats, Streak

CARD_CODE = re.compile(r"[2-9TJQKA][CDSH]")

log = logging.getLogger(__name__)

# Browsers keep at most 4,096 bytes of name and value per cookie; the attributes Django adds
# (expires, Max-Age, Path, SameSite, Secure, HttpOnly) take about 110 more. Keeping name=value
# under COOKIE_BUDGET keeps the whole Set-Cookie line under 4,096 bytes as well.
COOKIE_LIMIT = 4096
COOKIE_ATTRIBUTES_RESERVE = 128
COOKIE_BUDGET = COOKIE_LIMIT - COOKIE_ATTRIBUTES_RESERVE
SESSION_SALT = "django.contrib.sessions.backends.signed_cookies"  # the backend's own salt
UNREADABLE_NOTICE = "Your saved game could not be read, so a new game has begun."


class SessionStore(signed_cookies.SessionStore):
    """Django's signed-cookie session (SESSION_ENGINE = "game.web.session"), which also remembers
    whether a cookie came and failed to read: Django's own answers an empty session for a bad
    signature, an expired one or a value too short to be a key, exactly as for no cookie."""

    def __init__(self, session_key: str | None = None) -> None:
        super().__init__(session_key)
        self.cookie_sent = bool(session_key)

    @property
    def unreadable(self) -> bool:
        # Every session we write holds the options and statistics, and the middleware deletes the
        # cookie of an empty one: so a cookie that came and reads as empty could not be read.
        return self.cookie_sent and not self.keys()


def load(session: Any) -> PlayerState:
    """The state the cookie holds, or a fresh one with a notice if it cannot be read."""
    if getattr(session, "unreadable", False):
        return unreadable()
    state = PlayerState(
        options=Options.from_dict(session.get("o")),
        stats=Stats.from_dict(session.get("st")),
        streak=Streak.from_list(session.get("tk")),
    )
    table = session.get("t")
    if isinstance(table, dict):
        try:
            state.game = Game.from_dict(table.get("g"))
        except ValueError:
            return unreadable(state.options, state.stats, state.streak)
        else:
            selected = table.get("sel", "")
            if isinstance(selected, str) and len(selected) <= 6:
                hand = set(state.game.hand(HUMAN))
                chosen = [selected[i : i + 2] for i in range(0, len(selected), 2)]
                state.selected = [c for c in chosen if c in hand]
            state.awaiting_ok = bool(table.get("ok", 0))
            state.seq = _int(table.get("q"))
            state.fresh_from = _int(table.get("f"))
            state.recorded = bool(table.get("r", 0))
            undo = table.get("u")
            state.undo = undo if isinstance(undo, dict) else None
            state.answered = _int(table.get("w")) if state.undo is not None else 0
            last_hand = table.get("l")
            state.last_hand = last_hand if isinstance(last_hand, dict) else None
            state.tally = Tally.from_list(table.get("y"))
            state.challenge = _challenge(state.game, table.get("ch"))
            state.daily = _daily(state.game, table.get("dy"))
    notice = session.get("msg")
    state.notice = notice if isinstance(notice, str) else ""
    state.show_new = state.game is not None and session.get("new") == 1
    state.show_hint = state.game is not None and session.get("hint") == 1
    back = session.get("back")
    if state.show_new and isinstance(back, str) and CARD_CODE.fullmatch(back):
        state.took_back = back
    return state


def unreadable(
    options: Options | None = None, stats: Stats | None = None, streak: Streak | None = None
) -> PlayerState:
    """A fresh start, keeping whatever options, statistics and streak did read cleanly."""
    return PlayerState(
        options=options or Options(),
        stats=stats or Stats(),
        streak=streak or Streak(),
        notice=UNREADABLE_NOTICE,
        unreadable=True,
    )


def _challenge(game: Game, payload: Any) -> Challenge | None:
    """The challenge this game is played against (its payload in the link's form), if any."""
    if not isinstance(payload, str):
        return None
    try:
        return unpack(game.number, payload)
    except Unreadable:
        return None


def _daily(game: Game, data: Any) -> Daily | None:
    """Today's Deal's marks, for a game of its length only."""
    daily = Daily.from_list(data)
    return daily if daily is not None and game.hands and game.number else None


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def save(session: Any, state: PlayerState) -> None:
    """Write the state into the session, trimmed to fit the cookie (see ``fit``)."""
    _write(session, state)
    fit(session, state)


def fit(session: Any, state: PlayerState) -> None:
    """Keep the signed cookie under COOKIE_BUDGET: drop the oldest statistics detail, then the
    undo snapshot, then the one-time notice; the game itself is never dropped."""
    if cookie_bytes(session) < COOKIE_BUDGET:
        return
    while state.stats.recent:
        # Halve the detail each round: a few signings at most, whatever the list's length.
        state.stats.recent = state.stats.recent[len(state.stats.recent) // 2 + 1 :]
        session["st"] = state.stats.to_dict()
        if cookie_bytes(session) < COOKIE_BUDGET:
            return
    for attribute in ("undo", "notice"):
        if getattr(state, attribute):
            setattr(state, attribute, None if attribute == "undo" else "")
            _write(session, state)
            if cookie_bytes(session) < COOKIE_BUDGET:
                return
    log.error("The saved state is %d bytes even after trimming", cookie_bytes(session))


def cookie_bytes(session: Any) -> int:
    """The length of name=value the session middleware would send for this session.

    The signed value is base64 of the (compressed when smaller) JSON plus ":timestamp:signature",
    so the JSON's length gives a bound; only a state near the budget is signed to measure it.
    """
    data = dict(session.items())
    name = len(settings.SESSION_COOKIE_NAME) + 1
    plain = len(session.serializer().dumps(data))
    bound = name + math.ceil((plain + 1) / 3) * 4 + 64
    if bound < COOKIE_BUDGET:
        return bound
    value = signing.dumps(data, compress=True, salt=SESSION_SALT, serializer=session.serializer)
    return name + len(value)


def _write(session: Any, state: PlayerState) -> None:
    session["o"] = state.options.to_dict()
    session["st"] = state.stats.to_dict()
    if state.game is None:
        session.pop("t", None)
    else:
        table: dict[str, Any] = {
            "g": state.game.to_dict(),
            "q": state.seq,
            "f": state.fresh_from,
        }
        if state.selected:
            table["sel"] = "".join(state.selected)
        if state.awaiting_ok:
            table["ok"] = 1
        if state.recorded:
            table["r"] = 1
        if state.undo is not None:
            table["u"] = state.undo
            if state.answered:
                table["w"] = state.answered
        if state.last_hand is not None and not state.game.phase.over:
            table["l"] = state.last_hand  # a finished hand is in the game itself
        if state.tally is not None:
            table["y"] = state.tally.to_list()
        if state.challenge is not None:
            table["ch"] = pack(state.challenge)
        if state.daily is not None:
            table["dy"] = state.daily.to_list()
        session["t"] = table
    if state.streak.last:
        session["tk"] = state.streak.to_list()
    else:
        session.pop("tk", None)
    if state.notice:
        session["msg"] = state.notice
    else:
        session.pop("msg", None)
    if state.show_new and state.game is not None:
        session["new"] = 1
    else:
        session.pop("new", None)
    if state.show_hint and state.game is not None:
        session["hint"] = 1
    else:
        session.pop("hint", None)
    if state.show_new and state.took_back:
        session["back"] = state.took_back  # the page the 303 leads to says which card
    else:
        session.pop("back", None)
