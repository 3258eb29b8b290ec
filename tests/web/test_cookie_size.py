"""The whole Set-Cookie header stays under 4,096 bytes in every state a game can reach."""

from game.web.challenge import COUNT_MAX, MAX_PEOPLE, Tally
from game.web.player import PlayerState
from tests.support.web import (
    LIMIT,
    big_client,
    largest_over_the_longest_game,
    largest_through_the_site,
    longest_challenge,
    state_of,
)


def test_every_state_of_the_longest_random_game_fits_with_undo_long_name_and_stats():
    largest, count = largest_over_the_longest_game()
    print(f"largest Set-Cookie over {count} states: {largest} bytes")
    assert largest < LIMIT


def test_a_whole_game_through_the_site_never_sends_a_cookie_too_large():
    largest = largest_through_the_site(big_client())
    print(f"largest Set-Cookie in a whole game: {largest} bytes")
    assert 0 < largest < LIMIT


# -- our addition: a challenge in progress (game.web.challenge) -------------------------------


def test_every_state_of_the_longest_game_fits_with_the_longest_challenge_in_progress():
    def in_a_challenge(state: PlayerState) -> None:
        state.tally = Tally(1_000_000, COUNT_MAX, COUNT_MAX, 10**6)
        state.challenge = longest_challenge()

    largest, _ = largest_over_the_longest_game(in_a_challenge)
    print(f"largest Set-Cookie with a challenge of {MAX_PEOPLE} results: {largest} bytes")
    assert largest < LIMIT


def test_a_whole_challenge_through_the_site_never_sends_a_cookie_too_large():
    from game.solo.challenge import link_of

    client = big_client()
    response = client.post(f"/challenge/{link_of(longest_challenge())}", {})
    assert response.status_code == 303
    assert state_of(client).challenge == longest_challenge()
    largest = largest_through_the_site(client)
    assert state_of(client).challenge == longest_challenge()  # kept to the end
    print(f"largest Set-Cookie in a whole challenge: {largest} bytes")
    assert 0 < largest < LIMIT
