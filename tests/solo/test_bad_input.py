"""Strangers send anything: unreadable cookies start afresh with a notice, malformed requests get
a 4xx or a refusal, the game is never lost and no answer is a 500."""

import random
import time

import pytest
from django.conf import settings
from django.core import signing
from django.core.signing import JSONSerializer, TimestampSigner, b62_encode
from django.test import Client, override_settings

from game.names import NAME_MAX
from game.web.player import Stats
from game.web.session import COOKIE_LIMIT, SESSION_SALT, UNREADABLE_NOTICE, load, save
from tests.support.web import (
    HX,
    game_of,
    named_client,
    pass_three,
    post,
    seq_of,
    state_of,
    status_of,
    store,
)

COOKIE = settings.SESSION_COOKIE_NAME


def cookie_of(client: Client) -> str:
    return client.cookies[COOKIE].value


def signed(data: dict, **kwargs) -> str:
    """A cookie value signed the way the session backend signs one."""
    return signing.dumps(
        data, compress=True, salt=SESSION_SALT, serializer=JSONSerializer, **kwargs
    )


class SignerFromThePast(TimestampSigner):
    """Signs with a timestamp older than the session's age: what an old, expired cookie holds."""

    def timestamp(self):
        return b62_encode(int(time.time()) - settings.SESSION_COOKIE_AGE - 3600)


def playing_client() -> Client:
    client = named_client("Ada", 617)
    pass_three(client)
    post(client, "/accept")
    assert game_of(client).phase == "playing" and game_of(client).turn == 0
    return client


def valid_session_data() -> dict:
    return dict(playing_client().session.items())


def tampered(value: str) -> str:
    middle = len(value) // 2
    return value[:middle] + ("A" if value[middle] != "A" else "B") + value[middle + 1 :]


