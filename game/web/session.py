"""The only code that reads and writes the signed cookie: the game, its table state, the
options and the statistics. Everything is kept compact; the cookie must stay under 4,096 bytes,
and ``save`` enforces it: if the signed value would not fit, the oldest statistics detail goes
first, then the undo snapshot, never the game itself.

A cookie that was sent but cannot be read (tampered, truncated, expired, signed with a key we no
longer hold, or holding something that is not a consistent game) starts a fresh state with a
notice saying so: ``PlayerState.unreadable`` tells the views not to act on it.
"""

from __future__ import annotations

import logging
import math
import secrets
from dataclasses import dataclass, field
from typing import Any

import regex
from django.conf import settings
from django.contrib.sessions.backends import signed_cookies
from django.core import signing

from game.engine import MAX_NUMBER, Game

log = logging.getLogger(__name__)

HUMAN = 0  # the seat of the person whose cookie this is; the computers hold the others
SPEEDS = ("slow", "normal", "fast", "none")
NAME_MAX = 20
RECENT_MAX = 100  # finished games kept for the Statistics dialog, newest last
RECENT_READ_MAX = 1000  # a longer list in a cookie is cut before it is even looked at
SCORE_LIMIT = 10_000  # no final score comes near this; anything beyond is not a score

# Browsers keep at most 4,096 bytes of name and value per cookie; the attributes Django adds
# (expires, Max-Age, Path, SameSite, Secure, HttpOnly) take about 110 more. Keeping name=value
# under COOKIE_BUDGET keeps the whole Set-Cookie line under 4,096 bytes as well.
COOKIE_LIMIT = 4096
COOKIE_ATTRIBUTES_RESERVE = 128
COOKIE_BUDGET = COOKIE_LIMIT - COOKIE_ATTRIBUTES_RESERVE
SESSION_SALT = "django.contrib.sessions.backends.signed_cookies"  # the backend's own salt
UNREADABLE_NOTICE = "Your saved game could not be read, so a new game has begun."


@dataclass
class Options:
    name: str = ""
    speed: str = "normal"
    message_boxes: bool = False
    sheet_after_hand: bool = True
    moon_off_shooter: bool = False
    finish_dead_hands: bool = False  # our addition

    def to_dict(self) -> dict[str, Any]:
        return {
            "n": self.name,
            "s": SPEEDS.index(self.speed),
            "b": int(self.message_boxes),
            "h": int(self.sheet_after_hand),
            "m": int(self.moon_off_shooter),
            "d": int(self.finish_dead_hands),
        }

    @classmethod
    def from_dict(cls, data: Any) -> Options:
        options = cls()
        if not isinstance(data, dict):
            return options
        name = data.get("n")
        if isinstance(name, str):
            options.name = clean_name(name)
        speed = data.get("s")
        if isinstance(speed, int) and 0 <= speed < len(SPEEDS):
            options.speed = SPEEDS[speed]
        options.message_boxes = bool(data.get("b", 0))
        options.sheet_after_hand = bool(data.get("h", 1))
        options.moon_off_shooter = bool(data.get("m", 0))
        options.finish_dead_hands = bool(data.get("d", 0))
        return options


# Invisible characters a name keeps: the joiners that build emoji sequences and Indic or Persian
# letters, and the tags of subdivision flags. Every other format character (bidi overrides and
# isolates, zero-width spaces) goes: names are isolated where they are shown instead.
KEPT_FORMAT = {"\u200c", "\u200d"} | {chr(c) for c in range(0xE0020, 0xE0080)}
NAME_POINTS_MAX = 80  # code points: 20 clusters of emoji sequences still fit the cookie
CLUSTER = regex.compile(r"\X")


def clean_name(text: str) -> str:
    """A name as typed, without control characters, squeezed and cut to NAME_MAX user-perceived
    characters (grapheme clusters, kept whole: an emoji sequence or a letter with its marks)."""
    printable = "".join(ch for ch in text if ch.isprintable() or ch in KEPT_FORMAT)
    kept: list[str] = []
    points = 0
    for cluster in CLUSTER.findall(" ".join(printable.split()))[:NAME_MAX]:
        points += len(cluster)
        if points > NAME_POINTS_MAX:
            break
        kept.append(cluster)
    return "".join(kept).strip()


