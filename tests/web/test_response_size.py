"""A move's response stays under 6 KB, even for the largest one a game can produce: the last
card of a sixteen-hand game, with a moon, fourteen point cards laid out and a full sheet."""

import re

from game.engine import Game
from game.names import NAME_MAX
from tests.support.engine import craft, suit
from tests.support.web import HX, named_client, state_of, store

EVEN = [[6, 6, 7, 7], [7, 6, 6, 7], [7, 7, 6, 6], [6, 7, 7, 6]]
LIMIT = 6000  # bytes: "under 6 KB" read strictly


def last_card_of_a_long_game() -> Game:
    """Hand 16 (a keep hand): you hold every club and take all thirteen tricks."""
    history = [EVEN[i % 4] for i in range(15)]
    hands = {0: suit("C"), 1: suit("D"), 2: suit("S"), 3: suit("H")}
    game = craft(hands, k=16, history=history, number=999_999)
    while not (game.turn == 0 and len(game.hand(0)) == 1):
        game.play(game.turn, game.legal_plays(game.turn)[0])
    return game


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
