"""A move's response stays under 6 KB, even for the largest one a game can produce: the last
card of a sixteen-hand game, with a moon, fourteen point cards laid out and a full sheet; with
the game's own record (the final sheet offers Challenge a Friend) and without it.

The same last card played as a challenge sends the verdict and Send Your Result, and in place of
the hand-by-hand comparison a placeholder that fetches it (``/challenge/table``) once shown."""

import re
from html import escape

import pytest

from game.names import NAME_MAX
from game.solo.challenge import link_of
from game.web.challenge import Challenge, Result, Tally
from tests.support.web import (
    HX,
    last_card_of_a_long_game,
    longest_challenge,
    named_client,
    state_of,
    store,
)

LIMIT = 6000  # bytes: "under 6 KB" read strictly
NUMBER = 999_999  # last_card_of_a_long_game's


def at_the_last_card(record: bool = False, challenge=None):
    """A browser with the longest name at the last card of the sixteen-hand game: ``record``,
    played here from its first deal (its tally); ``challenge``, taken up from its link."""
    client = named_client("W" * NAME_MAX)
    if challenge is not None:
        response = client.post(f"/challenge/{link_of(challenge)}", {})
        assert response.status_code == 303
        assert state_of(client).challenge == challenge
    state = state_of(client)
    state.game = last_card_of_a_long_game()
    state.tally = Tally(NUMBER) if record else None
    store(client, state)
    response = client.post("/play", {"card": "AC", "seq": str(state.seq)}, **HX)
    html = response.content.decode()
    game = state_of(client).game
    assert game.phase == "game_over" and len(game.history) == 16
    assert game.history[-1] == (0, 26, 26, 26)
    assert len(re.findall(r'class="small face-', html)) == 14
    start = html.index('<table class="score-sheet">')
    sheet = html[start : html.index("</table>", start)]
    assert sheet.count('<tr><th scope="row">') == 16 + 1  # and the totals
    return client, response, html


@pytest.mark.parametrize("record", [False, True], ids=["no-record", "played-here"])
def test_the_largest_move_response_is_under_6_kb(record):
    _, response, html = at_the_last_card(record)
    assert ("Challenge a Friend" in html) == record
    print(f"largest move response, {'played here' if record else 'no record'}: "
          f"{len(response.content)} bytes")  # fmt: skip
    assert len(response.content) < LIMIT


def one_challenger(number: int) -> Challenge:
    """The shortest challenge: Anna alone, sixteen hands."""
    return Challenge(number, False, (Result("Anna", (6,) * 15 + (20,), True, 0, 0),))


CHALLENGES = {
    "anna-16-hands": one_challenger(NUMBER),
    "usual-moon-16-hands": longest_challenge(NUMBER, hands=16, moon_off_shooter=False),
    "link-maximum-40-hands": longest_challenge(NUMBER),
}
COMPARISON = '<table class="score-sheet challenge-table">'


@pytest.mark.parametrize("kind", CHALLENGES)
def test_the_last_move_of_a_challenge_sends_the_verdict_and_fetches_its_comparison(kind):
    """The move's sheet carries the verdict and, in place of the hand-by-hand comparison, a
    placeholder that loads it by a GET of its own; a whole page (a reload, no JavaScript)
    draws it inline. The sizes are printed: with the comparison, 7,845 B (Anna) to 14,880 B
    (the link's maximum) before."""
    challenge = CHALLENGES[kind]
    client, response, html = at_the_last_card(record=True, challenge=challenge)
    assert "Send Your Result" in html and 'id="challenge-verdict"' in html
    assert 'aria-describedby="challenge-verdict"' in html
    assert COMPARISON not in html
    assert 'hx-get="/challenge/table" hx-trigger="load"' in html
    comparison = client.get("/challenge/table", **HX)
    table = comparison.content.decode()
    assert table.startswith(COMPARISON) and "<caption>" in table
    hands = max(len(result.points) for result in challenge.results)
    assert table.count('<tr><th scope="row">') == hands + 3  # and Total, Undo Card, Hints
    assert all(f"<bdi>{escape(result.name)}</bdi>" in table for result in challenge.results)
    page = client.get("/").content.decode()  # a reload, or no JavaScript
    assert COMPARISON in page and 'hx-get="/challenge/table"' not in page
    print(f"last move of a challenge, {kind}: {len(response.content)} bytes "
          f"(its comparison, fetched after: {len(comparison.content)} bytes)")  # fmt: skip


@pytest.mark.xfail(
    strict=True,
    reason="a challenge's last move answers 6,244 to 6,712 bytes (the verdict, said on the sheet "
    "and by the live region, beside a sixteen-hand sheet): the one case over the 6 KB target, "
    "recorded in docs/measurements.md",
)
@pytest.mark.parametrize("kind", CHALLENGES)
def test_the_last_move_of_a_challenge_is_under_6_kb(kind):
    _, response, _ = at_the_last_card(record=True, challenge=CHALLENGES[kind])
    print(f"last move of a challenge, {kind}: {len(response.content)} bytes")
    assert len(response.content) < LIMIT
