"""The challenge link's form (our addition): what it carries comes back exactly, it stays short
enough to paste in a chat, and no change to it, however small, is taken for a challenge."""

import random

import pytest

from game.engine import Game
from game.solo.challenge import Damaged, link_of, read_link
from game.web.challenge import (
    MAX_PEOPLE,
    Challenge,
    Result,
    Tally,
    Unreadable,
    link_name,
    pack,
    result_of,
    unpack,
    verdict,
    with_result,
)
from tests.support.web import longest_challenge

SITE = "https://hearts.skillsafe.ai/challenge/"


def anna(**changes) -> Result:
    return Result(**{"name": "Anna", "points": (0, 13, 5, 26, 2, 0), "won": True, **changes})


def test_what_a_link_carries_comes_back_exactly():
    rng = random.Random(617)
    for people in range(1, MAX_PEOPLE + 1):
        for moon in (False, True):
            low = -26 if moon else 0
            results = tuple(
                Result(f"P{i}", tuple(rng.randint(low, 26) for _ in range(rng.randint(1, 40))),
                       rng.random() < 0.5, rng.randint(0, 9), rng.randint(0, 70000))
                for i in range(people)
            )  # fmt: skip
            challenge = Challenge(rng.randint(1, 1_000_000), moon, results)
            back = read_link(link_of(challenge))
            assert [r.name for r in back.results] == [r.name for r in results]
            assert [r.points for r in back.results] == [r.points for r in results]
            assert [min(r.hints, 0xFFFF) for r in results] == [r.hints for r in back.results]
            assert (back.number, back.moon_off_shooter) == (challenge.number, moon)


def test_the_longest_link_is_a_few_hundred_characters():
    typical = len(SITE + link_of(Challenge(617, False, (anna(),))))
    two = len(SITE + link_of(Challenge(617, False, (anna(), anna(name="Bea")))))
    longest = len(SITE + link_of(longest_challenge()))
    print(f"link: one result {typical}, two {two}, the longest {longest} characters")
    assert typical < 150 and longest < 600


def test_a_name_is_cut_to_whole_letters_within_its_bytes():
    assert link_name("Anna") == "Anna"
    assert link_name("\U0001f469\u200d\U0001f4bb" * 5) == "\U0001f469\u200d\U0001f4bb" * 3
    assert len(link_name("é" * 20).encode()) == 40


def test_every_change_of_one_character_and_every_cut_is_refused():
    link = link_of(Challenge(617, False, (anna(), anna(name="Bea", won=False))))
    alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_.:"
    refused = 0
    for at, was in enumerate(link):
        for now in alphabet[(alphabet.index(was) + 1) % len(alphabet)], "9":
            if now == was:
                continue
            with pytest.raises(Damaged):
                read_link(link[:at] + now + link[at + 1 :])
            refused += 1
    for end in range(len(link)):
        with pytest.raises(Damaged):
            read_link(link[:end])
        refused += 1
    print(f"{refused} changed or cut links refused")


@pytest.mark.parametrize(
    "payload",
    ["", "AQ", "AgA", "AQBBbm5h", "AQAAAQ", "AQIEQW5uYQEAAAAAAA", "AQAEQW5uYQE1AAAAAA"],
)
def test_a_payload_that_is_not_ours_is_unreadable_even_when_signed(payload):
    with pytest.raises(Unreadable):
        unpack(617, payload)
    from game.solo.challenge import signer

    with pytest.raises(Damaged):
        read_link(signer().sign(f"617.{payload}"))


def test_points_beyond_a_hands_range_are_refused_by_the_rule_they_name():
    normal = pack(Challenge(617, False, (anna(points=(-26,)),)))  # only the variant goes below 0
    with pytest.raises(Unreadable):
        unpack(617, normal)
    assert unpack(617, pack(Challenge(617, True, (anna(points=(-26,)),)))).results[0].points == (
        -26,
    )


def test_a_result_is_only_for_a_game_over_with_its_tally():
    game = Game.new(617)
    assert result_of(game, 0, "Anna", Tally(617)) is None  # not over


def test_the_verdict_says_who_took_fewer_on_the_same_cards():
    you = Result("You", (10, 21), False)
    assert verdict(you, (anna(),)) == "You took 31 to Anna's 46 on the same cards: you did better."
    assert verdict(you, (anna(points=(31,)),)).endswith(": a tie.")
    assert verdict(you, (anna(points=(1,)), anna(name="Jess", points=(40,)))) == (
        "You took 31 to Anna's 1 and Jess' 40 on the same cards: Anna did best."
    )


def test_a_chain_keeps_the_first_and_the_latest_results():
    game = Game.new(617)
    chain = Challenge(617, False, tuple(anna(name=n) for n in "ABCD"))
    assert [r.name for r in with_result(game, chain, anna(name="E")).results] == list("ACDE")


def test_a_tally_of_another_game_offers_nothing():
    from tests.support.web import last_card_of_a_long_game

    game = last_card_of_a_long_game()
    while game.phase == "playing":
        game.play(game.turn, game.legal_plays(game.turn)[0])
    assert game.phase == "game_over"
    assert result_of(game, 0, "Anna", Tally(617)) is None  # kept for game #617, not this one
    assert result_of(game, 0, "Anna", Tally(game.number)) is not None


def test_the_link_on_the_final_sheet_costs_the_largest_move_response_little():
    """The largest answer to a move (tests/web/test_response_size.py's sixteen-hand game) with
    the final sheet's Challenge a Friend, against without it (a tally of another game)."""
    from tests.support.web import HX, last_card_of_a_long_game, named_client, state_of, store

    sizes = []
    for tally_number in (1, 999_999):
        client = named_client("W" * 20)
        state = state_of(client)
        state.game = last_card_of_a_long_game()
        state.tally = Tally(tally_number)
        store(client, state)
        response = client.post("/play", {"card": "AC", "seq": str(state.seq)}, **HX)
        sizes.append(len(response.content))
        assert ("Challenge a Friend" in response.content.decode()) == (tally_number == 999_999)
    print(f"largest move response: {sizes[0]} bytes, {sizes[1]} with Challenge a Friend")
    assert sizes[1] - sizes[0] < 80
