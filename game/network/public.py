"""The public part of a network table, drawn once a step for every seat that only watched it.

When a move is saved, three of the four pages at a table used to fetch the table and have it
drawn for their own seat, although what changed (the trick, the others' card counts, the status
line, the screen reader's words) is the same for all of them. Here it is drawn once for a step
(from the version a page showed to the version saved), by the move that saves it (``stored``: the
row keeps it, and every process whose streams send it reads it, ``read_step``), from the table's
state alone, in a form that names no viewer: the places are absolute (``seat-s2``, ``at-s1``:
seat 2, seat 1), and a word that is "you" for one seat carries that seat's version beside it
(``data-you``). Each page turns it to its own seat and puts its own hand in the empty ``#hand``
(static/js/network.js); the event stream (``game.network.stream``) sends it to the seats it is
for (``Step.watchers``).
No hand, no form, no CSRF token and no seat's action count is in it.

It is sent to the seats that did nothing in the step (their action counts as they were, no card
of theirs played), people playing their seat and not waiting on OK, while a hand is being
played: a seat that only watched takes it around its own hand; the seat whose turn came is sent
its hand, lit, beside it (``Step.turn``), on its own stream alone. The mover (whose answer
carries its table) and everyone else are told the version and fetch as before; so is every seat
when a button for someone away is due (its form needs the page's own token).
"""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from types import SimpleNamespace

from django.db import close_old_connections
from django.http import HttpResponse
from django.template.loader import get_template
from django.utils.html import format_html

from game.engine import SEATS, Card, Phase
from game.models import Table
from game.network import presence, store
from game.network.drawing import (
    POLL_SECONDS,
    Seen,
    computer_label,
    idle_limit,
    idle_seats,
    redraw_at,
    table_name,
    table_url,
)
from game.network.state import TableState
from game.web.player import Options, PlayerState
from game.web.respond import fresh
from game.web.table import (
    TableCard,
    backs,
    clamp,
    hand_cards,
    narrate,
    plays_of_hand,
    schedule,
    shown_tricks,
    status_line,
    status_steps,
    trick_sentence,
)

NOBODY = -1  # the viewer of a drawing for no seat: every name in the third person
TABLE = "game/table.html"
PLAYING = "game/network/playing.html"
HAND = "game/partials/hand.html"
NO_TOKEN = "-"  # the CSRF token's value in a lit hand: the page gives it its own
EXTRAS = "game/network/extras.html"
HTMX = SimpleNamespace(htmx=True)  # the table as htmx swaps it in (its title, its status bar)


@dataclass(frozen=True)
class Step:
    """The public part of version ``version`` for a page showing version ``since``."""

    since: int
    version: int
    data: str  # the drawing as an event's data lines ("data: ..." each)
    watchers: dict[str, int]  # the seats it is for: seat token hash -> seat number
    # the seat whose turn came, if its page may take the step too: its token hash, its number,
    # and its own part (its hand, lit, and its poll box) as data lines, for its stream alone
    turn: tuple[str, int, str] | None = None

    def own(self, holder: str) -> tuple[int, str] | None:
        """The seat of the token hash ``holder`` and its own part ("" for a seat that only
        watched), or None when the step is not for it."""
        if holder in self.watchers:
            return self.watchers[holder], ""
        if self.turn is not None and self.turn[0] == holder:
            return self.turn[1], self.turn[2]
        return None


def place(seat: int) -> str:
    """A seat's place in the public drawing: the page turns ``s2`` to its own left, top..."""
    return f"s{seat}"


def watchers(state: TableState, mark: list[int]) -> dict[str, int]:
    """The seats the step since ``mark`` (the version a page showed: its plays, each seat's
    action count) may be sent to: people playing their seat, not waiting on OK, who did
    nothing in it and played no card. The seat whose turn it is among them."""
    game, seqs = state.game, mark[3:]
    moved = {seat for index, seat, _ in plays_of_hand(game) if index >= mark[2]}
    if len(seqs) != len(state.seats):
        return {}  # a mark from before the action counts were kept: who acted is not known
    return {
        seat.token_hash: index
        for index, seat in enumerate(state.seats)
        if seat.present and not seat.awaiting_ok and index not in moved and seat.seq == seqs[index]
    }


