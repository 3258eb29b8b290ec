"""A network table that strangers can trust: secret seeds, people told from computers, a lobby
the dealer keeps, per-seat waiting clocks that no griefer resets, actions that change nothing
saving nothing, lobbies and tables that expire, the Game menu's score, hint and undo, whole
names and a seat cookie that loses no seat."""

from __future__ import annotations

from html import unescape

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from game import players
from game.engine import Game
from game.engine.rng import SEED_BYTES, secret_deal, secret_key
from game.models import Table
from game.names import TOO_LONG
from game.network import seats, store
from game.network import views as network
from game.network.state import COMPUTER_NAMES
from game.players.view import view_of
from tests.support import hints
from tests.support.network import (
    HX,
    Person,
    redraw_at,
    seated,
    settle,
    started,
    status_of,
    table_of,
    wind_back,
)
from tests.support.web import hint_of

pytestmark = pytest.mark.django_db

SEED = bytes(range(16))
SECRET = 0  # the number of a secret deal: strangers' tables are dealt so


# ---- secret seeds ---------------------------------------------------------------------------


def test_a_game_dealt_from_a_seed_keeps_it_and_deals_each_hand_from_it():
    game = Game.new(0, seed=SEED)
    assert game.number == 0 and game.seed == SEED
    assert [game.hand(s) for s in range(4)] == [
        sorted((Game.new(1).hand(0) and _codes(cards)), key=_order)
        for cards in secret_deal(SEED, 1)
    ]
    again = Game.from_dict(game.to_dict())
    assert again.seed == SEED and again.to_dict() == game.to_dict()
    assert secret_deal(SEED, 1) != secret_deal(SEED, 2)
    assert secret_deal(SEED, 1) != secret_deal(bytes(16), 1)
    assert "z" not in Game.new(617).to_dict()  # a numbered (solo) game is saved as before
    with pytest.raises(ValueError):
        Game.new(0, seed=b"short")
    for bad in ("zz" * 16, "00" * 15, 7):
        data = {**game.to_dict(), "z": bad}
        with pytest.raises(ValueError):
            Game.from_dict(data)
    numbered = {**Game.new(5).to_dict(), "z": SEED.hex()}
    with pytest.raises(ValueError):  # a number and a seed at once: one of them is a lie
        Game.from_dict(numbered)


def _codes(cards: list[int]) -> list[str]:
    from game.engine import DECK

    return [DECK[c].code for c in cards]


def _order(code: str) -> int:
    from game.engine import Card

    return Card.parse(code).index


def test_the_computers_at_a_secret_game_are_keyed_by_its_seed_not_by_a_number():
    game = Game.new(0, seed=SEED)
    view = view_of(game, 1)
    assert view.number == secret_key(SEED) == game.random_key and view.number > 1_000_000
    assert players.choose_pass(game.copy(), 1) == players.choose_pass(Game.new(0, seed=SEED), 1)
    assert view_of(Game.new(617), 1).number == 617  # the solo game: keyed by its number


def test_a_network_table_deals_from_a_secret_seed_drawn_at_the_start_and_anew_each_game():
    anna, bob = seated("Anna", "Bob", number=SECRET)
    row, state = table_of(anna.code)
    assert state.number == 0 and state.game is None and "z" not in row.state
    lobby = bob.page().content.decode()
    assert "The cards are dealt in secret when the game starts." in lobby
    assert "<title>Hearts - Anna&#x27;s table</title>" in lobby and "Game #" not in lobby
    anna.post("start")
    game = table_of(anna.code)[1].game
    assert game.number == 0 and len(game.seed) == SEED_BYTES
    assert game.hand(0) == sorted(_codes(secret_deal(game.seed, 1)[0]), key=_order)
    page = bob.page().content.decode()
    assert "Game #" not in page and game.seed.hex() not in page
    seeds = {game.seed}
    # a second table: its own seed
    other = started("Cleo", number=SECRET)[0]
    seeds.add(table_of(other.code)[1].game.seed)
    assert len(seeds) == 2
    # after the game, the same people get a new game with a new seed
    settle([anna, bob], until=lambda s: s.game.phase == "game_over")
    settle([anna, bob], until=lambda s: s.game.phase != "game_over")
    new = table_of(anna.code)[1].game
    assert new.number == 0 and new.hand_number == 1 and new.seed not in seeds


