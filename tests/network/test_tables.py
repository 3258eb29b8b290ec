"""The Hearts Network through the test client: dealing, joining, starting, playing from every
seat, polling, honesty over whole games, a new game at a finished table, and the solo game's
freedom from the database."""

import hashlib
import re

import pytest
from django.core.management import call_command
from django.test import Client

from game.engine import Card, Game
from game.models import Table
from game.network.seats import COOKIE
from game.network.store import LIFETIME
from game.network.views import idle_limit
from tests.support.network import (
    HX,
    Person,
    assert_honest,
    needed,
    redraw_at,
    seated,
    settle,
    started,
    status_of,
    table_of,
    unplayed_elsewhere,
    wind_back,
)
from tests.support.web import play_to_end_of_hand

pytestmark = pytest.mark.django_db


def new_game_begun(number: int):
    return lambda state: state.game.number != number


# ---- dealing and joining ------------------------------------------------------------------


def test_the_dealer_gets_a_table_link_with_128_random_bits_and_a_seat_token_cookie():
    anna = Person("Anna")
    code = anna.deal(617)
    assert len(code) == 22  # token_urlsafe(16): 128 bits
    cookie = anna.client.cookies[COOKIE]
    assert cookie["path"] == "/t/" and cookie["httponly"]
    entry_code, _, token = cookie.value.partition(".")
    assert entry_code == code and len(token) >= 24
    row, state = table_of(code)
    assert state.seats[0].token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert token not in row.state  # the row holds only the hash
    page = anna.page().content.decode()
    assert "<title>Hearts - Anna&#x27;s table</title>" in page  # named by the table
    assert "Game #617" not in page.split("<main", 1)[0]
    assert "anyone who knows the number can look up every player's cards" in page
    assert f"http://testserver/t/{code}/" in page
    assert status_of(page) == "Send the link to your friends; each arrival appears here."


def test_an_arrival_gives_a_name_takes_the_next_seat_and_the_dealer_sees_it():
    anna = Person("Anna")
    code = anna.deal()
    row, _ = table_of(code)
    assert anna.poll(row.version).status_code == 204
    bob = Person("Bob")
    prompt = bob.client.get(f"/t/{code}/").content.decode()
    assert "What is your name?" in prompt and f'action="/t/{code}/name"' in prompt
    assert bob.join(code).status_code == 303 and bob.seat == 1
    answer = anna.poll(row.version)  # the dealer's page sees the arrival
    assert answer.status_code == 200
    html = answer.content.decode()
    assert "Bob" in html and "Press Start (F2) when everybody is here." in html
    assert 'data-key="F2"' in html
    bob_page = bob.page().content.decode()
    assert status_of(bob_page) == "Waiting for Anna to start the game..."
    assert 'data-key="F2"' not in bob_page


def test_the_network_dialog_asks_dealer_or_connect_and_refuses_what_it_cannot_use():
    client = Client()
    client.post("/name", {"name": "Ada"})
    dialog = client.get("/network", **HX).content.decode()
    assert "Do you want to be the dealer, or connect to another game?" in dialog
    assert 'value="Ada"' in dialog  # the name given to the solo game
    for form, sentence in (
        ({"role": "dealer", "name": "Ada", "number": "0"}, "Choose a game number from 1"),
        ({"role": "dealer", "name": " ", "number": ""}, "Please type your name."),
        ({"role": "connect", "link": "http://x/t/short/"}, "Paste the table link"),
    ):
        response = client.post("/network", form)
        assert response.status_code == 400 and sentence in response.content.decode()
    assert not Table.objects.exists()
    anna = Person("Anna")
    code = anna.deal()
    response = client.post("/network", {"role": "connect", "link": f"https://h.example/t/{code}/"})
    assert response.status_code == 303 and response["Location"] == f"/t/{code}/"
    response = client.post("/network", {"role": "connect", "link": code})
    assert response["Location"] == f"/t/{code}/"


def test_the_network_dialog_without_javascript_is_a_page_of_its_own_with_no_solo_table():
    client = Client()
    client.post("/name", {"name": "Ada"})  # the solo game deals Ada a game
    page = client.get("/network").content.decode()
    assert "Do you want to be the dealer, or connect to another game?" in page
    assert "Game #" not in page and 'id="hand"' not in page  # nothing of the solo game's table
    assert "data-network" in page  # the network's page, whose address hearts.js leaves alone
    refused = client.post("/network", {"role": "dealer", "name": " ", "number": ""})
    assert refused.status_code == 400 and "Please type your name." in refused.content.decode()
    assert 'id="hand"' not in refused.content.decode()