def draw_step(row: Table, since: int, state: TableState | None = None) -> Step | None:
    """The public part of the row's version for pages showing ``since``, or None when no seat
    can be given it (the step is not within one hand's play, or a seat's button is due).
    ``state``: the row's, if already read (it is not changed)."""
    state = TableState.from_json(row.state) if state is None else state
    game = state.game
    if game is None or game.phase != Phase.PLAYING or row.version <= since:
        return None
    mark = next((m for m in state.marks if m[0] == since), None)
    # a card played at ``since`` already: the pages showed this hand's play, not the passing
    if mark is None or mark[1] != game.hand_number or mark[2] < 1:
        return None
    fresh_from = mark[2]
    chosen = watchers(state, mark)
    turn = next(((h, s) for h, s in chosen.items() if s == game.turn), None)
    chosen = {h: s for h, s in chosen.items() if s != game.turn}
    if not chosen and turn is None:
        return None
    now = store.now_seconds()
    gone = [s for s in SEATS if state.gone(s, now, presence.left_grace())]
    if any(s in gone for s in state.waiting_for()):
        return None  # the status line says so, beside the button to let a computer play
    seen = Seen(row, state, next(iter(chosen.values()), game.turn), since)
    idle = idle_seats(seen)  # the same for every seat given it: the seat whose turn it is
    if any(person["ripe"] for person in idle):
        return None
    names = [seat.name for seat in state.seats]
    labels = [
        "has left the table" if index in gone else computer_label(seat)
        for index, seat in enumerate(state.seats)
    ]
    view = public_view(state, fresh_from, names, labels)
    code, version, ripe = row.code, row.version, redraw_at(seen, idle)
    own = None if turn is None else turn_part(Seen(row, state, turn[1], since), view)
    options = Options()
    options.sheet_after_hand, options.message_boxes = True, False
    html = get_template(TABLE).render(
        {
            "public": True,
            "request": HTMX,
            "table_code": code,
            "state": PlayerState(options=options),
            "options": options,
            "view": view,
            "seq": "",
            "template": PLAYING,
            "message": "",
            "me": SimpleNamespace(away=False),
            "idle": idle,
            "idle_limit": idle_limit(),
            "version": version,
            "poll_url": f"{table_url('poll', code)}?v={version}&i={ripe}",
            "redraw": ripe,
            "poll_seconds": POLL_SECONDS,
            "events_url": table_url("events", code),
            "now": int(now),
            "table_name": table_name(state),
            "dialog": "",
        }
    )
    return Step(since, version, lines(html), chosen, None if own is None else (*turn, own))


def stored(row: Table, state: TableState, since: int) -> str:
    """The step from ``since`` to the row's version as ``Table.step`` keeps it: drawn once, by
    the move that saves the version (``store.save_if_current``), for every process whose
    streams send it. JSON: since, version, the data lines, the watchers, the turn's part; a
    step no seat can be given is kept as ``[since]``, so that no stream draws it again."""
    found = draw_step(row, since, state)
    if found is None:
        return json.dumps([since])
    kept = [found.since, found.version, found.data, found.watchers, found.turn]
    return json.dumps(kept, separators=(",", ":"))


def kept_step(text: str, since: int, version: int) -> tuple[bool, Step | None]:
    """What ``Table.step``'s ``text`` says of the step from ``since`` to ``version``: (True,
    the step or None when no seat can be given it) if it is that step, else (False, None)."""
    if not text:
        return False, None
    kept = json.loads(text)
    if kept[0] != since:
        return False, None
    if len(kept) == 1:
        return True, None
    step_since, step_version, data, chosen, turn = kept
    if step_version != version:
        return False, None
    return True, Step(step_since, step_version, data, chosen, None if turn is None else tuple(turn))


def lines(html: str) -> str:
    """An event's data lines, one for each line of ``html``."""
    return "\n".join(f"data: {line}" for line in html.split("\n"))


def turn_part(seen: Seen, view: SimpleNamespace) -> str | None:
    """The own part of the seat whose turn came, for its stream alone: its hand, lit as it may
    play, and its poll box (the table waits on nobody else, so it has no button to offer).
    None when a button is due."""
    idle = idle_seats(seen)
    if idle:
        return None
    return lines(own_part(seen, idle, view.end_tick))


