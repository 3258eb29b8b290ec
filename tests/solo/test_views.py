"""The table through Django's test client: every phase and refusal, with and without htmx."""

import re

import pytest
from django.test import Client

from game.engine import Game, card_name
from game.names import TOO_LONG
from game.web.session import load
from game.web.table import won_sentence
from tests.support.web import (
    HX,
    game_of,
    named_client,
    pass_three,
    play_to_end_of_hand,
    post,
    seq_of,
    state_of,
    status_of,
    store,
)


def cards_in_hand(html: str) -> list[str]:
    return re.findall(r'<button type="\w+" name="card" value="(\w\w)"', html)


def button_of(html: str, code: str) -> str:
    found = re.search(rf'<button type="\w+" name="card" value="{code}"[^>]*>', html)
    assert found, code
    return found.group(0)


# ---- the name prompt ---------------------------------------------------------------------


def test_first_visit_asks_for_a_name_like_the_original():
    html = Client().get("/").content.decode()
    assert "Welcome to the Microsoft Hearts Network." in html
    assert "What is your name?" in html
    assert 'action="/name"' in html


@pytest.mark.parametrize("htmx", [True, False])
def test_an_empty_name_is_refused_and_nothing_is_stored(htmx):
    client = Client()
    response = client.post("/name", {"name": "  \t "}, **(HX if htmx else {}))
    if not htmx:
        assert response.status_code == 303
        response = client.get("/")
    html = response.content.decode()
    assert "Please type your name." in html
    assert "What is your name?" in html
    assert load(client.session).options.name == ""


@pytest.mark.parametrize("htmx", [True, False])
def test_a_name_longer_than_the_prompt_says_is_refused_never_cut(htmx):
    client = Client()
    response = client.post("/name", {"name": "Wilhelmina Augustina Smith"}, **(HX if htmx else {}))
    if not htmx:
        assert response.status_code == 303
        response = client.get("/")
    html = response.content.decode()
    assert TOO_LONG in html and "At most 20 characters." in html
    assert load(client.session).options.name == ""


def test_the_name_is_remembered_and_shown_by_your_hand():
    client = named_client("Grace")
    html = client.get("/").content.decode()
    assert '<span class="name"><bdi>Grace</bdi></span>' in html
    for name in ("Pauline", "Michele", "Ben"):
        assert f'<span class="name"><bdi>{name}</bdi></span>' in html


# ---- passing -----------------------------------------------------------------------------


def test_passing_phase_shows_the_sorted_hand_and_a_disabled_pass_left_button():
    client = named_client()
    html = client.get("/").content.decode()
    game = game_of(client)
    assert game.phase == "passing" and game.hand_number == 1
    assert cards_in_hand(html) == game.hand(0)
    assert status_of(html) == "Select three cards to pass to Pauline."
    assert re.search(r'id="pass-button" disabled>Pass Left<', html)
    first = game.hand(0)[0]
    assert f'<span class="label">{card_name(first)}</span>' in html
    assert "Hearts - Game #" in html


@pytest.mark.parametrize("htmx", [True, False])
def test_clicking_cards_raises_them_and_three_enable_the_button(htmx):
    client = named_client()
    hand = game_of(client).hand(0)
    for code in hand[:3]:
        response = post(client, "/select", htmx, card=code)
        assert response.status_code == (200 if htmx else 303)
    html = client.get("/").content.decode()
    for code in hand[:3]:
        assert 'aria-pressed="true"' in button_of(html, code)
        assert "raised" in button_of(html, code)
    assert 'aria-pressed="false"' in button_of(html, hand[3])
    assert re.search(r'id="pass-button">Pass Left<', html)

    post(client, "/select", htmx, card=hand[1])  # click again to lower it
    html = client.get("/").content.decode()
    assert "raised" not in button_of(html, hand[1])
    assert re.search(r'id="pass-button" disabled>', html)


def test_a_fourth_card_is_refused():
    client = named_client()
    hand = game_of(client).hand(0)
    for code in hand[:3]:
        post(client, "/select", card=code)
    html = post(client, "/select", card=hand[5]).content.decode()
    assert status_of(html).startswith("You can pass only three cards.")
    assert state_of(client).selected == hand[:3]