def test_a_name_is_required_to_join():
    anna = Person("Anna")
    code = anna.deal()
    response = Client().post(f"/t/{code}/name", {"name": "  "})
    assert response.status_code == 400
    assert "Please type your name." in response.content.decode()
    assert len(table_of(code)[1].seats) == 1


def test_the_dealer_starts_and_computers_take_the_empty_seats_with_the_numbered_deal():
    anna, bob = seated("Anna", "Bob")
    refused = bob.post("start").content.decode()
    assert status_of(refused) == "Only the dealer, Anna, can start the game."
    assert table_of(anna.code)[1].game is None
    anna.post("start")
    _, state = table_of(anna.code)
    assert [seat.name for seat in state.seats] == ["Anna", "Bob", "Michele", "Ben"]
    assert [seat.person for seat in state.seats] == [True, True, False, False]
    fresh = Game.new(617)
    assert state.game.hand(0) == fresh.hand(0)  # game #617, as in the solo game
    assert state.game.has_passed(2) and state.game.has_passed(3)  # the computers passed


def test_each_person_sees_the_table_from_their_own_seat_at_the_bottom():
    anna, bob = started("Anna", "Bob")
    _, state = table_of(anna.code)
    bob_page = bob.page().content.decode()
    hand = re.search(r'aria-label="Your hand">(.*?)</section>', bob_page, re.S).group(1)
    assert re.findall(r"face-(\w\w)", hand) == state.game.hand(1)
    assert '<span class="name"><bdi>Bob</bdi></span>' in hand
    # seen from seat 1: seat 2 (Michele) on the left, 3 (Ben) across, 0 (Anna) on the right
    for place, name in (
        ("left", "Michele \\(a computer player\\)"),
        ("top", "Ben \\(a computer player\\)"),
        ("right", "Anna"),
    ):
        assert re.search(rf'class="seat seat-{place}" aria-label="{name}, 13 cards"', bob_page)
    assert status_of(bob_page) == "Select three cards to pass to Michele."
    anna_page = anna.page().content.decode()
    assert status_of(anna_page) == "Select three cards to pass to Bob."


def test_a_poll_with_nothing_new_is_an_empty_204_and_a_change_draws_the_table():
    anna, bob = started("Anna", "Bob")
    row, _ = table_of(anna.code)
    quiet = bob.poll(row.version)
    assert quiet.status_code == 204 and quiet.content == b""
    # no body, so none of a document's headers: a few hundred bytes with gunicorn's own
    assert "Content-Security-Policy" not in quiet.headers and "Content-Type" not in quiet.headers
    assert sum(len(f"{k}: {v}\r\n") for k, v in quiet.headers.items()) < 200
    anna.post("select", card=table_of(anna.code)[1].game.hand(0)[0])
    changed = bob.poll(row.version)
    assert changed.status_code == 200
    html = changed.content.decode()
    assert 'id="table"' in html and f"?v={row.version + 1}&amp;i=" in html
    assert bob.poll(row.version + 1).status_code == 204


def test_the_players_wait_for_each_other_with_the_solo_sentences():
    anna, bob = started("Anna", "Bob")
    for _ in range(3):
        action, form = needed(anna)
        anna.post(action, **form)
    html = anna.post("pass").content.decode()
    assert status_of(html) == "Waiting for other players to pass..."
    for _ in range(4):
        action, form = needed(bob)
        bob.post(action, **form)
    assert status_of(bob.page().content.decode()) == "Press OK to accept cards."
    _, state = table_of(anna.code)
    waiting = state.seats[state.game.turn].name
    for person in (anna, bob):
        action, form = needed(person)
        assert action == "accept"
        html = person.post(action, **form).content.decode()
    turn = table_of(anna.code)[1].game.turn
    mover = [anna, bob][turn] if turn in (0, 1) else None
    assert mover is not None  # the computers play until a person is needed
    other = bob if mover is anna else anna
    assert status_of(other.page().content.decode()) == f"Waiting for {mover.name} to move..."
    assert status_of(mover.page().content.decode()) == "Select a card to play."
    assert waiting  # someone was to lead


