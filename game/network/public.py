"""The public part of a network table, drawn once a step for every seat that only watched it.

When a move is saved, three of the four pages at a table used to fetch the table and have it
drawn for their own seat, although what changed (the trick, the others' card counts, the status
line, the screen reader's words) is the same for all of them. Here it is drawn once for a step
(from the version a page showed to the version saved), from the table's state alone, in a form
that names no viewer: the places are absolute (``seat-s2``, ``at-s1``: seat 2, seat 1), and a
word that is "you" for one seat carries that seat's version beside it (``data-you``). Each page
turns it to its own seat and puts its own hand in the empty ``#hand`` (static/js/network.js);
the event stream (``game.network.stream``) sends it to the seats it is for (``Step.watchers``).
No hand, no form, no CSRF token and no seat's action count is in it.

It is drawn only for the seats whose own part did not change in the step: people playing their
seat (not away, not waiting on OK), who neither played in it nor have the turn now, while a
hand is being played. The others (the mover, whose answer carries its table; the seat whose
turn comes; anything else) are told the version and fetch as before. So is every seat when a
button for a seat away is due (its form needs the page's own token).
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass
from types import SimpleNamespace

from asgiref.sync import sync_to_async
from django.db import close_old_connections, connection
from django.template.loader import get_template
from django.urls import reverse

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
)
from game.network.state import TableState
from game.web.player import Options, PlayerState
from game.web.table import (
    TableCard,
    clamp,
    narrate,
    plays_of_hand,
    schedule,
    shown_tricks,
    status_line,
    status_steps,
)

NOBODY = -1  # the viewer of a drawing for no seat: every name in the third person
TABLE = "game/table.html"
PLAYING = "game/network/playing.html"
HTMX = SimpleNamespace(htmx=True)  # the table as htmx swaps it in (its title, its status bar)


@dataclass(frozen=True)
class Step:
    """The public part of version ``version`` for a page showing version ``since``."""

    since: int
    version: int
    data: str  # the drawing as an event's data lines ("data: ..." each)
    watchers: dict[str, int]  # the seats it is for: seat token hash -> seat number


def place(seat: int) -> str:
    """A seat's place in the public drawing: the page turns ``s2`` to its own left, top..."""
    return f"s{seat}"


def watchers(state: TableState, fresh_from: int) -> dict[str, int]:
    """The seats whose own part the step since play ``fresh_from`` left alone: people playing
    their seat, not waiting on OK, who played no card in it and whose turn it is not."""
    game = state.game
    moved = {seat for index, seat, _ in plays_of_hand(game) if index >= fresh_from}
    return {
        seat.token_hash: index
        for index, seat in enumerate(state.seats)
        if seat.present and not seat.awaiting_ok and index != game.turn and index not in moved
    }


def draw_step(row: Table, since: int) -> Step | None:
    """The public part of the row's version for pages showing ``since``, or None when no seat
    can be given it (the step is not within one hand's play, or a seat's button is due)."""
    state = TableState.from_json(row.state)
    game = state.game
    if game is None or game.phase != Phase.PLAYING or row.version <= since:
        return None
    mark = next((m for m in state.marks if m[0] == since), None)
    # a card played at ``since`` already: the pages showed this hand's play, not the passing
    if mark is None or mark[1] != game.hand_number or mark[2] < 1:
        return None
    fresh_from = mark[2]
    chosen = watchers(state, fresh_from)
    if not chosen:
        return None
    now = store.now_seconds()
    gone = [s for s in SEATS if state.gone(s, now, presence.left_grace())]
    if any(s in gone for s in state.waiting_for()):
        return None  # the status line says so, beside the button to let a computer play
    seen = Seen(row, state, next(iter(chosen.values())), since)
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
            "poll_url": f"{reverse('network:poll', args=[code])}?v={version}&i={ripe}",
            "redraw": ripe,
            "poll_seconds": POLL_SECONDS,
            "events_url": reverse("network:events", args=[code]),
            "now": int(now),
            "table_name": table_name(state),
            "dialog": "",
        }
    )
    data = "\n".join(f"data: {line}" for line in html.split("\n"))
    return Step(since, version, data, chosen)


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
                "cards": range(len(game.hand(seat))),
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
        status_steps=status_steps(plan, game, names, NOBODY),
        status=status,
        hinted=False,
        hint_why="",
    )


def card(names: list[str], seat: int, code: str, tick: int | None) -> TableCard:
    found = TableCard(seat, code, Card.parse(code).name, place(seat), names[seat])
    found.tick = None if tick is None else clamp(tick)
    found.you_label = f"You: {found.name}"
    return found


def narration(game, fresh_from: int, names: list[str]) -> list[str]:
    """``game.web.table.narrate`` for a seat that played none of the step's cards. A trick's
    sentence never says "you" to such a seat: who takes a trick leads the next, so it has the
    turn and fetches its own table."""
    return narrate(PlayerState(game=game, fresh_from=fresh_from), names, NOBODY)


# ---- once a step in each process, however many of its streams need it ---------------------------

drawing: dict[str, tuple[int, int, asyncio.Future]] = {}  # code -> (since, version, the drawing)


def read_step(code: str, since: int, version: int) -> Step | None:
    """The step drawn from the row (in a worker thread); None if the row has moved on."""
    close_old_connections()
    try:
        row = store.read(code)
        if row is None or row.version != version:
            return None
        return draw_step(row, since)
    finally:
        if threading.current_thread() is not threading.main_thread():
            connection.close()  # the executor's threads keep no connection between steps


async def step(code: str, since: int, version: int) -> Step | None:
    """The public part of this step, drawn by the first stream of the table that asks and
    awaited by the others (call on the event loop)."""
    found = drawing.get(code)
    if found is None or found[:2] != (since, version):
        task = asyncio.ensure_future(
            sync_to_async(read_step, thread_sensitive=False)(code, since, version)
        )
        found = drawing[code] = (since, version, task)
    return await asyncio.shield(found[2])


def forget(code: str) -> None:
    """The table's last stream here closed: its drawing goes too."""
    drawing.pop(code, None)