def test_a_numbered_table_tells_every_seat_before_the_start_that_its_cards_can_be_looked_up():
    dialog = Client().get("/network", **HX).content.decode()
    assert "Anyone who knows a game number can look up every hand it deals." in dialog
    anna, bob = seated("Anna", "Bob", number=617)
    for person in (anna, bob):
        lobby = person.page().content.decode()
        assert "This table deals game #617, a numbered deal: anyone who knows the number can " in (
            lobby
        )
        assert "<title>Hearts - Anna&#x27;s table</title>" in lobby


# ---- people and computers ---------------------------------------------------------------------


def test_one_browser_holds_one_seat_however_it_asks_for_a_second():
    anna, bob = seated("Anna", "Bob", number=SECRET)
    for name, htmx in (("Bobby", False), ("Bob two", True)):
        response = bob.client.post(f"/t/{anna.code}/name", {"name": name}, **(HX if htmx else {}))
        assert response.status_code == 303
    state = table_of(anna.code)[1]
    assert [seat.name for seat in state.seats] == ["Anna", "Bob"]
    # the dealer too: no second seat at her own table
    anna.client.post(f"/t/{anna.code}/name", {"name": "Annie"})
    assert len(table_of(anna.code)[1].seats) == 2


@pytest.mark.parametrize("name", ["Pauline", "michele", " BEN "])
def test_a_person_may_not_take_a_computers_name_at_a_network_table(name):
    anna = Person("Anna")
    code = anna.deal(0)
    response = Person(name).join(code)
    assert response.status_code == 409
    html = response.content.decode()
    computer = next(c for c in COMPUTER_NAMES if c.casefold() == name.strip().casefold())
    assert f"{computer} is the name of a computer player here." in html
    assert "so that everyone at the table can tell people from computers" in html
    assert "What is your name?" in html  # asked again, not turned away
    assert len(table_of(code)[1].seats) == 1
    dealer = Client().post("/network", {"role": "dealer", "name": name, "number": ""})
    assert dealer.status_code == 400
    assert "is the name of a computer player here" in dealer.content.decode()


def test_names_at_a_table_differ_ignoring_case_and_none_is_cut_to_twenty_characters():
    long_name = "Bartholomew Higginbo"  # twenty characters, the most a name may have
    anna, bob = seated("Anna", long_name, number=SECRET)
    assert table_of(anna.code)[1].seats[1].name == long_name
    for name in ("ANNA", "anna", long_name.upper()):
        response = Person(name).join(anna.code)
        assert response.status_code == 409, name
        assert "Someone at this table is already called" in response.content.decode()
    # longer: refused with a sentence rather than cut (a cut name could pass for another's)
    response = Person(long_name + "ttom").join(anna.code)
    assert response.status_code == 400 and TOO_LONG in response.content.decode()
    assert Person("Anne").join(anna.code).status_code == 303


def test_the_table_marks_the_computers_for_the_eye_and_for_screen_readers():
    anna, bob = started("Anna", "Bob", number=SECRET)
    html = bob.page().content.decode()
    assert 'aria-label="Michele (a computer player), 13 cards"' in html
    assert 'aria-label="Anna, 13 cards"' in html
    assert '<bdi>Ben</bdi> <small class="net-computer" aria-hidden="true">(a computer player)' in (
        html
    )
    assert "<bdi>Anna</bdi></span>" in html