def test_four_people_play_a_whole_game_and_no_answer_shows_another_seats_unplayed_cards():
    people = started("Anna", "Bob", "Cleo", "Dan", number=42)
    for step in range(2_000):
        row, state = table_of(people[0].code)
        if state.game.number != 42:
            break
        for person in people:
            person.responses.clear()
        person, (action, form) = next((p, needed(p)) for p in people if needed(p))
        person.post(action, **form)  # every answer to an action is checked, and in turn
        watcher = people[step % 4]  # each person's poll and page, as the others see them
        watcher.poll(row.version)
        if step % 8 == 0:
            watcher.page(since=row.version)
        after = table_of(people[0].code)[1]
        for watcher in people:
            hidden = unplayed_elsewhere(after, watcher.seat)
            for _, body in watcher.responses:
                assert_honest(body, hidden)
    assert state.game.number != 42  # game 42 was played out, and a new one dealt to the four
    assert [seat.name for seat in state.seats] == ["Anna", "Bob", "Cleo", "Dan"]


def test_two_people_and_two_computers_play_a_whole_game_and_then_a_new_one_together():
    people = started("Anna", "Bob", number=617)
    anna, bob = people
    settle(people, until=lambda state: state.game.phase == "game_over")
    # settle() checked every answer: nothing the computers or the other person held was shown
    assert all(len(person.responses) > 100 for person in people)
    final = anna.page().content.decode()
    assert 'class="result"' in final and 'dialog open class="msgbox sheet' in final
    html = anna.post("next").content.decode()
    assert status_of(html) == "Waiting for the other players to press OK..."
    assert table_of(anna.code)[1].game.phase == "game_over"
    bob.post("next")
    _, state = table_of(anna.code)
    assert state.game.phase in ("passing", "playing") and state.game.hand_number == 1
    assert state.game.number != 617
    assert [seat.name for seat in state.seats] == ["Anna", "Bob", "Michele", "Ben"]


# ---- without JavaScript -------------------------------------------------------------------------


def test_without_javascript_every_action_is_a_form_and_a_waiting_page_reloads_itself():
    anna, bob = started("Anna", "Bob")
    page = bob.page().content.decode()
    assert 'http-equiv="refresh"' not in page  # Bob must choose cards: nothing to wait for
    assert f'action="/t/{bob.code}/select"' in page
    for _ in range(3):
        action, form = needed(bob)
        response = bob.post(action, htmx=False, **form)
        assert response.status_code == 303
    response = bob.post("pass", htmx=False)
    assert response.status_code == 303 and response["Location"].startswith(f"/t/{bob.code}/?v=")
    page = bob.client.get(response["Location"]).content.decode()
    assert status_of(page) == "Waiting for other players to pass..."
    row, _ = table_of(bob.code)
    assert (
        f'<noscript><meta http-equiv="refresh" content="3;url=/t/{bob.code}/?v={row.version}">'
        in page
    )
    lobby = Person("Cleo")
    code = lobby.deal()
    assert '<noscript><meta http-equiv="refresh"' in lobby.page().content.decode()
    assert code


# ---- leaving and coming back --------------------------------------------------------------------


def test_after_the_idle_limit_anyone_may_let_a_computer_play_for_an_absent_person():
    anna, bob = started("Anna", "Bob")
    settle([anna])  # Anna passes; the table waits for Bob
    row, state = table_of(anna.code)
    assert state.waiting_for() == [1]
    html = anna.post("replace", seat="1").content.decode()
    assert status_of(html).endswith(f"A computer player can take over after {idle_limit()}.")
    assert not table_of(anna.code)[1].seats[1].away
    assert "Let a computer play for Bob" not in anna.page().content.decode()
    due = redraw_at(anna.page().content.decode())  # when Anna's page expects the button
    assert due == int(state.seats[1].waiting_since) + idle_limit() + 1
    assert anna.poll(row.version, due).status_code == 204  # not yet
    wind_back(anna.code, 1, 86)  # the table has waited 86 s on Bob: Anna's page, drawn then,
    assert anna.poll(row.version, due - 86).status_code == 200  # is due, and the button appears
    assert redraw_at(anna.page().content.decode()) == 0  # and then nothing more is due
    assert anna.poll(row.version, 0).status_code == 204
    page = anna.page().content.decode()
    assert "Let a computer play for Bob" in page
    anna.post("replace", seat="1")
    _, state = table_of(anna.code)
    assert state.seats[1].away and state.game.has_passed(1)
    bob_page = bob.page().content.decode()
    assert status_of(bob_page) == (
        "A computer player is playing for you. Press Sit Down to play again."
    )
    bob.post("sit-down")
    assert not table_of(anna.code)[1].seats[1].away
    seq = table_of(anna.code)[1].seats[1].seq
    settle([anna, bob], until=lambda state: state.game.tricks_played >= 3)
    assert table_of(anna.code)[1].seats[1].seq > seq  # Bob plays his own cards again


