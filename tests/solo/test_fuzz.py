"""Thousands of random requests, valid and not, through Django's test client: after each one no
answer is a 5xx, the cookie holds an intact game, a refused request changed nothing and a valid
move was taken."""

import re

from django.conf import settings
from django.test import Client
from django.utils.html import escape
from hypothesis import HealthCheck, note
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from game.engine import DECK, Game
from game.solo.actions import Clock, start_game
from game.web.session import UNREADABLE_NOTICE, load
from tests.support.web import store

COOKIE = settings.SESSION_COOKIE_NAME
HX = {"HTTP_HX_REQUEST": "true"}
ENDPOINTS = ["/name", "/select", "/pass", "/accept", "/play", "/next"]  # /new: a random deal
ODD_URLS = ["/", "/healthz", "/nowhere", "/play/", "/static/none.css", "//play", "/%ff"]
CARDS = [card.code for card in DECK]
REFUSAL = re.compile(r'class="status-line refusal">([^<]*)<')
STALE = "That was already done."

REQUESTS = {"sent": 0, "moves": 0}  # across all examples, printed at the end


class CountingClient(Client):
    def request(self, **request):
        REQUESTS["sent"] += 1
        return super().request(**request)


junk_text = st.text(max_size=40) | st.sampled_from(["", "2C", "10S", "qs", "ZZ", "\x00", "9" * 60])
card_like = st.sampled_from(CARDS) | st.sampled_from([c.lower() for c in CARDS]) | junk_text
# Draws never depend on the state of the table (hypothesis replays an example by its draws, and a
# new game after the last one is dealt at random): a choice among n things is PICK modulo n.
PICK = st.integers(0, 10**6)


def one_of(things: list, pick: int):
    return things[pick % len(things)]


def played_ahead(game: Game, steps: int) -> Game:
    """The game some steps on, every seat playing its first legal card (no thinking), stopped
    where the table waits for you: your turn, your pass, or a finished hand or game."""
    for _ in range(steps):
        if game.phase == "passing":
            for seat in range(4):
                if not game.has_passed(seat):
                    game.pass_cards(seat, game.hand(seat)[:3])
        elif game.phase == "playing":
            game.play(game.turn, game.legal_plays(game.turn)[0])
        elif game.phase == "hand_over":
            game.next_hand()
        else:
            break
    while game.phase == "playing" and game.turn != 0:
        game.play(game.turn, game.legal_plays(game.turn)[0])
    return game