@pytest.mark.parametrize("htmx", [True, False])
def test_passing_fewer_than_three_is_refused_and_changes_nothing(htmx):
    client = named_client()
    post(client, "/select", htmx, card=game_of(client).hand(0)[0])
    before = client.session["t"]
    response = post(client, "/pass", htmx)
    html = (response if htmx else client.get("/")).content.decode()
    assert status_of(html) == "Select three cards to pass."
    assert client.session["t"] == before


@pytest.mark.parametrize("htmx", [True, False])
def test_after_the_pass_the_received_cards_are_raised_until_ok(htmx):
    client = named_client()
    chosen = game_of(client).hand(0)[-3:]
    response = pass_three(client, htmx)
    html = (response if htmx else client.get("/")).content.decode()
    game = game_of(client)
    received = game.received(0)
    assert len(received) == 3 and not set(received) & set(chosen)
    assert status_of(html) == "Press OK to accept cards."
    assert re.search(r'class="push" id="pass-button">OK<', html)
    for code in received:
        assert "raised" in button_of(html, code)
    assert not set(chosen) & set(cards_in_hand(html))
    assert game.passed(1) and game.received(2) == game.passed(1)  # Pauline passed to Michele

    response = post(client, "/accept", htmx)
    html = (response if htmx else client.get("/")).content.decode()
    assert status_of(html) == "Select a card to play."
    assert "raised" not in html.split('class="hand')[1].split("</div>")[0]
    assert game_of(client).turn == 0


def test_playing_before_accepting_is_refused():
    client = named_client()
    pass_three(client)
    code = game_of(client).hand(0)[0]
    html = post(client, "/play", card=code).content.decode()
    assert status_of(html) == "Press OK to accept cards."
    assert state_of(client).awaiting_ok


# ---- playing -----------------------------------------------------------------------------


def playing_client(number: int = 617) -> Client:
    client = named_client(number=number)
    pass_three(client)
    post(client, "/accept")
    return client


def test_only_legal_cards_are_lit():
    client = playing_client()
    html = client.get("/").content.decode()
    game = game_of(client)
    legal = set(game.legal_plays(0))
    assert legal
    for code in game.hand(0):
        assert ('aria-disabled="true"' in button_of(html, code)) == (code not in legal)


def test_the_computers_have_played_up_to_you_and_their_cards_are_on_the_table():
    client = playing_client(number=2)  # Pauline holds the two of clubs after the pass
    game = game_of(client)
    html = client.get("/").content.decode()
    assert game.turn == 0
    assert [seat for seat, _ in game.trick] == [1, 2, 3]
    for _, code in game.trick:
        assert f"face-{code}" in html


@pytest.mark.parametrize("htmx", [True, False])
def test_a_rule_breaking_card_is_refused_with_the_rules_sentence(htmx):
    client = playing_client()
    game = game_of(client)
    illegal = [c for c in game.hand(0) if c not in game.legal_plays(0)]
    assert illegal, "game 617 asks you to follow suit here"
    expected = ""
    try:
        game.copy().play(0, illegal[0])
    except ValueError as refusal:
        expected = str(refusal)
    before = client.session["t"]
    response = post(client, "/play", htmx, card=illegal[0])
    html = (response if htmx else client.get("/")).content.decode()
    assert expected and status_of(html) == expected
    assert client.session["t"] == before
    if not htmx:  # the message is shown once, then the status speaks normally again
        assert status_of(client.get("/").content.decode()) == "Select a card to play."


@pytest.mark.parametrize("value", ["ZZ", "", "QS" * 400, "\x00", "10"])
def test_nonsense_card_values_are_refused_without_harm(value):
    client = playing_client()
    before = client.session["t"]
    response = post(client, "/play", card=value)
    assert response.status_code == 200
    assert client.session["t"] == before


