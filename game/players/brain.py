"""Decisions from a ``View``: a passing heuristic and a Monte Carlo search for each card.

The search imagines deals of the unseen cards that agree with the view, plays every candidate
card in each of them, finishes the hand with the fast heuristic of ``sim`` and keeps the card
with the fewest points on average. The number of deals is a count, never a time budget, so the
same position gives the same card on any machine.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from game.engine import DECK, SplitMix64
from game.engine.cards import RANKS
from game.engine.rules import (
    HEART_MASK,
    HEARTS,
    QS,
    QS_BIT,
    RANKS_PER_SUIT,
    SPADES,
    SUIT,
    cards_of,
    legal_mask,
    mask_of,
    suit_of,
    trick_points,
    winning_position,
)

from . import tree
from .deals import (
    DealSampler,
    Knowledge,
    ducker_likelihood,
    knowledge_of,
    others_plays,
    plays_of,
)
from .sim import (
    AS,
    DEFEND_ALONE,
    DEFEND_LATE,
    DEFEND_SELF,
    FIG_MOON_AGAINST,
    FIG_WEIGHT,
    KS,
    NOISE_SHIFT,
    STRAY_SEATS,
    STRAY_SHIFT,
    high,
    moon_threat,
    pick,
    table_state,
)
from .view import View

PLAY_STREAM = 0x91A7
CARD_BUDGET = 192000  # simulated cards per decision in compiled code, among deals and candidates
# (four times issue 32's 48,000 since issue 49: the tree pays for them, main's search did not)
PYTHON_BUDGET = 12000  # the same in the Python form, some 30 times slower (a smaller budget)
MIN_DEALS = 6
CARDS_PER_DEAL = 80  # the deals searched are at most the budget over this (2,400 for 192,000)
PRUNE_MARGIN = 2.5  # mean points by which a card must trail to be dropped after the first half
MOON_STRENGTH = 1.4
STOP_SHARE = 0.5  # of the imagined deals, the share in which the others fight our moon
FALLBACK_EDGE = 0.5  # total points by which the heuristic's own card wins a near tie
OTHERS_CREDIT = 0.05  # per point that goes to another seat instead of us
HUNT_SHARE = 0.0  # if set: the share of deals in which the lone taker of the points shoots
HUNT_PRIOR = 0.3  # odds that a lone taker of the points shoots, before its plays are read
HUNT_BELIEVE = 0.0  # if set: a deal's shooter odds times its hand's moon strength over this
HUNT_RATIO = 3.0  # how much likelier a play makes a shooter if a shooter would make it
READ_MISS = 1.0  # a deal's weight times this per play of another seat it does not explain
# The playouts' defence against a moon (``sim.playout``'s bits): our seat defends, the others
# duck until a threat is real and never fight an imagined shooter for us, and a ducker plays at
# random 25 times in 256 (issue 49: real players are less exact than the careful ducker; at 51 in
# 256 the search gave up moons that three exact duckers let it make)
DEFEND = DEFEND_SELF | DEFEND_LATE | DEFEND_ALONE | 25 << NOISE_SHIFT
STRAY_NOISE = 102  # if set: the chance in 256 that a seat whose plays strayed from the careful
# ducker's (``Knowledge.strayed``) plays at random in the playouts, instead of DEFEND's (issue 49:
# exact duckers never stray and keep DEFEND's 25; today's players, the hunters, people do)
STRAY_LIKELY = 0.0  # with STRAY_NOISE, if set: a seat the ducker explains worse than this
# (``deals.ducker_likelihood``) counts as strayed too
SAFETY_MARGIN = 0.0  # if set: mean points within which a card that beats a lone taker is played
SAFETY_POINTS = 8  # the lone taker's points from which the safety net holds
MOON_RANK_FLOOR = RANKS.index("9")  # a ten weighs 1 towards a moon, an ace 5
PASS_SIZE = 3
QUEEN_GUARDS = 3  # low spades that keep the queen safe to hold
QUEEN_GUARDS_PASSING_RIGHT = 2  # the seat on our right plays before us: the queen comes in view
MINORS = (0, 1)  # clubs, diamonds: the suits worth voiding by a pass
PASS_STREAM = 0x91A8
PASS_DEALS = 0  # imagined deals of the other hands over which candidate passes are weighed
PASS_POOL = 5  # the candidates: the rule's pass and every three of these most dangerous cards
PASS_EDGE = 0.25  # mean points by which a candidate must beat the rule's pass to replace it

# How much we want to be rid of a card when passing; the highest score goes first. A plain
# card scores its rank (0 for a two, 12 for an ace), less LENGTH_RELIEF for each card of its
# suit we hold (long suits are safe). A heart scores a little more than the same rank of another
# suit. The queen of spades outranks everything unless LONG_SPADES guard it; the ace and king of
# spades come just under an ace of hearts unless we hold the queen (then we want them) or long
# spades; low spades are kept to guard the queen.
QUEEN_DANGER = 14.0
QUEEN_GUARDED = 4.0
HIGH_SPADE_DANGER = 11.0
HIGH_SPADE_SAFE = 2.0
LOW_SPADE_KEEP = 10.0
HEART_EXTRA = 1.5
PLAN_REPLY = 0  # if set: our next decision in each deal chosen knowing the deal (sim.plan_round)
PLAN_COST = 6  # with PLAN_REPLY: a deal's playouts cost about this many times one
EVEN_TOP_UP = 1  # if set: a network table's every decision spends its whole budget (``_top_up``)
TREE = 1  # if set: our own later cards chosen by a tree over our decisions (``tree``, issue 49)
TREE_EXPLORE = 8.0  # the tree's bandit: points of exploration bonus at an edge's full prior
TREE_PRIOR = 0.5  # the tree's bandit: the prior share of the playouts' own card at a node
MOON_CARRY = 0  # if set: from this many points, all ours, our moon plan is weighed on
TREE_NODES = 16384  # the most nodes a decision's tree holds
EARLY_SHARE = 0.0  # with TREE, if set: before any point is taken, the chance that the other
EARLY_STRENGTH = 1.4  # seat of the strongest hand (from this ``moon_strength``) shoots, a deal
ROBUST = 0  # with TREE, if set: one search per world (who shoots; ``_worlds``), then the card
# of least regret: 1 the worst over the worlds and nobody, 2 the worst, 3 the sum, 5 the strongest;
# 6 the least expected utility, each world at ``ROBUST_SHARE``, nobody shooting at the rest
ROBUST_HANDS = None  # the true deal's hands, for ``ROBUST``'s worlds (a diagnostic's oracle)
ROBUST_SHARE = 0.3  # ``ROBUST=6``: each world's chance; nobody shooting has the rest
ROBUST_TOL = 0.0  # with ROBUST 2, 3, 5, if set: a world in which every candidate's moon against
# us is within this share of the others' (no card of ours changes it) is left out of the regret
ROBUST_SURE = 0.0  # with ROBUST 2, 3, 5, if set: a world in which every candidate ends in a moon
# against us in at least this share of the playouts (the tree sees no stop) is left out too
ROBUST_PLAIN = 0  # if set: when every world is left out, the plain search (nobody believed), on
# the whole budget again, plays its card (else they all count, as without ROBUST_TOL)
ROBUST_WEIGH = 0  # if set, with ROBUST 2, 3: each world's regret times its seat's chance of
# shooting as read from its plays (``moon_odds`` over the deals drawn), the most likely at 1
ROBUST_WHEN = 0  # if set: a world's seat also needs the hand's course to say it shoots (bits:
# 1 it holds ROBUST_POINTS points or more, 2 it won a point trick over a card it could have
# ducked, a lower card of the suit shown since, 4 it took the queen of spades; 8 before any point
# is taken, its hand's strength alone, as without ROBUST_WHEN; 16 before any point, a trick won
# over a card it could have ducked, as bit 2 without the points; ``_going_for_it``)
ROBUST_FIRST = 0.0  # if set, with ROBUST_WHEN's bit 8: the strength needed before any point
ROBUST_POINTS = 4  # with ROBUST_WHEN's bit 1: the points a seat must hold, all of them
ROBUST_EARLY_SHARE = 0.0  # if set, with ROBUST=5: before any point is taken, the strongest
# seat's world is weighed at this chance against nobody shooting (as ``ROBUST=6``), not believed
WORLD_DEALS = 16  # else the deals drawn to judge the other seats' strength
WORLD_STREAM = 0x91A9
KEEP_STOPPER = 0  # if set: our highest heart of this rank or more (10: queen) is never passed
LENGTH_RELIEF = 0.4
LONG_SPADES = 5


class Tally:
    """Searches run and cards simulated by this process, to show that work is done (not timed)."""

    searches = 0
    cards = 0


def budget_of(core) -> int:
    """The simulated cards a decision may spend in ``core``: ``CARD_BUDGET`` compiled, the
    smaller ``PYTHON_BUDGET`` in the Python form (which ``/healthz?detail`` then states)."""
    return CARD_BUDGET if getattr(core, "COMPILED", False) else PYTHON_BUDGET


def decide_play(view: View, core, even: bool = False, budget: int | None = None) -> int:
    """The card to play, as an index; the view must be at this seat's turn. ``core`` is the form
    of ``game.players.sim`` the search runs in (``game.players.jit.core()``, the compiled one if
    it loaded, or ``sim`` itself): both give the same card on the same ``budget`` of simulated
    cards (by default ``budget_of(core)``, smaller in Python).

    ``even``: where others watch how long a decision takes (a network table), a card that
    needs no search (the only legal one, or the only one worth playing) is searched for
    anyway, over three of its cards as if all were playable, and that search is thrown
    away; and no search stops early when one card is left in the running (it spends its whole
    budget on that card). A forced card does the same work as a searched one, so the answer's
    time does not tell how many legal cards the seat had. The card chosen is the same either
    way: a search that goes on with one card left can only choose that card."""
    searched = search_play(view, core, even, budget)
    return searched if isinstance(searched, int) else searched.card


def search_play(
    view: View, core, even: bool = False, budget: int | None = None, figures: bool = False
) -> int | Searched:
    """``decide_play``'s work: the forced card (an int) when there is nothing to weigh, else
    the search's ``Searched`` (with its ``figures`` table recorded if asked)."""
    know = knowledge_of(view)
    first = not view.tricks
    broken = bool(know.gone & HEART_MASK)
    legal = legal_mask(know.hand, view.trick, first, broken)
    candidates = [high(legal)] if legal & (legal - 1) == 0 else distinct_cards(legal, know)
    budget = budget or budget_of(core)
    spent = Tally.cards
    if len(candidates) == 1:
        if even:
            _top_up(view, know, first, broken, core, budget)
        return candidates[0]
    worlds = _worlds(view, know, core) if ROBUST and TREE and not figures else []
    if len(worlds) > (1 if ROBUST in (1, 6) else 0):
        found = _robust_search(view, know, candidates, first, broken, core, budget, worlds)
    else:
        root = Root.of(view, know, candidates, first, broken, core, figures)
        found = _search(root, budget, even)
    if even and EVEN_TOP_UP:
        _top_up(view, know, first, broken, core, budget - (Tally.cards - spent))
    return found


