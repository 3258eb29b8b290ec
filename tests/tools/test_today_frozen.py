"""Today's players, frozen in ``tools.today`` as the bench's yardstick: their decisions are
pinned, so that no change to ``game.players`` can move them, and they run compiled."""

from __future__ import annotations

import hashlib

from game.engine import Game
from tools import today
from tools.today import jit

# Every pass and play of games 1 (standard moon rule) and 2 ("26 off the shooter") with four of
# today's players, as game.players decided them at commit d4ff45d, when the copy was made.
PINNED = "87216d90b18927fb0cf2a58a345af4ef15040c94aba546b752dfe67695ccf4eb"


def todays_hash(games: int) -> str:
    digest = hashlib.sha256()
    for number in range(1, games + 1):
        game = Game.new(number, number % 2 == 0)
        while game.phase != "game_over":
            if game.phase == "hand_over":
                game.next_hand()
            elif game.phase == "passing":
                for seat in range(4):
                    cards = today.choose_pass(game, seat)
                    digest.update(
                        f"{number} {game.hand_number} P{seat} {''.join(cards)}\n".encode()
                    )
                    game.pass_cards(seat, cards)
            else:
                seat = game.turn
                card = today.choose_play(game, seat)
                digest.update(f"{number} {game.hand_number} {seat} {card}\n".encode())
                game.play(seat, card)
        digest.update(f"{number} {game.totals}\n".encode())
    return digest.hexdigest()


def test_todays_players_decide_as_they_did_when_frozen():
    assert todays_hash(2) == PINNED


def test_todays_players_run_compiled():
    assert jit.status()[0] == "compiled", jit.status()[1]