@dataclass
class Stats:
    played: int = 0
    won: int = 0
    streak: int = 0  # positive: wins in a row; negative: losses in a row
    longest_win: int = 0
    longest_loss: int = 0
    best: int | None = None
    moons: int = 0
    # The detail: [game number, your final score] of the last finished games, oldest first.
    recent: list[list[int]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        data = {
            "p": self.played,
            "w": self.won,
            "s": self.streak,
            "lw": self.longest_win,
            "ll": self.longest_loss,
            "b": self.best,
            "m": self.moons,
        }
        if self.recent:
            data["r"] = self.recent
        return data

    @classmethod
    def from_dict(cls, data: Any) -> Stats:
        stats = cls()
        if not isinstance(data, dict):
            return stats
        for key, attr in (
            ("p", "played"),
            ("w", "won"),
            ("s", "streak"),
            ("lw", "longest_win"),
            ("ll", "longest_loss"),
            ("m", "moons"),
        ):
            value = data.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                setattr(stats, attr, value)
        best = data.get("b")
        if isinstance(best, int) and not isinstance(best, bool):
            stats.best = best
        recent = data.get("r")
        if isinstance(recent, list):
            stats.recent = [entry for entry in recent[-RECENT_READ_MAX:] if _finished(entry)]
        return stats

    def record(self, won: bool, score: int | None, number: int = 0) -> None:
        self.played += 1
        if won:
            self.won += 1
            self.streak = self.streak + 1 if self.streak > 0 else 1
            self.longest_win = max(self.longest_win, self.streak)
        else:
            self.streak = self.streak - 1 if self.streak < 0 else -1
            self.longest_loss = max(self.longest_loss, -self.streak)
        if score is not None:
            if self.best is None or score < self.best:
                self.best = score
            self.recent = [*self.recent, [number, score]][-RECENT_MAX:]

    @property
    def win_percent(self) -> int:
        return round(100 * self.won / self.played) if self.played else 0


@dataclass
class PlayerState:
    """What one browser holds: the game in progress and everything around it."""

    game: Game | None = None
    selected: list[str] = field(default_factory=list)  # cards chosen to pass, not yet passed
    awaiting_ok: bool = False  # received cards shown raised until OK
    seq: int = 0  # bumps on every accepted action; a form carrying an older one is stale
    fresh_from: int = 0  # plays this hand before the last action: the ones after it animate
    undo: dict[str, Any] | None = None  # the game before your card, while it is on the table
    options: Options = field(default_factory=Options)
    stats: Stats = field(default_factory=Stats)
    recorded: bool = False  # the finished game is already in the statistics
    notice: str = ""  # a message shown once on the next page
    unreadable: bool = False  # a cookie came but could not be read: this state is a fresh one
    last_hand: dict[str, Any] | None = None  # the hand before this one, for its review


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


def new_number() -> int:
    return secrets.randbelow(MAX_NUMBER) + 1


def load(session: Any) -> PlayerState:
    """The state the cookie holds, or a fresh one with a notice if it cannot be read."""
    if getattr(session, "unreadable", False):
        return unreadable()
    state = PlayerState(
        options=Options.from_dict(session.get("o")),
        stats=Stats.from_dict(session.get("st")),
    )
    table = session.get("t")
    if isinstance(table, dict):
        try:
            state.game = Game.from_dict(table.get("g"))
        except ValueError:
            return unreadable(state.options, state.stats)
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
            last_hand = table.get("l")
            state.last_hand = last_hand if isinstance(last_hand, dict) else None
    notice = session.get("msg")
    state.notice = notice if isinstance(notice, str) else ""
    return state


def unreadable(options: Options | None = None, stats: Stats | None = None) -> PlayerState:
    """A fresh start, keeping whatever options and statistics did read cleanly."""
    return PlayerState(
        options=options or Options(),
        stats=stats or Stats(),
        notice=UNREADABLE_NOTICE,
        unreadable=True,
    )


def _finished(entry: Any) -> bool:
    """One [game number, final score] of the statistics detail."""
    return (
        isinstance(entry, list)
        and len(entry) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in entry)
        and 0 < entry[0] <= MAX_NUMBER
        and -SCORE_LIMIT < entry[1] < SCORE_LIMIT
    )


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
        if state.last_hand is not None and not state.game.phase.over:
            table["l"] = state.last_hand  # a finished hand is in the game itself
        session["t"] = table
    if state.notice:
        session["msg"] = state.notice
    else:
        session.pop("msg", None)
