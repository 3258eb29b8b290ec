"""Every game response says, in Server-Timing, how long the computer players thought and how
long the rest took (reading the session, the engine, rendering): browsers' developer tools and
the load test read it."""

import pytest
from django.test import Client

from tests.support.web import HX, game_of, named_client, parts, post, seq_of


def assert_split(response, *expected: str) -> None:
    timing = parts(response)
    assert "think" in timing  # the computer players' part, zero when they did not move
    for name in expected:
        assert name in timing
    assert set(timing) <= {
        "think",
        "wait",
        "queue",
        "session",
        "engine",
        "render",
        "framework",
        "total",
    }


def test_the_first_visit_and_the_name_prompt_carry_it():
    client = Client()
    assert_split(client.get("/"), "session", "render")
    assert_split(client.post("/name", {"name": "Ada"}), "session", "engine")
    assert_split(client.get("/"), "session", "render")


@pytest.mark.parametrize("htmx", [True, False])
def test_every_move_of_a_hand_carries_it_split_from_thinking(htmx):
    client = named_client()
    responses = []
    for code in game_of(client).hand(0)[:3]:
        responses.append(post(client, "/select", htmx, card=code))
    responses.append(post(client, "/pass", htmx))
    responses.append(post(client, "/accept", htmx))
    while game_of(client).phase == "playing":
        responses.append(post(client, "/play", htmx, card=game_of(client).legal_plays(0)[0]))
    responses.append(post(client, "/next", htmx))
    for response in responses:
        assert response.status_code == (200 if htmx else 303)
        assert_split(response, "session", "engine", *(["render"] if htmx else []))
    assert_split(client.get("/", **HX), "session", "render")


def test_refusals_and_stale_forms_carry_it_too():
    client = named_client()
    assert_split(post(client, "/play", card="2C"), "session", "engine", "render")
    assert_split(post(client, "/pass", seq="-5"), "session", "render")
    stale = seq_of(client)
    post(client, "/select", card=game_of(client).hand(0)[0])
    assert_split(post(client, "/select", seq=stale, card="2C", htmx=False), "session")


def test_think_measures_the_computer_players_and_only_them():
    client = named_client()
    code = game_of(client).hand(0)[0]
    assert parts(post(client, "/select", card=code))["think"] == 0.0  # nobody else moved
    post(client, "/select", card=code)  # and down again
    for code in game_of(client).hand(0)[-3:]:
        post(client, "/select", card=code)
    assert parts(post(client, "/pass"))["think"] > 0.0  # three computers chose their cards
