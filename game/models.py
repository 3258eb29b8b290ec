"""A network table: the one thing the server keeps, shared by every instance.

The row holds the engine's compact JSON and what the seats need around it (names, hashes of
the seat tokens, selections, who pressed OK), the version that the polls compare, and when it
was last changed. Every change happens in ``network.locked`` under the row's lock.
"""

from datetime import timedelta

from django.db import models

LIFETIME = timedelta(hours=24)  # a table untouched this long is removed
LOBBY_LIFETIME = timedelta(hours=1)  # a lobby whose game never starts


class Table(models.Model):
    code = models.CharField(max_length=32, unique=True)
    version = models.PositiveIntegerField(default=0)
    state = models.TextField()  # JSON: see game.network.state.TableState
    touched = models.DateTimeField(db_index=True)  # the last change; untouched for a day: removed
    created = models.DateTimeField(auto_now_add=True)
    # The public part of this version for the pages that showed the one before, drawn once by
    # the move that saved it and read by every process whose streams send it (JSON, see
    # game.network.public.stored); "" when the save drew none. Moves and polls never read it.
    step = models.TextField(default="", blank=True)

    def __str__(self) -> str:
        return f"table {self.code[:6]}… v{self.version}"


class StreamHold(models.Model):
    """A seat's page holds an event stream of its table in one worker process (of any instance):
    written when a stream opens, removed when that process's last stream of the seat closes. A
    person is marked as gone only when no process holds one (game.network.presence), so a second
    tab served by another process keeps them at the table. A process that dies leaves its row:
    one older than a stream's ten minutes (each stream reopens and rewrites it) is not counted."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="holds")
    token_hash = models.CharField(max_length=64)
    process = models.CharField(max_length=100)
    opened = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["table", "token_hash", "process"], name="one_hold_per_seat_and_process"
            )
        ]


class DayResult(models.Model):
    """Our addition, Today's Deal: one browser's first finished play of a day's four hands,
    written once from the game the server played (the signed cookie), never from a posted
    score. ``token`` is the play's own random mark, kept in its cookie: a replayed cookie finds
    its result already written. Old days stay readable until ``purge_today`` removes them."""

    day = models.DateField()
    token = models.CharField(max_length=24)
    name = models.CharField(max_length=100)  # the name at the prompt: 20 letters, shown as text
    points = models.CharField(max_length=16)  # the four hands' points, "3,0,26,1"
    total = models.SmallIntegerField()
    hints = models.PositiveIntegerField(default=0)
    undos = models.PositiveIntegerField(default=0)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["day", "token"], name="one_result_per_play"),
        ]
        indexes = [models.Index(fields=["day", "total", "created"], name="day_by_place")]

    def __str__(self) -> str:
        return f"{self.day}: {self.total}"

    @property
    def hand_points(self) -> tuple[int, ...]:
        return tuple(int(p) for p in self.points.split(","))


class DayPass(models.Model):
    """One card a result passed in one hand of the day (three a hand, hands 1 to 3): the day's
    pass shares are counted from these by one grouped query."""

    result = models.ForeignKey(DayResult, on_delete=models.CASCADE, related_name="passes")
    day = models.DateField()
    hand = models.PositiveSmallIntegerField()
    card = models.CharField(max_length=2)

    class Meta:
        indexes = [models.Index(fields=["day", "hand", "card"], name="day_pass_card")]