def own_part(seen: Seen, idle: list[dict], end_tick: int) -> str:
    """A seat's own part beside a step's public part: its hand (lit, waiting until ``end_tick``,
    if its turn has come; as it may play), its bar of players away (``idle``) and its poll box.
    The page gives the hand's form its own CSRF token in place of the placeholder."""
    state, seat = seen.state, seen.seat
    game, me = state.game, state.seats[seat]
    player = PlayerState(game=game, selected=list(me.selected))
    hand = SimpleNamespace(
        names=[me.name],
        hand=hand_cards(player, game, seat, [], playing=True),
        hand_action="play",
        your_turn=game.turn == seat,
        end_tick=end_tick,
        button="",
    )
    code, version, ripe = seen.row.code, seen.row.version, redraw_at(seen, idle)
    context = {
        "view": hand,
        "seq": me.seq,
        "table_code": code,
        "csrf_token": NO_TOKEN,  # the page puts its own in its place
        "me": me,
        "idle": idle,
        "version": version,
        "poll_url": f"{table_url('poll', code)}?v={version}&i={ripe}",
        "redraw": ripe,
        "poll_seconds": POLL_SECONDS,
        "events_url": table_url("events", code),
        "now": int(store.now_seconds()),
    }
    return get_template(HAND).render(context) + get_template(EXTRAS).render(context)


MOVER = "mover"  # the Hearts-Drawn header of a mover's answer built from the step


def mover_answer(seen: Seen) -> HttpResponse | None:
    """The answer to a card played by htmx, built from the step the move has just drawn and
    kept (``Table.step``), as the watching pages get it: its first line ``<since> <version>
    <seat> <lines of its own part> <its action count>``, then the seat's own part (its hand,
    lit if its turn has come again, its bar of players away and its poll box, as its whole
    table has them), then the public part. network.js turns it to the mover (``forMover``:
    its card already placed, every moment one step sooner, its own sentence) and htmx swaps it
    in. None when the step was not drawn for the version the page showed: the whole table is
    drawn then, as before."""
    _, step = kept_step(getattr(seen.row, "step", ""), seen.since, seen.row.version)
    if step is None:
        return None
    state, seat = seen.state, seen.seat
    # its hand alone, not its whole view (``seat_view``): the rest of its table is the step's
    plan = schedule(state.game, state.fresh_from(seen.since), seat, own_card_placed=True)
    own = own_part(seen, idle_seats(seen), plan.end_tick)
    me = state.seats[seat]
    head = f"{step.since} {step.version} {seat} {own.count(chr(10)) + 1} {me.seq}"
    public = "\n".join(line.removeprefix("data: ") for line in step.data.split("\n"))
    return fresh(HttpResponse(f"{head}\n{own}\n{public}", headers={"Hearts-Drawn": MOVER}))


def public_view(
    state: TableState, fresh_from: int, names: list[str], labels: list[str]
) -> SimpleNamespace:
    """What ``game.web.table.build`` makes for one seat, for none: the places absolute, and
    beside each "you" the seat it is for."""
    game = state.game
    plan = schedule(game, fresh_from, NOBODY, own_card_placed=False)
    tricks = shown_tricks(game)
    base = len(tricks) * 4
    trick = [
        card(names, seat, code, plan.arrive.get(base + i))
        for i, (seat, code) in enumerate(game.trick)
    ]
    last_trick = []
    if plan.gather_tick is not None:
        last = tricks[-1]
        for i, (seat, code) in enumerate(last.plays):
            found = card(names, seat, code, plan.arrive.get(base - 4 + i))
            found.gather_tick, found.gather_to = clamp(plan.gather_tick), place(last.winner)
            last_trick.append(found)
    gathered = None
    if game.last_trick is not None:
        winner = game.last_trick.winner
        gathered = SimpleNamespace(
            winner=winner,
            winner_place=place(winner),
            winner_name=names[winner],
            you_label="Show the last trick, won by you",
        )
    status = status_line(PlayerState(game=game), game, names, NOBODY)
    return SimpleNamespace(
        phase=Phase.PLAYING,
        number=game.number,
        opponents=[
            {
                "seat": seat,
                "name": names[seat],
                "place": place(seat),
                "count": len(game.hand(seat)),
                "backs": backs(len(game.hand(seat))),
                "computer": labels[seat],
            }
            for seat in SEATS
        ],
        trick=trick,
        last_trick=last_trick,
        hand_action="play",
        yours=TableCard(NOBODY, "", "", "bottom", "You"),
        gathered=gathered,
        end_tick=plan.end_tick,
        taken=[],
        announcements=narration(game, fresh_from, names),
        status_steps=[you_step(step, tricks) for step in status_steps(plan, game, names, NOBODY)],
        status=status,
        turn=game.turn,  # the status line's words for the seat whose turn it is
        hinted=False,
        hint_why="",
    )


