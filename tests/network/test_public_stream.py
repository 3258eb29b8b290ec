"""A step's public part down the event streams (``game.network.stream``), on gunicorn as the
Procfile runs it: a seat that only watched a move is sent the table drawn once for all such
seats (a ``drawn`` event), and the seat whose turn came with its own hand, lit; the mover's
answer carries its table, its stream only the version. Every byte each seat's stream sends is
read: no card still in another person's hand is ever in it, nor a CSRF token."""

from __future__ import annotations

import re

from game.engine import Card
from tests.support.push import (
    EventStream,
    Person,
    a_table_for_two,
    act_as_asked,
    instance,
    site_env,
    version_of,
)

STEPS = 30  # plays watched, in the first hand (the people have 39 cards)


def told(stream: EventStream, version: int) -> str:
    """The kind of event ("table" or "drawn") that told ``stream`` of ``version``."""
    while True:
        name, data = stream.events.get(timeout=30)
        number = int(data) if name == "table" else int(data.split("\n")[0].split()[1])
        if number >= version:
            assert number == version, (number, version)
            return name


def test_a_seat_that_only_watched_a_move_is_sent_its_public_part_and_no_hand(tmp_path):
    env = site_env(tmp_path)
    with instance(env, tmp_path, "a") as server:
        ada, bea = a_table_for_two(server.port)
        cleo = Person("Cleo", server.port)
        cleo.join(ada.code)
        people = (ada, bea, cleo)
        streams = {person.name: EventStream(person, server.port) for person in people}
        version = version_of(ada.act("start"))
        for stream in streams.values():
            told(stream, version)
        kinds: list[tuple[str, str, str]] = []  # (mover, the person told, how)
        plays = 0
        for _ in range(600):
            if plays >= STEPS:
                break
            for person in people:
                done = act_as_asked(person)
                if done:
                    break
            else:
                raise AssertionError("nobody could act")
            playing = done == "play"
            version = version_of(person.table())
            turn = [
                other.name
                for other in people
                if "Select a card to play." in other.table() and other is not person
            ]
            # a card selected is told to its own seat's pages alone
            for other in people if done != "select" else (person,):
                kind = told(streams[other.name], version)
                if other is person:  # the mover's own answer carried its table
                    assert kind == "table", (done, person.name)
                if playing:
                    kinds.append((person.name, other.name, kind, other.name in turn))
            plays += bool(playing)
        watched = [other for _, other, kind, turn in kinds if kind == "drawn" and not turn]
        lit = [other for _, other, kind, turn in kinds if kind == "drawn" and turn]
        assert len(watched) >= STEPS // 4, kinds  # most plays of Ada's are watched by Cleo
        assert set(watched) >= {"Cleo", "Bea"} and len(lit) >= STEPS // 4, kinds
        # what is still in another person's hand was never sent down a seat's stream
        hands = {
            person.name: set(re.findall(r'name="card" value="(\w\w)"', person.table()))
            for person in people
        }
        assert sum(map(len, hands.values())) >= 3 * 13 - STEPS  # cards not played yet
        for name, stream in streams.items():
            sent = bytes(stream.raw).decode()
            assert "event: drawn" in sent
            for code in set().union(*(cards for other, cards in hands.items() if other != name)):
                assert f"face-{code}" not in sent, (name, code)
                assert Card.parse(code).name not in sent, (name, code)
            # no token but the placeholder a page fills with its own, in its own lit hand
            assert not re.search(r'name="csrfmiddlewaretoken" value="(?!-")', sent)
            stream.close()
