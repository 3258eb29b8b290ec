"""Every decision of the computer players over whole games, as one SHA-256.

A refactor of the engine or the players must leave this hash alone; a change that means to
play differently updates the pinned hash in ``tests/players/test_golden.py`` on purpose.

``python -m tests.support.golden_moves [--games N]`` prints the hash of the first N games (and of
the scripted-human games) so that a before/after comparison needs no test run.
"""

from __future__ import annotations

import argparse
import hashlib

from game.engine import Game
from game.players import choose_pass, choose_play


def _human_pass(game: Game) -> list[str]:
    """A scripted person: passes their three highest cards by the hand's sort order."""
    return [str(card) for card in game.hand(0)[-3:]]


def _human_play(game: Game) -> str:
    """A scripted person: plays the first legal card."""
    return str(game.legal_plays(0)[0])


def play_game(number: int, moon_off_shooter: bool, scripted_human: bool, digest) -> None:
    """Play game ``number`` to its end, feeding each decision into ``digest``."""
    game = Game.new(number, moon_off_shooter)
    while game.phase != "game_over":
        if game.phase == "hand_over":
            game.next_hand()
            continue
        if game.phase == "passing":
            for seat in range(4):
                if scripted_human and seat == 0:
                    cards = _human_pass(game)
                else:
                    cards = [str(card) for card in choose_pass(game, seat)]
                digest.update(f"{number} {game.hand_number} P{seat} {''.join(cards)}\n".encode())
                game.pass_cards(seat, cards)
            continue
        seat = game.turn
        card = _human_play(game) if scripted_human and seat == 0 else str(choose_play(game, seat))
        digest.update(f"{number} {game.hand_number} {seat} {card}\n".encode())
        game.play(seat, card)
    digest.update(f"{number} {game.totals}\n".encode())


def decisions_hash(games: int, human_games: int) -> str:
    """Games 1..games with four computer seats, then human_games with a scripted seat 0; odd
    numbers under the standard moon rule, even ones under "26 off the shooter"."""
    digest = hashlib.sha256()
    for number in range(1, games + 1):
        play_game(number, number % 2 == 0, False, digest)
    for number in range(1001, 1001 + human_games):
        play_game(number, number % 2 == 0, True, digest)
    return digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--human-games", type=int, default=10)
    args = parser.parse_args()
    print(decisions_hash(args.games, args.human_games))


if __name__ == "__main__":
    main()
