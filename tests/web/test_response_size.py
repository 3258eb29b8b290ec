"""A move's response stays under 6 KB, even for the largest one a game can produce: the last
card of a sixteen-hand game, with a moon, fourteen point cards laid out and a full sheet."""

import re

from game.names import NAME_MAX
from tests.support.web import HX, last_card_of_a_long_game, named_client, state_of, store

LIMIT = 6000  # bytes: "under 6 KB" read strictly


def test_the_largest_move_response_is_under_6_kb():
    client = named_client("W" * NAME_MAX)
    state = state_of(client)
    state.game = last_card_of_a_long_game()
    store(client, state)
    response = client.post("/play", {"card": "AC", "seq": str(state.seq)}, **HX)
    html = response.content.decode()
    game = state_of(client).game
    assert game.phase == "game_over" and len(game.history) == 16
    assert game.history[-1] == (0, 26, 26, 26)
    assert len(re.findall(r'class="small face-', html)) == 14
    assert html.count('<tr><th scope="row">') == 16 + 1  # and the totals
    print(f"largest move response: {len(response.content)} bytes")
    assert len(response.content) < LIMIT
