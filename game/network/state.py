"""A network table's state, and its adapter around the seat core (``game.seating``): plain
Python, no Django.

The engine knows four seats; a table adds who sits in them (a person, or a computer player),
what each person has selected and acknowledged, and marks that let each page animate only what
it has not shown yet. What a seat does is the seat core's; the table's own are the lobby (join,
remove, start), whose turn it is, a computer taking an idle person's seat, and everyone's OK
before the next hand. Every action raises IllegalMove with the sentence to show, or changes the
state and lets the computer players move until a person is needed.
"""

from __future__ import annotations

import functools
import json
import secrets
from dataclasses import dataclass, field
from typing import Any

from game import players, seating
from game.engine import SEATS, Game, IllegalMove, Phase
from game.engine.rng import SEED_BYTES
from game.names import clean_name
from game.seating import COMPUTER_NAMES, Think, decide, plays_so_far

MARKS_KEPT = 16  # versions whose plays are remembered, for animating what a page missed
DEALER = 0


@dataclass
class Seat:
    name: str
    token_hash: str = ""  # empty: a computer player from the start
    away: bool = False  # a computer plays for this person until they sit down again
    seq: int = 0  # bumps on each accepted action of this seat: a form with an older one is stale
    selected: list[str] = field(default_factory=list)  # cards chosen to pass
    awaiting_ok: bool = False  # received cards shown raised until OK
    ready: bool = False  # pressed OK on the score sheet
    waiting_since: float = 0.0  # when the table began waiting on this person (0: it is not)
    # a friend who came after the start, waiting to take this computer's seat at the next deal:
    # the SHA-256 of their seat token and their name (empty: nobody waits for this seat)
    heir: str = ""
    heir_name: str = ""
    late: bool = False  # sat down at this hand's deal: the hand kept for review is not theirs
    # when this person's page went away (its event stream closed by the browser) with no page
    # of theirs back since; 0: here, as far as the table can tell
    left: float = 0.0

    @property
    def person(self) -> bool:
        return bool(self.token_hash)

    @property
    def present(self) -> bool:
        """A person who is playing this seat now (not replaced by a computer)."""
        return self.person and not self.away

    def to_dict(self) -> dict[str, Any]:
        return {
            "n": self.name,
            "h": self.token_hash,
            "a": int(self.away),
            "q": self.seq,
            "s": "".join(self.selected),
            "o": int(self.awaiting_ok),
            "r": int(self.ready),
            "w": self.waiting_since,
            **({"e": self.heir, "en": self.heir_name} if self.heir else {}),
            **({"l": 1} if self.late else {}),
            **({"g": self.left} if self.left else {}),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        selected = data["s"]
        return cls(
            name=stored_name(str(data["n"])),
            token_hash=str(data["h"]),
            away=bool(data["a"]),
            seq=int(data["q"]),
            selected=[selected[i : i + 2] for i in range(0, len(selected), 2)],
            awaiting_ok=bool(data["o"]),
            ready=bool(data["r"]),
            waiting_since=float(data.get("w", 0.0)),
            heir=str(data.get("e", "")),
            heir_name=stored_name(str(data.get("en", ""))),
            late=bool(data.get("l", 0)),
            left=float(data.get("g", 0.0)),
        )


def stored_name(text: str) -> str:
    """A name read from the row, cut by the name rule as any name is (the row is not trusted to
    hold only names so cut). A table's few names come back on every read of it: each is worked
    out once per process (a name so long the rule would cut it, every time)."""
    return clean_name(text) if len(text) > STORED_NAME_MAX else _stored_name(text)


STORED_NAME_MAX = 200  # characters: a name the rule keeps has at most 80


@functools.lru_cache(maxsize=4096)
def _stored_name(text: str) -> str:
    return clean_name(text)


@dataclass
class TableState:
    number: int  # a numbered deal the dealer chose (its cards can be looked up), or 0: secret
    seats: list[Seat]
    game: Game | None = None  # None: the dealer has not started yet
    # [version, hand number, plays, each seat's action count]: what a page showing that version
    # has seen, and (game.network.public) who has acted since
    marks: list[list[int]] = field(default_factory=list)
    # the dealer's rules, from the dealer's Options: "26 off the shooter", finish dead hands
    moon_off_shooter: bool = False
    finish_dead_hands: bool = False
    dealer_seen: float = 0.0  # the dealer's page last asked for the lobby (a Unix time)
    last_hand: dict[str, Any] | None = None  # the hand before this one, for its review

    def new_game(self, number: int = 0) -> Game:
        """The game ``number``, or (0) a game dealt from a secret seed drawn now: the seed is
        kept in the game, in the row, and never drawn on a page."""
        return Game.new(
            number,
            moon_off_shooter=self.moon_off_shooter,
            finish_dead_hands=self.finish_dead_hands,
            seed=b"" if number else secrets.token_bytes(SEED_BYTES),
        )

    def to_json(self) -> str:
        data = {
            "n": self.number,
            "o": [int(self.moon_off_shooter), int(self.finish_dead_hands)],
            "seats": [seat.to_dict() for seat in self.seats],
            "g": None if self.game is None else self.game.to_dict(),
            "m": self.marks,
            "d": self.dealer_seen,
            **({"l": self.last_hand} if self.last_hand else {}),
        }
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> TableState:
        data = json.loads(text)
        game = None if data["g"] is None else Game.from_dict(data["g"])
        seats = [Seat.from_dict(seat) for seat in data["seats"]]
        moon, dead = data.get("o", (0, 0))
        return cls(
            number=int(data["n"]),
            seats=seats,
            game=game,
            marks=data["m"],
            moon_off_shooter=bool(moon),
            finish_dead_hands=bool(dead),
            dealer_seen=float(data.get("d", 0.0)),
            last_hand=data.get("l"),
        )

    # ---- who is needed --------------------------------------------------------------------

    def waiting_for(self) -> list[int]:
        """The seats of the people the table is waiting for now."""
        game = self.game
        if game is None:
            return []
        present = [s for s in SEATS if self.seats[s].present]
        if game.phase == Phase.PASSING:
            return [s for s in present if not game.has_passed(s)]
        if game.phase == Phase.PLAYING:
            return [game.turn] if game.turn in present else []
        return [s for s in present if not self.seats[s].ready]

    def stamp_waits(self, now: float) -> None:
        """Start the clock of each person the table has just begun to wait on, and stop the
        clock of those it no longer waits on: another seat's actions do not restart it."""
        waiting = set(self.waiting_for())
        for index, seat in enumerate(self.seats):
            if index not in waiting:
                seat.waiting_since = 0.0
            elif not seat.waiting_since:
                seat.waiting_since = now

    def waited(self, seat: int, now: float) -> float:
        """Seconds the table has waited on ``seat`` (0 when it does not wait on it)."""
        since = self.seats[seat].waiting_since
        return max(0.0, now - since) if since and seat in self.waiting_for() else 0.0

    def gone(self, seat: int, now: float, grace: float) -> bool:
        """Whether ``seat``'s person has left: their page closed ``grace`` seconds ago or more
        (a page that reconnects, after a deploy or a stream's ten minutes, is back in one)."""
        left = self.seats[seat].left
        return bool(left) and self.seats[seat].present and now - left >= grace

    def mark(self, version: int) -> None:
        game = self.game
        hand, plays = (0, 0) if game is None else (game.hand_number, plays_so_far(game))
        seqs = [seat.seq for seat in self.seats]
        self.marks = [*self.marks, [version, hand, plays, *seqs]][-MARKS_KEPT:]

    def fresh_from(self, since: int | None) -> int:
        """The first play of this hand that a page showing version ``since`` has not shown."""
        game = self.game
        assert game is not None
        now = plays_so_far(game)
        for version, hand, plays, *_ in self.marks:
            if version == since:
                return plays if hand == game.hand_number else 0
        return now


def new_table(
    number: int,
    dealer: str,
    token_hash: str,
    moon_off_shooter: bool = False,
    finish_dead_hands: bool = False,
    now: float = 0.0,
) -> TableState:
    """A lobby with the dealer in seat 0; ``number`` 0 deals the game from a secret seed."""
    refuse_name(dealer, [])
    return TableState(
        number=number,
        seats=[Seat(dealer, token_hash)],
        moon_off_shooter=moon_off_shooter,
        finish_dead_hands=finish_dead_hands,
        dealer_seen=now,
    )


COMPUTER_NAME_TAKEN = (
    "{name} is the name of a computer player here. Please choose another name, so that "
    "everyone at the table can tell people from computers."
)
NAME_TAKEN = "Someone at this table is already called {name}. Please choose another name."


def refuse_name(name: str, taken: list[str]) -> None:
    """IllegalMove unless ``name`` differs from the computers' names and from ``taken``,
    ignoring case (names are compared as cut by clean_name, cluster by cluster)."""
    folded = clean_name(name).casefold()
    for computer in COMPUTER_NAMES:
        if folded == computer.casefold():
            raise IllegalMove(COMPUTER_NAME_TAKEN.format(name=computer))
    if any(folded == clean_name(other).casefold() for other in taken):
        raise IllegalMove(NAME_TAKEN.format(name=clean_name(name)))


# ---- actions ---------------------------------------------------------------------------------


FULL = "This table is full: four players are already seated."
NO_COMPUTER_SEAT = (
    "Every seat at this table has a person in it, so there is no computer player's seat to "
    "take. Ask the dealer to deal a new table, or play against the computer."
)


def join(state: TableState, name: str, token_hash: str) -> int:
    """A friend sits down in the lobby; after the start, in the seat of a computer player (see
    ``arrive_late``). The seat's number."""
    if state.game is not None:
        return arrive_late(state, name, token_hash)
    if len(state.seats) >= len(SEATS):
        raise IllegalMove(FULL)
    refuse_name(name, [seat.name for seat in state.seats])
    state.seats.append(Seat(name, token_hash))
    return len(state.seats) - 1


def free_seat(state: TableState) -> int | None:
    """The first seat a late friend may take: one a computer player has held from the start
    and nobody waits for. A person's seat stays theirs, even while a computer plays for them."""
    for index, seat in enumerate(state.seats):
        if not seat.person and not seat.heir:
            return index
    return None


def room_for(state: TableState) -> bool:
    """Whether a newcomer may sit down (in the lobby) or wait for a computer's seat."""
    if state.game is None:
        return len(state.seats) < len(SEATS)
    return free_seat(state) is not None


def arrive_late(state: TableState, name: str, token_hash: str) -> int:
    """A friend who comes after the start waits for a computer player's seat, which becomes
    theirs when the next hand is dealt (``seat_heirs``): the hand in play is not handed over
    halfway, so they never see cards the computer held."""
    seat = free_seat(state)
    if seat is None:
        raise IllegalMove(NO_COMPUTER_SEAT)
    taken = [other.name for other in state.seats if other.person]
    refuse_name(name, taken + [other.heir_name for other in state.seats if other.heir])
    state.seats[seat].heir, state.seats[seat].heir_name = token_hash, clean_name(name)
    return seat


def seat_heirs(state: TableState) -> None:
    """At a new deal, each late friend takes the computer's seat they waited for (its score
    goes on with them); ``late`` tells the review that the hand before is not theirs."""
    for seat in state.seats:
        seat.late = False
        if seat.heir:
            seat.name, seat.token_hash, seat.late = seat.heir_name, seat.heir, True
            seat.heir, seat.heir_name = "", ""


def remove(state: TableState, seat: int, other: int) -> None:
    """The dealer sends a person away from the lobby, before the start."""
    if seat != DEALER:
        raise IllegalMove(f"Only the dealer, {state.seats[DEALER].name}, can remove a player.")
    if state.game is not None:
        raise IllegalMove("The game has already begun: nobody can be removed now.")
    if not 0 < other < len(state.seats):
        raise IllegalMove("There is no such player in the lobby.")
    del state.seats[other]


def dealer_gone(state: TableState, now: float, limit: float) -> bool:
    """Whether the dealer's page has not asked for the lobby for ``limit`` seconds."""
    return state.game is None and now - state.dealer_seen >= limit


def may_start(state: TableState, seat: int, now: float, limit: float) -> bool:
    """The dealer starts; when the dealer has gone, the next person in seat order may."""
    return seat == DEALER or (seat == DEALER + 1 and dealer_gone(state, now, limit))


def start(state: TableState, seat: int, now: float = 0.0, gone_limit: float = 0.0) -> None:
    if state.game is not None:
        raise IllegalMove("The game has already begun.")
    if not may_start(state, seat, now, gone_limit):
        raise IllegalMove(f"Only the dealer, {state.seats[DEALER].name}, can start the game.")
    while len(state.seats) < len(SEATS):
        state.seats.append(Seat(COMPUTER_NAMES[len(state.seats) - 1]))
    state.game = state.new_game(state.number)


NOT_STARTED = "The dealer has not started the game yet."


def require_game(state: TableState) -> Game:
    return seating.require_game(state.game, NOT_STARTED)


PRIVATE = ("s", "q")  # a seat's selected cards and its page's sequence: its pages' alone


def private_to(before: str, state: TableState, seat: int) -> int | None:
    """``seat`` if the change from ``before`` (the row's JSON) to ``state`` is one only that
    seat's pages show (a card selected or put back), else None: every other page draws the
    table as it already has it, so it need not be told to fetch it again."""
    old, new = json.loads(before), json.loads(state.to_json())
    for data in (old, new):
        for key in PRIVATE:
            data["seats"][seat].pop(key, None)
    return seat if old == new else None


def toggle(state: TableState, seat: int, code: str) -> None:
    seating.toggle(require_game(state), seat, state.seats[seat], code)


def pass_selected(state: TableState, seat: int) -> None:
    if seating.pass_selected(require_game(state), seat, state.seats[seat]):
        cards_changed_hands(state)


def cards_changed_hands(state: TableState) -> None:
    """After the fourth pass each person sees the cards received raised until OK."""
    for other in state.seats:
        other.awaiting_ok = other.present


def accept(state: TableState, seat: int) -> None:
    require_game(state)
    seating.accept(state.seats[seat])


def play(state: TableState, seat: int, code: str) -> None:
    game = require_game(state)
    if game.phase == Phase.PLAYING and game.turn != seat:
        raise IllegalMove(f"It is not your turn. Waiting for {state.seats[game.turn].name}.")
    seating.play(game, seat, state.seats[seat], code)


NOT_BEGUN_HINT = "The game has not started yet, so there is no hint."


def hint(state: TableState, seat: int, think: Think = decide) -> seating.Hint:
    """H: the cards a computer player would choose in this seat; nothing changes."""
    if state.game is None:
        raise IllegalMove(NOT_BEGUN_HINT)
    me = state.seats[seat]
    return seating.hint(state.game, seat, me, think, away=me.away)


def ready(state: TableState, seat: int) -> None:
    game = require_game(state)
    if not game.phase.over:
        raise IllegalMove("The hand is not over yet.")
    state.seats[seat].ready = True


def replace(state: TableState, other: int, now: float, limit: int) -> None:
    """A computer player takes the seat of a person the table has waited ``limit`` seconds for,
    counted from when it began waiting on that person."""
    if other not in state.waiting_for():
        raise IllegalMove("The table is not waiting for that player.")
    idle_seconds = state.waited(other, now)
    if idle_seconds < limit:
        raise IllegalMove(
            f"{state.seats[other].name} has had {int(idle_seconds)} seconds so far. "
            f"A computer player can take over after {limit}."
        )
    seat = state.seats[other]
    seat.away, seat.selected, seat.awaiting_ok = True, [], False


def sit_down(state: TableState, seat: int) -> None:
    me = state.seats[seat]
    if not me.away:
        raise IllegalMove("You are already playing at this table.")
    me.away = False


def advance(state: TableState, think: Think = decide) -> None:
    """The computer players move until a person is needed; with everyone ready after a hand,
    the next hand is dealt (or, after the last, a new game for the same people). Each decision
    goes through ``think(fn, *args)``: the site passes ``game.seating.Clock.think``, which lets
    one request of a process think at a time."""
    game = state.game

    def person(seat: int) -> bool:
        return state.seats[seat].present

    while game is not None:
        if seating.computers_pass(game, person, think):
            cards_changed_hands(state)
        if game.phase == Phase.PASSING:
            return
        seating.computers_play(game, person, think, players.choose_even_play)
        if game.phase == Phase.PLAYING:
            return
        people = [seat for seat in state.seats if seat.present]
        heirs = any(seat.heir for seat in state.seats)  # a late friend: deal even to no one
        if not (people or heirs) or not all(seat.ready for seat in people):
            return
        for seat in state.seats:
            seat.ready, seat.selected, seat.awaiting_ok = False, [], False
        seat_heirs(state)
        if game.phase == Phase.HAND_OVER:
            state.last_hand = seating.next_hand(game, state.last_hand)
        else:
            state.last_hand = seating.kept_for_review(game, state.last_hand)
            game = state.game = state.new_game()  # a new secret seed for each new game
            state.number = 0
