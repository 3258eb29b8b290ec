"""``store.read``, the row read on every move and drawn poll by one plain statement, gives the
same row as the ORM, on SQLite and PostgreSQL; an unknown code, none."""

from __future__ import annotations

import pytest

from game.models import Table
from game.network import store
from tests.support.network import started


@pytest.mark.django_db(transaction=True)
def test_the_row_read_is_the_orms_row():
    people = started("Ada", "Bea", number=0)
    by_orm, read = Table.objects.get(code=people[0].code), store.read(people[0].code)
    assert read is not None and read.pk == by_orm.pk
    for name in store.FIELDS:
        assert getattr(read, name) == getattr(by_orm, name), name
    assert read.touched.tzinfo is not None and read.created.tzinfo is not None
    assert not read._state.adding  # saved over, not inserted
    assert store.read("x" * 22) is None
