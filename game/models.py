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

    def __str__(self) -> str:
        return f"table {self.code[:6]}… v{self.version}"
