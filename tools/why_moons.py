"""Why does the search concede moons when it knows every card? ``python -m tools.why_moons``.

Issue 49's diagnostic. Ours plays against three moon hunters (``tools.hunter``) on the bench's
duplicate deals with the true deal as its only sample (``tools.moons.oracle_play``). For every
moon a hunter makes, the decision that lost it is found as ``tools.moons`` finds it (the last
of ours from which some sequence of our cards, the hunters replying by their own play, leaves
the shooter short), and there the search is run again with its figures: for the card we played
and for the card that began a stop, the share of the search's playouts that end in a moon
against us and the mean utility. Each lost moon then falls in one class:

- **blind**: the playouts of the card played see no moon against us (under ``BLIND``): the
  models of the others (who duck until a threat is real) do not show the hunter shooting;
- **no stop in the model**: they see the moon, but no less of it after the stop card;
- **traded**: the stop card shows fewer moons, yet the card played scored better: the value
  (points against moons), the prior or too few visits chose it.

``--agree``: how often each hunter's card is the one the playouts' models would play from its
hand (the shooter's ``pick`` going for every trick, the others' ``duck_pick``), in its first
``EARLY_CARDS`` cards and after, for the shooter of a moon and for the others; with ``--by-play``
the first trick apart, each phase split into leads, follows and discards.

``--known``: every playout imagines the seat that really shot in the hand (a first run finds
it) shooting with the chance ``--share`` from the first card: if the moons stay, the imagined
defence does not work against the real hunter; if they fall, not seeing the shooter is the cause.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

from game.engine import Phase
from game.engine.rules import HEART_MASK, MOON, RANKS_PER_SUIT, SUIT, legal_mask
from game.players import brain, jit, sim, tree, view_of
from game.players.deals import knowledge_of
from game.players.sim import LAST_TRICK, table_state
from tools.bench import FIRST_NUMBER, tune
from tools.moons import Oracle, card_index, decisions_card, play, stop_search

BLIND = 0.05  # below this share of playouts ending in the moon, the search did not see it
MODEL_NODES = 3000  # our decisions the search in the model may try from one decision
NODES = 400  # the stop search's positions from one decision, as in ``tools.moons``
KNOWN = -1  # with --known: the seat imagined shooting in every playout of the hand
SHARE = 1.0  # with --known: the chance it is imagined shooting, each deal
STRONGEST = False  # with --known --strongest: the strongest other hand imagined, not the shooter
KNOWN_MODE = False  # --known: a hand with a moon is played again, its shooter imagined
INTENT = False  # --intent: a hunter that chose a moon plan is imagined shooting (``Hunter``)
BRAINS_HUNTERS = brain._deal_hunters


@dataclass
class Loss:
    """One lost moon at the decision that lost it."""

    trick: int  # tricks played before the decision
    points: int  # points taken before it
    suspect: int  # 1 if the search already imagined a lone taker shooting there
    played: tuple[float, float]  # the card played: (moon share, mean utility)
    stop: tuple[float, float]  # the card that began a stop: the same
    kind: str = ""
    where: tuple[int, int] = (0, 0)  # the deal's index and our seat


@dataclass
class Result:
    moons: int = 0
    unstoppable: int = 0
    losses: list[Loss] = field(default_factory=list)
    shooters: list[tuple[int, float]] = field(default_factory=list)  # (rank, strength)


def known_hunters(root, drawn, deals: int, odds):
    """``brain._deal_hunters`` for ``--known``: the real shooter imagined in every deal."""
    seats = root.core.buffer([KNOWN] * max(deals, 1))
    for i in range(deals):
        odds[i] = SHARE
    return seats


def intent_hunters(root, drawn, deals: int, odds):
    """``brain._deal_hunters`` for ``--intent``: a hunter that has chosen a moon plan this hand
    (``Hunter.attempted``) and holds every point taken, imagined shooting in every deal;
    else brain's own choice."""
    from tools.bench import HUNTER_PLAYER

    pts = root.know.pts
    seats = [
        s for s in sorted(HUNTER_PLAYER.attempted) if s != root.view.seat and pts[s] == sum(pts)
    ]
    if not seats:
        return BRAINS_HUNTERS(root, drawn, deals, odds)
    chosen = root.core.buffer([seats[0]] * max(deals, 1))
    for i in range(deals):
        odds[i] = SHARE
    return chosen