def _worlds(view: View, know: Knowledge, core) -> list[int]:
    """``ROBUST``'s worlds: the other seats that may still shoot (each holds every point
    taken, and its whole hand, the cards it played counted, reaches ``EARLY_STRENGTH``), the
    strongest first (only it with ``ROBUST=5``); with ``ROBUST=1`` or ``6`` also -1, nobody
    shooting, and with ``ROBUST=5`` too while ``_robust_mode`` weighs a world found.
    A seat's strength is its hand's in the true deal (``ROBUST_HANDS``, a diagnostic's
    oracle), else its mean over ``WORLD_DEALS`` deals drawn."""
    total = sum(know.pts)
    drawn = _world_deals(view, know, core)
    worlds = []
    for s in range(4):
        if s == view.seat or know.pts[s] != total:
            continue
        if ROBUST_WHEN and not _going_for_it(view, s, total):
            continue
        played = sum(1 << play[0] for play in plays_of(view, s))
        strength = sum(moon_strength(int(deal[s]) | played) for deal in drawn) / len(drawn)
        if strength >= (ROBUST_FIRST if ROBUST_FIRST and not total else EARLY_STRENGTH):
            worlds.append((strength, s))
    worlds = [s for _, s in sorted(worlds, reverse=True)[: 1 if ROBUST == 5 else 3]]
    mixed = _robust_mode(know) in (1, 6)
    return [*worlds, -1] if mixed and (worlds or ROBUST != 5) else worlds