def test_a_card_you_do_not_hold_is_refused():
    client = playing_client()
    game = game_of(client)
    other = game.hand(1)[0]
    html = post(client, "/play", card=other).content.decode()
    assert status_of(html) == f"You do not have the {card_name(other)}."


def test_a_legal_card_is_played_and_the_computers_answer():
    client = playing_client()
    game = game_of(client)
    code = game.legal_plays(0)[0]
    html = post(client, "/play", card=code).content.decode()
    after = game_of(client)
    assert code not in after.hand(0)
    assert after.turn == 0 or after.phase != "playing"
    assert f"play the {card_name(code)}." in html  # the live region announces it
    assert 'hx-swap-oob="innerHTML"' in html
    assert state_of(client).undo == game.to_dict()


@pytest.mark.parametrize("htmx", [True, False])
def test_a_stale_or_repeated_submit_replays_harmlessly(htmx):
    client = playing_client()
    stale = seq_of(client)
    code = game_of(client).legal_plays(0)[0]
    post(client, "/play", htmx, card=code, seq=stale)
    after = client.session["t"]
    response = post(client, "/play", htmx, card=code, seq=stale)
    html = (response if htmx else client.get("/")).content.decode()
    assert status_of(html).startswith("That was already done.")
    assert client.session["t"] == after


def test_wrong_methods_are_refused():
    client = named_client()
    assert client.get("/play").status_code == 405
    assert client.get("/pass").status_code == 405
    assert client.post("/", {}).status_code == 405


def test_a_reload_shows_the_same_table():
    client = playing_client()
    first = client.get("/").content.decode()
    second = client.get("/").content.decode()
    strip = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')
    assert strip.sub("", first) == strip.sub("", second)


def test_fragment_and_whole_page_come_from_one_url():
    client = named_client()
    page = client.get("/")
    fragment = client.get("/", **HX)
    assert page.content.startswith(b"<!doctype html>")
    assert b"<html" not in fragment.content and b'<main id="table"' in fragment.content
    assert "HX-Request" in page["Vary"] and "HX-Request" in fragment["Vary"]
    assert "think;dur=" in page["Server-Timing"]


# ---- the end of a hand and of the game ---------------------------------------------------


def test_a_finished_hand_lays_out_point_cards_and_shows_the_score_sheet():
    client = named_client()
    play_to_end_of_hand(client)
    game = game_of(client)
    html = client.get("/").content.decode()
    assert game.phase in ("hand_over", "game_over")
    assert 'class="score-sheet"' in html
    row = game.history[0]
    cells = "".join(f"<td>{p}<i>{p}</i></td>" for p in row)
    assert '<tr><th scope="row">1</th>' + cells in html
    for seat in range(4):
        for code in game.taken(seat):
            if code[1] == "H" or code == "QS":
                assert f"small face-{code}" in html
    low = min(game.totals)
    leaders = [s for s in range(4) if game.totals[s] == low]
    cells = re.findall(r'<td(?: class="(\w+)")?>(-?\d+)</td>', html)
    assert [i for i, (cls, _) in enumerate(cells) if cls == "leader"] == leaders


def test_ok_deals_the_next_hand_passing_right():
    client = named_client()
    play_to_end_of_hand(client)
    html = post(client, "/next").content.decode()
    game = game_of(client)
    assert game.hand_number == 2 and game.pass_direction == "right"
    assert status_of(html) == "Select three cards to pass to Ben."
    assert re.search(r"disabled>Pass Right<", html)


def test_the_keep_hand_has_no_pass_button_and_play_starts():
    client = named_client()
    for _ in range(3):
        play_to_end_of_hand(client)
        post(client, "/next")
    game = game_of(client)
    html = client.get("/").content.decode()
    assert game.hand_number == 4 and game.pass_direction == "keep"
    assert game.phase == "playing" and game.turn == 0
    assert 'id="pass-button"' not in html
    assert status_of(html) == "Select a card to play."


