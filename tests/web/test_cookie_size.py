"""The whole Set-Cookie header stays under 4,096 bytes in every state a game can reach."""

from django.conf import settings
from django.contrib.sessions.backends.signed_cookies import SessionStore
from django.http import HttpResponse

from game.engine import Game, SplitMix64
from game.engine.handlog import kept_for_review
from game.names import NAME_MAX
from game.web.player import PlayerState, Stats
from game.web.session import save
from tests.support.web import game_of, pass_three, post, state_of, store
from tests.support.web import named_client as make_client

LIMIT = 4096
LONG_NAME = "\U0001d11e" * NAME_MAX  # 20 characters, each escaped to 12 bytes in JSON
BIG_STATS = Stats(
    played=999_999, won=999_999, streak=-999_999, longest_win=999_999,
    longest_loss=999_999, best=-999, moons=999_999,
)  # fmt: skip


def set_cookie_length(state: PlayerState) -> int:
    """The length of the header a response would send for this state."""
    session = SessionStore()
    save(session, state)
    session.save()
    response = HttpResponse()
    response.set_cookie(
        settings.SESSION_COOKIE_NAME,
        session.session_key,
        max_age=settings.SESSION_COOKIE_AGE,
        secure=True,
        httponly=True,
        samesite="Lax",
    )
    return len(response.cookies.output(header="Set-Cookie:"))


def longest_random_game(tries: int = 60) -> list[Game]:
    """Every state of the longest of ``tries`` seeded random games (most hands)."""
    best: list[Game] = []
    for attempt in range(tries):
        rng = SplitMix64.for_key(4096, attempt)
        game = Game.new(1 + attempt * 7919, moon_off_shooter=attempt % 2 == 1)
        states = [game.copy()]
        while game.phase != "game_over":
            if game.phase == "hand_over":
                game.next_hand()
            elif game.phase == "passing":
                for seat in range(4):
                    hand = game.hand(seat)
                    picks = []
                    while len(picks) < 3:
                        card = rng.choice(hand)
                        if card not in picks:
                            picks.append(card)
                    game.pass_cards(seat, picks)
            else:
                game.play(game.turn, rng.choice(game.legal_plays(game.turn)))
            states.append(game.copy())
        if len(states[-1].history) > len(best[-1].history if best else []):
            best = states
    return best


def test_every_state_of_the_longest_random_game_fits_with_undo_long_name_and_stats():
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
        largest = max(largest, set_cookie_length(state))
    print(f"largest Set-Cookie over {len(states)} states: {largest} bytes")
    assert largest < LIMIT


def test_a_whole_game_through_the_site_never_sends_a_cookie_too_large():
    client = make_client(LONG_NAME)
    state = state_of(client)
    state.stats = BIG_STATS
    store(client, state)
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
    print(f"largest Set-Cookie in a whole game: {largest} bytes")
    assert 0 < largest < LIMIT
