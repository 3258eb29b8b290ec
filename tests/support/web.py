"""Shared by the web tests: read what the page shows and play through the test client."""

import re

from django.test import Client

from game.engine import Game
from game.web.session import load

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
    from django.conf import settings

    from game.web.session import save

    session = client.session
    save(session, state)
    session.save()
    client.cookies[settings.SESSION_COOKIE_NAME] = session.session_key
