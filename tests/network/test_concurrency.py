"""People acting at the same moment on one table, in real threads with connections of their
own: no move is lost and none is applied twice (the row's lock, or SQLite's write lock taken at
BEGIN, makes them queue)."""

import threading

import pytest
from django.db import connection, connections, transaction

from game.engine import Game
from game.models import Table
from game.network import store
from game.network import views as network
from game.solo import actions
from tests.support.network import Person, needed, status_of, table_of

pytestmark = pytest.mark.django_db(transaction=True)


def at_once(jobs) -> list:
    """Run the jobs in threads released together; their results, in order."""
    results: list = [None] * len(jobs)
    gate = threading.Barrier(len(jobs))

    def run(index, job):
        try:
            gate.wait(timeout=30)
            results[index] = job()
        except Exception as error:  # noqa: BLE001 - reported by the assertion below
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads)
    assert not any(isinstance(r, Exception) for r in results), results
    return results


def four_at_a_table() -> list[Person]:
    people = [Person(name) for name in ("Anna", "Bob", "Cleo", "Dan")]
    code = people[0].deal(617)
    for person in people[1:]:
        person.join(code)
    people[0].post("start")
    return people


def test_four_people_choosing_and_passing_at_the_same_moment_lose_nothing():
    people = four_at_a_table()
    row, state = table_of(people[0].code)
    choices = {p.seat: state.game.hand(p.seat)[:3] for p in people}

    def choose_and_pass(person):
        def job():
            answers = [person.post("select", card=card) for card in choices[person.seat]]
            answers.append(person.post("pass"))
            return [(a.status_code, status_of(a.content.decode())) for a in answers]

        return job

    results = at_once([choose_and_pass(p) for p in people])
    for answers in results:
        assert all(code == 200 for code, _ in answers), answers
        assert not any("already done" in sentence for _, sentence in answers), answers
    after_row, after = table_of(people[0].code)
    assert after_row.version == row.version + 16  # sixteen actions, each applied once
    assert after.game.phase == "playing"
    for person in people:
        assert set(after.game.passed(person.seat)) == set(choices[person.seat])
    Game.from_dict(after.game.to_dict())  # still a consistent game


def test_the_same_move_sent_twice_at_the_same_moment_is_applied_once():
    people = four_at_a_table()
    for _ in range(100):
        moves = [(p, needed(p)) for p in people if needed(p)]
        _, state = table_of(people[0].code)
        if state.game.phase == "playing" and not any(s.awaiting_ok for s in state.seats):
            break
        person, (action, form) = moves[0]
        person.post(action, **form)
    mover = next(p for p in people if p.seat == state.game.turn)
    card = state.game.legal_plays(mover.seat)[0]
    seq = mover.seq()
    before_row, before = table_of(mover.code)
    plays_before = before.game.tricks_played * 4 + len(before.game.trick)
    results = at_once(
        [lambda: mover.post("play", seq=seq, card=card).content.decode() for _ in range(3)]
    )
    sentences = sorted(status_of(html) for html in results)
    assert sum(1 for s in sentences if "already done" in s) == 2, sentences
    after_row, after = table_of(mover.code)
    assert after_row.version == before_row.version + 1
    assert after.game.tricks_played * 4 + len(after.game.trick) == plays_before + 1


def test_everyone_acting_as_fast_as_they_can_through_a_hand_loses_no_move():
    """Four people each act the moment it is their turn, until the first hand is over: a fixed
    amount of work (twelve cards chosen, four passes, four OKs, 52 cards), however fast the
    machine, so the verdict is a count, never a speed."""
    people = four_at_a_table()
    start_row, _ = table_of(people[0].code)

    def hand_over(person) -> bool:
        game = table_of(person.code)[1].game
        return game.phase in ("hand_over", "game_over")

    def keep_acting(person):
        def job():
            accepted = 0
            while not hand_over(person):
                move = needed(person)
                if move is None:
                    continue
                if move[0] == "next":  # the hand ended between the two reads
                    break
                html = person.post(move[0], **move[1]).content.decode()
                if 'class="status-line refusal"' not in html:
                    accepted += 1
            return accepted

        return job

    accepted = at_once([keep_acting(p) for p in people])
    row, state = table_of(people[0].code)
    assert row.version - start_row.version == sum(accepted)  # each accepted move, once
    Game.from_dict(state.game.to_dict())
    assert state.game.phase in ("hand_over", "game_over")
    assert state.game.tricks_played == 13
    assert sum(accepted) == 12 + 4 + 4 + 52


class SlowClock(actions.Clock):
    """A computer player who thinks until the test lets it: the Clock the table's view uses,
    whose every decision first waits for ``go``. ``thinking`` is set when one begins."""

    thinking = threading.Event()
    go = threading.Event()

    def think(self, fn, *args):
        def slowly(*inner):
            SlowClock.thinking.set()
            assert SlowClock.go.wait(timeout=60), "the test never let the computer finish"
            return fn(*inner)

        return super().think(slowly, *args)


def two_tables_one_slow(monkeypatch):
    """Table A (Ada alone, three computers, not started) and table B (Bea and Cy, started), the
    computers' thinking made slow until the test says: Ada, [Bea, Cy], B's row, a card of Bea's."""
    slow = Person("Ada")
    slow.deal(617)
    others = [Person("Bea"), Person("Cy")]
    others[0].deal(618)
    others[1].join(others[0].code)
    others[0].post("start")
    b_row, b_state = table_of(others[0].code)
    card = b_state.game.hand(0)[0]
    SlowClock.thinking.clear()
    SlowClock.go.clear()
    monkeypatch.setattr(network, "thinker", SlowClock)
    return slow, others, b_row, card


