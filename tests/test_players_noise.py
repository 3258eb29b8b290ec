"""The share of random cards in the search's playouts (``sim.NOISE``): every one is legal, the
two forms of the core draw the same ones, and they really do change some playouts."""

from __future__ import annotations

import pytest

from game.engine import Card, SplitMix64
from game.engine.rules import legal_mask, mask_of
from game.players import jit, sim

from .test_players import random_position


def idx(code: str) -> int:
    return Card.parse(code).index


@pytest.fixture(scope="module")
def fast():
    core = jit.core()
    assert jit.status()[0] == "compiled", jit.status()[1]
    return core


def test_random_legal_draws_every_legal_card_and_nothing_else(fast):
    rng = SplitMix64.for_key(0x401)
    for _ in range(300):
        hand = 0
        while not hand:
            hand = rng.next64() & ((1 << 52) - 1) & rng.next64()
        n = rng.below(4)
        win = rng.below(52)
        first = rng.below(8) == 0 and hand & 1 == 1
        broken = rng.below(2) == 1
        trick = [win] if n else []
        legal = legal_mask(hand, trick, first, broken)
        drawn = {sim.random_legal(hand, n, win, first, broken, r) for r in range(60)}
        assert drawn == {c for c in range(52) if legal >> c & 1}
        for r in range(0, 60, 7):
            assert fast.random_legal(hand, n, win, first, broken, r) == sim.random_legal(
                hand, n, win, first, broken, r
            )


def test_the_noise_is_on_and_changes_some_playouts(monkeypatch):
    assert 0 < sim.NOISE < 1024
    changed = 0
    total = 0
    for k in range(30):
        game = random_position(k + 1, 6 + k % 30, k, False)
        if game.phase != "playing":
            continue
        hands = [mask_of(idx(code) for code in game.hand(s)) for s in range(4)]
        trick = [idx(code) for _, code in game.trick]
        gone = mask_of(idx(code) for done in game.completed_tricks for _, code in done.plays)
        args = (game.trick_leader, trick, list(game.hand_points()), gone, game.tricks_played)
        noisy: list[int] = []
        sim.playout(hands[:], *args, -1, 0, False, noisy)
        monkeypatch.setattr(sim, "NOISE", 0)
        plain: list[int] = []
        sim.playout(hands[:], *args, -1, 0, False, plain)
        monkeypatch.undo()
        total += 1
        changed += noisy != plain
    assert total >= 20
    assert 0 < changed < total  # some playouts change, but not every one
