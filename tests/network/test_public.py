"""The public part of a network table (``game.network.public``): drawn once a step from the
table's state, naming no viewer and holding no hand, no form and no token; turned to a seat (as
static/js/network.js turns it, stated again here) and given that seat's own hand, it is the
table the seat's own fetch would have drawn."""

from __future__ import annotations

import re

import pytest

from game.engine import Card
from game.network.public import draw_step
from tests.support.network import act_until, started, table_of
from tests.support.turning import for_mover, turn

pytestmark = pytest.mark.django_db

EMPTY_HAND = '<section class="seat seat-bottom" id="hand"></section>'


def unprefixed(data: str) -> str:
    return "\n".join(line.removeprefix("data: ") for line in data.split("\n"))


def flat(html: str) -> str:
    """The markup, its white space between tags aside; the drawing's second (data-now) too."""
    html = re.sub(r'data-now="\d+"', "data-now", html)
    return re.sub(r"> <", "><", re.sub(r"\s+", " ", html)).strip()


def into_the_play(people) -> None:
    """Act for the people until a trick has been taken and nobody waits on OK."""

    def reached(state) -> bool:
        game = state.game
        return game.phase == "playing" and bool(game.completed_tricks) and bool(game.trick)

    act_until(people, reached)


@pytest.mark.parametrize("names", [("Ada", "Bea", "Cleo", "Dora"), ("Ada", "Bea", "Cleo")])
def test_the_public_part_turned_to_each_watching_seat_is_its_own_table(names):
    people = started(*names)
    into_the_play(people)
    checked = lit = yours = 0
    for _ in range(60):
        row, state = table_of(people[0].code)
        game = state.game
        if game.phase != "playing":
            break
        since, mover = row.version, game.turn
        assert people[mover].post("play", card=game.legal_plays(mover)[0]).status_code == 200
        row, state = table_of(people[0].code)
        step = draw_step(row, since)
        if state.game.phase != "playing":
            assert step is None  # the hand is over: every page fetches its own
            break
        assert step is not None
        # every person but the mover and the seat whose turn it is now (with three people, a
        # computer's cards may come between them); that seat, its lit hand beside it, unless it
        # is the mover's (who took the trick)
        turn_now = state.game.turn
        expected = {p.seat for p in people} - {mover, turn_now}
        assert set(step.watchers.values()) == expected
        assert (step.turn is None) == (turn_now == mover)
        html = unprefixed(step.data)
        assert "csrfmiddlewaretoken" not in html and 'name="seq"' not in html
        assert 'name="card"' not in html and "<form" not in html
        # no place seen from a seat, but the page's own hand and card (the same for every seat)
        own_places = html.replace(EMPTY_HAND, "").replace('played at-bottom"', "")
        assert re.search(r"\b(seat|at|to|pile)-(bottom|left|top|right)\b", own_places) is None
        for code in {c for s in range(4) for c in state.game.hand(s)}:
            assert f"face-{code}" not in html and Card.parse(code).name not in html, code
        mine = "" if step.turn is None else unprefixed(step.turn[2])
        if mine:
            assert 'name="card"' in mine and 'name="csrfmiddlewaretoken" value="-"' in mine
            others = {c for s in range(4) if s != turn_now for c in state.game.hand(s)}
            assert not [code for code in others if f"face-{code}" in mine]
        for person in people:
            own = person.seat == turn_now and step.turn is not None
            if person.seat not in step.watchers.values() and not own:
                continue
            before = person.poll(since - 1).content.decode()  # the page as it was (its token)
            answer = person.poll(since)
            assert answer.status_code == 200
            drawn = answer.content.decode()
            expected = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", drawn)
            turned = turn(html, person.seat, before, mine if own else "")
            turned = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", turned)
            assert flat(turned) == flat(expected)
            checked += 1
            lit += own
            yours += "You take the trick" in drawn
    assert checked >= 8 and lit >= 4
    assert yours  # the seat that took a trick and leads the next heard it in its own words


def test_no_step_is_drawn_across_the_pass_or_for_a_version_it_never_marked():
    people = started("Ada", "Bea", "Cleo", "Dora")
    row, _ = table_of(people[0].code)
    assert draw_step(row, row.version - 1) is None  # passing: no play to draw
    into_the_play(people)
    row, _ = table_of(people[0].code)
    assert draw_step(row, row.version) is None  # nothing new
    assert draw_step(row, 10_000) is None  # never marked


@pytest.mark.django_db(transaction=True)
def test_the_steps_reader_keeps_its_database_connection_between_steps():
    # a connection opened for every step read cost PostgreSQL a new backend each time (half
    # the machine at 100 tables): the reader's thread keeps one, as a request thread does
    from django.db import connection

    from game.network import public

    def read() -> object:
        public.read_step("NOSUCH", 1, 2)
        return connection.connection

    first = public.READER.submit(read).result()
    second = public.READER.submit(read).result()
    assert first is not None and second is first
    public.READER.submit(lambda: connection.close()).result()


