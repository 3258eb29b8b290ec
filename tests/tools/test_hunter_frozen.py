"""The bench's moon hunter is a yardstick: its decisions are pinned, so that no change to
Pauline, Michele and Ben (whose search it was copied from) can move it."""

from __future__ import annotations

import hashlib

from tools.bench import FIRST_NUMBER, deal_game
from tools.hunter import Hunter

# Every pass and play of four hunters at the bench's first four deals (one per pass direction),
# as the hunter decided before its search was frozen in ``tools.hunter_frozen``.
PINNED = "ab5553bb86ed2f9b7443a2f2c49d22f7b8587936a382f7b06be2d1bf315616c9"


def hunters_hash(deals: int) -> str:
    digest = hashlib.sha256()
    hunter = Hunter()
    for index in range(deals):
        game = deal_game(FIRST_NUMBER + index, 1 + index % 4)
        if game.phase == "passing":
            for seat in range(4):
                cards = hunter.pass_cards(game, seat)
                digest.update(f"{index} P{seat} {''.join(cards)}\n".encode())
                game.pass_cards(seat, cards)
        while game.phase == "playing":
            seat = game.turn
            card = hunter.play(game, seat)
            digest.update(f"{index} {seat} {card}\n".encode())
            game.play(seat, card)
        digest.update(f"{index} {sorted(hunter.attempted)} {game.history[-1]}\n".encode())
        hunter.reset()
    return digest.hexdigest()


def test_the_moon_hunter_decides_as_it_always_has():
    assert hunters_hash(4) == PINNED
