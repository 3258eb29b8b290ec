"""Today's Deal's tests run on one fixed day, whatever the machine's clock says."""

import datetime as dt

import pytest

from game.today import day as days

DAY = dt.date(2026, 12, 4)


@pytest.fixture(autouse=True)
def on_the_day(monkeypatch):
    """Today is DAY (a test moves it on by setting ``days.clock`` itself)."""
    monkeypatch.setattr(days, "clock", lambda: DAY)