def test_a_whole_game_ends_with_the_winner_in_red_and_a_new_game_after_ok():
    client = named_client()
    while game_of(client).phase != "game_over":
        play_to_end_of_hand(client)
        if game_of(client).phase == "hand_over":
            post(client, "/next")
    game = game_of(client)
    html = client.get("/").content.decode()
    assert max(game.totals) >= 100
    winners = game.winners
    cells = re.findall(r'<td(?: class="(\w+)")?>(-?\d+)</td>', html)
    assert [i for i, (cls, _) in enumerate(cells) if cls == "winner"] == list(winners)
    names = ["Ada", "Pauline", "Michele", "Ben"]
    result = "You won!" if 0 in winners else won_sentence(names, list(winners))
    assert f'<p class="result">{result}</p>' in html
    stats = state_of(client).stats
    assert stats.played == 1 and stats.won == (1 if 0 in winners else 0)

    post(client, "/next")
    fresh = game_of(client)
    assert fresh.phase == "passing" and fresh.hand_number == 1 and fresh.history == []
    assert state_of(client).stats.played == 1  # a finished game is not counted again


def test_the_sheet_after_each_hand_can_be_off():
    client = named_client()
    state = state_of(client)
    state.options.sheet_after_hand = False
    store(client, state)
    play_to_end_of_hand(client)
    html = client.get("/").content.decode()
    assert game_of(client).phase == "hand_over"
    assert 'class="score-sheet"' not in html
    assert 'class="continue' in html


def test_message_boxes_show_a_refusal_in_a_dialog():
    client = playing_client()
    state = state_of(client)
    state.options.message_boxes = True
    store(client, state)
    game = game_of(client)
    html = post(client, "/play", card=game.hand(1)[0]).content.decode()
    assert '<dialog open class="msgbox message"' in html


def test_the_game_survives_in_the_cookie_alone():
    client = playing_client()
    cookie = client.cookies["hearts"].value
    other = Client()
    other.cookies["hearts"] = cookie
    assert Game.from_dict(load(other.session).game.to_dict()) == game_of(client)


def test_while_the_computers_cards_arrive_the_status_says_whom_we_wait_for():
    client = playing_client()
    game = game_of(client)
    html = post(client, "/play", card=game.legal_plays(0)[0]).content.decode()
    order = [seat for seat, _ in game_of(client).last_trick.plays]
    names = {1: "Pauline", 2: "Michele", 3: "Ben"}
    after_you = [names[s] for s in order[order.index(0) + 1 :]]
    waits = re.findall(
        r'class="status-step t(\d+) e(\d+)">Waiting for <bdi>(\w+)</bdi> to move', html
    )
    assert after_you and [w[2] for w in waits][: len(after_you)] == after_you
    spans = [(int(start), int(until)) for start, until, _ in waits]
    assert all(start < until for start, until in spans)
    assert all(u1 <= s2 for (_, u1), (s2, _) in zip(spans, spans[1:], strict=False))


# ---- one write per request, none while rendering -----------------------------------------------


@pytest.mark.parametrize("htmx", [True, False])
def test_rendering_the_table_never_writes_the_session(htmx):
    from django.test import RequestFactory
    from django_htmx.middleware import HtmxDetails

    from game.solo.views import Timing, render_table

    client = named_client()
    request = RequestFactory().get("/", **(HX if htmx else {}))
    request.session = client.session
    request.htmx = HtmxDetails(request)
    state = load(request.session)
    state.notice = "A notice still to show."
    response = render_table(request, state, Timing(), state.notice)
    assert response.status_code == 200
    assert "A notice still to show." in response.content.decode()
    assert not request.session.modified
    assert state.notice == "A notice still to show."


def test_a_notice_is_shown_once_and_the_table_alone_sets_no_cookie():
    from django.conf import settings

    client = named_client()
    state = state_of(client)
    state.notice = "Shown once."
    store(client, state)
    first = client.get("/")
    assert status_of(first.content.decode()) == "Shown once."
    assert settings.SESSION_COOKIE_NAME in first.cookies  # the notice was taken: one write
    again = client.get("/")
    assert "Shown once." not in again.content.decode()
    assert settings.SESSION_COOKIE_NAME not in again.cookies  # nothing changed: no write