# ---- the solo game stays out of the database ---------------------------------------------------


def test_the_solo_game_makes_no_database_query(django_assert_num_queries):
    client = Client()
    with django_assert_num_queries(0):
        assert client.post("/name", {"name": "Ada"}).status_code == 303
        assert client.get("/").status_code == 200
        play_to_end_of_hand(client)
        assert client.get("/score", **HX).status_code == 200
        assert client.get("/network", **HX).status_code == 200


# ---- tables untouched for a day ----------------------------------------------------------------


def test_a_table_untouched_for_a_day_is_removed_on_access_and_by_the_command():
    anna = Person("Anna")
    code = anna.deal()
    other = Person("Olga")
    other_code = other.deal()
    keep = Person("Kim")
    keep_code = keep.deal()
    row, _ = table_of(code)
    old = row.touched - LIFETIME
    Table.objects.filter(code__in=[code, other_code]).update(touched=old)
    response = anna.page()
    assert response.status_code == 404
    assert "There is no table at this address." in response.content.decode()
    assert not Table.objects.filter(code=code).exists()
    call_command("purge_tables")
    assert list(Table.objects.values_list("code", flat=True)) == [keep_code]


def test_the_last_trick_is_seen_from_each_seat_and_only_by_someone_seated():
    anna, bob = started("Anna", "Bob")
    settle([anna, bob], until=lambda state: state.game.tricks_played == 1)
    game = table_of(anna.code)[1].game
    trick = game.last_trick
    names = ["Anna", "Bob", "Michele", "Ben"]
    card_names = {code: Card.parse(code).name for _, code in trick.plays}

    def expected(viewer: int) -> str:
        def who(seat: int) -> str:
            return "you" if seat == viewer else names[seat]

        plays = ", ".join(f"{who(seat)} the {card_names[code]}" for seat, code in trick.plays)
        return f"Last trick, won by {who(trick.winner)}: {plays}."

    for person in (anna, bob):
        dialog = person.client.get(f"/t/{anna.code}/last-trick", **HX)
        assert dialog.status_code == 200
        assert expected(person.seat) in dialog.content.decode()
    # without JavaScript: the table with the dialog open over it, and the same sentence
    page = bob.client.get(f"/t/{anna.code}/last-trick")
    assert page.status_code == 200
    assert expected(1) in page.content.decode()
    assert 'id="dialog-last-trick"' in page.content.decode()
    stranger = Client().get(f"/t/{anna.code}/last-trick")
    assert stranger.status_code == 403


def test_the_dealers_options_set_the_tables_rules_and_a_dead_hand_ends_at_once():
    anna, bob = Person("Anna"), Person("Bob")
    options = {"name": "Anna", "speed": "normal", "finish_dead_hands": "1"}
    assert anna.client.post("/options", options).status_code == 303
    code = anna.deal(3)
    assert bob.join(code).status_code == 303
    assert anna.post("start").status_code == 200
    game = table_of(code)[1].game
    assert game.finish_dead_hands and not game.moon_off_shooter
    # both people pass their first three cards, then always play their highest legal card
    while game.phase == "passing" or not game.tricks_played or game.phase == "playing":
        person, (action, form) = next((p, needed(p)) for p in (anna, bob) if needed(p))
        if action == "play":
            form = {"card": game.legal_plays(person.seat)[-1]}
        assert person.post(action, **form).status_code == 200
        game = table_of(code)[1].game
    assert game.phase == "hand_over" and game.played_out_from == 7
    assert status_of(bob.page().content.decode()).startswith("No points are left in this hand.")
