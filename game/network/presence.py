"""Who is at the table: a person whose page has closed has left, and the others are told.

The event stream is the presence the server already has: each page of a seat holds one while it
is open. When the browser closes it (the window shut, the page left), the seat is marked as
left, with a new version so that every page hears of it; when a page of that seat opens its
stream again, the mark goes, with a new version too. A stream the server ends itself (after its
ten minutes, or at a deploy) marks nothing, and a page that reconnects within the grace
(``left_grace``) is never shown as gone. A page without a stream (no JavaScript, or a server
that cannot hold one) is never marked: the table then waits on its person as before.

A seat's pages may be served by several processes (two tabs, two workers or two instances):
each process that holds a stream of the seat says so in the database (``StreamHold``), and the
last stream of a process that closes marks the person gone only when no other process holds
one."""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections import Counter
from datetime import timedelta

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import DatabaseError, close_old_connections
from django.utils import timezone

from game.models import StreamHold, Table
from game.network import store
from game.network.state import TableState

log = logging.getLogger(__name__)

TRIES = 8  # a mark races moves at the table: worked out again from the new row, a few times
_open: Counter = Counter()  # (code, token hash) -> streams of that seat open in this process
_pending: set[asyncio.Task] = set()  # marks being written, kept from the garbage collector
# a hold older than this is a dead process's: a live one rewrites it with each stream it opens,
# and a stream lasts ten minutes (game.network.stream.STREAM_SECONDS)
HOLD_FRESH = timedelta(minutes=11)
_process: dict[str, object] = {}


def process_key() -> str:
    """This worker process, among every instance's (made after the fork: workers share the
    master's imported modules)."""
    if _process.get("pid") != os.getpid():
        key = f"{socket.gethostname()[:60]}:{os.getpid()}:{secrets.token_hex(4)}"
        _process.update(pid=os.getpid(), key=key)
    return str(_process["key"])


def hold(row: Table, token_hash: str) -> None:
    """A stream of this seat opens in this process (in its thread): say so for every process."""
    try:
        StreamHold.objects.update_or_create(
            table=row,
            token_hash=token_hash,
            process=process_key(),
            defaults={"opened": timezone.now()},
        )
    except DatabaseError:
        log.warning("presence: the stream's hold could not be written", exc_info=True)


def held_elsewhere(code: str, token_hash: str) -> bool:
    """Whether another process holds a stream of this seat now (stale holds are dropped)."""
    holds = StreamHold.objects.filter(table__code=code, token_hash=token_hash)
    holds.filter(opened__lt=timezone.now() - HOLD_FRESH).delete()
    return holds.exclude(process=process_key()).exists()


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
    """A page's stream ended; if no other page of that seat holds one in this process, the
    process's hold goes and, if the browser closed it and no other process holds one, the
    person has left (written in the background: the stream is over)."""
    key = (code, token_hash)
    _open[key] -= 1
    if _open[key] <= 0:
        del _open[key]
        task = asyncio.ensure_future(
            sync_to_async(release, thread_sensitive=False)(
                code, token_hash, store.now_seconds() if by_browser else 0.0
            )
        )
        _pending.add(task)
        task.add_done_callback(_pending.discard)


def release(code: str, token_hash: str, left: float) -> None:
    """In a thread of the event loop's executor (its own fresh connection): this process holds
    no stream of the seat any more; ``left`` (the browser closed it; 0: the server did) marks
    the person gone unless another process holds one."""
    close_old_connections()
    if _open.get((code, token_hash), 0) > 0:
        return  # a page of the seat opened another stream here meanwhile
    try:
        StreamHold.objects.filter(
            table__code=code, token_hash=token_hash, process=process_key()
        ).delete()
        if left and not held_elsewhere(code, token_hash):
            mark(code, token_hash, left)
    except DatabaseError:
        log.warning("presence: the table could not be reached", exc_info=True)


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
