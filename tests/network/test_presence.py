"""A person who left is told as such, and reading the score is not being away: the seat of
someone whose page closed may go to a computer at once, and the score sheet waits longer for a
person whose page is open than a move does."""

import pytest

from game.network import presence, store
from game.network.views import idle_limit, sheet_idle_limit
from tests.support.network import (
    hand_over,
    redraw_at,
    settle,
    started,
    status_of,
    table_of,
    wind_back,
)

pytestmark = pytest.mark.django_db

TAKE_OVER = "Let a computer play for Bob"


def test_someone_whose_page_closed_is_told_as_gone_and_may_be_replaced_at_once():
    anna, bob = started("Anna", "Bob")
    settle([anna])  # Anna passes; the table waits for Bob
    code = anna.code
    version = table_of(code)[0].version
    bob_hash = table_of(code)[1].seats[1].token_hash
    # Bob's page closes its stream (as game.network.stream does when the browser goes)
    presence.mark(code, bob_hash, store.now_seconds() - presence.left_grace())
    row, state = table_of(code)
    assert row.version == version + 1  # a new version: every page hears of it
    page = anna.page().content.decode()
    assert status_of(page) == "Bob has left the table. You may let a computer play for them."
    assert 'aria-label="Bob (has left the table), 13 cards"' in page
    assert TAKE_OVER in page  # at once, not after the idle limit
    replaced = anna.post("replace", seat="1").content.decode()
    assert table_of(code)[1].seats[1].away, status_of(replaced)
    # Bob's page opens its stream again: he is back, and sits down with one button
    presence.mark(code, bob_hash, 0.0)
    assert not table_of(code)[1].seats[1].left
    assert "has left" not in anna.page().content.decode()
    bob.post("sit-down")
    assert table_of(code)[1].seats[1].present


def test_a_page_closed_a_moment_ago_is_not_yet_gone():
    """A stream that reconnects (a deploy, its ten minutes) is back within the grace."""
    anna, bob = started("Anna", "Bob")
    settle([anna])
    presence.mark(anna.code, table_of(anna.code)[1].seats[1].token_hash, store.now_seconds())
    page = anna.page().content.decode()
    assert "has left" not in page and TAKE_OVER not in page
    assert 0 < redraw_at(page) <= int(store.now_seconds()) + presence.left_grace() + 1


def test_two_people_reading_the_score_sheet_are_not_offered_each_others_seat():
    anna, bob = started("Anna", "Bob")
    settle([anna, bob], until=hand_over)
    code = anna.code
    assert table_of(code)[1].waiting_for() == [0, 1]
    for seat in (0, 1):
        wind_back(code, seat, idle_limit() + 30)  # both have read the score for 90 s
    for person, other in ((anna, "Bob"), (bob, "Anna")):
        page = person.page().content.decode()
        assert f"Let a computer play for {other}" not in page
    refused = anna.post("replace", seat="1").content.decode()
    assert f"A computer player can take over after {sheet_idle_limit()}." in status_of(refused)
    assert not table_of(code)[1].seats[1].away
    wind_back(code, 1, sheet_idle_limit())  # five minutes and more: then it may
    assert TAKE_OVER in anna.page().content.decode()
