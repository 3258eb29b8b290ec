"""Our addition: a challenge, the same deals played by several people and compared hand by hand,
as duplicate bridge compares tables. Plain Python: the results, their compact form (the link's
payload and the cookie's copy, one statement of it), the tally kept while a game is played, and
what the score sheet shows. ``game.solo.challenge`` signs the link and draws the pages.

Nothing here depends on which cards the computers choose: a result is what one person took in
each hand of game #N, read from the game as it was played in that person's browser.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass, field

import regex

from game.engine import MAX_NUMBER, MIN_NUMBER, Game, Phase
from game.engine.game import HISTORY_ROWS
from game.names import clean_name
from game.web.words import counted

FORMAT = 1  # the first byte of the payload: a later form can be told apart
MAX_PEOPLE = 4  # results a link carries: the first challenger and the latest ones
MAX_HANDS = HISTORY_ROWS  # a longer game (the variant's moons can make one) folds its scores
NAME_BYTES = 40  # of a name in a link, in UTF-8: twenty letters, ten emoji
POINTS_OFFSET = 26  # a hand's points run from -26 (the variant's moon) to 26
COUNT_MAX = 0xFFFF  # Undo Card and hint counts are carried in two bytes each
WON = 1
MOON_OFF_SHOOTER = 1
CLUSTER = regex.compile(r"\X")


@dataclass(frozen=True)
class Result:
    """One person's game: their name, their points in each hand, whether they won, and how many
    times they took a card back (Undo Card) and asked for a hint."""

    name: str
    points: tuple[int, ...]
    won: bool
    undos: int = 0
    hints: int = 0

    @property
    def total(self) -> int:
        return sum(self.points)


@dataclass(frozen=True)
class Challenge:
    """Game ``number``, its moon rule, and the results of those who played it, oldest first."""

    number: int
    moon_off_shooter: bool
    results: tuple[Result, ...]

    @property
    def sender(self) -> Result:
        return self.results[-1]


@dataclass
class Tally:
    """Kept while game ``number`` is played in this browser, from its first deal: its Undo Cards
    and hints (a hint asked again before anything changed counts once). A finished game without
    its own tally was not played through here, and is offered no challenge link."""

    number: int
    undos: int = 0
    hints: int = 0
    hinted_at: int = -1  # the seq of the last hint counted

    def hint(self, seq: int) -> None:
        if seq != self.hinted_at:
            self.hints = min(COUNT_MAX, self.hints + 1)
            self.hinted_at = seq

    def undo(self) -> None:
        self.undos = min(COUNT_MAX, self.undos + 1)

    def to_list(self) -> list[int]:
        return [self.number, self.undos, self.hints, self.hinted_at]

    @classmethod
    def from_list(cls, data: object) -> Tally | None:
        if not (isinstance(data, list) and len(data) == 4):
            return None
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in data):
            return None
        number, undos, hints, hinted_at = data
        if not (0 <= undos <= COUNT_MAX and 0 <= hints <= COUNT_MAX):
            return None
        return cls(number, undos, hints, hinted_at)


# -- the compact form: bytes, then URL-safe base64 without padding ---------------------------------


def link_name(name: str) -> str:
    """The name as a link carries it: whole letters (grapheme clusters) up to NAME_BYTES."""
    kept, size = [], 0
    for cluster in CLUSTER.findall(name):
        size += len(cluster.encode())
        if size > NAME_BYTES:
            break
        kept.append(cluster)
    return "".join(kept)


def pack(challenge: Challenge) -> str:
    """The payload of a link (the game number is beside it, in the clear)."""
    out = bytearray([FORMAT, MOON_OFF_SHOOTER if challenge.moon_off_shooter else 0])
    for result in challenge.results:
        name = link_name(result.name).encode()
        out += bytes([len(name)]) + name
        out += bytes([len(result.points)]) + bytes(p + POINTS_OFFSET for p in result.points)
        out.append(WON if result.won else 0)
        for count in (result.undos, result.hints):
            out += min(count, COUNT_MAX).to_bytes(2, "big")
    return base64.urlsafe_b64encode(bytes(out)).decode().rstrip("=")


class Unreadable(ValueError):
    """The payload is not a challenge of ours."""


def unpack(number: int, text: str) -> Challenge:
    """The challenge of game ``number`` that ``text`` (from ``pack``) holds, or Unreadable."""
    if not MIN_NUMBER <= number <= MAX_NUMBER:
        raise Unreadable("game number")
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise Unreadable("base64") from None
    reader = _Reader(data)
    if reader.byte() != FORMAT:
        raise Unreadable("format")
    flags = reader.byte()
    if flags not in (0, MOON_OFF_SHOOTER):
        raise Unreadable("flags")
    results = []
    while not reader.done():
        results.append(_read_result(reader, moon_off_shooter=bool(flags)))
    if not 1 <= len(results) <= MAX_PEOPLE:
        raise Unreadable("people")
    return Challenge(number, bool(flags), tuple(results))


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def take(self, size: int) -> bytes:
        if self.at + size > len(self.data):
            raise Unreadable("cut short")
        chunk = self.data[self.at : self.at + size]
        self.at += size
        return chunk

    def byte(self) -> int:
        return self.take(1)[0]

    def done(self) -> bool:
        return self.at >= len(self.data)


def _read_result(reader: _Reader, moon_off_shooter: bool) -> Result:
    try:
        name = reader.take(reader.byte()).decode()
    except UnicodeDecodeError:
        raise Unreadable("name") from None
    if not name or clean_name(name) != name or link_name(name) != name:
        raise Unreadable("name")
    hands = reader.byte()
    if not 1 <= hands <= MAX_HANDS:
        raise Unreadable("hands")
    lowest = -POINTS_OFFSET if moon_off_shooter else 0
    points = tuple(b - POINTS_OFFSET for b in reader.take(hands))
    if any(not lowest <= p <= POINTS_OFFSET for p in points):
        raise Unreadable("points")
    flags = reader.byte()
    if flags not in (0, WON):
        raise Unreadable("won")
    undos = int.from_bytes(reader.take(2), "big")
    hints = int.from_bytes(reader.take(2), "big")
    return Result(name, points, flags == WON, undos, hints)


# -- a finished game's result, and the link's results --------------------------------------------


def result_of(game: Game, seat: int, name: str, tally: Tally | None) -> Result | None:
    """``seat``'s result in ``game``, when a challenge can carry it: the game is over, it was
    played in this browser from its first deal (it has a tally) and its hands fit a link."""
    if tally is None or tally.number != game.number or game.number == 0 or game.hands:
        return None  # Today's Deal (a game of four hands) is compared on its own board
    if game.phase != Phase.GAME_OVER or not name:
        return None
    if game.carried_hands or not 1 <= len(game.history) <= MAX_HANDS:
        return None
    points = tuple(row[seat] for row in game.history)
    return Result(link_name(name), points, seat in game.winners, tally.undos, tally.hints)


def with_result(game: Game, taken_up: Challenge | None, mine: Result) -> Challenge:
    """The challenge a finished game sends on: the results it was played against, if any, then
    this one; beyond MAX_PEOPLE the first challenger and the latest are kept."""
    before = taken_up.results if taken_up is not None else ()
    results = (*before, mine)
    if len(results) > MAX_PEOPLE:
        results = (results[0], *results[-(MAX_PEOPLE - 1) :])
    return Challenge(game.number, game.moon_off_shooter, results)


# -- what is said and shown ---------------------------------------------------------------------


def times(count: int, what: str) -> str:
    return {1: f"{what} once", 2: f"{what} twice"}.get(count, f"{what} {count} times")


def aids(result: Result) -> str:
    """ "with Undo Card twice and the hint once", "without Undo Card or the hint"."""
    used = [times(n, w) for n, w in ((result.undos, "Undo Card"), (result.hints, "the hint")) if n]
    return f"with {' and '.join(used)}" if used else "without Undo Card or the hint"


def summary(result: Result) -> str:
    """ "Anna took 43 points in 6 hands and won, without Undo Card or the hint." """
    points = counted(result.total, "point", zero="0 points")
    hands = counted(len(result.points), "hand")
    outcome = "won" if result.won else "lost"
    return f"{result.name} took {points} in {hands} and {outcome}, {aids(result)}."


def possessive(name: str) -> str:
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def listing(words: list[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


@dataclass
class Row:
    hand: int
    points: list[int | None]  # by column; None: that person's game had ended
    better: str  # who took the fewest points in this hand


@dataclass
class Sheet:
    """The comparison drawn on the score sheet and on the challenge's page: a column a person
    (``you`` first while you play it), a row a hand, who did better on each deal. ``offer``: the
    game is over and a link can carry its result (the sheet's "Challenge a Friend")."""

    number: int
    names: list[str] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    undos: list[int] = field(default_factory=list)
    hints: list[int] = field(default_factory=list)
    verdict: str = ""
    summaries: list[str] = field(default_factory=list)
    offer: bool = False

    @property
    def better_head(self) -> str:
        return "Better" if len(self.names) == 2 else "Best"


def better(names: list[str], points: list[int | None]) -> str:
    played = [(p, n) for p, n in zip(points, names, strict=True) if p is not None]
    low = min(p for p, _ in played)
    best = [n for p, n in played if p == low]
    return "Even" if len(best) == len(played) else listing(best)


def sheet(challenge: Challenge, you: Result | None = None, hands: int | None = None) -> Sheet:
    """The results side by side, ``you`` (your game so far, or finished) in the first column.
    ``hands``: how many rows to show (while you play, the hands you have finished); by default
    every hand anyone played."""
    people = ([you] if you is not None else []) + list(challenge.results)
    names = (["You"] if you is not None else []) + [r.name for r in challenge.results]
    count = max(len(r.points) for r in people) if hands is None else hands
    rows = []
    for hand in range(1, count + 1):
        points = [r.points[hand - 1] if hand <= len(r.points) else None for r in people]
        rows.append(Row(hand, points, better(names, points)))
    return Sheet(
        number=challenge.number,
        names=names,
        rows=rows,
        totals=[sum(r.points[:count]) for r in people],
        undos=[r.undos for r in people],
        hints=[r.hints for r in people],
        summaries=[summary(r) for r in challenge.results],
    )


def verdict(you: Result, others: tuple[Result, ...]) -> str:
    """ "You took 31 to Anna's 43 on the same cards: you did better." """
    theirs = listing([f"{possessive(r.name)} {r.total}" for r in others])
    low = min(r.total for r in (you, *others))
    best = ["you" if r is you else r.name for r in (you, *others) if r.total == low]
    if len(best) == len(others) + 1:
        outcome = "a tie"
    elif len(best) == 1:
        outcome = f"{best[0]} did {'better' if not others[1:] else 'best'}"
    else:
        outcome = f"{listing(best)} tied for the best"
    return f"You took {you.total} to {theirs} on the same cards: {outcome}."


def on_sheet(
    game: Game, seat: int, name: str, tally: Tally | None, taken_up: Challenge | None
) -> Sheet | None:
    """What the score sheet shows of a challenge: while one is played, the hands finished so
    far side by side (at the end all of them, and the verdict); at the end of a game played
    here, the offer of a link."""
    mine = result_of(game, seat, name, tally)
    if taken_up is None or game.carried_hands:
        return Sheet(game.number, offer=True) if mine is not None else None
    over = game.phase == Phase.GAME_OVER
    you = Result(
        "You",
        tuple(row[seat] for row in game.history),
        over and seat in game.winners,
        tally.undos if tally else 0,
        tally.hints if tally else 0,
    )
    shown = sheet(taken_up, you, None if over else len(you.points))
    if over:
        shown.verdict = verdict(you, taken_up.results)
    shown.offer = mine is not None
    return shown