def oracle_play(game, seat: int) -> str:
    """Ours' card with the true deal as the only sample (and with ``--known``, the shooter)."""
    from tools import moons

    if KNOWN < 0 and not INTENT:
        return moons.oracle_play(game, seat)
    hunters = brain._deal_hunters
    brain._deal_hunters = intent_hunters if INTENT else known_hunters
    try:
        return moons.oracle_play(game, seat)
    finally:
        brain._deal_hunters = hunters


def figures_at(position, seat: int) -> dict[int, tuple[float, float]]:
    """The oracle search at ``position``: each card's moon share and mean utility."""
    core = jit.core()
    Oracle.hands = [sum(1 << card_index(c) for c in position.hand(s)) for s in range(4)]
    sampler, hunters = brain.DealSampler, brain._deal_hunters
    brain.DealSampler = Oracle
    if KNOWN >= 0:
        brain._deal_hunters = known_hunters
    elif INTENT:
        brain._deal_hunters = intent_hunters  # the plans of the whole hand, a near figure
    try:
        found = brain.search_play(view_of(position, seat), core, figures=True)
    finally:
        brain.DealSampler, brain._deal_hunters = sampler, hunters
    if isinstance(found, int):
        return {found: (0.0, 0.0)}
    out: dict[int, tuple[float, float]] = {}
    rows = found.root.figures
    for k, (card, plan) in enumerate(found.root.options):
        if plan >= 0 or k not in found.alive or not rows[k][core.FIG_WEIGHT]:
            continue
        w = rows[k][core.FIG_WEIGHT]
        out[card] = (rows[k][core.FIG_MOON_AGAINST] / w, found.totals[k] / found.weight)
    return out


def strongest(position, seat: int) -> int:
    """The other seat whose hand at our first decision is the strongest for a moon."""
    others = [s for s in range(4) if s != seat]
    return max(
        others,
        key=lambda s: brain.moon_strength(sum(1 << card_index(c) for c in position.hand(s))),
    )


def shooter_rank(position, seat: int, shooter: int) -> tuple[int, float]:
    """Where the shooter's hand stood at our first decision among the other three by
    ``brain.moon_strength`` (0: the strongest), and its strength."""
    strength = {
        s: brain.moon_strength(sum(1 << card_index(c) for c in position.hand(s)))
        for s in range(4)
        if s != seat
    }
    rank = sorted(strength.values(), reverse=True).index(strength[shooter])
    return rank, strength[shooter]


def model_stop(position, seat: int, shooter: int, budget: list[int]) -> bool:
    """Whether some sequence of our cards stops ``shooter``'s moon when the others play the
    playouts' models on the true deal (``tree.advance``, the Python form), ``shooter`` the
    imagined shooter: a depth-first search of at most ``budget[0]`` of our decisions."""
    view = view_of(position, seat)
    know = knowledge_of(view)
    hands = [sum(1 << card_index(c) for c in position.hand(s)) for s in range(4)]
    leader = view.trick_leader if view.trick_leader is not None else seat
    table = [*view.trick, 0, 0, 0, 0][:4]
    state = (hands, leader, table, len(view.trick), list(know.pts), know.gone, len(view.tricks))
    return _model_stop(state, seat, shooter, budget, -1)