def test_a_move_at_one_table_goes_through_while_a_computer_thinks_at_another(monkeypatch):
    """Table A's dealer presses Start and its computers begin to think (slowly, until the test
    says). Meanwhile a person at table B selects a card: the move is saved and answered while
    A's computers are still thinking, then A's start is saved too."""
    slow, others, b_row, card = two_tables_one_slow(monkeypatch)
    events: list[str] = []

    def start_a():
        try:
            answer = slow.post("start")
            events.append(f"A answered {answer.status_code}")
        finally:
            connection.close()

    a = threading.Thread(target=start_a)
    a.start()
    try:
        assert SlowClock.thinking.wait(timeout=60)
        answer = others[0].post("select", card=card)
        events.append(f"B answered {answer.status_code}")
        assert a.is_alive() and not SlowClock.go.is_set()  # A is still thinking
    finally:
        SlowClock.go.set()
        a.join(timeout=120)
    assert events == ["B answered 200", "A answered 200"]
    after_row, after = table_of(others[0].code)
    assert after_row.version == b_row.version + 1
    assert after.seats[0].selected == [card]
    a_row, a_state = table_of(slow.code)
    assert a_state.game is not None and a_state.game.phase in ("passing", "playing")


def test_a_move_that_cannot_have_the_tables_lock_soon_is_told_the_table_is_busy(monkeypatch):
    """Another connection holds the table's lock (a write transaction on SQLite, the row's lock
    on PostgreSQL) for longer than a move may wait: the move answers a sentence, changes
    nothing, and the same move goes through once the lock is let go."""
    people = [Person("Ada"), Person("Bea")]
    code = people[0].deal(617)
    people[1].join(code)
    people[0].post("start")
    row, state = table_of(code)
    card = state.game.hand(0)[0]
    monkeypatch.setattr(store, "LOCK_WAIT_MS", 200)
    holding, release = threading.Event(), threading.Event()

    def hold_lock():
        try:
            with transaction.atomic():
                Table.objects.select_for_update().filter(code=code).update(touched=row.touched)
                holding.set()
                release.wait(timeout=60)
        finally:
            connection.close()

    holder = threading.Thread(target=hold_lock)
    holder.start()
    try:
        assert holding.wait(timeout=60)
        answer = people[0].post("select", card=card)
    finally:
        release.set()
        holder.join(timeout=60)
    assert answer.status_code == 286  # htmx swaps it in (4xx and 5xx it would not) and stops
    assert status_of(answer.content.decode()) == network.BUSY
    after_row, after = table_of(code)
    assert after_row.version == row.version and after.seats[0].selected == []
    assert people[0].post("select", card=card).status_code == 200
    assert table_of(code)[1].seats[0].selected == [card]


def test_through_the_servers_front_a_move_goes_through_while_another_table_thinks(monkeypatch):
    """The same, through the ASGI front that gunicorn serves (hearts_site.asgi, its threads as
    configured): table A's Start (its computers thinking until the test lets them) and then a
    card selected at table B go to one process; B's answer is sent while A's is not yet."""
    import asyncio
    import urllib.parse
    from concurrent.futures import ThreadPoolExecutor

    from hearts_site.asgi import application

    slow, others, b_row, card = two_tables_one_slow(monkeypatch)
    # the front's threads close their connections after each request, as the test's own do
    monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 0)
    token = "t" * 32
    events: list[str] = []

    def scope_and_body(person: Person, action: str, form: dict) -> tuple[dict, bytes]:
        seats = person.client.cookies["hearts_seats"].value
        body = urllib.parse.urlencode(
            {"csrfmiddlewaretoken": token, "seq": person.seq(), **form}
        ).encode()
        headers = [
            (b"host", b"testserver"),
            (b"hx-request", b"true"),
            (b"cookie", f"csrftoken={token}; hearts_seats={seats}".encode()),
            (b"content-type", b"application/x-www-form-urlencoded"),
            (b"content-length", str(len(body)).encode()),
        ]
        scope = {
            "type": "http", "method": "POST", "path": f"/t/{person.code}/{action}",
            "query_string": b"", "headers": headers, "http_version": "1.1", "scheme": "http",
            "server": ("testserver", 80), "client": ("127.0.0.1", 5000), "root_path": "",
        }  # fmt: skip
        return scope, body

    async def request(name: str, scope: dict, body: bytes) -> None:
        async def receive():
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message):
            if message["type"] == "http.response.start":
                events.append(f"{name} answered {message['status']}")

        await application(scope, receive, send)

    start_a = scope_and_body(slow, "start", {})
    select_b = scope_and_body(others[0], "select", {"card": card})

    async def both() -> None:
        a = asyncio.ensure_future(request("A", *start_a))
        loop = asyncio.get_running_loop()
        assert await loop.run_in_executor(None, SlowClock.thinking.wait, 60)
        try:
            await request("B", *select_b)
            assert not a.done() and not SlowClock.go.is_set()  # A is still thinking
        finally:
            SlowClock.go.set()
        await a

    # in a thread of its own: the browser tests leave Playwright's event loop running in this one
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, both()).result(timeout=120)
    assert events == ["B answered 200", "A answered 200"]
    assert table_of(others[0].code)[1].seats[0].selected == [card]
    assert table_of(slow.code)[1].game is not None
