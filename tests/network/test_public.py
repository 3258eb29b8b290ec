"""The public part of a network table (``game.network.public``): drawn once a step from the
table's state, naming no viewer and holding no hand, no form and no token; turned to a seat (as
static/js/network.js turns it, stated again here) and given that seat's own hand, it is the
table the seat's own fetch would have drawn."""

from __future__ import annotations

import re

import pytest

from game.engine import Card
from game.network.public import draw_step
from tests.support.network import needed, started, table_of

pytestmark = pytest.mark.django_db

PLACES = ("bottom", "left", "top", "right")
OPPONENT = re.compile(r'<section class="seat seat-s(\d)" aria-label=.*?</section>', re.S)
EMPTY_HAND = '<section class="seat seat-bottom" id="hand"></section>'
HAND = re.compile(r'<section class="seat seat-bottom" id="hand".*?</section>', re.S)


def turn(html: str, seat: int, own: str) -> str:
    """The public drawing as the page of ``seat`` shows it, with ``own`` (the seat's answer)
    giving its hand and its action count."""
    found = OPPONENT.findall(html), [m.group(0) for m in OPPONENT.finditer(html)]
    sections = dict(zip((int(s) for s in found[0]), found[1], strict=True))
    block = re.compile("|".join(re.escape(text) for text in sections.values()))
    first = True

    def order(match):
        nonlocal first
        if not first:
            return ""
        first = False
        return "".join(sections[(seat + step) % 4] for step in (1, 2, 3))

    html = block.sub(order, html)
    mine = str(seat)
    html = re.sub(
        r'aria-label="([^"]*)"([^<>]*?) data-you="(\d)" data-you-label="([^"]*)"',
        lambda m: f'aria-label="{m[4] if m[3] == mine else m[1]}"{m[2]}',
        html,
    )
    html = re.sub(
        r"\b(seat|at|to|pile|taken)-s([0-3])\b",
        lambda m: f"{m[1]}-{PLACES[(int(m[2]) - seat) % 4]}",
        html,
    )
    html = html.replace('data-seq=""', re.search(r'data-seq="\d+"', own).group(0), 1)
    return HAND.sub(lambda m: HAND.search(own).group(0), html, count=1)


def flat(html: str) -> str:
    return re.sub(r"> <", "><", re.sub(r"\s+", " ", html)).strip()


def into_the_play(people) -> None:
    """Act for the people until a trick has been taken and nobody waits on OK."""
    for _ in range(400):
        state = table_of(people[0].code)[1]
        game = state.game
        waiting = any(seat.awaiting_ok for seat in state.seats)
        if game.phase == "playing" and game.completed_tricks and game.trick and not waiting:
            return
        for person in people:
            wanted = needed(person)
            if wanted:
                assert person.post(wanted[0], **wanted[1]).status_code == 200
                break
    raise AssertionError("never reached the play")


@pytest.mark.parametrize("names", [("Ada", "Bea", "Cleo", "Dora"), ("Ada", "Bea", "Cleo")])
def test_the_public_part_turned_to_each_watching_seat_is_its_own_table(names):
    people = started(*names)
    into_the_play(people)
    checked = yours = 0
    for _ in range(60):
        row, state = table_of(people[0].code)
        game = state.game
        if game.phase != "playing":
            break
        since, mover = row.version, game.turn
        assert people[mover].post("play", card=game.legal_plays(mover)[0]).status_code == 200
        row, state = table_of(people[0].code)
        step = draw_step(row, since)
        if state.game.phase != "playing":
            assert step is None  # the hand is over: every page fetches its own
            break
        assert step is not None
        # every person but the mover and the seat whose turn it is now (with three people, a
        # computer's cards may come between them)
        expected = {p.seat for p in people} - {mover, state.game.turn}
        assert set(step.watchers.values()) == expected
        html = "\n".join(line.removeprefix("data: ") for line in step.data.split("\n"))
        assert "csrfmiddlewaretoken" not in html and 'name="seq"' not in html
        assert 'name="card"' not in html and "<form" not in html
        # no place seen from a seat, but the page's own hand and card (the same for every seat)
        own_places = html.replace(EMPTY_HAND, "").replace('played at-bottom"', "")
        assert re.search(r"\b(seat|at|to|pile)-(bottom|left|top|right)\b", own_places) is None
        for code in {c for s in range(4) for c in state.game.hand(s)}:
            assert f"face-{code}" not in html and Card.parse(code).name not in html, code
        for person in people:
            if person.seat not in step.watchers.values():
                continue
            answer = person.poll(since)
            assert answer.status_code == 200
            own = answer.content.decode()
            assert flat(turn(html, person.seat, own)) == flat(own)
            checked += 1
            yours += "won by you" in own and ": You: " not in own
    assert checked >= 8
    assert yours  # the last trick's pile said "you" to its winner, and the others its name


def test_no_step_is_drawn_across_the_pass_or_for_a_version_it_never_marked():
    people = started("Ada", "Bea", "Cleo", "Dora")
    row, _ = table_of(people[0].code)
    assert draw_step(row, row.version - 1) is None  # passing: no play to draw
    into_the_play(people)
    row, _ = table_of(people[0].code)
    assert draw_step(row, row.version) is None  # nothing new
    assert draw_step(row, 10_000) is None  # never marked
