"""The row store: one database row per table (``game.models.Table``) holding the table's state
as JSON and a version. A change is saved only if the version is still the one read, under the
row's lock, whose wait is bounded; expired tables are removed on the way."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable

from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from game.models import LIFETIME, LOBBY_LIFETIME, Table
from game.network import bus
from game.network.codes import CODE_PATTERN
from game.network.state import TableState

log = logging.getLogger(__name__)

# Draws a version's public part for the pages showing ``since``, from its row (not yet saved)
# and its state: the text kept in ``Table.step``.
Drawer = Callable[[Table, TableState, int], str]

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
    with transaction.atomic():
        codes = list((stale | lobbies).values_list("code", flat=True))
        removed, _ = Table.objects.filter(code__in=codes).delete()
        bus.announce_gone(codes)
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
    row = read(code)
    if row is not None and expired(row):
        with transaction.atomic():
            row.delete()
            bus.announce_gone([code])
        return None
    return row


# A row as moves and polls read it: the drawn step (``Table.step``) is the streams' alone.
READ = [field for field in Table._meta.concrete_fields if field.attname != "step"]
FIELDS = [field.attname for field in READ]


def read(code: str) -> Table | None:
    """The row with this code, read by one prepared statement rather than a query built by
    the ORM (a table is read on every move and every poll that draws)."""
    quote = connection.ops.quote_name
    sql = "SELECT {} FROM {} WHERE {} = %s".format(
        ", ".join(quote(name) for name in FIELDS),
        quote(Table._meta.db_table),
        quote("code"),
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [code])
        found = cursor.fetchone()
    if found is None:
        return None
    values = list(found)
    for index, field in enumerate(READ):
        column = field.get_col(Table._meta.db_table)
        for convert in connection.ops.get_db_converters(column) + field.get_db_converters(
            connection
        ):
            values[index] = convert(values[index], column, connection)
    return Table.from_db(connection.alias, FIELDS, values)


def read_step(code: str) -> tuple[int, str] | None:
    """The row's version and the step its last save drew (``Table.step``), or None."""
    quote = connection.ops.quote_name
    sql = "SELECT {}, {} FROM {} WHERE {} = %s".format(
        *map(quote, ("version", "step", Table._meta.db_table, "code"))
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [code])
        found = cursor.fetchone()
    return None if found is None else (found[0], found[1])


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


def save_if_current(
    row: Table, state: TableState, only: int | None = None, draw: Drawer | None = None
) -> bool:
    """Save ``state`` over ``row`` if the table's version is still the row's; False when another
    request saved first (or the table is gone). One conditional UPDATE: it waits for the row's
    lock (at most LOCK_WAIT_MS) and then finds the version moved or not. ``only``: the seat
    whose pages alone see the change (``TableState.private_to``). ``draw``: what draws the new
    version's public part for the pages that showed the row's (``game.network.public.stored``),
    saved with it for the streams; a change one seat alone sees draws none."""
    if connection.vendor == "sqlite":
        bound_lock_wait()
    with transaction.atomic():
        if connection.vendor != "sqlite":
            bound_lock_wait()
        state.stamp_waits(now_seconds())
        state.mark(row.version + 1)
        saved = state.to_json()
        touched = timezone.now()
        step = "" if draw is None or only is not None else drawn(draw, row, state, saved, touched)
        quote = connection.ops.quote_name
        # on PostgreSQL the statement that saves it notifies too (sent at commit, and only if
        # a row was saved): one round trip a move, not two
        notify = connection.vendor == "postgresql"
        told = (bus.CHANNEL, bus.payload(row.code, row.version + 1, only)) if notify else ()
        with connection.cursor() as cursor:
            cursor.execute(
                "UPDATE {} SET {} = %s, {} = %s, {} = %s, {} = %s WHERE {} = %s AND {} = %s".format(
                    *map(quote, (Table._meta.db_table, "version", "state", "touched", "step")),
                    *map(quote, ("id", "version")),
                )
                + (" RETURNING pg_notify(%s, %s)" if notify else ""),
                [
                    row.version + 1,
                    saved,
                    connection.ops.adapt_datetimefield_value(touched),
                    step,
                    row.pk,
                    row.version,
                    *told,
                ],
            )
            if cursor.rowcount != 1:
                return False
        row.version, row.state, row.touched, row.step = row.version + 1, saved, touched, step
        bus.announce(row.code, row.version, only, sent=notify)  # every stream's page asks for it
    return True


def drawn(draw: Drawer, row: Table, state: TableState, saved: str, touched) -> str:
    """The step ``draw`` makes of the version about to be saved; "" if drawing it failed (the
    move is saved all the same: the streams then draw it, or their pages fetch)."""
    new = Table(pk=row.pk, code=row.code, version=row.version + 1, state=saved, touched=touched)
    new.created = row.created
    try:
        return draw(new, state, row.version)
    except Exception:
        log.exception("network table: the step could not be drawn at its save")
        return ""


def database_failed(error: BaseException) -> bool:
    """Whether ``error`` is the database failing (a lost connection, a lock wait run out), not
    a bug. Django wraps most driver errors, not all: a cursor closed on a lost connection
    raises the driver's own (sqlite3.ProgrammingError, for one)."""
    return isinstance(error, Busy | DatabaseError | connection.Database.Error)


def noted(error: BaseException) -> bool:
    """Whether the database's failure is a busy row (a lock wait run out); any other failure
    is logged."""
    is_busy = isinstance(error, Busy) or busy_error(error)
    if not is_busy:
        log.warning("network table: the database failed", exc_info=True)
    return is_busy
