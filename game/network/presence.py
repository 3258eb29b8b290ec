"""Who is at the table: a person whose page has closed has left, and the others are told.

The event stream is the presence the server already has: each page of a seat holds one while it
is open. When the browser closes it (the window shut, the page left), the seat is marked as
left, with a new version so that every page hears of it; when a page of that seat opens its
stream again, the mark goes, with a new version too. A stream the server ends itself (after its
ten minutes, or at a deploy) marks nothing, and a page that reconnects within the grace
(``left_grace``) is never shown as gone. A page without a stream (no JavaScript, or a server
that cannot hold one) is never marked: the table then waits on its person as before."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import DatabaseError, close_old_connections

from game.models import Table
from game.network import store
from game.network.state import TableState

log = logging.getLogger(__name__)

TRIES = 8  # a mark races moves at the table: worked out again from the new row, a few times
_open: Counter = Counter()  # (code, token hash) -> streams of that seat open in this process
_pending: set[asyncio.Task] = set()  # marks being written, kept from the garbage collector


def left_grace() -> int:
    """Seconds after a page's stream closed before its person is shown as having left."""
    return getattr(settings, "HEARTS_LEFT_SECONDS", 5)


def back(row: Table, state: TableState, seat: int) -> None:
    """A page of ``seat`` is opening its stream: the person is here (their mark, if any, goes)."""
    if state.seats[seat].left:
        mark(row.code, state.seats[seat].token_hash, 0.0)


def opened(code: str, token_hash: str) -> None:
    """A stream of this seat's page is open in this process."""
    _open[(code, token_hash)] += 1


def closed(code: str, token_hash: str, by_browser: bool) -> None:
    """A page's stream ended; if the browser closed it and no other page of that seat holds one
    in this process, the person has left (written in the background: the stream is over)."""
    key = (code, token_hash)
    _open[key] -= 1
    if _open[key] <= 0:
        del _open[key]
        if by_browser:
            task = asyncio.ensure_future(
                sync_to_async(mark_apart, thread_sensitive=False)(
                    code, token_hash, store.now_seconds()
                )
            )
            _pending.add(task)
            task.add_done_callback(_pending.discard)


def mark_apart(code: str, token_hash: str, when: float) -> None:
    """``mark``, in a thread of the event loop's executor: its own fresh connection."""
    close_old_connections()
    mark(code, token_hash, when)


def mark(code: str, token_hash: str, when: float) -> None:
    """Write when the person of the seat holding ``token_hash`` left (0: they are back), as a
    new version of the table, unless it already says so."""
    try:
        for _ in range(TRIES):
            row = store.fetch(code)
            if row is None:
                return
            state = TableState.from_json(row.state)
            seat = next((s for s in state.seats if s.token_hash == token_hash), None)
            if seat is None or bool(seat.left) == bool(when):
                return
            seat.left = when
            if store.save_if_current(row, state):
                return
    except DatabaseError:
        log.warning("presence: the table could not be reached", exc_info=True)
