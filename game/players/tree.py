"""The search's tree over our own later decisions (issue 49).

``sim.search_round`` plays each candidate card and finishes the hand with one fixed policy for
every later card, ours included. Here our seat's later cards are chosen by a tree instead: a
node is one of our later decisions, keyed by everything our seat has seen since the root (the
candidate, then every card played), so the same node collects every deal in which the play so
far looks the same to us (information-set Monte Carlo tree search). At a node a bandit picks
our card: the mean utility so far, less an exploration bonus weighted towards the playouts' own
card (``sim.model_card`` for our seat, the prior); cards worth the same count once. The others
play the playouts' models, as in ``sim.play_out``; a new node is expanded once and the hand is
finished from it by ``play_out``. The root stays ``brain``'s: every candidate in every deal.

One source, two forms, like ``sim``: ``game.players.jit`` loads this file a second time under
``TREE_COMPILED_NAME``, where every ``@hot`` function is compiled and the simulator's functions
are those of the compiled ``sim``. Only integer arithmetic and ``sqrt`` decide, so both forms
choose the same cards.
"""

from __future__ import annotations

import importlib
import math

from game.engine.rules import FIRST_HEART, HEART_MASK, QS, QUEEN_POINTS, RANKS_PER_SUIT, SUIT

from .hot import COMPILED_NAME, TREE_COMPILED_NAME, hot

COMPILED = __name__ == TREE_COMPILED_NAME
_sim = importlib.import_module(COMPILED_NAME if COMPILED else "game.players.sim")
if COMPILED:
    import numpy as np

deal_world = _sim.deal_world
discard_mask = _sim.discard_mask
lead_mask = _sim.lead_mask
lone_taker = _sim.lone_taker
model_card = _sim.model_card
open_voids = _sim.open_voids
play_out = _sim.play_out
read_moon = _sim.read_moon
table_winner = _sim.table_winner
tally_figures = _sim.tally_figures  # numba caches it inlined here: a change to it edits this file
utility = _sim.utility
LAST_TRICK = _sim.LAST_TRICK
SALT_SHIFT = _sim.SALT_SHIFT
THREAT_POINTS = _sim.THREAT_POINTS
THREAT_TRICKS = _sim.THREAT_TRICKS

EDGES = 13  # a node's cards: at most a hand
HASH_PRIME = 1099511627689  # a prime under 2**40: the keys' arithmetic fits 64 bits in both forms
DEPTH = 14  # room for a path: at most 13 of our later decisions
# the columns of ``stats``: a node's visits and utility sum, then per edge its visits and sum
VISITS = 0
SUM = 1
EDGE_N = 2
EDGE_W = EDGE_N + EDGES
STATS = EDGE_W + EDGES


def new_tree(nodes: int):
    """An empty tree with room for ``nodes`` nodes, in this form's containers: the hash table's
    keys and nodes (``links``: node + 1, 0 for an empty slot), each node's cards (``edges``:
    the count, then the cards, the prior's first), its ``stats`` and the nodes ``used``."""
    slots = 1
    while slots < 2 * nodes:
        slots *= 2
    if COMPILED:
        return (
            np.zeros(slots, dtype=np.int64),
            np.zeros(slots, dtype=np.int64),
            np.zeros((nodes, EDGES + 1), dtype=np.int64),
            np.zeros((nodes, STATS), dtype=np.float64),
            np.zeros(1, dtype=np.int64),
        )
    return (
        [0] * slots,
        [0] * slots,
        [[0] * (EDGES + 1) for _ in range(nodes)],
        [[0.0] * STATS for _ in range(nodes)],
        [0],
    )


@hot
def step(h, c):
    """The key ``h`` of what was seen, after card ``c``."""
    return (h * 53 + c + 1) % HASH_PRIME


@hot
def find_slot(keys, links, key):
    """The hash table's slot holding ``key``, or the empty slot where it would go."""
    size = len(keys)
    slot = key % size
    while links[slot] and keys[slot] != key:
        slot = (slot + 1) % size
    return slot


