"""The tree over our own later decisions (``game.players.tree``, issue 49): its nodes hold one
card of each run worth the same with the playouts' own card first, its bandit tries the prior
first and then the best, both forms choose the same cards, and the hint is the same search."""

from __future__ import annotations

import pytest

from game.engine import Card, SplitMix64
from game.engine.rules import mask_of
from game.players import brain, choose_play, jit, sim, tree, view_of, weigh_play
from game.players.brain import decide_play
from game.players.weigh import weigh_view
from tests.support.engine import random_position


@pytest.fixture(scope="module")
def fast():
    core = jit.core()
    assert core is not sim, jit.status()[1]
    assert core.TREE is not tree  # the compiled tree, on the compiled sim
    return core


@pytest.fixture
def tree_on(monkeypatch):
    monkeypatch.setattr(brain, "TREE", 1)


def positions(count: int, seed: int):
    rng = SplitMix64.for_key(seed)
    found = 0
    k = 0
    while found < count:
        k += 1
        game = random_position(k, 4 + rng.below(44), seed, k % 2 == 0)
        if game.phase == "playing":
            found += 1
            yield game


def test_a_node_holds_one_card_of_each_run_the_prior_first():
    keys, links, edges, stats, used = tree.new_tree(4)
    # clubs 2 3 4 and 9 held, the 5 to 8 gone: one run of 2..9; the jack apart (the 10 is out)
    hand = mask_of([0, 1, 2, 7, 9])
    gone = mask_of([3, 4, 5, 6])
    table = [13 * 1 + 4, 0, 0, 0]  # a diamond led: we are void, every card may go
    slot = tree.find_slot(keys, links, 12345)
    node = tree.make_node(keys, links, edges, stats, used, 12345, slot, hand, table, 1, gone, 3, 9)
    assert node == 0 and used[0] == 1
    assert edges[0][0] == 2
    assert edges[0][1:3] == [9, 0]  # the jack (the prior) first, then the run's two
    assert tree.find_slot(keys, links, 12345) == slot and links[slot] == 1


def test_the_bandit_tries_the_prior_first_then_the_least_points():
    keys, links, edges, stats, used = tree.new_tree(2)
    edges[0][:4] = [3, 5, 6, 7]
    assert tree.choose_edge(edges, stats, 0, 8.0, 0.5) == 0  # a new node: the prior's card
    # after many visits the edge with the fewest points wins, exploration spent
    row = stats[0]
    row[tree.VISITS] = 3000.0
    for j, mean in enumerate((5.0, 1.0, 9.0)):
        row[tree.EDGE_N + j] = 1000.0
        row[tree.EDGE_W + j] = 1000.0 * mean
    row[tree.SUM] = 15000.0
    assert tree.choose_edge(edges, stats, 0, 8.0, 0.5) == 1


def test_both_forms_choose_the_same_card_with_the_tree(fast, tree_on):
    for game in positions(12, 0x7EE):
        view = view_of(game, game.turn)
        assert decide_play(view, fast, budget=6000) == decide_play(view, sim, budget=6000)


def test_the_hint_names_the_trees_card(fast, tree_on):
    for game in positions(30, 0x7EF):
        assert weigh_play(game, game.turn).card == choose_play(game, game.turn)
    game = next(positions(1, 0x7F0))
    view = view_of(game, game.turn)
    slow = weigh_view(view, sim, budget=6000)
    assert Card.parse(slow.card).index == decide_play(view, sim, budget=6000)
    assert weigh_view(view, fast, budget=6000) == slow
