"""Bad input at a network table, with nothing lost: each gets a clear sentence or a 4xx (never a
500), and the table's row is exactly as it was."""

import pytest
from django.db import OperationalError, connection
from django.test import Client

from game.network.seats import COOKIE
from game.network.views import NO_SEAT, NO_TABLE, STALE, UNREACHABLE
from tests.support.network import HX, Person, needed, started, status_of, table_of

pytestmark = pytest.mark.django_db


def snapshot(code: str) -> tuple[int, str]:
    row, _ = table_of(code)
    return row.version, row.state


def to_play(people: list[Person]) -> Person:
    """Pass and accept until a person is to play; that person."""
    for _ in range(200):
        _, state = table_of(people[0].code)
        playing = state.game.phase == "playing" and state.seats[state.game.turn].present
        if playing and not any(state.seats[p.seat].awaiting_ok for p in people):
            return next(p for p in people if p.seat == state.game.turn)
        person, (action, form) = next((p, needed(p)) for p in people if needed(p))
        person.post(action, **form)
    raise AssertionError("nobody came to play")


@pytest.mark.parametrize("code", ["nope", "A" * 22, "A" * 21 + "!", "A" * 200])
def test_a_wrong_table_code_is_a_404_with_a_sentence(code):
    client = Client()
    for response in (
        client.get(f"/t/{code}/"),
        client.post(f"/t/{code}/play", {"card": "2C", "seq": "0"}),
        client.post(f"/t/{code}/name", {"name": "Eve"}),
    ):
        assert response.status_code == 404
        assert NO_TABLE in response.content.decode()
    polled = client.get(f"/t/{code}/poll?v=1", **HX)
    assert polled.status_code == 286  # htmx stops polling, and shows the sentence
    assert NO_TABLE in polled.content.decode()


def test_a_full_table_refuses_a_fifth_person_and_keeps_its_four():
    people = [Person(name) for name in ("Anna", "Bob", "Cleo", "Dan")]
    code = people[0].deal()
    for person in people[1:]:
        person.join(code)
    before = snapshot(code)
    eve = Person("Eve")
    page = eve.client.get(f"/t/{code}/")
    assert page.status_code == 409
    assert "This table is full: four players are already seated." in page.content.decode()
    joined = eve.join(code)
    assert joined.status_code == 409
    assert snapshot(code) == before


def test_joining_after_the_start_with_every_seat_a_persons_is_refused():
    people = started("Anna", "Bob", "Cleo", "Dan")
    before = snapshot(people[0].code)
    late = Person("Lee")
    assert late.join(people[0].code).status_code == 409
    assert "Every seat at this table has a person in it" in late.page().content.decode()
    assert snapshot(people[0].code) == before


def test_a_seat_token_from_another_table_gives_no_seat_here():
    anna, bob = started("Anna", "Bob")
    other = Person("Olga")
    other_code = other.deal()
    _, _, bob_token = bob.client.cookies[COOKIE].value.partition(".")
    thief = Client()
    thief.cookies[COOKIE] = f"{other_code}.{bob_token}"
    before = snapshot(other_code)
    page = thief.get(f"/t/{other_code}/").content.decode()
    assert "What is your name?" in page  # a stranger here: asked to join, not seated
    response = thief.post(f"/t/{other_code}/start", {"seq": "0"})
    assert response.status_code == 403 and NO_SEAT in response.content.decode()
    assert snapshot(other_code) == before
    # and a made-up token at Bob's own table
    thief.cookies[COOKIE] = f"{anna.code}.{'x' * 24}"
    response = thief.post(f"/t/{anna.code}/select", {"seq": "0", "card": "2C"})
    assert response.status_code == 403
    # begun, with computers' seats: asked to join for the next hand, never seated at once
    assert "What is your name?" in thief.get(f"/t/{anna.code}/").content.decode()


def test_a_move_out_of_turn_or_with_another_seats_card_changes_nothing():
    people = started("Anna", "Bob")
    mover = to_play(people)
    waiter = next(p for p in people if p is not mover)
    _, state = table_of(mover.code)
    before = snapshot(mover.code)
    card = state.game.hand(waiter.seat)[0]
    html = waiter.post("play", card=card).content.decode()
    assert status_of(html) == f"It is not your turn. Waiting for {mover.name}."
    assert snapshot(mover.code) == before
    theirs = state.game.hand(waiter.seat)[-1]
    html = mover.post("play", card=theirs, seat=str(waiter.seat)).content.decode()
    assert status_of(html).startswith("You do not have the ")
    html = mover.post("play", card="zz").content.decode()
    assert status_of(html) == "&#x27;zz&#x27; is not a card."  # escaped, as all text
    html = mover.post("replace", seat="9").content.decode()
    assert status_of(html) == "There is no such player."
    assert snapshot(mover.code) == before


