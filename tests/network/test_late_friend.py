"""A friend who opens the link after the start takes a computer player's seat at the next deal,
is told so while waiting, and sees nothing of that seat's cards before; a person's seat stays
theirs; a name too long is refused with a sentence, not cut."""

import pytest
from django.utils.html import escape

from game.engine import Card
from game.names import TOO_LONG
from game.network.state import NO_COMPUTER_SEAT
from game.web.review_page import NONE_YET
from tests.support.network import (
    Person,
    assert_honest,
    hand_over,
    settle,
    started,
    table_of,
    wind_back,
)

pytestmark = pytest.mark.django_db

ALL_CARDS = {f"{rank}{suit}" for rank in "23456789TJQKA" for suit in "CDSH"}


def snapshot(code: str) -> tuple[int, str]:
    row, _ = table_of(code)
    return row.version, row.state


def unplayed(code: str) -> set[str]:
    """Every card still in a hand: a friend who holds no seat may see none of them."""
    game = table_of(code)[1].game
    return {code for seat in range(4) for code in game.hand(seat)}


def assert_saw_no_hand(person: Person, hidden: set[str]) -> None:
    for _, body in person.received:
        assert_honest(body, hidden)
        assert b'name="card"' not in body and b"hand-form" not in body


def test_a_late_friend_is_asked_by_whose_table_and_takes_a_computers_seat_at_the_next_deal():
    anna, bob = started("Anna", "Bob")
    code = anna.code
    lee = Person("Lee")
    prompt = lee.client.get(f"/t/{code}/").content.decode()
    assert "Welcome to the Microsoft Hearts Network." in prompt
    assert "<bdi>Anna</bdi> has invited you to their table." in prompt
    assert "you take Michele's seat, where a computer player plays now" in prompt
    assert lee.join(code).status_code == 303
    state = table_of(code)[1]
    assert [s.name for s in state.seats] == ["Anna", "Bob", "Michele", "Ben"]
    assert state.seats[2].heir and not state.seats[2].person  # a computer plays on meanwhile

    waiting = lee.page().content.decode()
    assert "Waiting for this hand to end: Michele&#x27;s seat is yours from the next hand." in (
        waiting
    )
    assert "is yours from the next hand: a hand in play is not handed over halfway" in waiting
    assert "Lee sits here from the next hand" in anna.page().content.decode()  # others told
    hidden = unplayed(code)
    assert_saw_no_hand(lee, hidden)
    # he holds no seat until the deal: no action, no hint, no review of the computer's hand
    for action in ("play", "select", "pass", "accept", "next"):
        assert lee.client.post(f"/t/{code}/{action}", {"card": "2C"}).status_code == 403
    for what in ("hint", "score", "last-trick", "review"):
        assert lee.client.get(f"/t/{code}/{what}").status_code == 403

    settle([anna, bob], until=hand_over)
    version = table_of(code)[0].version
    assert b"arriving-title" in lee.poll(version - 1).content  # still waiting, told so
    assert_saw_no_hand(lee, hidden)
    settle([anna, bob], until=lambda state: state.game.hand_number == 2)

    state = table_of(code)[1]
    assert [s.name for s in state.seats] == ["Anna", "Bob", "Lee", "Ben"]
    assert state.seats[2].present and not state.seats[2].heir
    lee.seat = 2
    drawn = lee.poll(version).content.decode()
    assert "Select three cards to pass to Bob." in drawn  # hand 2 passes right
    review = lee.client.get(f"/t/{code}/review").content.decode()
    assert NONE_YET in review  # the hand before was Michele's, not his
    settle([anna, bob, lee], until=hand_over)
    assert table_of(code)[1].game.hand_number == 2


def test_late_friends_take_the_computers_seats_in_turn_never_a_persons():
    anna, bob = started("Anna", "Bob")
    code = anna.code
    settle([anna, bob], until=lambda state: state.game.phase == "playing")
    # Bob is away: a computer plays for him, yet his seat stays his
    turn = table_of(code)[1].game.turn
    person = anna if turn == 0 else bob
    wind_back(code, person.seat, 120)
    other = bob if person is anna else anna
    assert other.post("replace", seat=str(person.seat)).status_code == 200
    assert table_of(code)[1].seats[person.seat].away

    lee, mia, ned = Person("Lee"), Person("Mia"), Person("Ned")
    assert lee.join(code).status_code == 303
    same = Person("lee")
    refused = same.join(code)
    assert refused.status_code == 409
    assert "Someone at this table is already called lee." in refused.content.decode()
    assert "you take Ben's seat" in refused.content.decode()  # asked again, told where
    assert mia.join(code).status_code == 303
    before = snapshot(code)
    page = ned.client.get(f"/t/{code}/")
    assert page.status_code == 409 and escape(NO_COMPUTER_SEAT) in page.content.decode()
    assert ned.join(code).status_code == 409
    assert snapshot(code) == before
    state = table_of(code)[1]
    assert [(s.heir_name, s.person) for s in state.seats[2:]] == [("Lee", False), ("Mia", False)]
    assert state.seats[person.seat].name == person.name and state.seats[person.seat].away


def test_at_a_hand_end_the_late_friend_sits_down_with_the_next_deal_and_a_new_game_too():
    (anna,) = started("Anna")
    code = anna.code
    settle([anna], until=hand_over)
    lee = Person("Lee")
    assert lee.join(code).status_code == 303
    assert b"arriving-title" in lee.page().content
    assert anna.post("next").status_code == 200
    state = table_of(code)[1]
    assert state.game.hand_number == 2 and state.seats[1].name == "Lee"
    assert state.seats[1].late  # the hand kept for review was Pauline's, not his


def test_a_name_longer_than_twenty_characters_is_refused_with_a_sentence_not_cut():
    anna, bob = started("Anna", "Bob")
    prompt = Person("x").client.get(f"/t/{anna.code}/").content.decode()
    assert 'maxlength="20"' in prompt and "At most 20 characters." in prompt
    before = snapshot(anna.code)
    long = Person("Bartholomew Fitzgerald-Smythe")
    refused = long.join(anna.code)
    assert refused.status_code == 400
    assert TOO_LONG in refused.content.decode() and "What is your name?" in refused.content.decode()
    assert snapshot(anna.code) == before
    dealer = Person("Bartholomew Fitzgerald-Smythe").client.post(
        "/network", {"role": "dealer", "name": "Bartholomew Fitzgerald-Smythe"}
    )
    assert dealer.status_code == 400 and TOO_LONG in dealer.content.decode()
    assert Person("Twenty characters ok").join(anna.code).status_code == 303  # exactly 20


def test_the_friend_names_a_card_in_no_answer_before_the_deal():
    """The waiting page names no card at all, not even by its spoken name."""
    anna, bob = started("Anna", "Bob")
    lee = Person("Lee")
    lee.join(anna.code)
    body = lee.page().content.decode()
    for code in ALL_CARDS:
        assert Card.parse(code).name not in body
