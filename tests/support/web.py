"""Shared by the web tests: read what the page shows and play through the test client."""

import copy
import random
import re

from django.conf import settings
from django.contrib.sessions.backends.signed_cookies import SessionStore
from django.http import HttpResponse
from django.test import Client

from game.engine import Game, SplitMix64
from game.engine.handlog import kept_for_review
from game.names import NAME_MAX
from game.web.challenge import (
    COUNT_MAX,
    MAX_HANDS,
    MAX_PEOPLE,
    NAME_BYTES,
    Challenge,
    Result,
    link_name,
)
from game.web.player import PlayerState, Stats
from game.web.session import load, save
from tests.support.engine import craft, suit

HX = {"HTTP_HX_REQUEST": "true"}


def state_of(client: Client):
    return load(client.session)


def game_of(client: Client) -> Game:
    game = state_of(client).game
    assert game is not None
    return game


def seq_of(client: Client) -> str:
    return str(state_of(client).seq)


def status_of(html: str) -> str:
    found = re.search(r'class="status-line[^"]*">([^<]*)<', html)
    assert found, "no status line"
    return found.group(1)


def hint_of(html: str) -> str:
    """The hint the status bar shows and the rest of its reason behind "Why?", as one text."""
    why = re.search(r'<details class="hint-why"><summary>Why\?</summary><p>([^<]*)</p>', html)
    return status_of(html) + (f" {why.group(1)}" if why else "")


def named_client(name: str = "Ada", number: int = 617) -> Client:
    """A browser that has typed its name and sits at game ``number``."""
    from game.solo.actions import Clock, start_game

    client = Client()
    response = client.post("/name", {"name": name})
    assert response.status_code == 303
    client.get("/")  # deals a first game with a random number
    state = state_of(client)
    state.game = None
    start_game(state, number, Clock())
    store(client, state)
    return client


def post(client: Client, url: str, htmx: bool = True, **data):
    data.setdefault("seq", seq_of(client))
    return client.post(url, data, **(HX if htmx else {}))


def pass_three(client: Client, htmx: bool = True):
    game = game_of(client)
    for code in game.hand(0)[-3:]:
        post(client, "/select", htmx, card=code)
    return post(client, "/pass", htmx)


def play_to_end_of_hand(client: Client, htmx: bool = True):
    """Pass if needed, then play the first legal card until the hand is over."""
    game = game_of(client)
    if game.phase == "passing":
        pass_three(client, htmx)
    if state_of(client).awaiting_ok:
        post(client, "/accept", htmx)
    response = None
    while game_of(client).phase == "playing":
        response = post(client, "/play", htmx, card=game_of(client).legal_plays(0)[0])
    return response


def store(client: Client, state) -> None:
    """Write a changed state into the client's signed cookie, as a response would."""
    session = client.session
    save(session, state)
    session.save()
    client.cookies[settings.SESSION_COOKIE_NAME] = session.session_key


PART = re.compile(r"^([a-z]+);dur=(\d+(?:\.\d+)?)$")


def parts(response) -> dict[str, float]:
    header = response.headers.get("Server-Timing")
    assert header, f"no Server-Timing on {response.status_code} {response.request['PATH_INFO']}"
    found = {}
    for part in header.split(", "):
        match = PART.match(part)
        assert match, part
        found[match.group(1)] = float(match.group(2))
    return found


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


RANKS = "23456789TJQKA"


def winning_card(state: PlayerState) -> str | None:
    """A card with which you, the last to play to the trick on the table, take it (not the
    hand's last trick, so that a next trick follows and you lead it): the moment at which Undo
    Card stays offered after the computers have answered your card."""
    game = state.game
    if game is None or game.phase != "playing" or state.awaiting_ok or game.turn != 0:
        return None
    if len(game.trick) != 3 or game.tricks_played >= 12:
        return None
    led = game.trick[0][1][1]
    high = max(RANKS.index(code[0]) for _, code in game.trick if code[1] == led)
    for code in game.legal_plays(0):
        if code[1] == led and RANKS.index(code[0]) > high:
            return code
    return None


def longest_challenge(
    number: int = 617, hands: int = MAX_HANDS, moon_off_shooter: bool = True
) -> Challenge:
    """The most a link carries: MAX_PEOPLE results of MAX_HANDS hands, names of NAME_BYTES.
    ``hands=16, moon_off_shooter=False``: the most under the usual moon rule, in which no game
    lasts more than sixteen hands."""
    names = ["é" * 20, "\U0001d11e" * 10, "Ж" * 20, "ü" * 20]  # 40 bytes of UTF-8 each
    assert all(len(link_name(n).encode()) == NAME_BYTES for n in names)
    rng = random.Random(39)  # points that do not compress
    results = tuple(
        Result(name, tuple(rng.randint(-26 if moon_off_shooter else 10, 26) for _ in range(hands)),
               i == 0, COUNT_MAX, COUNT_MAX)
        for i, name in enumerate(names[:MAX_PEOPLE])
    )  # fmt: skip
    return Challenge(number, moon_off_shooter, results)


EVEN = [[6, 6, 7, 7], [7, 6, 6, 7], [7, 7, 6, 6], [6, 7, 7, 6]]


def last_card_of_a_long_game() -> Game:
    """Hand 16 (a keep hand): you hold every club and take all thirteen tricks."""
    history = [EVEN[i % 4] for i in range(15)]
    hands = {0: suit("C"), 1: suit("D"), 2: suit("S"), 3: suit("H")}
    game = craft(hands, k=16, history=history, number=999_999)
    while not (game.turn == 0 and len(game.hand(0)) == 1):
        game.play(game.turn, game.legal_plays(game.turn)[0])
    return game


def card_a_computer_takes(state: PlayerState) -> str | None:
    """On your turn, the first card you may play whose trick a computer takes and then leads
    the next one from, all before your turn comes back: the moment at which Undo Card has
    only the window of the trick still drawn (game.solo.actions.still_drawn)."""
    from game.solo import actions

    game = state.game
    if game is None or game.phase != "playing" or state.awaiting_ok or game.turn != 0:
        return None
    for code in game.legal_plays(0):
        tried = copy.deepcopy(state)
        actions.play(tried, code, actions.Clock())
        after = tried.game
        if after.phase == "playing" and after.trick and after.tricks_played > game.tricks_played:
            return code
    return None


# -- the largest cookie over a whole game (tests/web/test_cookie_size.py, tests/today/) -----------


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
    client = named_client(LONG_NAME)
    state = state_of(client)
    state.stats = BIG_STATS
    store(client, state)
    return client