def test_a_stale_form_and_a_double_submit_are_refused_and_applied_once():
    people = started("Anna", "Bob")
    mover = to_play(people)
    _, state = table_of(mover.code)
    card = state.game.legal_plays(mover.seat)[0]
    seq = mover.seq()
    first = mover.post("play", seq=seq, card=card)
    assert first.status_code == 200
    after_first = snapshot(mover.code)
    second = mover.post("play", seq=seq, card=card)  # the same form, sent again
    assert status_of(second.content.decode()) == STALE
    plain = mover.post("play", htmx=False, seq=seq, card=card)  # and without JavaScript
    assert plain.status_code == 200 and STALE in plain.content.decode()
    assert snapshot(mover.code) == after_first
    _, state = table_of(mover.code)
    assert sum(1 for trick in [state.game.trick] for seat, code in trick if code == card) <= 1
    played = [code for t in state.game.completed_tricks for _, code in t.plays]
    played += [code for _, code in state.game.trick]
    assert played.count(card) == 1


@pytest.mark.django_db(transaction=True)
def test_a_database_connection_lost_in_the_middle_of_a_move_is_a_503_and_nothing_changes():
    people = started("Anna", "Bob")
    mover = to_play(people)
    _, state = table_of(mover.code)
    card = state.game.legal_plays(mover.seat)[0]
    seq = mover.seq()
    before = snapshot(mover.code)

    def lose_the_connection_at_the_write(execute, sql, params, many, context):
        if sql.lstrip().upper().startswith("UPDATE"):
            context["connection"].connection.close()  # the server's end is gone
        return execute(sql, params, many, context)

    for htmx in (True, False):
        with connection.execute_wrapper(lose_the_connection_at_the_write):
            response = mover.post("play", htmx=htmx, seq=seq, card=card)
        assert response.status_code == (286 if htmx else 503)
        assert UNREACHABLE in response.content.decode()
        assert snapshot(mover.code) == before
    assert mover.post("play", seq=seq, card=card).status_code == 200  # and then it goes
    assert snapshot(mover.code)[0] == before[0] + 1


@pytest.mark.django_db(transaction=True)
def test_a_poll_that_meets_a_lost_database_connection_is_a_quiet_204_and_the_next_one_draws():
    """The page keeps its table and its polling (a sentence in the table's place would stop it);
    once the database answers again, the poll draws what is new."""
    anna, bob = started("Anna", "Bob")
    version = snapshot(anna.code)[0]
    bob.post("select", card=table_of(bob.code)[1].game.hand(bob.seat)[0])  # something new

    def lose_the_connection_at_a_read(execute, sql, params, many, context):
        if sql.lstrip().upper().startswith("SELECT"):
            raise OperationalError("server closed the connection unexpectedly")  # as psycopg
        return execute(sql, params, many, context)

    for ask_first in (True, False):  # read first by the quiet poll's query, or by the view's
        url = f"/t/{anna.code}/poll?v={version if ask_first else 'x'}&i=0"
        with connection.execute_wrapper(lose_the_connection_at_a_read):
            response = anna.client.get(url, **HX)
        assert response.status_code == 204, response.content[:300]
        assert response["Hearts-Poll"] == "retry" and response["Cache-Control"] == "no-store"
        assert response.content == b""
    drawn = anna.client.get(f"/t/{anna.code}/poll?v={version}&i=0", **HX)
    assert drawn.status_code == 200 and 'class="net-poll"' in drawn.content.decode()


def test_nonsense_in_a_poll_or_a_page_address_is_no_error():
    anna, _ = started("Anna", "Bob")
    for query in ("v=abc", "v=-1", "v=99999999999999999999", "v=1&i=zz", ""):
        response = anna.client.get(f"/t/{anna.code}/poll?{query}", **HX)
        assert response.status_code == 200
        response = anna.client.get(f"/t/{anna.code}/?{query}")
        assert response.status_code == 200


def test_a_form_without_a_seq_is_taken_as_in_the_solo_game():
    """One rule for both (game.seating.stale): a form that carries a seq must carry the current
    one; a form without one is not tied to a moment of the table and is acted on."""
    people = started("Anna", "Bob")
    mover = to_play(people)
    row, state = table_of(mover.code)
    card = state.game.legal_plays(mover.seat)[0]
    response = mover.client.post(f"/t/{mover.code}/play", {"card": card}, **HX)
    assert response.status_code == 200 and STALE not in response.content.decode()
    after_row, after = table_of(mover.code)
    assert after_row.version > row.version
    assert card not in after.game.hand(mover.seat)