def test_the_dealer_removes_a_person_from_the_lobby_with_a_plain_form():
    anna, bob, cleo = seated("Anna", "Bob", "Cleo", number=SECRET)
    lobby = anna.page().content.decode()
    assert f'action="/t/{anna.code}/remove"' in lobby and "Remove <bdi>Bob</bdi>" in lobby
    assert "/remove" not in bob.page().content.decode()  # only the dealer may
    refused = bob.post("remove", htmx=False, seat="2")
    assert "Only the dealer, Anna, can remove a player." in refused.content.decode()
    response = anna.post("remove", htmx=False, seat="1")  # without JavaScript: a 303
    assert response.status_code == 303
    state = table_of(anna.code)[1]
    assert [seat.name for seat in state.seats] == ["Anna", "Cleo"]
    assert "What is your name?" in bob.page().content.decode()  # Bob is no longer seated
    assert cleo.page().status_code == 200
    anna.post("start")
    assert "nobody can be removed now" in anna.post("remove", seat="1").content.decode()


def test_when_the_dealer_has_left_the_lobby_the_next_person_may_start():
    anna, bob, cleo = seated("Anna", "Bob", "Cleo", number=SECRET)
    assert "Only the dealer, Anna, can start" in status_of(bob.post("start").content.decode())
    page = bob.page().content.decode()
    assert 'id="start-button"' not in page
    due = redraw_at(page)  # Bob's page asks to be drawn again when the dealer counts as gone
    row, state = table_of(anna.code)
    assert due == int(state.dealer_seen + network.dealer_gone_limit()) + 1
    # the dealer's page, still open, says she is here (no more than every 30 seconds)
    state.dealer_seen -= 40
    Table.objects.filter(pk=row.pk).update(state=state.to_json())
    anna.page()
    assert table_of(anna.code)[1].dealer_seen > state.dealer_seen + 35
    assert table_of(anna.code)[0].version == row.version  # noted without a new version
    # now she has gone for longer than the limit
    row, state = table_of(anna.code)
    state.dealer_seen -= network.dealer_gone_limit() + 1
    Table.objects.filter(pk=row.pk).update(state=state.to_json())
    assert bob.poll(row.version, due - network.dealer_gone_limit() - 1).status_code == 200
    page = bob.page().content.decode()
    assert "Anna has left the lobby. You may start the game (F2)." in page
    assert 'id="start-button"' in page and 'id="start-button"' not in cleo.page().content.decode()
    assert bob.post("start", htmx=False).status_code == 303
    assert table_of(anna.code)[1].game is not None


# ---- no stalls --------------------------------------------------------------------------------


class Clock:
    """The server's clock for the waiting timers, set by the test."""

    def __init__(self) -> None:
        self.now = timezone.now().timestamp()

    def __call__(self) -> float:
        return self.now


def test_a_griefer_toggling_a_card_every_50_seconds_cannot_keep_an_absent_person_seated(
    monkeypatch,
):
    clock = Clock()
    monkeypatch.setattr(store, "now_seconds", clock)
    # Bob has gone; Cleo toggles a card
    anna, bob, cleo = started("Anna", "Bob", "Cleo", number=SECRET)
    settle([anna], until=lambda s: s.game.has_passed(0))
    card = table_of(anna.code)[1].game.hand(2)[0]
    start = table_of(anna.code)[1].seats[1].waiting_since
    clock.now = start + 50
    assert cleo.post("select", card=card).status_code == 200  # a change: saved, a new version
    clock.now = start + 55
    html = anna.post("replace", seat="1").content.decode()
    assert "Bob has had 55 seconds so far. A computer player can take over after 60." in html
    assert "Let a computer play for Bob" not in anna.page().content.decode()
    clock.now = start + 60  # 10 s after Cleo's toggle, 60 s after the table began on Bob
    assert "Let a computer play for Bob" in anna.page().content.decode()
    anna.post("replace", seat="1")
    state = table_of(anna.code)[1]
    assert state.seats[1].away and state.game.has_passed(1)
    clock.now = start + 100
    assert cleo.post("select", card=card).status_code == 200  # and she toggles on
    assert not table_of(anna.code)[1].seats[2].selected