def unreadable_cookie(kind: str) -> str:
    value = cookie_of(playing_client())
    data = valid_session_data()
    return {
        "a byte changed": lambda: tampered(value),
        "truncated": lambda: value[: len(value) // 2],
        "garbage": lambda: "this-is-not-a-cookie",
        "too short to be a key": lambda: "6",
        "odd characters": lambda: "%FF%00::..:",
        "expired": lambda: SignerFromThePast(salt=SESSION_SALT).sign_object(
            data, serializer=JSONSerializer, compress=True
        ),
        "foreign key": lambda: signed(data, key="another-site's-secret-key-0123456789-abcdefghij"),
    }[kind]()


UNREADABLE = [
    "a byte changed",
    "truncated",
    "garbage",
    "too short to be a key",
    "odd characters",
    "expired",
    "foreign key",
]


def assert_fresh_start_on_page(client: Client, html: str) -> None:
    assert UNREADABLE_NOTICE in html
    state = load(client.session)  # the bad cookie was replaced by a readable one
    assert not state.unreadable
    assert state.notice == ""  # shown once


@pytest.mark.parametrize("kind", UNREADABLE)
def test_an_unreadable_cookie_starts_afresh_with_a_notice(kind):
    client = Client()
    client.cookies[COOKIE] = unreadable_cookie(kind)
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "What is your name?" in html  # the name was in the cookie too
    assert_fresh_start_on_page(client, html)
    assert client.get("/").status_code == 200
    assert UNREADABLE_NOTICE not in client.get("/").content.decode()


@pytest.mark.parametrize("htmx", [True, False])
@pytest.mark.parametrize("kind", UNREADABLE)
def test_a_move_with_an_unreadable_cookie_is_not_played_and_says_why(kind, htmx):
    client = Client()
    client.cookies[COOKIE] = unreadable_cookie(kind)
    response = client.post("/play", {"card": "2C", "seq": "7"}, **(HX if htmx else {}))
    if htmx:
        assert response.status_code == 200
    else:
        assert response.status_code == 303
        response = client.get("/")
    assert_fresh_start_on_page(client, response.content.decode())


def test_the_expired_cookie_would_be_read_if_it_were_fresh():
    """The expired case fails only by its age: the same data signed now is a saved game."""
    client = Client()
    client.cookies[COOKIE] = signed(valid_session_data())
    html = client.get("/").content.decode()
    assert UNREADABLE_NOTICE not in html
    assert game_of(client).phase == "playing"


def test_a_key_taken_out_of_the_fallbacks_no_longer_reads_the_cookie():
    client = playing_client()
    before = game_of(client)
    old_key = settings.SECRET_KEY
    with override_settings(SECRET_KEY="the-new-key-" + "x" * 50, SECRET_KEY_FALLBACKS=[old_key]):
        html = client.get("/").content.decode()
        assert UNREADABLE_NOTICE not in html
        assert game_of(client) == before  # still readable while the old key is a fallback
    client = playing_client()
    with override_settings(SECRET_KEY="the-new-key-" + "x" * 50, SECRET_KEY_FALLBACKS=[]):
        response = client.get("/")
        assert response.status_code == 200
        assert_fresh_start_on_page(client, response.content.decode())


def test_a_signed_cookie_with_an_inconsistent_game_keeps_the_name_and_deals_a_new_game():
    client = playing_client()
    data = dict(client.session.items())
    game = data["t"]["g"]
    game["h"][0] = game["h"][1]  # the same cards in two hands
    client.cookies[COOKIE] = signed(data)
    html = client.get("/").content.decode()
    assert_fresh_start_on_page(client, html)
    state = state_of(client)
    assert state.options.name == "Ada"
    assert state.game is not None and state.game.phase == "passing"
    assert state.game.hand_number == 1


@pytest.mark.parametrize(
    "data",
    [
        {"o": 5, "st": "x", "t": "not a table"},
        {"o": {"n": ["x"], "s": 99}, "st": {"p": "many", "r": ["a", 10**30, True]}},
        {"t": {"g": {"v": 1}}, "msg": 12},
        {"t": {"g": None, "q": "x"}},
    ],
)
def test_signed_nonsense_is_never_a_server_error(data):
    client = Client()
    client.cookies[COOKIE] = signed(data)
    for response in (
        client.get("/"),
        client.post("/play", {"card": "2C"}, **HX),
        client.post("/next", {}),
    ):
        assert response.status_code in (200, 303)
    assert load(client.session).options is not None


# ---- the size budget ---------------------------------------------------------------------


def header_length(response) -> int:
    cookie = response.cookies[COOKIE]
    return len(cookie.output(header="Set-Cookie:"))


def test_a_state_that_would_overflow_is_trimmed_oldest_statistics_first_and_keeps_the_game():
    client = playing_client()
    state = state_of(client)
    game_before = state.game.to_dict()
    rng = random.Random(4096)
    finished = [[rng.randint(1, 10**6), rng.randint(-26, 130)] for _ in range(900)]
    data = dict(client.session.items())
    data["o"]["n"] = "\U0001d11e" * NAME_MAX
    data["st"]["r"] = finished
    raw = signed(data)
    assert len(COOKIE) + 1 + len(raw) > COOKIE_LIMIT  # as stored, it would not fit
    client.cookies[COOKIE] = raw

    card = game_of(client).legal_plays(0)[0]
    response = post(client, "/play", card=card)
    assert response.status_code == 200
    assert header_length(response) < COOKIE_LIMIT

    after = state_of(client)
    assert after.game.to_dict() != game_before  # the move was played...
    plays = [play for trick in after.game.completed_tricks for play in trick.plays]
    assert (0, card) in plays + list(after.game.trick)  # ...and it was this move
    assert after.undo == game_before  # the undo snapshot fitted once the detail was trimmed
    kept = after.stats.recent
    assert 0 < len(kept) < len(finished)
    assert kept == finished[-len(kept) :]  # the newest games stayed, the oldest went


def test_the_undo_snapshot_goes_when_the_detail_is_not_enough_and_the_game_never_does():
    client = playing_client()
    state = state_of(client)
    state.stats = Stats(played=3, recent=[[1, 1], [2, 2], [3, 3]])
    # An undo snapshot far too large to fit (no real one is; this stands for any growth).
    state.undo = {"pad": "".join(f"{(i * 2654435761) % 10**9:09d}" for i in range(600))}
    game = state.game.to_dict()
    from django.contrib.sessions.backends.signed_cookies import SessionStore

    session = SessionStore()
    save(session, state)
    session.save()
    assert len(COOKIE) + 1 + len(session.session_key) < COOKIE_LIMIT - 100
    saved = load(SessionStore(session_key=session.session_key))
    assert saved.game.to_dict() == game
    assert saved.undo is None
    assert saved.stats.recent == []
    assert saved.stats.played == 3


def test_finished_games_keep_at_most_the_last_hundred_in_the_detail():
    stats = Stats()
    for score in range(150):
        stats.record(won=False, score=score, number=1000 + score)
    assert stats.recent == [[1000 + score, score] for score in range(50, 150)]
    assert stats.best == 0
    assert Stats.from_dict(stats.to_dict()) == stats


# ---- malformed requests ------------------------------------------------------------------


def table_of(client: Client):
    return client.session.get("t")


@pytest.fixture
def client():
    return playing_client()


@pytest.mark.parametrize("card", ["ZZ", "", "1", "QQQ", "x" * 5000, "2C\x00", "💔", "10", "-1"])
def test_an_unknown_card_is_refused_and_changes_nothing(client, card):
    before = table_of(client)
    response = post(client, "/play", card=card)
    assert response.status_code == 200
    assert "refusal" in response.content.decode()
    assert table_of(client) == before


@pytest.mark.parametrize("url", ["/pass", "/accept", "/next", "/select"])
def test_an_action_of_another_phase_is_refused_and_changes_nothing(client, url):
    before = table_of(client)
    response = post(client, url, card=game_of(client).hand(0)[0])
    assert response.status_code == 200
    assert "refusal" in response.content.decode()
    assert table_of(client) == before


def test_a_card_when_it_is_not_your_turn_is_refused(client):
    state = state_of(client)
    game = state.game
    game.play(0, game.legal_plays(0)[0])  # your card, and Pauline has not played yet
    assert game.turn == 1
    store(client, state)
    before = table_of(client)
    response = post(client, "/play", card=game.hand(0)[0])
    assert status_of(response.content.decode()).startswith("It is not your turn.")
    assert table_of(client) == before


@pytest.mark.parametrize("htmx", [True, False])
def test_a_double_submit_is_played_once_and_the_repeat_changes_nothing(client, htmx):
    form = {"card": game_of(client).legal_plays(0)[0], "seq": seq_of(client)}
    first = client.post("/play", form, **(HX if htmx else {}))
    assert first.status_code == (200 if htmx else 303)
    after_first = table_of(client)
    assert after_first["q"] == int(form["seq"]) + 1
    again = client.post("/play", form, **(HX if htmx else {}))
    assert again.status_code == (200 if htmx else 303)
    html = (again if htmx else client.get("/")).content.decode()
    assert status_of(html).startswith("That was already done.")
    assert table_of(client)["g"] == after_first["g"]


def test_a_stale_form_from_an_earlier_trick_replays_harmlessly(client):
    stale = seq_of(client)
    for _ in range(2):
        post(client, "/play", card=game_of(client).legal_plays(0)[0])
    before = table_of(client)
    for url, data in [("/play", {"card": "2C"}), ("/pass", {}), ("/next", {}), ("/select", {})]:
        response = post(client, url, seq=stale, **data)
        assert status_of(response.content.decode()).startswith("That was already done.")
        assert table_of(client) == before


@pytest.mark.parametrize("seq", ["abc", "", "-1", "1e9", "9" * 100, "\x00"])
def test_a_garbage_seq_is_taken_as_stale(client, seq):
    before = table_of(client)
    response = post(client, "/play", seq=seq, card=game_of(client).legal_plays(0)[0])
    assert response.status_code == 200
    assert table_of(client) == before


@pytest.mark.parametrize("content_type", ["application/x-www-form-urlencoded", None])
def test_a_huge_body_is_a_413_and_changes_nothing(client, content_type):
    before = table_of(client)
    if content_type:
        body = "seq=" + seq_of(client) + "&card=" + "A" * (5 * 1024 * 1024)
        response = client.post("/play", body, content_type=content_type, **HX)
    else:
        response = post(client, "/play", card="A" * (5 * 1024 * 1024))  # multipart
    assert response.status_code == 413  # refused before it is read (hearts_site.guard)
    assert table_of(client) == before


def test_too_many_fields_is_a_400(client):
    before = table_of(client)
    body = "&".join(f"f{i}=1" for i in range(1000))  # under the body limit, over the fields
    response = client.post("/play", body, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert table_of(client) == before


@pytest.mark.parametrize(
    "body, content_type",
    [
        (b"card=\xff\xfe\xfd&seq=1", "application/x-www-form-urlencoded"),
        (b"card=%FF%FE&seq=%C3%28", "application/x-www-form-urlencoded"),
        (b"card=2C&seq=999", "application/x-www-form-urlencoded; charset=no-such-charset"),
        (b"card=2C&seq=999", "application/x-www-form-urlencoded; charset=utf-16"),
        (b"card=2C&seq=999", "application/x-www-form-urlencoded; charset=latin-1"),
        (b"\x00\x01\x02\xff" * 1000, "application/octet-stream"),
        (b'{"card": "2C"}', "application/json"),
        (b"--x\r\nContent-Disposition: form-data; name=\"card\"\r\n\r\n\xff\r\n--x--",
         "multipart/form-data; boundary=x"),
        (b"--x\r\nbroken", "multipart/form-data; boundary=x"),
        (b"--x\r\nbroken", "multipart/form-data"),
    ],
)  # fmt: skip
def test_a_non_utf8_or_odd_body_is_a_4xx_or_a_refusal(client, body, content_type):
    before = table_of(client)
    # generic() sends the bytes as they are; post() would re-encode them for the charset.
    response = client.generic("POST", "/play", body, content_type=content_type, **HX)
    assert response.status_code in (200, 400)
    assert table_of(client)["g"] == before["g"]


WRONG_METHODS = [
    (url, method)
    for url in ["/play", "/pass", "/select", "/accept", "/next", "/name", "/new"]
    for method in ["get", "put", "delete", "patch", "options"]
    if (url, method)
    != ("/new", "get")  # GET /new is New Game's question (tests/solo/test_menus.py)
]


@pytest.mark.parametrize(("url", "method"), WRONG_METHODS)
def test_a_wrong_method_is_a_405_and_changes_nothing(client, method, url):
    before = table_of(client)
    response = getattr(client, method)(url)
    assert response.status_code == 405
    assert table_of(client) == before


@pytest.mark.parametrize("method", ["post", "put", "delete"])
def test_the_table_itself_only_answers_get(method):
    response = getattr(Client(), method)("/")
    assert response.status_code in (403, 405)


def test_a_post_without_the_csrf_token_is_a_403_and_changes_nothing(client):
    strict = Client(enforce_csrf_checks=True)
    strict.cookies = client.cookies
    before = table_of(client)
    card = game_of(client).legal_plays(0)[0]
    response = strict.post("/play", {"card": card, "seq": seq_of(client)}, **HX)
    assert response.status_code == 403
    assert table_of(client) == before


def test_a_wrong_csrf_token_is_a_403():
    strict = Client(enforce_csrf_checks=True)
    strict.get("/")
    response = strict.post("/name", {"name": "Eve", "csrfmiddlewaretoken": "x" * 64})
    assert response.status_code == 403
    assert load(strict.session).options.name == ""


def test_odd_headers_change_nothing(client):
    before = table_of(client)
    for headers in (
        {"HTTP_HX_REQUEST": "\xff"},
        {"HTTP_HX_CURRENT_URL": "javascript:alert(1)"},
        {"HTTP_ACCEPT": "\x00" * 100},
    ):
        response = client.get("/", **headers)
        assert response.status_code == 200
    assert table_of(client) == before


def test_a_good_move_still_plays_after_all_that(client):
    card = game_of(client).legal_plays(0)[0]
    response = post(client, "/play", card=card)
    assert response.status_code == 200
    assert "refusal" not in response.content.decode()
    assert state_of(client).undo is not None