def _robust_mode(know: Knowledge) -> int:
    """How ``ROBUST``'s worlds are judged at this decision: ``ROBUST`` itself, but 6 (the
    expected utility, the world weighed against nobody's) with ``ROBUST=5`` and
    ``ROBUST_EARLY_SHARE`` while no point has been taken."""
    return 6 if ROBUST == 5 and ROBUST_EARLY_SHARE and not sum(know.pts) else ROBUST


def _going_for_it(view: View, seat: int, total: int) -> bool:
    """``ROBUST_WHEN``'s test of a seat that holds all ``total`` points taken: it holds
    ``ROBUST_POINTS`` or more (bit 1), it won a point trick over a card it could have ducked
    (bit 2, ``_won_over``), or it took the queen of spades (bit 4); before any point, yes with
    bit 8, or with bit 16 if it won any trick over a card it could have ducked."""
    if not total:
        return bool(ROBUST_WHEN & 8) or bool(ROBUST_WHEN & 16 and _won_over(view, seat, False))
    if ROBUST_WHEN & 1 and total >= ROBUST_POINTS:
        return True
    if ROBUST_WHEN & 4 and any(QS in cards for _, cards in view.tricks):
        return True
    return bool(ROBUST_WHEN & 2) and _won_over(view, seat, True)


def _won_over(view: View, seat: int, pointed: bool) -> bool:
    """Whether ``seat`` won a trick (one with points, if ``pointed``) following suit over the
    card winning before it, while holding a lower card of that suit: one it played since."""
    plays = plays_of(view, seat)
    for index, (leader, cards) in enumerate(view.tricks):
        if leader == seat or (leader + winning_position(cards)) % 4 != seat:
            continue
        if pointed and not trick_points(cards):
            continue
        card, win, since = plays[index][0], plays[index][2], plays[index][7]
        if card > win and since & SUIT[suit_of(win)] & ((1 << win) - 1):
            return True
    return False


