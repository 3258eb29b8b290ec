"""The whole Set-Cookie header stays under 4,096 bytes in every state a game can reach."""

from django.conf import settings

from game.engine.handlog import kept_for_review
from game.web.challenge import COUNT_MAX, MAX_PEOPLE, Tally
from game.web.player import PlayerState
from tests.support.web import (
    BIG_STATS,
    LIMIT,
    LONG_NAME,
    game_of,
    longest_challenge,
    longest_random_game,
    pass_three,
    post,
    set_cookie_length,
    state_of,
    store,
)
from tests.support.web import named_client as make_client


def largest_over_the_longest_game(dress=None) -> tuple[int, int]:
    """The longest Set-Cookie over every state of the longest random game, each with the undo
    snapshot, the last hand kept for review, a long name, big statistics and a notice, and
    whatever ``dress`` adds; and the number of states."""
    states = longest_random_game()
    assert len(states[-1].history) >= 10
    assert any(game.hand_number > 1 and game.phase == "playing" for game in states)
    largest = 0
    kept = None  # the last finished hand, kept for its review until the next one ends
    for before, game in zip(states, states[1:], strict=False):
        kept = kept_for_review(before, kept) if game.hand_number != before.hand_number else kept
        state = PlayerState(game=game, undo=before.to_dict(), seq=10**6, fresh_from=51)
        state.last_hand = kept
        state.options.name = LONG_NAME
        state.stats = BIG_STATS
        state.notice = "That was already done. The table shows where the game is now."
        if dress is not None:
            dress(state)
        largest = max(largest, set_cookie_length(state))
    return largest, len(states)


def largest_through_the_site(client) -> int:
    """The longest Set-Cookie the site sends while ``client`` plays its game to the end."""
    largest = 0
    while game_of(client).phase != "game_over":
        game = game_of(client)
        if game.phase == "passing":
            response = pass_three(client)
        elif state_of(client).awaiting_ok:
            response = post(client, "/accept")
        elif game.phase == "hand_over":
            response = post(client, "/next")
        else:
            response = post(client, "/play", card=game.legal_plays(0)[-1])
        cookie = response.cookies.get(settings.SESSION_COOKIE_NAME)
        if cookie is not None:
            largest = max(largest, len(cookie.output(header="Set-Cookie:")))
    return largest


def big_client():
    client = make_client(LONG_NAME)
    state = state_of(client)
    state.stats = BIG_STATS
    store(client, state)
    return client


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
