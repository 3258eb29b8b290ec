"""The row store: one database row per table (``game.models.Table``) holding the table's state
as JSON and a version. A change is saved only if the version is still the one read, under the
row's lock, whose wait is bounded; expired tables are removed on the way."""

from __future__ import annotations

import re
import secrets
from datetime import timedelta

from django.db import connection, transaction
from django.utils import timezone

from game.models import Table
from game.network import push
from game.network.state import TableState

CODE_PATTERN = re.compile(r"[A-Za-z0-9_-]{22}")  # token_urlsafe(16): 128 random bits
LIFETIME = timedelta(hours=24)
LOBBY_LIFETIME = timedelta(hours=1)  # a lobby whose game never starts
PURGE_SHARE = 100  # one request to a table page in this many also removes expired tables
LOCK_WAIT_MS = 3000  # the longest a move waits for the row's lock before it answers BUSY


def now_seconds() -> float:
    return timezone.now().timestamp()


LOBBY_MARK = '"g":null'  # in a row's state only while the game has not started


def expired(row: Table) -> bool:
    now = timezone.now()
    if LOBBY_MARK in row.state and row.created < now - LOBBY_LIFETIME:
        return True
    return row.touched < now - LIFETIME


def purge() -> int:
    """Remove every table untouched for a day, and every lobby not started within an hour of
    its creation; the number removed."""
    now = timezone.now()
    stale = Table.objects.filter(touched__lt=now - LIFETIME)
    lobbies = Table.objects.filter(created__lt=now - LOBBY_LIFETIME, state__contains=LOBBY_MARK)
    removed, _ = (stale | lobbies).delete()
    return removed


def purge_now_and_then() -> None:
    """Expired tables go even when nobody creates one: on a small share of the table pages
    (and by ``manage.py purge_tables``)."""
    if secrets.randbelow(PURGE_SHARE) == 0:
        purge()


def fetch(code: str) -> Table | None:
    """The live table with this code, or None; an expired one is removed on the way. A change
    is saved by ``save_if_current``, which takes the row's lock itself."""
    if not CODE_PATTERN.fullmatch(code):
        return None
    row = Table.objects.filter(code=code).first()
    if row is not None and expired(row):
        row.delete()
        return None
    return row


class Busy(Exception):
    """The row's lock was not had within LOCK_WAIT_MS, or the table kept changing."""


def busy_error(error: BaseException) -> bool:
    """Whether a database error is a lock wait that ran out (PostgreSQL's lock_not_available,
    SQLite's "database is locked"): the table is busy, not broken."""
    cause = error.__cause__ or error
    if getattr(cause, "sqlstate", None) == "55P03" or getattr(cause, "pgcode", None) == "55P03":
        return True
    return "database is locked" in str(cause)


def bound_lock_wait() -> None:
    """Bound the wait for a lock: on PostgreSQL for this transaction (call inside it), on SQLite
    for this connection's next BEGIN (call before it; the write lock is taken at BEGIN)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"SET LOCAL lock_timeout = {int(LOCK_WAIT_MS)}")
        elif connection.vendor == "sqlite":
            cursor.execute(f"PRAGMA busy_timeout = {int(LOCK_WAIT_MS)}")


def save_if_current(row: Table, state: TableState) -> bool:
    """Save ``state`` over ``row`` if the table's version is still the row's; False when another
    request saved first (or the table is gone). The lock is held only for this."""
    if connection.vendor == "sqlite":
        bound_lock_wait()
    with transaction.atomic():
        if connection.vendor != "sqlite":
            bound_lock_wait()
        current = (
            Table.objects.select_for_update()
            .filter(pk=row.pk)
            .values_list("version", flat=True)
            .first()
        )
        if current != row.version:
            return False
        save(row, state)
    return True


def save(row: Table, state: TableState) -> None:
    state.stamp_waits(now_seconds())
    row.version += 1
    state.mark(row.version)
    row.state = state.to_json()
    row.touched = timezone.now()
    row.save(update_fields=["version", "state", "touched"])
    push.announce(row.code, row.version)  # every page streaming this table asks for it
