"""What one browser's solo player holds: the game in progress with what surrounds it (the cards
chosen to pass, the undo snapshot, the one-time notice), the Options and the statistics. Plain
Python: ``game.web.session`` keeps it in the signed cookie, and the network's views draw a seat
through the same ``PlayerState``."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field
from typing import Any

from game.engine import MAX_NUMBER, Game
from game.names import clean_name
from game.web.challenge import Challenge, Tally

HUMAN = 0  # the seat of the person whose cookie this is; the computers hold the others
SPEEDS = ("slow", "normal", "fast", "none")
RECENT_MAX = 100  # finished games kept for the Statistics dialog, newest last
RECENT_READ_MAX = 1000  # a longer list in a cookie is cut before it is even looked at
SCORE_LIMIT = 10_000  # no final score comes near this; anything beyond is not a score


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


def _finished(entry: Any) -> bool:
    """One [game number, final score] of the statistics detail."""
    return (
        isinstance(entry, list)
        and len(entry) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in entry)
        and 0 < entry[0] <= MAX_NUMBER
        and -SCORE_LIMIT < entry[1] < SCORE_LIMIT
    )


TOKEN_CHARS = 16  # a daily play's random mark, URL-safe base64
TOKEN = re.compile(rf"[A-Za-z0-9_-]{{{TOKEN_CHARS}}}")
PASS_CODES = re.compile(r"(?:[2-9TJQKA][CDSH]){3}")


@dataclass
class Daily:
    """Today's Deal being played in this browser (our addition): its day (a date's ordinal),
    the play's own random mark (its result is written once under it), whether it is practice
    (this browser's result for the day is already on the board), whether its end has been
    settled, and your three passed cards of each hand passed so far."""

    day: int
    token: str
    practice: bool = False
    settled: bool = False
    passes: list[str] = field(default_factory=list)

    def to_list(self) -> list[Any]:
        return [self.day, self.token, int(self.practice), int(self.settled), self.passes]

    @classmethod
    def from_list(cls, data: object) -> Daily | None:
        if not (isinstance(data, list) and len(data) == 5):
            return None
        day, token, practice, settled, passes = data
        if not (_whole(day) and 0 < day < 4_000_000 and isinstance(token, str)):
            return None
        if not TOKEN.fullmatch(token) or practice not in (0, 1) or settled not in (0, 1):
            return None
        if not (isinstance(passes, list) and len(passes) <= 3):
            return None
        if not all(isinstance(p, str) and PASS_CODES.fullmatch(p) for p in passes):
            return None
        return cls(day, token, bool(practice), bool(settled), passes)


@dataclass
class Streak:
    """The days in a row this browser put a result on Today's Deal's board: the last such day
    (an ordinal, 0 for none), how many in a row up to it, and that result's mark."""

    last: int = 0
    days: int = 0
    token: str = ""

    def to_list(self) -> list[Any]:
        return [self.last, self.days, self.token]

    @classmethod
    def from_list(cls, data: object) -> Streak:
        if not (isinstance(data, list) and len(data) == 3):
            return cls()
        last, days, token = data
        if not (_whole(last) and _whole(days) and 0 < last < 4_000_000 and 0 < days <= last):
            return cls()
        if not (isinstance(token, str) and TOKEN.fullmatch(token)):
            return cls()
        return cls(last, days, token)

    def after(self, day: int, token: str) -> Streak:
        """The streak once ``day``'s result is on the board."""
        days = self.days + 1 if self.last == day - 1 else 1
        return Streak(day, days, token)

    def running(self, today: int) -> int:
        """Days in a row as of ``today``: still running if the last was today or yesterday."""
        return self.days if today - 1 <= self.last <= today else 0


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass
class PlayerState:
    """What one browser holds: the game in progress and everything around it."""

    game: Game | None = None
    selected: list[str] = field(default_factory=list)  # cards chosen to pass, not yet passed
    awaiting_ok: bool = False  # received cards shown raised until OK
    seq: int = 0  # bumps on every accepted action; a form carrying an older one is stale
    fresh_from: int = 0  # plays this hand before the last action: the ones after it animate
    show_new: bool = False  # a plain form's action: the next page shows what it made new, once
    undo: dict[str, Any] | None = None  # the game before your card, while it is on the table
    answered: int = 0  # when the answer to your card was made (ms of the wall clock), for Undo
    options: Options = field(default_factory=Options)
    stats: Stats = field(default_factory=Stats)
    recorded: bool = False  # the finished game is already in the statistics
    notice: str = ""  # a message shown once on the next page
    took_back: str = ""  # the card Undo Card just took back, said by the page answering it
    show_hint: bool = False  # Hint without JavaScript: the page its 303 leads to shows it, once
    unreadable: bool = False  # a cookie came but could not be read: this state is a fresh one
    last_hand: dict[str, Any] | None = None  # the hand before this one, for its review
    tally: Tally | None = None  # this game's Undo Cards and hints, kept from its first deal
    challenge: Challenge | None = None  # the results this game is played against (our addition)
    daily: Daily | None = None  # this game is Today's Deal (our addition)
    streak: Streak = field(default_factory=Streak)  # Today's Deal's days in a row


def new_number() -> int:
    return secrets.randbelow(MAX_NUMBER) + 1