def _model_stop(state, seat: int, shooter: int, budget: list[int], hunter: int) -> bool:
    hands, leader, table, n, pts, gone, ntricks = state
    legal = tree.legal_of(hands[seat], table, n, ntricks == 0, (gone & HEART_MASK) != 0)
    for c in reversed([c for c in range(52) if legal >> c & 1]):
        if budget[0] <= 0:
            return False
        budget[0] -= 1
        h2 = list(hands)
        h2[seat] ^= 1 << c
        t2 = list(table)
        t2[n] = c
        p2 = list(pts)
        out = tree.advance(
            h2, leader, t2, n + 1, p2, gone, ntricks, -1, seat, False,
            shooter if hunter < 0 else hunter, brain.DEFEND, [0] * 52, 0,
        )  # fmt: skip
        lead2, n2, gone2, nt2 = out[0], out[1], out[2], out[3]
        if any(p2[s] for s in range(4) if s != shooter):
            return True
        if nt2 == LAST_TRICK:
            if p2[shooter] != MOON:
                return True
            continue
        if _model_stop((h2, lead2, t2, n2, p2, gone2, nt2), seat, shooter, budget, out[5]):
            return True
    return False


def agreement(number: int, hand_number: int, seat: int) -> tuple[list[int], dict[int, list]]:
    """The hand played again (ours by ``oracle_play``), each hunter's card beside the models'
    cards for it from its own hand: ``(real, shooter's pick, ducker's pick, kind)`` per seat,
    the kind of play a ``lead``, ``follow`` or ``discard``."""
    from tools.bench import HUNTER, HUNTER_PLAYER, OURS, deal_game

    HUNTER_PLAYER.reset()
    game = deal_game(number, hand_number)
    if game.phase == Phase.PASSING:
        for s in range(4):
            kind = OURS if s == seat else HUNTER
            game.pass_cards(s, kind.pass_cards(game, s))
    seen: dict[int, list] = {s: [] for s in range(4) if s != seat}
    while game.phase == Phase.PLAYING:
        s = game.turn
        if s == seat:
            game.play(s, oracle_play(game, s))
            continue
        view = view_of(game, s)
        know = knowledge_of(view)
        first = not view.tricks
        broken = bool(know.gone & HEART_MASK)
        win, _, tpts = table_state(view.trick)
        n = len(view.trick)
        shoot = sim.pick(know.hand, n, win, tpts, first, broken, know.gone, True, -1, 0, 0)
        duck = sim.duck_pick(know.hand, n, win, first, broken)
        code = HUNTER.play(game, s)
        runs = run_of(legal_mask(know.hand, view.trick, first, broken), know)
        seen[s].append((runs[card_index(code)], runs[shoot], runs[duck], play_of(know, view)))
        game.play(s, code)
    return list(game.hand_points()), seen


