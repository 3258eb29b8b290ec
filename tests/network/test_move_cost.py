"""What the mover's own answer does, and does not, work out (issue 53's remaining cost): a card
played spells its table out once (the save) and tells every page; the addresses a drawing names
are the URLconf's; the table's link is drawn in the lobby alone."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from game.network import bus
from game.network.drawing import table_url
from game.network.state import TableState
from tests.support.network import Person, act_until, started, table_of

pytestmark = pytest.mark.django_db

BACKS = re.compile(
    r'aria-label="(\w+), (\d+) cards?">.*?'
    r'<div class="backs n(\d+)" aria-hidden="true">(.*?)</div>',
    re.S,
)


def into_the_play(people: list[Person]) -> None:
    """Act for the people until a card of the play is due and nobody waits on OK."""
    act_until(people, lambda state: state.game.phase == "playing", 200)


@pytest.fixture
def counted(monkeypatch):
    """How often the table is spelled out as JSON, and each announcement's ``only``."""
    seen = {"json": 0, "only": []}
    to_json, announce = TableState.to_json, bus.announce

    def spelled(self):
        seen["json"] += 1
        return to_json(self)

    def told(code, version, only=None, **given):
        seen["only"].append(only)
        return announce(code, version, only, **given)

    monkeypatch.setattr(TableState, "to_json", spelled)
    monkeypatch.setattr(bus, "announce", told)
    return seen


def test_a_card_played_is_spelled_out_once_and_told_to_every_page(counted):
    people = started("Ada", "Bea", "Cleo", "Dora")
    into_the_play(people)
    for _ in range(8):
        row, state = table_of(people[0].code)
        mover = state.game.turn
        counted["json"], counted["only"] = 0, []
        card = state.game.legal_plays(mover)[0]
        assert people[mover].post("play", card=card).status_code == 200
        after_row, after = table_of(people[0].code)
        assert after_row.version == row.version + 1
        assert card not in after.game.hand(mover)
        assert counted["json"] == 1  # the save alone (before: four times)
        assert counted["only"] == [None]  # every page is told


def test_a_card_refused_saves_nothing_and_tells_nobody(counted):
    people = started("Ada", "Bea", "Cleo", "Dora")
    into_the_play(people)
    row, state = table_of(people[0].code)
    other = (state.game.turn + 1) % 4
    counted["only"] = []
    answer = people[other].post("play", card=state.game.legal_plays(state.game.turn)[0])
    assert answer.status_code == 200
    assert b"It is not your turn" in answer.content
    assert table_of(people[0].code)[0].version == row.version
    assert counted["only"] == []
    mover = state.game.turn
    legal = state.game.legal_plays(mover)
    wrong = next((c for c in state.game.hand(mover) if c not in legal), None)
    if wrong:  # a card the rules refuse: refused as before, nothing saved
        answer = people[mover].post("play", card=wrong)
        assert answer.status_code == 200
        assert table_of(people[0].code)[0].version == row.version
        assert counted["only"] == []


def test_a_card_selected_is_still_told_to_its_own_pages_alone(counted):
    people = started("Ada", "Bea", "Cleo", "Dora")
    state = table_of(people[0].code)[1]
    card = state.game.hand(1)[0]
    counted["only"] = []
    assert people[1].post("select", card=card).status_code == 200
    assert counted["only"] == [1]
    assert people[1].post("select", card=card).status_code == 200  # put back
    assert counted["only"] == [1, 1]


@pytest.mark.parametrize("name", ["table", "poll", "events"])
def test_a_tables_addresses_are_the_urlconfs(name):
    assert table_url(name, "abcdefghij") == reverse(f"network:{name}", args=["abcdefghij"])
    assert table_url(name, "abcdefghik") != table_url(name, "abcdefghij")


def test_the_link_to_send_is_drawn_in_the_lobby_alone():
    ada = Person("Ada")
    code = ada.deal()
    lobby = ada.page().content.decode()
    assert f'value="http://testserver/t/{code}/"' in lobby
    assert ada.post("start").status_code == 200
    assert "table-link" not in ada.page().content.decode()


def test_a_name_in_the_row_is_read_cut_by_the_name_rule_every_time():
    people = started("Ada", "Bea")
    row, state = table_of(people[0].code)
    state.seats[1].name = "Bea\u202e\u0007  Long" + "x" * 40
    state.seats[1].heir, state.seats[1].heir_name = "0" * 64, " Cleo\u200b " + "y" * 300
    row.state = state.to_json()
    for _ in range(2):  # read again: the same
        again = TableState.from_json(row.state)
        assert again.seats[1].name == "Bea Long" + "x" * 12
        assert again.seats[1].heir_name == "Cleo " + "y" * 15  # longer than any kept: cut
        assert again.seats[0].name == "Ada"


def test_each_opponent_shows_one_back_a_card_held():
    people = started("Ada", "Bea", "Cleo", "Dora")
    into_the_play(people)
    state = table_of(people[0].code)[1]
    mover = state.game.turn
    assert people[mover].post("play", card=state.game.legal_plays(mover)[0]).status_code == 200
    state = table_of(people[0].code)[1]
    page = people[0].page().content.decode()
    rows = BACKS.findall(page)
    names = [seat.name for seat in state.seats]
    assert len(rows) == 3
    for name, said, count, backs in rows:
        held = len(state.game.hand(names.index(name)))
        assert int(said) == int(count) == held
        assert backs == "<i></i>" * held
    assert {int(count) for _, _, count, _ in rows} != {13}  # a card played shows one back fewer