def timeless(step):
    """A step with its drawing's second (the poll box's data-now) left out: drawn twice, a
    moment apart, it may differ there alone."""
    if step is None:
        return None
    now = re.compile(r'data-now="\d+"')
    turn = None if step.turn is None else (*step.turn[:2], now.sub("", step.turn[2]))
    return (step.since, step.version, now.sub("", step.data), step.watchers, turn)


@pytest.fixture
def reader():
    """The steps' reader thread, its database connection closed afterwards (PostgreSQL would
    not drop the test database under it)."""
    from django.db import connection

    from game.network import public

    yield public.READER
    public.READER.submit(lambda: connection.close()).result()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("names", [("Ada", "Bea", "Cleo", "Dora"), ("Ada", "Bea", "Cleo")])
def test_the_move_that_saves_a_version_draws_its_step_once_and_the_streams_read_it(
    names, monkeypatch, reader
):
    from game.models import Table
    from game.network import public

    people = started(*names)
    into_the_play(people)
    drawings = []
    draw = public.draw_step

    def counted(row, since, state=None):
        drawings.append((row.version, since))
        return draw(row, since, state)

    monkeypatch.setattr(public, "draw_step", counted)
    read = given = 0
    for _ in range(30):
        row, state = table_of(people[0].code)
        if state.game.phase != "playing":
            break
        since, mover = row.version, state.game.turn
        drawings.clear()
        assert people[mover].post("play", card=state.game.legal_plays(mover)[0]).status_code == 200
        row = Table.objects.get(code=people[0].code)
        assert drawings == [(row.version, since)]  # by the move, as it saved the version
        expected = draw(row, since)
        known, kept = public.kept_step(row.step, since, row.version)
        assert known and timeless(kept) == timeless(expected)
        drawings.clear()
        read_back = reader.submit(public.read_step, row.code, since, row.version).result()
        assert timeless(read_back) == timeless(expected)
        assert drawings == []  # a stream's process reads it: nothing drawn again
        read += 1
        given += expected is not None
        if since > 1:  # a page a version behind: that step is drawn for it (or none is due)
            reader.submit(public.read_step, row.code, since - 1, row.version).result()
            assert drawings == [(row.version, since - 1)]
    assert read >= 8 and given >= 6


def test_a_change_only_one_seat_sees_and_a_change_out_of_the_play_keep_no_step():
    from game.models import Table

    people = started("Ada", "Bea", "Cleo", "Dora")
    row, state = table_of(people[0].code)
    card = state.game.hand(people[0].seat)[0]
    assert people[0].post("select", card=card).status_code == 200  # passing: its seat's alone
    assert Table.objects.get(code=people[0].code).step == ""


@pytest.mark.parametrize("names", [("Ada", "Bea", "Cleo", "Dora"), ("Ada", "Bea", "Cleo")])
def test_the_movers_answer_built_from_the_step_is_its_whole_table(names, monkeypatch):
    """Two tables of the same game: at one the mover's answer is the step (its own part, then
    the public part), turned as network.js turns it; at the other the whole table drawn for
    the mover, as before. Card by card, the two are the same page."""
    from game.network import public

    tables = started(*names, number=5), started(*names, number=5)
    for people in tables:
        into_the_play(people)
    whole = public.mover_answer
    checked = lit = 0
    for _ in range(40):
        row, state = table_of(tables[0][0].code)
        if state.game.phase != "playing":
            break
        since, mover = row.version, state.game.turn
        card = state.game.legal_plays(mover)[0]
        before = tables[0][mover].poll(since - 1).content.decode()
        answer = tables[0][mover].post("play", raw=True, card=card)
        monkeypatch.setattr(public, "mover_answer", lambda seen: None)
        expected = tables[1][mover].post("play", card=card).content.decode()
        monkeypatch.setattr(public, "mover_answer", whole)
        text = answer.content.decode()
        if answer.get("Hearts-Drawn") != "mover":
            assert "<main" in text  # the whole table, where no step was drawn
            continue
        head, rest = text.split("\n", 1)
        _, version, seat, count, seq = (int(x) for x in head.split())
        assert seat == mover and version == row.version + 1
        lines = rest.split("\n")
        mine, html = "\n".join(lines[:count]), "\n".join(lines[count:])
        turned = turn(for_mover(html, mover), mover, before, mine, str(seq))
        codes = tables[0][0].code, tables[1][0].code
        pair = [
            flat(re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", page)).replace(*codes)
            for page in (turned, expected)
        ]
        # the second by which a button falls due: the two tables were a moment apart
        pair = [re.sub(r'(i=|data-redraw=")1\d{9}', r"\1second", page) for page in pair]
        assert pair[0] == pair[1]
        checked += 1
        lit += table_of(tables[0][0].code)[1].game.turn == mover  # took the trick: lit again
    assert checked >= 10 and lit >= 1
