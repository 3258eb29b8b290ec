"""A move's response stays under 6 KB, even for the largest one a game can produce: the last
card of a sixteen-hand game, with a moon, fourteen point cards laid out and a full sheet; with
the game's own record (the final sheet offers Challenge a Friend) and without it.

The same last card played as the longest challenge (the comparison of every hand, the verdict,
Send Your Result) does not fit: those cases are kept, expected to fail, with their figures."""

import re

import pytest

from game.names import NAME_MAX
from game.solo.challenge import link_of
from game.web.challenge import Tally
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
    return response, html


@pytest.mark.parametrize("record", [False, True], ids=["no-record", "played-here"])
def test_the_largest_move_response_is_under_6_kb(record):
    response, html = at_the_last_card(record)
    assert ("Challenge a Friend" in html) == record
    print(f"largest move response, {'played here' if record else 'no record'}: "
          f"{len(response.content)} bytes")  # fmt: skip
    assert len(response.content) < LIMIT


LONGEST = {
    "usual-moon-16-hands": longest_challenge(NUMBER, hands=16, moon_off_shooter=False),
    "link-maximum-40-hands": longest_challenge(NUMBER),
}


@pytest.mark.xfail(
    strict=True,
    reason="the comparison of the longest challenge does not fit in 6 KB: see /work/notes/trim.md",
)
@pytest.mark.parametrize("kind", LONGEST)
def test_the_last_move_of_the_longest_challenge_is_under_6_kb(kind):
    response, html = at_the_last_card(record=True, challenge=LONGEST[kind])
    assert "Send Your Result" in html and 'id="challenge-verdict"' in html
    assert "<bdi>\U0001d11e" in html  # the longest names are on the sheet
    print(f"last move of the longest challenge, {kind}: {len(response.content)} bytes")
    assert len(response.content) < LIMIT