def test_a_griefer_pressing_ok_again_every_50_seconds_saves_nothing_and_bob_is_replaced(
    monkeypatch,
):
    clock = Clock()
    monkeypatch.setattr(store, "now_seconds", clock)
    anna, bob = started("Anna", "Bob", number=SECRET)
    settle([anna, bob], until=lambda s: s.game.phase == "hand_over")
    clock.now += 1
    anna.post("next")  # Anna is ready; the table waits on Bob from now
    row, state = table_of(anna.code)
    # the clock of each began when the hand ended: Anna's OK does not restart Bob's
    assert state.waiting_for() == [1] and state.seats[1].waiting_since == clock.now - 1
    version, seq = row.version, state.seats[0].seq
    # at the score sheet the table waits longer for a page still open (reading is not away)
    for _ in range(network.sheet_idle_limit() // 50 + 1):
        clock.now += 50
        again = anna.post("next")  # OK again: nothing changes
        assert again.status_code == 200 and "refusal" not in again.content.decode()
        row, state = table_of(anna.code)
        assert row.version == version and state.seats[0].seq == seq  # not saved, no version
    # past that wait since the table began waiting on Bob, although Anna pressed OK 50 s ago
    assert "Let a computer play for Bob" in anna.page().content.decode()
    assert anna.post("replace", seat="1").status_code == 200
    state = table_of(anna.code)[1]
    assert state.seats[1].away and state.game.phase in ("passing", "playing")


def test_the_clock_of_a_seat_starts_when_the_table_begins_waiting_on_it(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(store, "now_seconds", clock)
    anna, bob = started("Anna", "Bob", number=SECRET)
    start = clock.now
    state = table_of(anna.code)[1]
    assert state.seats[0].waiting_since == state.seats[1].waiting_since == start
    clock.now += 30
    settle([anna], until=lambda s: s.game.has_passed(0))
    state = table_of(anna.code)[1]
    assert state.seats[0].waiting_since == 0 and state.seats[1].waiting_since == start
    wind_back(anna.code, 1, 0)  # the helper itself reads the clock from the row
    clock.now = start + 59
    assert "A computer player can take over after 60." in status_of(
        anna.post("replace", seat="1").content.decode()
    )


def test_a_lobby_never_started_expires_after_an_hour_a_game_lives_a_day():
    lobby = Person("Anna")
    lobby_code = lobby.deal(0)
    playing = started("Bea", number=SECRET)[0]
    Table.objects.update(created=timezone.now() - store.LOBBY_LIFETIME * 1.01)
    assert store.purge() == 1
    assert list(Table.objects.values_list("code", flat=True)) == [playing.code]
    assert lobby.page().status_code == 404
    assert playing.page().status_code == 200
    # and a lobby reached after its hour is gone at once, before any purge
    other = Person("Cleo")
    code = other.deal(0)
    Table.objects.filter(code=code).update(created=timezone.now() - store.LOBBY_LIFETIME * 2)
    assert other.page().status_code == 404 and not Table.objects.filter(code=code).exists()
    assert lobby_code != code


def test_expired_tables_are_purged_without_a_table_being_created(monkeypatch):
    anna = Person("Anna")
    old, kept = anna.deal(0), started("Bea", number=SECRET)[0].code
    Table.objects.filter(code=old).update(touched=timezone.now() - store.LIFETIME * 1.01)
    monkeypatch.setattr(store, "PURGE_SHARE", 1)  # every table page purges
    count = Table.objects.count()
    # a stranger's look at another table (begun: asked for a name, to take a computer's seat)
    assert Client().get(f"/t/{kept}/").status_code == 200
    assert Table.objects.count() == count - 1 and not Table.objects.filter(code=old).exists()
    Table.objects.filter(code=kept).update(touched=timezone.now() - store.LIFETIME * 1.01)
    call_command("purge_tables")
    assert not Table.objects.exists()


# ---- the rest of the table ---------------------------------------------------------------------


def test_f4_shows_the_score_sheet_at_a_network_table():
    anna, bob = started("Anna", "Bob", number=SECRET)
    settle([anna, bob], until=lambda s: s.game.phase == "hand_over")
    dialog = bob.client.get(f"/t/{anna.code}/score", **HX).content.decode()
    assert 'id="dialog-score"' in dialog and "Hand 1." in dialog and "Game #" not in dialog
    totals = table_of(anna.code)[1].game.totals
    assert all(f">{points}<" in dialog for points in totals)
    page = bob.client.get(f"/t/{anna.code}/score")  # without JavaScript: the table and the sheet
    assert page.status_code == 200 and 'id="dialog-score"' in page.content.decode()
    assert Client().get(f"/t/{anna.code}/score").status_code == 403
    menu = bob.page().content.decode()
    assert 'data-key="F4"' in menu and 'data-key="h"' in menu and 'data-key="Ctrl+z"' in menu


def test_h_hints_at_the_cards_a_computer_would_choose_in_your_own_seat():
    anna, bob = started("Anna", "Bob", number=SECRET)
    row, state = table_of(anna.code)
    game = state.game
    expected = players.choose_pass(game.copy(), 1)
    html = bob.client.get(f"/t/{anna.code}/hint", **HX).content.decode()
    hinted = sorted(code for code in game.hand(1) if f"face-{code} hinted" in html)
    assert hinted == sorted(expected)
    assert status_of(html).startswith("Hint: pass the ")
    assert table_of(anna.code)[0].version == row.version  # nothing saved
    settle(
        [anna, bob],
        until=lambda s: (
            s.game.phase == "playing"
            and s.game.turn in (0, 1)
            and not s.seats[s.game.turn].awaiting_ok
        ),
    )
    state = table_of(anna.code)[1]
    turn = state.game.turn
    person, other = (anna, bob) if turn == 0 else (bob, anna)
    if state.seats[other.seat].awaiting_ok:
        other.post("accept")
    version = table_of(anna.code)[0].version
    card = players.choose_play(state.game.copy(), turn)
    html = person.client.post(f"/t/{anna.code}/hint", **HX).content.decode()
    assert f"face-{card} hinted" in html
    # why, from this seat's own search (the figures a computer in the seat would have)
    names = ["You" if s == turn else seat.name for s, seat in enumerate(state.seats)]
    figures = players.weigh_play(state.game.copy(), turn)
    hints.check_play(unescape(hint_of(html)), state.game, turn, figures, names)  # and Why?
    quiet = other.client.get(f"/t/{anna.code}/hint", **HX).content.decode()
    assert "There is nothing to choose now, so there is no hint." in quiet
    assert table_of(anna.code)[0].version == version


def test_undo_at_a_network_table_says_it_cannot_be_done():
    anna, bob = started("Anna", "Bob", number=SECRET)
    version = table_of(anna.code)[0].version
    for htmx in (True, False):
        html = bob.client.get(f"/t/{anna.code}/undo", **(HX if htmx else {})).content.decode()
        assert status_of(html) == (
            "Undo is not possible at a shared table: the other players have seen every card played."
        )
    assert table_of(anna.code)[0].version == version


def test_a_name_is_read_back_whole_cluster_by_cluster():
    accented = "e\u0301" * 20  # 20 letters, 40 code points
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # one cluster, 5 code points
    anna, bob = seated("Anna", accented, number=SECRET)
    cleo = Person(family * 3)
    assert cleo.join(anna.code).status_code == 303
    state = table_of(anna.code)[1]
    assert state.seats[1].name == accented and state.seats[2].name == family * 3
    assert accented in bob.page().content.decode()


def test_a_browser_keeps_its_seats_at_many_tables_and_is_told_when_it_can_keep_no_more():
    anna = Person("Anna")
    codes = [anna.deal(0) for _ in range(seats.COOKIE_TABLES)]
    cookie = anna.client.cookies[seats.COOKIE]
    assert len(cookie.OutputString()) < 4_096
    assert int(cookie["max-age"]) >= store.LIFETIME.total_seconds() * 30
    for code in codes:  # the ninth table and every other: still seated at each
        anna.code = code
        assert 'id="lobby-title"' in anna.page().content.decode()
    full = anna.client.post("/network", {"role": "dealer", "name": "Anna", "number": ""})
    assert full.status_code == 400 and seats.TOO_MANY_SEATS in full.content.decode()
    other = Person("Olga")
    code = other.deal(0)
    joined = anna.client.post(f"/t/{code}/name", {"name": "Anna"})
    assert joined.status_code == 409 and seats.TOO_MANY_SEATS in joined.content.decode()
    # a table that closed frees its place, and nothing else is lost
    Table.objects.filter(code=codes[0]).delete()
    assert anna.client.post(f"/t/{code}/name", {"name": "Anna"}).status_code == 303
    for kept in [*codes[1:], code]:
        anna.code = kept
        assert anna.page().status_code == 200 and "What is your name?" not in (
            anna.page().content.decode()
        )


def test_without_javascript_h_at_a_table_redirects_and_shows_the_hint_once():
    """Issue 50: a plain form's Hint left /hint in the address bar, and a reload posted it."""
    anna, bob = started("Anna", "Bob", number=SECRET)
    game = table_of(anna.code)[1].game
    expected = sorted(players.choose_pass(game.copy(), 1))
    sent = bob.client.post(f"/t/{anna.code}/hint")
    assert sent.status_code == 303 and sent["Location"] == f"/t/{anna.code}/"
    page = bob.client.get(sent["Location"]).content.decode()
    assert sorted(code for code in game.hand(1) if f"face-{code} hinted" in page) == expected
    assert status_of(page).startswith("Hint: pass the ")
    again = bob.client.get(sent["Location"]).content.decode()  # a reload: the table as it is
    assert " hinted" not in again and not status_of(again).startswith("Hint:")


def test_without_javascript_h_at_a_table_searches_once(monkeypatch):
    """Hint by a plain form ran the seat's search twice: once for the POST (whose answer is only
    a 303) and again for the table's page it leads to. The solo game searches once (9d8f486);
    so does a table. Counted where the search is asked for, the real search running."""
    anna, bob = started("Anna", "Bob", number=SECRET)
    searched = []
    weigh = players.weigh_pass

    def counted(*args):
        searched.append(args[1])
        return weigh(*args)

    monkeypatch.setattr(players, "weigh_pass", counted)
    sent = bob.client.post(f"/t/{anna.code}/hint")
    assert sent.status_code == 303
    page = bob.client.get(sent["Location"]).content.decode()
    assert status_of(page).startswith("Hint: pass the ")
    assert searched == [1], f"the hint's search ran {len(searched)} times for one Hint"
    # nothing to choose once Bob has passed: the refusal said once on the page, no search
    for card in table_of(anna.code)[1].game.hand(1)[:3]:
        bob.post("select", card=card)
    bob.post("pass")
    assert table_of(anna.code)[1].game.has_passed(1)
    sent = bob.client.post(f"/t/{anna.code}/hint")
    assert sent.status_code == 303
    page = bob.client.get(sent["Location"]).content.decode()
    assert searched == [1] and " hinted" not in page
    assert "no hint" in status_of(page), status_of(page)
    again = bob.client.get(sent["Location"]).content.decode()
    assert "no hint" not in status_of(again)