@hot
def legal_of(hand, table, n, first, broken):
    """The cards our ``hand`` may play with ``table[:n]`` on the table."""
    if n == 0:
        return lead_mask(hand, first, broken)
    follow = hand & SUIT[table[0] // RANKS_PER_SUIT]
    if follow:
        return follow
    return discard_mask(hand, first)


@hot
def make_node(keys, links, edges, stats, used, key, slot, hand, table, n, gone, ntricks, prior):
    """A new node at ``slot`` for ``key``: one card of each run of legal cards worth the same
    (no card between them still out), the run holding ``prior`` first. Returns the node."""
    node = used[0]
    used[0] += 1
    keys[slot] = key
    links[slot] = node + 1
    seen = hand | gone
    for x in range(n):
        seen |= 1 << table[x]
    legal = legal_of(hand, table, n, ntricks == 0, (gone & HEART_MASK) != 0)
    count = 0
    prev = -2
    for c in range(52):
        if not legal >> c & 1:
            continue
        same = prev >= 0 and prev // RANKS_PER_SUIT == c // RANKS_PER_SUIT
        same = same and c != QS and prev != QS
        if same:
            between = ((1 << c) - 1) & ~((1 << (prev + 1)) - 1)
            same = between & seen == between and not (between >> QS & 1)
        if not same:
            count += 1
            edges[node][count] = c
        if c == prior:
            edges[node][count], edges[node][1] = edges[node][1], edges[node][count]
        prev = c
    edges[node][0] = count
    return node


@hot
def choose_edge(edges, stats, node, explore, prior_share):
    """The edge the bandit takes at ``node`` (lower utility is better): the mean so far (the
    node's mean for an edge not yet tried) less ``explore`` times the edge's prior times the
    square root of the node's visits over one more than the edge's; the prior's edge (the
    first) holds ``prior_share``, the others share the rest."""
    count = edges[node][0]
    row = stats[node]
    if count == 1 or row[VISITS] == 0:
        return 0
    root_n = math.sqrt(row[VISITS])
    node_mean = row[SUM] / row[VISITS]
    other = (1.0 - prior_share) / (count - 1)
    best = 0
    best_score = 1e18
    for j in range(count):
        n = row[EDGE_N + j]
        mean = row[EDGE_W + j] / n if n else node_mean
        share = prior_share if j == 0 else other
        score = mean - explore * share * root_n / (1.0 + n)
        if score < best_score:
            best_score = score
            best = j
    return best


@hot
def advance(hands, leader, table, n, pts, gone, ntricks, plan, me, stop, hunter, defend, record, h):
    """The other seats play their models (as in ``sim.play_out``) from ``table[:n]`` until it
    is ``me``'s turn or the hand is over; ``hands``, ``table`` and ``pts`` change in place and
    the cards played go to ``record``. Returns the leader, the cards on the table, the cards
    gone, the tricks played, the plan's and imagined shooter's seats (-1 once off), the key
    ``h`` after the cards seen, and the playouts' own card for ``me`` there (-1 at the end)."""
    played = 0
    while True:
        if n == 4:
            win_i, tpts = table_winner(table, 4)
            leader = (leader + win_i) % 4
            pts[leader] += tpts
            for x in range(4):
                gone |= 1 << table[x]
            ntricks += 1
            n = 0
            if ntricks == LAST_TRICK:
                return leader, n, gone, ntricks, plan, hunter, h, -1
        total = pts[0] + pts[1] + pts[2] + pts[3]
        threat, shooter, plan = read_moon(pts, total, ntricks, plan)
        if hunter >= 0 and total:
            if pts[hunter] != total:
                hunter = -1
            else:
                threat = hunter
        lone = lone_taker(pts, total, me)
        late = total >= THREAT_POINTS or ntricks >= THREAT_TRICKS
        first = ntricks == 0
        broken = (gone & HEART_MASK) != 0
        voids = open_voids(hands, leader) if n == 0 else 0
        win_i, tpts = table_winner(table, n)
        win = table[win_i] if n else -1
        while n < 4:
            seat = (leader + n) % 4
            c = model_card(
                hands[seat], seat, n, win, tpts, first, broken, gone, voids, (leader + win_i) % 4,
                me, threat, shooter, plan, hunter, lone, late, total, stop, defend,
            )  # fmt: skip
            if seat == me:
                return leader, n, gone, ntricks, plan, hunter, h, c
            hands[seat] ^= 1 << c
            table[n] = c
            if played < len(record):
                record[played] = c
            played += 1
            h = step(h, c)
            if n == 0 or (c > win and c // RANKS_PER_SUIT == win // RANKS_PER_SUIT):
                win = c
                win_i = n
            if c >= FIRST_HEART:
                tpts += 1
            elif c == QS:
                tpts += QUEEN_POINTS
            n += 1


@hot
def back_up(stats, path_nodes, path_edges, depth, value):
    """``value`` added to every node and edge of the path taken."""
    for d in range(depth):
        row = stats[path_nodes[d]]
        j = path_edges[d]
        row[VISITS] += 1.0
        row[SUM] += value
        row[EDGE_N + j] += 1.0
        row[EDGE_W + j] += value


@hot
def descend(
    hands, leader, table, n, pts, gone, ntricks, plan, me, stop, hunter, defend, record, scratch,
    h, tree_keys, links, edges, stats, used, explore, prior_share, path_nodes, path_edges,
):  # fmt: skip
    """From our card just put on ``table`` (key ``h``), the hand played to its end through the
    tree: at each of our turns the node's bandit card, until a node is new (made, its first
    visit the playouts' own card) or the tree is full; then ``play_out`` finishes the hand.
    Returns the points taken and the path's depth (``path_nodes``, ``path_edges``)."""
    depth = 0
    out = record
    while True:
        leader, n, gone, ntricks, plan, hunter, h, prior = advance(
            hands, leader, table, n, pts, gone, ntricks, plan, me, stop, hunter, defend, out, h
        )  # fmt: skip
        out = scratch
        if ntricks == LAST_TRICK:
            return pts, depth
        slot = find_slot(tree_keys, links, h)
        node = links[slot] - 1
        if node < 0:
            if used[0] < len(edges):
                node = make_node(
                    tree_keys, links, edges, stats, used, h, slot, hands[me], table, n, gone,
                    ntricks, prior,
                )  # fmt: skip
                path_nodes[depth] = node
                path_edges[depth] = 0
                depth += 1
            after = play_out(
                hands, leader, table, n, pts, gone, ntricks, plan, me, stop, hunter, scratch,
                defend,
            )  # fmt: skip
            return after, depth
        j = choose_edge(edges, stats, node, explore, prior_share)
        c = edges[node][1 + j]
        path_nodes[depth] = node
        path_edges[depth] = j
        depth += 1
        hands[me] ^= 1 << c
        table[n] = c
        n += 1
        h = step(h, c)


@hot
def tree_round(
    deals, ndeals, seen, stop_share, me, leader, trick, n, pts, gone, ntricks,
    cards, plans, alive, nalive, moon_off_shooter, credit, totals, record, hunter, odds, weights,
    defend, figures, seats, tree_keys, links, edges, stats, used, explore, prior_share,
):  # fmt: skip
    """``sim.search_round`` with our later cards chosen by the tree (``descend``): every
    candidate ``alive[:nalive]`` played in each of ``deals[:ndeals]``, its utility added to
    ``totals[k]``; with rows in ``figures``, each candidate's figures too (``weigh_round``'s).
    Deal ``i`` imagines seat ``seats[i]`` shooting with the chance ``odds[i]`` (``hunter``
    unless ``early_hunters`` chose one per deal)."""
    scratch = record.copy()
    path_nodes = record[:DEPTH].copy()
    path_edges = record[:DEPTH].copy()
    for i in range(ndeals):
        stop, shooter = deal_world(i, seen, stop_share, seats[i], odds)
        deal_defend = defend | (seen + i) << SALT_SHIFT
        for a in range(nalive):
            k = alive[a]
            card = cards[k]
            hands = deals[i].copy()
            hands[me] ^= 1 << card
            table = trick.copy()
            table[n] = card
            trick[n] = card
            h = step(k + 1, card)
            after, depth = descend(
                hands, leader, table, n + 1, pts.copy(), gone, ntricks, plans[k], me, stop,
                shooter, deal_defend, record, scratch, h, tree_keys, links, edges, stats, used,
                explore, prior_share, path_nodes, path_edges,
            )  # fmt: skip
            value = utility(after, me, moon_off_shooter, credit)
            back_up(stats, path_nodes, path_edges, depth, value)
            totals[k] += weights[i] * value
            if len(figures):
                tally_figures(
                    figures[k], weights[i], after, pts, me, moon_off_shooter, leader, trick,
                    n + 1, record,
                )  # fmt: skip


@hot
def early_hunters(deals, ndeals, me, floor_rank, strength, share, seats, odds):
    """Before anyone has taken a point: in each deal, the other seat whose hand is the
    strongest for a moon (``brain.moon_strength``: a card's rank over ``floor_rank`` on
    average), if it reaches ``strength``, imagined shooting with the chance ``share``."""
    for i in range(ndeals):
        best = -1
        best_total = 0
        best_count = 1
        for s in range(4):
            hand = deals[i][s]
            if s == me or not hand:
                continue
            total = 0
            count = 0
            for c in range(52):
                if hand >> c & 1:
                    total += max(0, c % RANKS_PER_SUIT - floor_rank)
                    count += 1
            if total * best_count > best_total * count:
                best, best_total, best_count = s, total, count
        if best >= 0 and best_total >= strength * best_count:
            seats[i] = best
            odds[i] = share