def play_of(know, view) -> str:
    """What the seat to play does: leads, follows the led suit, or discards (void in it)."""
    if not view.trick:
        return "lead"
    return "follow" if know.hand & SUIT[view.trick[0] // RANKS_PER_SUIT] else "discard"


def run_of(legal: int, know) -> dict[int, int]:
    """Each legal card's run of cards worth the same (``brain.distinct_cards``): the run's
    first card, so that two cards of one run count as the same play."""
    reps = brain.distinct_cards(legal, know)
    out = {}
    rep = -1
    for c in range(52):
        if legal >> c & 1:
            if c in reps:
                rep = c
            out[c] = rep
    return out


def classify(loss: Loss) -> str:
    if loss.played[0] < BLIND:
        return "blind"
    if loss.stop[0] >= loss.played[0]:
        return "no stop in the model"
    return "traded"


def run_deal(index: int) -> Result:
    global KNOWN
    number = FIRST_NUMBER + index
    hand_number = 1 + index % 4
    result = Result()
    for seat in range(4):
        KNOWN = -1
        game, decisions = play(number, hand_number, seat, oracle_play)
        if KNOWN_MODE and game.moon_shooter is not None and game.moon_shooter != seat:
            KNOWN = strongest(decisions[0], seat) if STRONGEST else game.moon_shooter
            game, decisions = play(number, hand_number, seat, oracle_play)
        shooter = game.moon_shooter
        if shooter is None or shooter == seat:
            continue
        result.moons += 1
        result.shooters.append(shooter_rank(decisions[0], seat, shooter))
        for position in reversed(decisions):
            card = stop_search(position, seat, shooter, [NODES])
            if card is None:
                continue
            played = card_index(decisions_card(position, game, seat))
            seen = figures_at(position, seat)
            pts = position.hand_points()
            loss = Loss(
                position.tricks_played,
                sum(pts),
                int(any(p == sum(pts) and p and s != seat for s, p in enumerate(pts))),
                seen.get(played, (float("nan"), 0.0)),
                seen.get(card, (float("nan"), 0.0)),
            )
            loss.kind = classify(loss)
            loss.where = (index, seat)
            if loss.kind == "no stop in the model":
                budget = [MODEL_NODES]
                found = model_stop(position, seat, shooter, budget)
                loss.kind += (
                    ": one exists" if found else (" (none)" if budget[0] > 0 else " (ran out)")
                )
            result.losses.append(loss)
            break
        else:
            result.unstoppable += 1
    return result


def report(results: list[Result], elapsed: float) -> None:
    hands = 4 * len(results)
    moons = sum(r.moons for r in results)
    losses = [loss for r in results for loss in r.losses]
    print(f"ours (true deal) vs 3 hunters, {hands} hands, {elapsed:.0f} s")
    print(f"  hunters' moons: {moons} ({moons / hands:.1%} of hands)")
    print(f"  unstoppable (no stop found): {sum(r.unstoppable for r in results)}")
    shooters = [x for r in results for x in r.shooters]
    ranks = Counter(rank for rank, _ in shooters)
    print(f"  the shooter's hand among the others' at our first card (0 strongest): {dict(ranks)}")
    print(f"  its strength: {sorted(round(x, 2) for _, x in shooters)}")
    kinds = Counter(loss.kind for loss in losses)
    for kind, n in kinds.most_common():
        print(f"  {kind}: {n}")
    print(
        "  trick points suspect | played: moon share, utility | stop: moon share, utility | "
        "kind (deal, seat)"
    )
    for loss in sorted(losses, key=lambda x: (x.kind, x.trick)):
        print(
            f"  {loss.trick:5d} {loss.points:6d} {loss.suspect:7d} | {loss.played[0]:6.1%} "
            f"{loss.played[1]:6.2f} | {loss.stop[0]:6.1%} {loss.stop[1]:6.2f} | {loss.kind} "
            f"{loss.where}"
        )


EARLY_CARDS = 4  # a seat's first cards of the hand, where a moon is won or lost


def agreement_table(deals: range, by_play: bool = False) -> list[str]:
    """How often each hunter's card is the models' (``agreement``), as lines to print: the
    shooter against the playouts' shooter, the others against their ducker, early and late;
    ``by_play``: the first trick apart from the next three cards, each by lead, follow and
    discard, with the share of the ducker's misses where the hunter's card ranks higher."""
    counts: Counter = Counter()
    for index in deals:
        for seat in range(4):
            pts, seen = agreement(FIRST_NUMBER + index, 1 + index % 4, seat)
            shooter = next((s for s in range(4) if pts[s] == MOON), None)
            for s, rows in seen.items():
                if s == shooter:
                    role = "the shooter"
                else:
                    role = "another, moon hand" if shooter is not None else "another, no moon"
                for k, (real, shoot, duck, kind) in enumerate(rows):
                    key = (role, _phase(k, by_play), kind if by_play else "")
                    counts[(*key, 0)] += 1
                    counts[(*key, 1)] += real == shoot
                    counts[(*key, 2)] += real == duck
                    counts[(*key, 3)] += real % RANKS_PER_SUIT > duck % RANKS_PER_SUIT
    return [_agreement_line(key, counts) for key in sorted({k[:3] for k in counts}, key=_order)]


def _phase(k: int, by_play: bool) -> str:
    """A seat's ``k``-th card's phase of the hand, as ``agreement_table`` groups them."""
    if k >= EARLY_CARDS:
        return "late"
    return "first" if by_play and k == 0 else "early"


ROLES = ("the shooter", "another, moon hand", "another, no moon")
PHASES = ("first", "early", "late")


def _order(key: tuple[str, str, str]) -> tuple[int, int, str]:
    return ROLES.index(key[0]), PHASES.index(key[1]), key[2]


def _agreement_line(key: tuple[str, str, str], counts: Counter) -> str:
    role, phase, kind = key
    n = counts[(*key, 0)]
    shoot, duck = counts[(*key, 1)] / n, counts[(*key, 2)] / n
    label = f"{phase:5s} {kind:7s}" if kind else f"{phase:5s}"
    line = (
        f"  {role:18s} {label} {n:5d} cards: the models' shooter's {shoot:4.0%}, "
        f"the ducker's {duck:4.0%}"
    )
    misses = n - counts[(*key, 2)]
    if kind and misses:
        line += f" (its misses: the hunter's card higher {counts[(*key, 3)] / misses:4.0%})"
    return line


OUTCOMES = ("neither", "the run's only", "the base's only", "both")  # --versus: a moon where


def versus(deals: range, base: list[str]) -> Counter:
    """Each hand played with the true deal (``oracle_play``) under the run's settings and again
    under ``base`` ("NAME=VALUE" strings set over them): how many hands end in a hunter's moon
    under both, under the run's only and under the base's only."""
    from game.players import brain

    counts: Counter = Counter()
    for index in deals:
        for seat in range(4):
            moon = []
            for settings in ([], base):
                old = tune(1.0, settings)
                try:
                    game, _ = play(FIRST_NUMBER + index, 1 + index % 4, seat, oracle_play)
                finally:
                    for name, value in old.items():
                        setattr(brain, name, value)
                moon.append(game.moon_shooter not in (None, seat))
            counts[OUTCOMES[moon[0] + 2 * moon[1]]] += 1
    return counts


def main(argv: list[str] | None = None) -> int:
    global KNOWN_MODE, SHARE, INTENT, STRONGEST
    parser = argparse.ArgumentParser(prog="python -m tools.why_moons", description=__doc__)
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--first", type=int, default=0, help="first deal (default 0)")
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--budget", type=float, default=1.0)
    parser.add_argument("--known", action="store_true", help="imagine the real shooter")
    parser.add_argument(
        "--strongest", action="store_true", help="with --known: the strongest other hand instead"
    )
    parser.add_argument("--share", type=float, default=SHARE)
    parser.add_argument(
        "--intent", action="store_true", help="imagine a hunter that chose a moon plan shooting"
    )
    parser.add_argument(
        "--agree", action="store_true", help="only how often the hunters play the models' card"
    )
    parser.add_argument(
        "--by-play", action="store_true", help="with --agree: by lead, follow and discard"
    )
    parser.add_argument(
        "--versus",
        action="append",
        metavar="NAME=VALUE",
        help="only the hands with a moon under the run's settings, these (set over them), both",
    )
    args = parser.parse_args(argv)
    KNOWN_MODE, SHARE, INTENT = args.known, args.share, args.intent
    STRONGEST = args.strongest
    tune(args.budget, args.set)
    jit.core()
    started = time.perf_counter()
    deals = range(args.first, args.first + max(1, args.hands // 4))
    if args.agree:
        print("the hunters' cards as the playouts' models play them (a run counts as one card):")
        print("\n".join(agreement_table(deals, args.by_play)))
        return 0
    if args.versus:
        counts = versus(deals, args.versus)
        print(
            f"hunters' moons, true deal, {4 * len(deals)} hands, --versus {' '.join(args.versus)}:"
        )
        print("  " + ", ".join(f"{kind} {counts[kind]}" for kind in reversed(OUTCOMES[1:])))
        return 0
    results = [run_deal(i) for i in deals]
    report(results, time.perf_counter() - started)
    return 0


if __name__ == "__main__":
    sys.exit(main())
