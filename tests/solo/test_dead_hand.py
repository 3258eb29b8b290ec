"""Our addition: "Finish the hand when no points are left" through the site: the
option in the cookie, the table and its status, the computers, undo and the cookie's size.

Game #7, passing the first three cards and always playing the last card that may be played:
the queen of spades and the last heart are gone after one of your cards before the last
(``DEAD_AFTER``), and the hand scores the same (``SCORE``) whether it is finished at once or
played on. The computers' choices decide both, so both are read off the engine's own replay
of the hand played on to its end (tests/support/game_7.py); when this was written, your
seventh card, and 19, 7, 0, 0.
"""

from __future__ import annotations

import random

from django.test import Client

from game import players
from game.engine import Game
from game.solo import actions
from game.web.player import Options, PlayerState
from tests.support import game_7 as replay
from tests.support.web import (
    BIG_STATS,
    HX,
    LIMIT,
    LONG_NAME,
    game_of,
    named_client,
    post,
    set_cookie_length,
    state_of,
    status_of,
)

DEAD_STATUS = "No points are left in this hand. Press OK to deal the next hand."
SCORE = replay.score()
DEAD_AFTER = replay.dead_after()  # your card that takes the last point out of play


def game_7(finish: bool) -> Client:
    """Game #7 started with the option as given, after the pass of the first three cards."""
    client = named_client("Ada")
    options = {"name": "Ada", "speed": "none", "sheet_after_hand": "1"}
    response = client.post("/options", {**options, "finish_dead_hands": "1" if finish else ""})
    assert response.status_code == 303
    client.post("/select-game", {"number": "7"})
    for code in game_of(client).hand(0)[:3]:
        post(client, "/select", card=code)
    post(client, "/pass")
    post(client, "/accept")
    return client


def play_last_lit(client: Client, times: int):
    response = None
    for _ in range(times):
        response = post(client, "/play", card=game_of(client).legal_plays(0)[-1])
    return response


def test_the_option_is_off_by_default_and_kept_in_the_cookie():
    assert Options().finish_dead_hands is False
    assert Options.from_dict({}).finish_dead_hands is False
    assert Options.from_dict(Options(finish_dead_hands=True).to_dict()).finish_dead_hands
    client = game_7(finish=True)
    assert client.session["o"]["d"] == 1
    assert state_of(client).options.finish_dead_hands is True
    assert game_of(client).finish_dead_hands is True
    assert client.session["t"]["g"]["d"] == 1
    assert 'name="finish_dead_hands" value="1" aria-describedby="dead-note" checked' in (
        client.get("/options", **HX).content.decode()
    )


def test_the_option_applies_from_the_next_game():
    client = named_client("Ada", 7)
    client.post("/options", {"name": "Ada", "speed": "none", "finish_dead_hands": "1"})
    assert game_of(client).finish_dead_hands is False
    client.post("/new")
    assert game_of(client).finish_dead_hands is True


def test_the_hand_ends_at_once_with_the_status_saying_why():
    client = game_7(finish=True)
    play_last_lit(client, DEAD_AFTER - 1)
    assert game_of(client).phase == "playing"
    assert game_of(client).points_left > 0
    html = play_last_lit(client, 1).content.decode()
    game = game_of(client)
    assert game.phase == "hand_over"
    assert game.played_out_from == DEAD_AFTER
    assert game.history[-1] == SCORE
    assert status_of(html) == DEAD_STATUS
    assert 'class="msgbox sheet' in html  # the score sheet follows at once
    assert html.count('<section class="taken taken-') == 4  # and the laid-out point cards
    for seat in range(4):
        assert f'aria-label="{replay.pile(seat)[0]}"' in html
    # the last trick played is gathered on the table; the tricks the engine played out are not
    assert html.count('class="played ') == 4
    last = [code for _, code in game.completed_tricks[DEAD_AFTER - 1].plays]
    assert all(f"face-{code}" in html for code in last)
    assert 'class="hand n' not in html


def test_with_the_option_off_the_same_hand_is_played_on_to_the_same_score():
    client = game_7(finish=False)
    html = play_last_lit(client, DEAD_AFTER).content.decode()
    assert status_of(html) == "Select a card to play."
    assert game_of(client).points_left == 0
    play_last_lit(client, 13 - DEAD_AFTER)
    assert game_of(client).phase == "hand_over"
    assert game_of(client).history[-1] == SCORE
    assert status_of(client.get("/").content.decode()) == "Press OK to deal the next hand."


def test_the_computers_never_play_a_card_once_no_points_are_left(monkeypatch):
    asked: list[int] = []
    choose_play = players.choose_play

    def watched(game: Game, seat: int) -> str:
        asked.append(game.points_left)
        return choose_play(game, seat)

    monkeypatch.setattr(players, "choose_play", watched)
    client = game_7(finish=True)
    play_last_lit(client, DEAD_AFTER)
    assert game_of(client).phase == "hand_over"
    assert len(asked) == DEAD_AFTER * 3  # the other cards of your tricks, and not one more
    assert min(asked) > 0


def test_the_undo_snapshot_keeps_the_rule():
    client = game_7(finish=True)
    play_last_lit(client, DEAD_AFTER - 1)
    assert state_of(client).undo["d"] == 1
    post(client, "/undo")
    game = game_of(client)
    assert game.finish_dead_hands is True
    assert game.tricks_played == DEAD_AFTER - 2 and game.turn == 0
    play_last_lit(client, 2)
    assert game_of(client).played_out_from == DEAD_AFTER
    assert game_of(client).history[-1] == SCORE


def test_every_state_of_a_game_with_the_rule_on_fits_in_the_cookie():
    rng = random.Random(4096)
    game = Game.new(8191, finish_dead_hands=True)
    before = game.copy()
    largest = dead = 0
    while game.phase != "game_over":
        if game.phase == "hand_over":
            game.next_hand()
        elif game.phase == "passing":
            for seat in range(4):
                game.pass_cards(seat, rng.sample(game.hand(seat), 3))
        else:
            before = game.copy()
            game.play(game.turn, rng.choice(game.legal_plays(game.turn)))
            dead += game.played_out_from is not None
        state = PlayerState(game=game, undo=before.to_dict(), seq=10**6, fresh_from=51)
        state.options = Options(name=LONG_NAME, moon_off_shooter=True, finish_dead_hands=True)
        state.stats = BIG_STATS
        state.notice = "That was already done. The table shows where the game is now."
        largest = max(largest, set_cookie_length(state))
    assert dead >= 1
    assert largest < LIMIT


def test_a_card_sent_after_the_dead_hand_is_refused_with_the_hand_over_sentence():
    client = game_7(finish=True)
    play_last_lit(client, DEAD_AFTER)
    before = game_of(client).to_json()
    html = post(client, "/play", card="AS").content.decode()
    assert status_of(html) == "The hand is over. Press OK to deal the next hand."
    assert game_of(client).to_json() == before


def test_start_game_takes_the_rule_from_the_options():
    state = PlayerState(options=Options(name="Ada", finish_dead_hands=True))
    actions.start_game(state, 7, actions.Clock())
    assert state.game.finish_dead_hands is True