class Table(RuleBasedStateMachine):
    """One browser at the table, and a stranger sending it anything."""

    def __init__(self):
        super().__init__()
        self.client = CountingClient()
        self.seqs: list[int] = []  # every seq this table has had, for stale forms

    # ---- sending and checking ----------------------------------------------------------------

    def table(self):
        return self.client.session.get("t")

    def state(self):
        return load(self.client.session)

    def send(self, method: str, url: str, data=None, htmx: bool = True, **extra):
        before = self.table()
        headers = {**(HX if htmx else {}), **extra}
        if method == "POST" and isinstance(data, bytes):
            kind = "application/x-www-form-urlencoded"
            response = self.client.generic("POST", url, data, content_type=kind, **headers)
        elif method == "POST":
            response = self.client.post(url, data or {}, **headers)
        else:
            response = self.client.generic(method, url, **headers)
        note(f"{method} {url} {data!r} htmx={htmx} -> {response.status_code}")
        assert response.status_code < 500, response.status_code
        refusal = self.refusal(response, htmx)
        if response.status_code >= 400 or refusal is not None:
            assert self.table() == before, f"refused ({refusal}) yet changed"
        if response.status_code == 303:  # as a browser does: follow it, and see the notice once
            shown = self.client.get(response["Location"])
            assert shown.status_code == 200
            if refusal is not None:
                assert escape(refusal) in shown.content.decode()
        state = self.state()
        if state.game is not None:
            self.seqs.append(state.seq)
        return response, refusal

    def refusal(self, response, htmx: bool) -> str | None:
        """The refusal sentence of a game response, None if it was taken."""
        if response.status_code != (200 if htmx else 303) or response.get("Server-Timing") is None:
            return None
        if htmx:
            found = REFUSAL.search(response.content.decode())
            return found.group(1) if found else None
        return self.client.session.get("msg")

    def move(self, url: str, **data):
        """A valid move: it must be taken, and the seq moves on."""
        seq = self.state().seq
        htmx = self.htmx
        response, refusal = self.send("POST", url, {"seq": str(seq), **data}, htmx=htmx)
        assert refusal is None, f"{url} {data} refused: {refusal}"
        REQUESTS["moves"] += 1
        assert self.state().seq > seq

    # ---- the player --------------------------------------------------------------------------

    @initialize(
        name=st.text(min_size=1, max_size=30),
        htmx=st.booleans(),
        number=PICK,
        ahead=st.integers(0, 700),
    )
    def sit_down(self, name, htmx, number, ahead):
        self.htmx = htmx
        self.send("GET", "/")
        response, refusal = self.send("POST", "/name", {"name": name}, htmx=htmx)
        if refusal is not None:  # a name of spaces and control characters only
            self.send("POST", "/name", {"name": "Ada"})
        state = self.state()  # the first game by its number, as "Game > Select Game" would
        state.game = None
        start_game(state, 1 + number % 1_000_000, Clock())
        state.game = played_ahead(state.game, ahead)  # to reach later hands and the game's end
        store(self.client, state)

    @rule(pick=PICK, flag=st.booleans())
    def valid_move(self, pick, flag):
        state = self.state()
        game = state.game
        if not state.options.name:
            self.move("/name", name=one_of(["Ada", "Grace", "\U0001d11e" * 9], pick))
            self.send("GET", "/")
        elif game is None:
            self.send("GET", "/")
        elif game.phase == "passing" and not game.has_passed(0):
            if len(state.selected) == 3 and flag:
                self.move("/pass")
            elif len(state.selected) == 3:
                self.move("/select", card=one_of(state.selected, pick))
            else:
                hand = [c for c in game.hand(0) if c not in state.selected]
                self.move("/select", card=one_of(hand, pick))
        elif state.awaiting_ok:
            self.move("/accept")
        elif game.phase == "playing":
            self.move("/play", card=one_of(game.legal_plays(0), pick))
        else:
            self.move("/next")

    @rule()
    def play_the_game_faster(self):
        """Two valid moves in a row, so that games reach their later hands and their end."""
        for _ in range(2):
            state = self.state()
            if state.game is None:
                return
            if state.awaiting_ok:
                self.move("/accept")
            elif state.game.phase == "playing":
                self.move("/play", card=state.game.legal_plays(0)[-1])
            elif state.game.phase in ("hand_over", "game_over"):
                self.move("/next")

    # ---- the stranger ------------------------------------------------------------------------

    @rule(url=st.sampled_from(ENDPOINTS), card=card_like, htmx=st.booleans())
    def any_card_anywhere(self, url, card, htmx):
        if url == "/name":
            card = card or " "
        self.send("POST", url, {"seq": str(self.state().seq), "card": card, "name": card}, htmx)

    @rule(url=st.sampled_from(ENDPOINTS), back=st.integers(1, 40), htmx=st.booleans())
    def stale_form(self, url, back, htmx):
        now = self.state().seq
        seq = self.seqs[-min(back, len(self.seqs))] if self.seqs else now
        if seq == now:
            seq = now - back
        response, refusal = self.send("POST", url, {"seq": str(seq), "card": "2C"}, htmx)
        assert refusal is not None and refusal.startswith(STALE)

    @rule(fields=st.dictionaries(junk_text, junk_text, max_size=5), url=st.sampled_from(ENDPOINTS))
    def garbage_fields(self, fields, url):
        fields.setdefault("seq", str(self.state().seq))
        if url == "/name":
            fields["name"] = fields.get("name", "").strip() and "  "
        self.send("POST", url, fields)

    @rule(body=st.binary(max_size=200), url=st.sampled_from(ENDPOINTS))
    def garbage_body(self, body, url):
        self.send("POST", url, b"seq=-1&name=+&" + body)

    @rule(
        method=st.sampled_from(["GET", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "POST"]),
        url=st.sampled_from(ENDPOINTS + ODD_URLS),
    )
    def wrong_endpoint_or_method(self, method, url):
        if method == "POST" and url in ENDPOINTS:
            method = "PUT"
        self.send(method, url, data={"seq": "-1"} if method == "POST" else None)

    @rule(
        how=st.sampled_from(["byte", "truncate", "garbage", "empty signature"]),
        pick=PICK,
        garbage=st.from_regex(r"[A-Za-z0-9_.:\-]{1,80}", fullmatch=True),
    )
    def tampered_cookie(self, how, pick, garbage):
        value = self.client.cookies[COOKIE].value
        if how == "byte":
            at = pick % len(value)
            value = value[:at] + ("A" if value[at] != "A" else "B") + value[at + 1 :]
        elif how == "truncate":
            value = value[: 1 + pick % (len(value) - 1)]
        elif how == "garbage":
            value = garbage
        else:
            value = value.rsplit(":", 1)[0] + ":"
        self.client.cookies[COOKIE] = value
        note(f"tampered cookie ({how}): {value!r}")
        response, _ = self.send("GET", "/")
        assert response.status_code == 200
        assert UNREADABLE_NOTICE in response.content.decode()
        self.seqs = []

    # ---- after every step ----------------------------------------------------------------

    @invariant()
    def the_game_is_intact(self):
        state = self.state()
        assert not state.unreadable
        game = state.game
        if game is None:
            return
        again = Game.from_dict(game.to_dict())  # consistent, by the engine's own check
        held = sum(len(again.hand(seat)) for seat in range(4))
        on_table = sum(len(t.plays) for t in again.completed_tricks) + len(again.trick)
        assert held + on_table == 52
        assert all(card in game.hand(0) for card in state.selected)


Table.TestCase.settings = hypothesis_settings(
    max_examples=40,
    stateful_step_count=60,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def test_random_requests_never_break_the_game():
    REQUESTS.update(sent=0, moves=0)
    Table.TestCase("runTest").runTest()
    print(f"fuzz: {REQUESTS['sent']} requests, {REQUESTS['moves']} of them valid moves")
    assert REQUESTS["sent"] > 2000
