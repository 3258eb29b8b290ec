"""People at a network table, each a test client of their own (a browser with its own cookies)."""

from __future__ import annotations

import re

from django.test import Client

from game.engine import Card
from game.models import Table
from game.network.codes import TABLE_PATH
from game.network.state import TableState
from tests.support.turning import mover_page
from tests.support.web import HX, status_of  # noqa: F401 (the network tests take them from here)


def table_of(code: str) -> tuple[Table, TableState]:
    row = Table.objects.get(code=code)
    return row, TableState.from_json(row.state)


class Person:
    def __init__(self, name: str, code: str = "") -> None:
        self.name = name
        self.client = Client()
        self.code = code
        self.seat: int | None = None
        self.responses: list[tuple[str, bytes]] = []  # (what, body) of every answer seen
        self.received: list[tuple[dict[str, str], bytes]] = []  # every answer's headers, body

    def keep(self, response):
        """Everything this browser received: the headers (cookies too) and the body."""
        headers = dict(response.headers)
        headers["Set-Cookie"] = response.cookies.output()
        self.received.append((headers, response.content))
        return response

    # -- arriving ---------------------------------------------------------------------------

    def deal(self, number: int = 617) -> str:
        """Be the dealer of a new table: of game ``number``, or (0) of a secret deal."""
        response = self.keep(
            self.client.post(
                "/network",
                {"role": "dealer", "name": self.name, "number": "" if not number else str(number)},
            )
        )
        assert response.status_code == 303, response.content[:400]
        self.code = TABLE_PATH.match(response["Location"]).group(1)
        self.seat = 0
        return self.code

    def join(self, code: str, htmx: bool = False):
        self.code = code
        response = self.keep(
            self.client.post(f"/t/{code}/name", {"name": self.name}, **(HX if htmx else {}))
        )
        if response.status_code in (200, 303):
            state = table_of(code)[1]
            names = [seat.name for seat in state.seats]
            if self.name in names:
                self.seat = names.index(self.name)
        return response

    # -- acting -----------------------------------------------------------------------------

    def seq(self) -> str:
        return str(table_of(self.code)[1].seats[self.seat].seq)

    def post(self, action: str, htmx: bool = True, raw: bool = False, **data):
        """The answer to an action; a card's answer built from the step (``Hearts-Drawn:
        mover``) made the table the page makes of it (``tests.support.turning``), unless
        ``raw``."""
        data.setdefault("seq", self.seq())
        response = self.keep(
            self.client.post(f"/t/{self.code}/{action}", data, **(HX if htmx else {}))
        )
        if not raw and response.get("Hearts-Drawn") == "mover":
            response.content = mover_page(response.content.decode()).encode()
        self.responses.append((action, response.content))
        return response

    def page(self, since: int | None = None):
        url = f"/t/{self.code}/" + ("" if since is None else f"?v={since}")
        response = self.keep(self.client.get(url))
        self.responses.append(("page", response.content))
        return response

    def poll(self, version: int, redraw_at: int = 0):
        response = self.keep(
            self.client.get(f"/t/{self.code}/poll?v={version}&i={redraw_at}", **HX)
        )
        self.responses.append(("poll", response.content))
        return response


def seated(*names: str, number: int = 617) -> list[Person]:
    """People of these names at one new table (the first deals game ``number``, 0 for a secret
    deal), each joined by the link; not started."""
    people = [Person(name) for name in names]
    code = people[0].deal(number)
    for person in people[1:]:
        assert person.join(code).status_code == 303
    return people


def started(*names: str, number: int = 617) -> list[Person]:
    """``seated``, then the dealer starts the game."""
    people = seated(*names, number=number)
    assert people[0].post("start").status_code == 200
    return people


def needed(person: Person) -> tuple[str, dict] | None:
    """What this person must do now for the game to go on, as (action, form), or None."""
    state = table_of(person.code)[1]
    game, me = state.game, state.seats[person.seat]
    if me.away:
        return None
    if game is None:
        return ("start", {}) if person.seat == 0 else None
    if game.phase == "passing" and not game.has_passed(person.seat):
        hand = game.hand(person.seat)
        missing = [c for c in hand[:3] if c not in me.selected]
        if len(me.selected) < 3:
            return "select", {"card": missing[0]}
        return "pass", {}
    if me.awaiting_ok:
        return "accept", {}
    if game.phase == "playing" and game.turn == person.seat:
        return "play", {"card": game.legal_plays(person.seat)[0]}
    if game.phase in ("hand_over", "game_over") and not me.ready:
        return "next", {}
    return None


def unplayed_elsewhere(state: TableState, seat: int) -> set[str]:
    """The other seats' unplayed cards, less the three this seat passed: it knows where those
    went (the screen reader is told "You pass ... to Bob"), as at a real table."""
    game = state.game
    if game is None:
        return set()
    others = {code for other in range(4) if other != seat for code in game.hand(other)}
    return others - set(game.passed(seat))


def assert_honest(body: bytes, hidden: set[str]) -> None:
    """None of ``hidden`` (other seats' unplayed cards) is in the answer: not as a card face,
    not as a form value, not by name."""
    html = body.decode()
    for code in hidden:
        assert f"face-{code}" not in html, code
        assert f'value="{code}"' not in html, code
        assert Card.parse(code).name not in html, code


def redraw_at(html: str) -> int:
    """The Unix second after which the page's poll asks to be drawn again (0: never)."""
    found = re.search(r"/poll\?v=\d+&amp;i=(\d+)", html)
    assert found, "no poll"
    return int(found.group(1))


def wind_back(code: str, seat: int, seconds: float) -> None:
    """Move the moment the table began waiting on ``seat`` back by ``seconds``, in the row:
    time passes for the waiting clock without the test sleeping."""
    row, state = table_of(code)
    assert state.seats[seat].waiting_since, "the table is not waiting on that seat"
    state.seats[seat].waiting_since -= seconds
    Table.objects.filter(pk=row.pk).update(state=state.to_json())


def settle(people: list[Person], htmx: bool = True, until=None, limit: int = 2_000) -> int:
    """These people do what is needed, one action at a time, until none of them is needed or
    ``until(state)`` holds; the number of actions taken."""
    for done in range(limit):
        state = table_of(people[0].code)[1]
        moves = [(p, needed(p)) for p in people]
        moves = [(p, m) for p, m in moves if m is not None]
        if not moves or (until is not None and until(state)):
            return done
        person, (action, form) = moves[0]
        response = person.post(action, htmx, **form)
        assert response.status_code in (200, 303), (action, response.status_code)
        if htmx:
            assert 'class="status-line refusal"' not in response.content.decode(), (
                action,
                status_of(response.content.decode()),
            )
            after = table_of(people[0].code)[1]
            assert_honest(response.content, unplayed_elsewhere(after, person.seat))
    raise AssertionError("the game did not settle")


def hand_over(state: TableState) -> bool:
    """The first hand is over (``settle``'s ``until``): nobody has pressed OK on the sheet."""
    return state.game.phase in ("hand_over", "game_over")


def act_until(people: list[Person], reached, tries: int = 400) -> None:
    """Act for the people, one needed action at a time, until ``reached(state)`` holds of the
    table's state and nobody waits on OK."""
    for _ in range(tries):
        state = table_of(people[0].code)[1]
        if reached(state) and not any(seat.awaiting_ok for seat in state.seats):
            return
        for person in people:
            wanted = needed(person)
            if wanted:
                assert person.post(wanted[0], **wanted[1]).status_code == 200
                break
    raise AssertionError("never reached the state looked for")