def _world_deals(view: View, know: Knowledge, core):
    """The deals ``ROBUST``'s worlds are judged over: the true deal (``ROBUST_HANDS``), else
    ``WORLD_DEALS`` drawn, in ``core``'s container."""
    if ROBUST_HANDS is not None:
        drawn = core.grid(1, 4)
        for s in range(4):
            drawn[0][s] = ROBUST_HANDS[s]
        return drawn
    rng = SplitMix64.for_key(
        WORLD_STREAM, view.number, view.hand_number, view.cards_played, view.seat
    )
    return DealSampler(know).draw_many(rng, WORLD_DEALS, core)


def _robust_search(view, know, candidates, first, broken, core, budget, worlds) -> Searched:
    """A search in each world of ``worlds`` (the seat imagined shooting in every deal, or
    nobody) on an equal share of ``budget``, and the card of least regret (``_regrets``); when
    every world is left out (``ROBUST_PLAIN``), the plain search's, on ``budget`` again."""
    found = []
    for world in worlds:
        root = Root.of(view, know, candidates, first, broken, core, bool(ROBUST_TOL or ROBUST_SURE))
        root.world = world
        found.append(_search(root, budget // len(worlds), True))
    common = [k for k in found[0].alive if all(k in f.alive for f in found)]
    if not common:
        return found[-1]
    regret = _regrets(view, know, core, worlds, found, common)
    if regret is None:
        return _search(Root.of(view, know, candidates, first, broken, core, False), budget, True)
    options = found[0].root.options
    k = min(common, key=lambda k: (regret[k], options[k][0]))
    out = found[-1]
    out.card, out.chosen = options[k][0], k
    return out


def _regrets(view, know, core, worlds, found, common) -> dict[int, float] | None:
    """Each card of ``common``'s regret (how far its mean trails the world's best card): the
    worst over the worlds, or their sum (``ROBUST=3``), with ``ROBUST_WEIGH`` each world's
    times its seat's odds; with ``ROBUST=6`` (``_robust_mode``) the mean weighted by the worlds'
    chances (``ROBUST_SHARE``, or ``ROBUST_EARLY_SHARE`` with ``ROBUST=5``). A world
    whose moon no card changes (``_moon_matters``) is left out; if all are, None with
    ``ROBUST_PLAIN``, else every world counts."""
    kept = [i for i in range(len(worlds)) if _moon_matters(found[i], common)]
    if not kept:
        if ROBUST_PLAIN:
            return None
        kept = list(range(len(worlds)))
    odds = _world_odds(view, know, core, [worlds[i] for i in kept]) if ROBUST_WEIGH else None
    regret = dict.fromkeys(common, 0.0)
    mode = _robust_mode(know)
    share = min(ROBUST_EARLY_SHARE if ROBUST == 5 else ROBUST_SHARE, 1.0 / max(1, len(worlds) - 1))
    for j, i in enumerate(kept):
        world, f = worlds[i], found[i]
        means = {k: f.totals[k] / f.weight for k in common}
        best = min(means.values())
        weight = odds[j] if odds else 1.0
        for k in common:
            if mode == 6:
                chance = share if world >= 0 else 1.0 - share * (len(worlds) - 1)
                regret[k] += chance * means[k]
            elif ROBUST == 3:
                regret[k] += weight * (means[k] - best)
            else:
                regret[k] = max(regret[k], weight * (means[k] - best))
    return regret


def _moon_matters(found: Searched, common: list[int]) -> bool:
    """Whether the cards of ``common`` differ by ``ROBUST_TOL`` or more in the share of the
    search's playouts that end in a moon against us, and (``ROBUST_SURE``) some card's share
    is under ``ROBUST_SURE`` (always, with neither set)."""
    rows = found.root.figures
    if rows is None:
        return True
    rates = [rows[k][FIG_MOON_AGAINST] / rows[k][FIG_WEIGHT] for k in common if rows[k][FIG_WEIGHT]]
    if not rates:
        return True
    if ROBUST_SURE and min(rates) >= ROBUST_SURE:
        return False
    return not ROBUST_TOL or max(rates) - min(rates) >= ROBUST_TOL


def _world_odds(view: View, know: Knowledge, core, seats: list[int]) -> list[float]:
    """Each seat's chance of shooting read from its plays (``moon_odds``), its mean over
    ``_world_deals``, scaled so that the likeliest is 1."""
    drawn = _world_deals(view, know, core)
    deals = len(drawn)
    odds = []
    for s in seats:
        out = moon_odds(core, view, drawn, deals, s)
        odds.append(sum(float(out[i]) for i in range(deals)) / deals)
    top = max(odds, default=0.0)
    return [o / top if top else 1.0 for o in odds]


def _top_up(view: View, know: Knowledge, first: bool, broken: bool, core, budget: int) -> None:
    """A search thrown away, over three of our cards as if all were playable, that spends
    ``budget`` simulated cards (with ``EVEN_TOP_UP`` whatever the deal cap): a forced card's
    whole work, or what a search left of its budget, so that every decision at a network table
    does the same work and its time tells nothing of the legal cards."""
    held = list(cards_of(know.hand))
    shadow = [held[0], held[len(held) // 2], held[-1]] if len(held) > 2 else held
    if budget >= len(shadow) * (len(DECK) - view.cards_played) or not EVEN_TOP_UP:
        root = Root.of(view, know, shadow, first, broken, core, False)
        _search(root, budget, True, uncapped=bool(EVEN_TOP_UP))


def distinct_cards(legal: int, know: Knowledge) -> list[int]:
    """One card from each run of cards that are worth the same (e.g. 9 and 10 with the J out)."""
    seen = know.hand | know.gone
    reps = []
    prev = -2
    for c in cards_of(legal):
        same = prev >= 0 and suit_of(prev) == suit_of(c) and c != QS and prev != QS
        if same:
            between = ((1 << c) - 1) & ~((1 << (prev + 1)) - 1)
            same = between & seen == between and not (between & QS_BIT)
        if not same:
            reps.append(c)
        prev = c
    return reps


@dataclass(slots=True)
class Root:
    """A search's fixed inputs: the options weighed (a card and a moon plan: -1, or our seat
    playing for the moon), the heuristic's own card, and the position in ``core``'s containers.
    """

    view: View
    know: Knowledge
    core: object
    options: list[tuple[int, int]]
    fallback: int
    leader: int
    hunter: int
    figures: object  # None, or ``sim.table_reals``: a row of ``sim.FIG_*`` an option
    trick: object = None
    pts: object = None
    cards: object = None
    plans: object = None
    record: object = None
    tree: object = None  # with ``TREE``: the tree's containers (``tree.new_tree``)
    world: int | None = None  # with ``ROBUST``: the seat imagined shooting in every deal, or -1

    @classmethod
    def of(cls, view, know, candidates, first, broken, core, figures) -> Root:
        me = view.seat
        leader = view.trick_leader if view.trick_leader is not None else me
        options = [(card, -1) for card in candidates]
        if moon_plan(know):
            options += [(card, me) for card in candidates]
        fallback = _fallback(view, know, first, broken, leader)
        table = core.table_reals(len(options), core.FIG_COLUMNS) if figures else None
        root = cls(view, know, core, options, fallback, leader, suspect(know), table)
        root.trick = core.buffer([*view.trick, 0, 0, 0, 0][:4])
        root.pts = core.buffer(list(know.pts))
        root.cards = core.buffer([card for card, _ in options])
        root.plans = core.buffer([plan for _, plan in options])
        root.record = core.buffer([0] * 52)
        return root


def moon_plan(know: Knowledge) -> bool:
    """Whether the search weighs a moon of our own: we hold every point taken so far, and a
    hand of ``MOON_STRENGTH``, or (``MOON_CARRY``) that many points already, so that a moon on
    its way is not dropped when the hand left looks weaker, only once another seat scores."""
    mine = know.pts[know.seat]
    if mine != sum(know.pts):
        return False
    return moon_strength(know.hand) >= MOON_STRENGTH or bool(MOON_CARRY and mine >= MOON_CARRY)


def _fallback(view: View, know: Knowledge, first: bool, broken: bool, leader: int) -> int:
    """The heuristic's own card (``sim.pick``), which wins a near tie."""
    threat = moon_threat(list(know.pts), len(view.tricks))
    win, win_i, tpts = table_state(view.trick)
    return pick(
        know.hand, len(view.trick), win, tpts, first, broken, know.gone, threat == view.seat,
        threat, (leader + win_i) % 4, _shown_voids(know),
    )  # fmt: skip


@dataclass(slots=True)
class Searched:
    """What a search found: each option's total utility over the deals it was played in, the
    options still in the running at the end, the weight of the deals they all saw, the card
    chosen (``root_choice``) and the option that chose it."""

    root: Root
    totals: list[float]
    alive: list[int]
    weight: float
    card: int = -1
    chosen: int = -1


def _search(root: Root, budget: int, full: bool, uncapped: bool = False) -> Searched:
    """Deals drawn in two rounds, every option still in the running played in each; after the
    first half of the budget, options trailing by ``PRUNE_MARGIN`` are dropped."""
    Tally.searches += 1
    view, core = root.view, root.core
    remaining = (len(DECK) - view.cards_played) * (PLAN_COST if PLAN_REPLY else 1)
    rng = SplitMix64.for_key(
        PLAY_STREAM, view.number, view.hand_number, view.cards_played, view.seat
    )
    sampler = DealSampler(root.know)
    found = Searched(root, [0.0] * len(root.options), list(range(len(root.options))), 0.0)
    sums = core.reals(len(root.options))
    seen = 0
    most = budget if uncapped else budget // CARDS_PER_DEAL
    if TREE:
        deals = min(most, budget // remaining + MIN_DEALS)
        root.tree = tree_of(core).new_tree(min(TREE_NODES, deals * len(root.options) + 1))
    for round_ in range(2):
        share = budget // 2 if round_ == 0 else budget
        alive = found.alive
        deals = max(MIN_DEALS if round_ == 0 else 0, share // (len(alive) * remaining))
        deals = min(deals, most - seen)
        if deals > 0:
            drawn = sampler.draw_many(rng, deals, core)
            found.weight += _play_round(root, drawn, deals, seen, alive, sums)
        budget -= deals * len(alive) * remaining
        Tally.cards += deals * len(alive) * remaining
        seen += deals
        found.totals = [float(t) for t in sums]
        if found.weight:
            best_mean = min(found.totals[k] for k in alive) / found.weight
            found.alive = [
                k for k in alive if found.totals[k] / found.weight <= best_mean + PRUNE_MARGIN
            ]
        if (len(found.alive) == 1 and not full) or budget <= 0:
            break
    root_choice(found)
    return found


def _play_round(root: Root, drawn, deals: int, seen: int, alive: list[int], sums) -> float:
    """Every option of ``alive`` played out in each of the ``deals`` deals ``drawn`` (in
    ``sim.search_round``), added to ``sums``; returns the deals' total weight."""
    view, know, core = root.view, root.know, root.core
    weights = core.buffer_reals([1.0] * deals)
    plays = others_plays(view) if READ_MISS < 1.0 else []
    if plays:
        columns = [core.buffer(column) for column in zip(*plays, strict=True)]
        core.read_weights(drawn, deals, *columns, len(plays), READ_MISS, weights)
    args = (
        drawn, deals, seen, STOP_SHARE, view.seat, root.leader, root.trick, len(view.trick),
        root.pts, know.gone, len(view.tricks), root.cards, root.plans, core.buffer(alive),
        len(alive), view.moon_off_shooter, OTHERS_CREDIT, sums, root.record, root.hunter,
        moon_odds(core, view, drawn, deals, root.hunter), weights, defence_of(know),
    )  # fmt: skip
    if root.tree is not None:
        figures = root.figures if root.figures is not None else core.table_reals(0, 1)
        seats = _deal_hunters(root, drawn, deals, args[20])
        tree_of(core).tree_round(*args, figures, seats, *root.tree, TREE_EXPLORE, TREE_PRIOR)
    elif root.figures is None:
        (core.plan_round if PLAN_REPLY else core.search_round)(*args)
    else:
        core.weigh_round(*args, root.figures)
    return sum(float(w) for w in weights[:deals])


def defence_of(know: Knowledge) -> int:
    """``DEFEND`` for this decision: with ``STRAY_NOISE``, the seats whose plays strayed from
    the careful ducker's play at random that often in the playouts."""
    if not STRAY_NOISE:
        return DEFEND
    strayed = know.strayed
    if STRAY_LIKELY:
        for seat in range(4):
            if seat != know.seat and ducker_likelihood(know, seat) < STRAY_LIKELY:
                strayed |= 1 << seat
    return DEFEND | strayed << STRAY_SEATS | STRAY_NOISE << STRAY_SHIFT


def _deal_hunters(root: Root, drawn, deals: int, odds):
    """Per deal, the seat imagined shooting: ``root.hunter``, or with ``EARLY_SHARE`` before
    any point is taken the strongest other hand of the deal (``tree.early_hunters``, which
    sets its chance in ``odds``)."""
    if root.world is not None:
        for i in range(deals):
            odds[i] = 1.0
        return root.core.buffer([root.world] * max(deals, 1))
    seats = root.core.buffer([root.hunter] * max(deals, 1))
    if EARLY_SHARE and root.hunter < 0 and not sum(root.know.pts):
        tree_of(root.core).early_hunters(
            drawn, deals, root.view.seat, MOON_RANK_FLOOR, EARLY_STRENGTH, EARLY_SHARE, seats, odds
        )  # fmt: skip
    return seats


def tree_of(core):
    """The form of ``tree`` that goes with ``core``: compiled on the compiled ``sim``."""
    return getattr(core, "TREE", tree)


def root_choice(found: Searched) -> None:
    """The card of the option in the running with the least total utility, the heuristic's
    own card ``FALLBACK_EDGE`` ahead on a near tie (``option_score``), the lower card on a
    tie; with ``SAFETY_MARGIN``, the safety net's card if it is that close."""
    root = found.root
    best_key = None
    for k in found.alive:
        key = (option_score(found, k), root.options[k][0])
        if best_key is None or key < best_key:
            best_key = key
            found.card, found.chosen = root.options[k][0], k
    if SAFETY_MARGIN and found.weight and best_key is not None:
        know, view = root.know, root.view
        means = {
            root.options[k][0]: found.totals[k] / found.weight
            for k in found.alive
            if root.options[k][1] < 0
        }
        _, win_i, _ = table_state(view.trick)
        net = safety_card(know, view.trick, (root.leader + win_i) % 4, list(means))
        if net >= 0 and means[net] <= best_key[0] / found.weight + SAFETY_MARGIN:
            found.card = net
            found.chosen = root.options.index((net, -1))


def option_score(found: Searched, k: int) -> float:
    """How the root ranks option ``k``: its total utility, less ``FALLBACK_EDGE`` for the
    heuristic's own card (lower is better)."""
    card = found.root.options[k][0]
    return found.totals[k] - (FALLBACK_EDGE if card == found.root.fallback else 0.0)


def safety_card(know: Knowledge, trick, winner: int, cards: list[int]) -> int:
    """The safety net's card (-1 if none): where another seat holds every point taken, at least
    ``SAFETY_POINTS``, the cheapest of ``cards`` that beats it on the trick it is winning; or,
    last to a trick that another seat takes, a point card to split the points."""
    lone = suspect(know)
    if lone < 0 or know.pts[lone] < SAFETY_POINTS or not trick:
        return -1
    win = trick[0]
    for c in trick:
        if suit_of(c) == suit_of(trick[0]) and c > win:
            win = c
    if winner == lone:
        beats = [c for c in cards if suit_of(c) == suit_of(win) and c > win]
        return min(beats) if beats else -1
    if len(trick) == 3:
        points = [c for c in cards if c == QS or suit_of(c) == HEARTS]
        if points:
            return max(points, key=lambda c: (c == QS, c))
    return -1


def suspect(know: Knowledge) -> int:
    """Another seat that holds every point taken so far (-1 if none): the seat whose moon the
    search imagines in some deals."""
    total = sum(know.pts)
    if not total:
        return -1
    for s in range(4):
        if s != know.seat and know.pts[s] == total:
            return s
    return -1


def moon_odds(core, view: View, drawn, deals: int, hunter: int):
    """For each of the ``deals`` deals drawn, the chance that ``hunter`` is going for the moon:
    read from its plays so far, as they look from the hand the deal gives it (``HUNT_PRIOR``
    odds before any play, each play a shooter would make and a ducker would not multiplying them
    by ``HUNT_RATIO``; with ``HUNT_BELIEVE``, less in a deal that gives it a hand too weak to
    shoot, its played cards counted in); or ``HUNT_SHARE`` in every deal when that is set."""
    out = core.reals(max(deals, 1))
    if hunter < 0 or not (HUNT_SHARE or HUNT_PRIOR):
        return out
    if HUNT_SHARE:
        for i in range(deals):
            out[i] = HUNT_SHARE
        return out
    plays = plays_of(view, hunter)
    columns = list(zip(*plays, strict=True)) if plays else [[0]] * 8
    core.shooter_odds(
        drawn, deals, hunter, *(core.buffer(column) for column in columns), len(plays),
        HUNT_PRIOR, HUNT_RATIO, out,
    )  # fmt: skip
    if HUNT_BELIEVE:
        # a believable shooter: a deal that gives it a weak hand imagines it shooting less
        held = sum(1 << c for c in cards_of_plays(plays))
        for i in range(deals):
            strength = moon_strength(int(drawn[i][hunter]) | held)
            out[i] *= min(1.0, strength / HUNT_BELIEVE)
    return out


def cards_of_plays(plays) -> list[int]:
    """The cards of ``plays_of``'s entries."""
    return [play[0] for play in plays]


def moon_strength(hand: int) -> float:
    """Average weight of the cards held (ten 1 up to ace 5): high hands may shoot the moon."""
    total = 0
    count = 0
    for c in cards_of(hand):
        total += max(0, c % RANKS_PER_SUIT - MOON_RANK_FLOOR)
        count += 1
    return total / count if count else 0.0


def _shown_voids(know: Knowledge) -> int:
    """Suits another seat still holding cards has shown it lacks, as four bits."""
    voids = 0
    for s in range(4):
        if s != know.seat and know.need[s]:
            for x in range(4):
                if know.forbidden[s] & SUIT[x] == SUIT[x]:
                    voids |= 1 << x
    return voids


# ---- passing ---------------------------------------------------------------------------------


def decide_pass(view: View, core) -> list[int]:
    """Three cards to pass: the rule's choice (``rule_pass``) unless another of a handful of
    candidates (three of the cards the rule most wants rid of) does better by more than
    ``PASS_EDGE`` over the same imagined deals of the other hands, played out in ``core``."""
    rule = rule_pass(view)
    if not PASS_DEALS:
        return rule
    chosen, _ = searched_pass(view, core, rule)
    return chosen


def searched_pass(view: View, core, rule: list[int]) -> tuple[list[int], float]:
    """``decide_pass``'s search: the pass it makes and the mean points it saves over ``rule``."""
    hand = view.hand_mask
    ranked = sorted(cards_of(hand), key=lambda c: -_danger(c, hand))[:PASS_POOL]
    options = [mask_of(rule)]
    for trio in combinations(sorted(ranked), PASS_SIZE):
        m = mask_of(trio)
        if m not in options:
            options.append(m)
    know = knowledge_of(view)
    rng = SplitMix64.for_key(PASS_STREAM, view.number, view.hand_number, view.seat)
    drawn = DealSampler(know).draw_many(rng, PASS_DEALS, core)
    sums = core.reals(len(options))
    core.pass_round(
        drawn, PASS_DEALS, view.seat, (view.pass_target - view.seat) % 4,
        core.buffer(options), len(options), STOP_SHARE, view.moon_off_shooter, OTHERS_CREDIT,
        sums, core.buffer([0] * 52),
    )  # fmt: skip
    Tally.cards += PASS_DEALS * len(options) * 52
    best = 0
    for k in range(1, len(options)):
        if float(sums[k]) < float(sums[best]) - (PASS_EDGE * PASS_DEALS if best == 0 else 0.0):
            best = k
    edge = (float(sums[0]) - float(sums[best])) / PASS_DEALS
    return sorted(cards_of(options[best])), edge


def rule_pass(view: View) -> list[int]:
    """Three cards to pass: dangerous spades, a short suit to void, then the highest cards."""
    return sorted(card for card, _, _ in rule_pass_reasons(view)[0])


Reason = tuple[int, str, tuple]  # a card, a code of ``game.players.weigh``'s vocabulary, facts


def rule_pass_reasons(view: View) -> tuple[list[Reason], list[Reason]]:
    """``rule_pass``'s three cards, each with the branch of the rule that chose it, and the
    notable cards it kept: dangerous spades, a short minor to void, then the highest cards."""
    hand = view.hand_mask
    spades = hand & SUIT[SPADES]
    guards = (spades & ((1 << QS) - 1)).bit_count()
    has_queen = bool(hand & QS_BIT)
    needed = QUEEN_GUARDS_PASSING_RIGHT if view.pass_direction == "right" else QUEEN_GUARDS
    keep_queen = has_queen and guards >= needed
    chosen: list[Reason] = []
    if has_queen and not keep_queen:
        chosen.append((QS, "queen", (("guards", needed),)))
    for c in (AS, KS):
        if hand >> c & 1 and guards < QUEEN_GUARDS and not keep_queen:
            chosen.append((c, "high_spade", ()))
    chosen = chosen[:PASS_SIZE]
    left = hand
    for c, _, _ in chosen:
        left &= ~(1 << c)
    void = _void_suit(left, PASS_SIZE - len(chosen))
    if void >= 0:
        suit = DECK[high(SUIT[void])].code[-1]
        chosen.extend((c, "void", (("suit", suit),)) for c in cards_of(left & SUIT[void]))
        left &= ~SUIT[void]
    while len(chosen) < PASS_SIZE:
        c = _most_dangerous(left, hand, view)
        length = (hand & SUIT[suit_of(c)]).bit_count()
        why = "high_heart" if suit_of(c) == HEARTS else "high"
        chosen.append((c, why, (("suit_length", length),)))
        left &= ~(1 << c)
    low_left = (left & SUIT[SPADES] & ((1 << QS) - 1)).bit_count()
    chosen = [(c, w, (("low_spades", low_left), *f) if w == "queen" else f) for c, w, f in chosen]
    kept = [(QS, "queen_guarded", (("low_spades", low_left),))] if left & QS_BIT else []
    return chosen, kept


def _void_suit(left: int, room: int) -> int:
    """The short minor suit (clubs or diamonds) whose every card the pass has ``room`` for, the
    shortest first (clubs kept when it holds the two alone); -1 if none."""
    options = []
    for s in MINORS:
        m = left & SUIT[s]
        n = m.bit_count()
        if 0 < n <= room:
            keeps_two = s == 0 and m & 1
            options.append((n, keeps_two, -high(m), s))
    if not options:
        return -1
    options.sort()
    s = options[0][3]
    m = left & SUIT[s]
    if s == 0 and m & 1 and options[0][0] == 1:
        return -1
    return s


def _most_dangerous(left: int, hand: int, view: View) -> int:
    """The card we least want to keep: high hearts and high cards in short suits."""
    best = -1
    best_score = -1e9
    for c in cards_of(left):
        score = _danger(c, hand)
        if score > best_score:
            best_score = score
            best = c
    return best


def _danger(c: int, hand: int) -> float:
    """How much we want to be rid of card ``c`` of ``hand`` (see QUEEN_DANGER and the rest)."""
    s, r = divmod(c, RANKS_PER_SUIT)
    length = (hand & SUIT[s]).bit_count()
    if s == SPADES:
        if c == QS:
            return QUEEN_GUARDED if length >= LONG_SPADES else QUEEN_DANGER
        if c > QS:
            safe = hand & QS_BIT or length >= LONG_SPADES
            return HIGH_SPADE_SAFE if safe else HIGH_SPADE_DANGER
        return r - LOW_SPADE_KEEP
    if s == HEARTS:
        if KEEP_STOPPER and c == high(hand & SUIT[HEARTS]) and r >= KEEP_STOPPER:
            return -RANKS_PER_SUIT  # the top heart stays, to stop a moon (off by default)
        return r + HEART_EXTRA
    return r - LENGTH_RELIEF * length