def card(names: list[str], seat: int, code: str, tick: int | None) -> TableCard:
    found = TableCard(seat, code, Card.parse(code).name, place(seat), names[seat])
    found.tick = None if tick is None else clamp(tick)
    found.you_label = f"You: {found.name}"
    return found


def you_step(step, tricks) -> SimpleNamespace:
    """A status bar's line; "Ben takes the trick." says "You take the trick." on Ben's page."""
    line = SimpleNamespace(**vars(step))
    if step.after == " takes the trick.":
        line.you, line.you_text = tricks[-1].winner, "You take the trick."
    return line


def narration(game, fresh_from: int, names: list[str]) -> list[str]:
    """``game.web.table.narrate`` for a seat that played none of the step's cards, each trick's
    sentence in its winner's own words beside it (who takes a trick leads the next: its page
    may take the step as the seat whose turn came), and each card's in its player's (the
    mover's page takes the step too: ``mover_answer``)."""
    said = narrate(PlayerState(game=game, fresh_from=fresh_from), names, NOBODY)
    for index, seat, code in plays_of_hand(game):
        if index < fresh_from:
            continue
        name = Card.parse(code).name
        told = f"{names[seat]} plays the {name}."
        if told in said:
            said[said.index(told)] = format_html(
                '<span data-you="{}" data-you-text="You play the {}." data-unwrap>{}</span>',
                seat,
                name,
                told,
            )
    for trick in shown_tricks(game):
        told = trick_sentence(trick, names, NOBODY)
        if told in said:
            said[said.index(told)] = format_html(
                '<span data-you="{}" data-you-text="{}" data-unwrap>{}</span>',
                trick.winner,
                trick_sentence(trick, names, trick.winner),
                told,
            )
    return said


# ---- read once a step in each process, however many of its streams need it ----------------------

drawing: dict[str, tuple[int, int, asyncio.Future]] = {}  # code -> (since, version, the drawing)
# The steps are read in one thread of each process, which keeps its database connection
# (CONN_MAX_AGE) like a request thread: a connection opened for every step cost PostgreSQL a
# new backend each time, half the machine's CPU at 100 tables (tools.netload).
READER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hearts-steps")


def read_step(code: str, since: int, version: int) -> Step | None:
    """The step, as the move that saved it drew it (``Table.step``), or drawn from the row when
    it was drawn for another ``since`` (a page behind) or not at all (in a worker thread); None
    if the row has moved on."""
    close_old_connections()  # one past its age or broken is opened again
    try:
        kept = store.read_step(code)
        if kept is None or kept[0] != version:
            return None
        known, found = kept_step(kept[1], since, version)
        if known:
            return found
        row = store.read(code)
        if row is None or row.version != version:
            return None
        return draw_step(row, since)
    finally:
        close_old_connections()  # kept for CONN_MAX_AGE, as a request's (0: closed now)


async def step(code: str, since: int, version: int) -> Step | None:
    """The public part of this step, drawn by the first stream of the table that asks and
    awaited by the others (call on the event loop)."""
    found = drawing.get(code)
    if found is None or found[:2] != (since, version):
        task = asyncio.get_running_loop().run_in_executor(READER, read_step, code, since, version)
        found = drawing[code] = (since, version, task)
    return await asyncio.shield(found[2])


def forget(code: str) -> None:
    """The table's last stream here closed: its drawing goes too."""
    drawing.pop(code, None)
