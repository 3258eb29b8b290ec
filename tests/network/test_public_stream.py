"""A step's public part down the event streams (``game.network.stream``), on gunicorn as the
Procfile runs it: a seat that only watched a move is sent the table drawn once for all such
seats (a ``drawn`` event); the mover and the seat whose turn comes are told the version and
fetch their own. Every byte each seat's stream sends is read: no card still in a hand is ever
in it, the seat's own included, and neither is a form, a token or a seat's action count."""

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
                if other is person or other.name in turn:  # the mover, the seat to play
                    assert kind == "table", (done, person.name, other.name)
                if playing:
                    kinds.append((person.name, other.name, kind))
            plays += bool(playing)
        watched = [(mover, other) for mover, other, kind in kinds if kind == "drawn"]
        assert len(watched) >= STEPS // 4, kinds  # most plays of Ada's are watched by Cleo
        assert {other for _, other in watched} >= {"Cleo", "Bea"}
        # what is still in anyone's hand was never sent down any stream
        hands = {
            code
            for person in people
            for code in re.findall(r'name="card" value="(\w\w)"', person.table())
        }
        assert len(hands) >= 3 * 13 - STEPS  # the people's cards not played yet
        for name, stream in streams.items():
            sent = bytes(stream.raw).decode()
            assert "event: drawn" in sent or name == "Ada"
            for code in hands:
                assert f"face-{code}" not in sent, (name, code)
                assert Card.parse(code).name not in sent, (name, code)
            assert "csrfmiddlewaretoken" not in sent and "<form" not in sent
            assert 'name="seq"' not in sent and 'data-seq="' not in sent.replace('data-seq=""', "")
            stream.close()
