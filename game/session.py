"""The only code that reads and writes the signed cookie: the game, its table state, the
options and the statistics. Everything is kept compact; the cookie must stay under 4,096 bytes.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from game.engine import MAX_NUMBER, Game

SPEEDS = ("slow", "normal", "fast", "none")
NAME_MAX = 20


@dataclass
class Options:
    name: str = ""
    speed: str = "normal"
    message_boxes: bool = False
    sheet_after_hand: bool = True
    moon_off_shooter: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "n": self.name,
            "s": SPEEDS.index(self.speed),
            "b": int(self.message_boxes),
            "h": int(self.sheet_after_hand),
            "m": int(self.moon_off_shooter),
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
        return options


def clean_name(text: str) -> str:
    """A name as typed, without control characters, squeezed and cut to NAME_MAX."""
    printable = "".join(ch for ch in text if ch.isprintable())
    return " ".join(printable.split())[:NAME_MAX]


@dataclass
class Stats:
    played: int = 0
    won: int = 0
    streak: int = 0  # positive: wins in a row; negative: losses in a row
    longest_win: int = 0
    longest_loss: int = 0
    best: int | None = None
    moons: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "p": self.played,
            "w": self.won,
            "s": self.streak,
            "lw": self.longest_win,
            "ll": self.longest_loss,
            "b": self.best,
            "m": self.moons,
        }

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
        return stats

    def record(self, won: bool, score: int | None) -> None:
        self.played += 1
        if won:
            self.won += 1
            self.streak = self.streak + 1 if self.streak > 0 else 1
            self.longest_win = max(self.longest_win, self.streak)
        else:
            self.streak = self.streak - 1 if self.streak < 0 else -1
            self.longest_loss = max(self.longest_loss, -self.streak)
        if score is not None and (self.best is None or score < self.best):
            self.best = score

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


def new_number() -> int:
    return secrets.randbelow(MAX_NUMBER) + 1


def load(session: Any) -> PlayerState:
    state = PlayerState(
        options=Options.from_dict(session.get("o")),
        stats=Stats.from_dict(session.get("st")),
    )
    table = session.get("t")
    if isinstance(table, dict):
        try:
            state.game = Game.from_dict(table.get("g"))
        except ValueError:
            state.game = None
        if state.game is not None:
            selected = table.get("sel", "")
            if isinstance(selected, str) and len(selected) <= 6:
                hand = set(state.game.hand(0))
                chosen = [selected[i : i + 2] for i in range(0, len(selected), 2)]
                state.selected = [c for c in chosen if c in hand]
            state.awaiting_ok = bool(table.get("ok", 0))
            state.seq = _int(table.get("q"))
            state.fresh_from = _int(table.get("f"))
            state.recorded = bool(table.get("r", 0))
            undo = table.get("u")
            state.undo = undo if isinstance(undo, dict) else None
    notice = session.get("msg")
    state.notice = notice if isinstance(notice, str) else ""
    return state


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def save(session: Any, state: PlayerState) -> None:
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
        session["t"] = table
    if state.notice:
        session["msg"] = state.notice
    else:
        session.pop("msg", None)
