"""Where are the moons lost? ``python -m tools.moons [--hands N] [--nodes K]``.

Ours sits against three moon hunters (``tools.hunter``) on the bench's duplicate deals (every
deal four times, ours in each seat). For every moon the hunters make, three questions:

(a) **Could our seat have stopped it?** A depth-first search over our seat's own card sequences
    on the real deal, the hunters replying by their own play: from our last decision of the hand
    backwards, the first decision from which some sequence of our cards leaves the shooter short
    of all the points is the one that *lost* the moon. A branch ends as soon as a seat other than
    the shooter holds a point. Bounded: cards worth the same count once (``distinct_cards``), the
    highest tried first, and at most ``--nodes`` positions expanded from each decision; a
    decision whose search runs out counts as "not found", so the stoppable share is a floor.
(b) **Is it the guess of the hands, or the playouts?** The same games with our search handed the
    true deal as its only sample (every imagined deal is the real one): if the moons stay, the
    playouts are blind to them; if they fall, guessing the shooter's hand is what fails.
(c) **Do the playouts see it?** At each decision that lost a stoppable moon, each candidate
    card is played out over the search's own imagined deals (as ``search_round`` does) and the
    share of playouts that end in the shooter's moon is printed: for the card we played, for the
    card that began a stop, and for the candidate with the lowest share.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from game.engine import DECK, Card, Game, Phase, SplitMix64
from game.engine.rules import HEART_MASK, MOON, legal_mask
from game.players import brain, jit, view_of
from game.players.deals import DealSampler, knowledge_of
from tools.bench import FIRST_NUMBER, HUNTER, HUNTER_PLAYER, OURS, deal_game, mean_ci, tune

NODES = 400  # positions the stop search may expand from one decision
SAMPLES = 200  # imagined deals per candidate card in (c)
ORACLE_ONLY = False  # --oracle-only: the hands as played and (b), without (a) and (c)


@dataclass
class MoonResult:
    """One deal's four rotations: the hunters' moons, as played and with the true deal known."""

    moons: int = 0  # hunters' moons as played
    oracle_moons: int = 0  # hunters' moons when our search sees the true deal
    stoppable: int = 0  # moons our seat could have stopped with other cards of its own
    not_found: int = 0  # moons whose stop search ran out of positions at some decision
    seen: list[tuple[float, float, float]] = field(default_factory=list)  # (c): played, stop, min


def card_index(code: str) -> int:
    return Card.parse(code).index


def hunters_until(game: Game, seat: int) -> None:
    """Let the hunters play until it is ``seat``'s turn again or the hand is over."""
    while game.phase == Phase.PLAYING and game.turn != seat:
        game.play(game.turn, HUNTER.play(game, game.turn))


def split(game: Game) -> bool:
    """Whether two seats hold points: nobody can make the moon any more."""
    return sum(1 for points in game.hand_points() if points) >= 2


def stop_search(game: Game, seat: int, shooter: int, budget: list[int]) -> int | None:
    """A card of ours that begins a sequence leaving ``shooter`` short of the moon, from this
    position (``seat`` to play); None if none was found. ``budget[0]`` counts down positions."""
    view = view_of(game, seat)
    know = knowledge_of(view)
    legal = legal_mask(know.hand, view.trick, not view.tricks, bool(know.gone & HEART_MASK))
    for card in reversed(brain.distinct_cards(legal, know)):
        if budget[0] <= 0:
            return None
        budget[0] -= 1
        trial = game.copy()
        trial.play(seat, DECK[card].code)
        hunters_until(trial, seat)
        if split(trial) or (trial.phase.over and trial.moon_shooter is None):
            return card
        if trial.phase != Phase.PLAYING:
            continue
        if stop_search(trial, seat, shooter, budget) is not None:
            return card
    return None


def playout_moons(game: Game, seat: int, shooter: int) -> dict[int, float]:
    """(c): for each candidate card, the share of playouts over the search's imagined deals
    (as ``brain._search`` draws them) that end in ``shooter``'s moon."""
    core = jit.core()
    view = view_of(game, seat)
    know = knowledge_of(view)
    first = not view.tricks
    legal = legal_mask(know.hand, view.trick, first, bool(know.gone & HEART_MASK))
    rng = SplitMix64.for_key(
        brain.PLAY_STREAM, view.number, view.hand_number, view.cards_played, seat
    )
    drawn = DealSampler(know).draw_many(rng, SAMPLES, core)
    leader = view.trick_leader if view.trick_leader is not None else seat
    n = len(view.trick)
    record = core.buffer([0] * 52)
    shares = {}
    for card in brain.distinct_cards(legal, know):
        moons = 0
        for i in range(SAMPLES):
            trial = drawn[i].copy()
            trial[seat] ^= 1 << card
            table = core.buffer([*view.trick, card, 0, 0, 0, 0][:4])
            stop = (i * brain.STOP_SHARE) % 1.0 < brain.STOP_SHARE
            after = core.play_out(
                trial, leader, table, n + 1, core.buffer(list(know.pts)), know.gone,
                len(view.tricks), -1, seat, stop, -1, record, brain.DEFEND,
            )  # fmt: skip
            moons += int(after[shooter]) == MOON
        shares[card] = moons / SAMPLES
    return shares


def play(number: int, hand_number: int, seat: int, ours=None) -> tuple[Game, list[Game]]:
    """One hand, ours in ``seat`` (its card chosen by ``ours``, ``OURS.play`` by default) and
    hunters elsewhere; the hand as played and the positions at each of ours' decisions."""
    HUNTER_PLAYER.reset()
    kinds = [HUNTER] * 4
    kinds[seat] = OURS
    game = deal_game(number, hand_number)
    if game.phase == Phase.PASSING:
        for s in range(4):
            game.pass_cards(s, kinds[s].pass_cards(game, s))
    decisions = []
    while game.phase == Phase.PLAYING:
        s = game.turn
        if s == seat:
            decisions.append(game.copy())
        game.play(s, (ours or OURS.play)(game, s) if s == seat else HUNTER.play(game, s))
    return game, decisions


class Oracle:
    """Stands in for the deal sampler: every imagined deal is the true one (question b)."""

    hands: list[int] = [0, 0, 0, 0]

    def __init__(self, know) -> None:
        self.know = know

    def draw_many(self, rng, count: int, core):
        out = core.grid(max(count, 1), 4)
        for i in range(count):
            for s in range(4):
                out[i][s] = self.know.hand if s == self.know.seat else Oracle.hands[s]
        return out


def oracle_play(game: Game, seat: int) -> str:
    """Ours' card with the true hands as the search's only deal."""
    Oracle.hands = [sum(1 << card_index(c) for c in game.hand(s)) for s in range(4)]
    sampler = brain.DealSampler
    brain.DealSampler = Oracle
    brain.ROBUST_HANDS = Oracle.hands
    try:
        return OURS.play(game, seat)
    finally:
        brain.DealSampler = sampler
        brain.ROBUST_HANDS = None


def run_deal(index: int) -> MoonResult:
    number = FIRST_NUMBER + index
    hand_number = 1 + index % 4
    result = MoonResult()
    for seat in range(4):
        game, decisions = play(number, hand_number, seat)
        shooter = game.moon_shooter
        if shooter is not None and shooter != seat:
            result.moons += 1
            if ORACLE_ONLY:
                decisions = []
            lost = None
            for position in reversed(decisions):
                budget = [NODES]
                card = stop_search(position, seat, shooter, budget)
                if card is not None:
                    lost = (position, card)
                    break
                result.not_found += budget[0] <= 0
            if lost is not None and not ORACLE_ONLY:
                result.stoppable += 1
                position, card = lost
                played = card_index(decisions_card(position, game, seat))
                shares = playout_moons(position, seat, shooter)
                result.seen.append(
                    (shares.get(played, math.nan), shares[card], min(shares.values()))
                )
        result.oracle_moons += oracle_hand(number, hand_number, seat)
    return result


def decisions_card(position: Game, game: Game, seat: int) -> str:
    """The card ``seat`` played from ``position`` in the finished ``game``."""
    done = game.completed_tricks[position.tricks_played]
    return next(code for who, code in done.plays if who == seat)


def oracle_hand(number: int, hand_number: int, seat: int) -> int:
    """Whether a hunter shoots when ours in ``seat`` searches with the true deal (question b)."""
    game, _ = play(number, hand_number, seat, oracle_play)
    return int(game.moon_shooter is not None and game.moon_shooter != seat)


def main(argv: list[str] | None = None) -> int:
    global NODES, ORACLE_ONLY
    parser = argparse.ArgumentParser(prog="python -m tools.moons", description=__doc__)
    parser.add_argument("--hands", type=int, default=2000, help="hands (default 2000)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--first", type=int, default=0, help="first deal (default 0)")
    parser.add_argument("--nodes", type=int, default=NODES, help="stop search's positions")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set a constant of game.players.brain for this run (repeatable), as the bench's",
    )
    parser.add_argument("--budget", type=float, default=1.0, help="multiply the card budget")
    parser.add_argument(
        "--oracle-only", action="store_true", help="only the moons as played and (b): no (a), (c)"
    )
    args = parser.parse_args(argv)
    NODES = args.nodes
    ORACLE_ONLY = args.oracle_only
    tune(args.budget, args.set)  # before the workers fork
    if args.set or args.budget != 1.0:
        print(f"set: {' '.join(args.set) or '-'}, budget x{args.budget}")
    jit.core()
    deals = max(1, math.ceil(args.hands / 4))
    indices = range(args.first, args.first + deals)
    started = time.perf_counter()
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            results = list(pool.map(run_deal, indices, chunksize=1))
    else:
        results = [run_deal(i) for i in indices]
    report(results, time.perf_counter() - started)
    return 0


def report(results: list[MoonResult], elapsed: float) -> None:
    hands = 4 * len(results)
    moons = sum(r.moons for r in results)
    stoppable = sum(r.stoppable for r in results)
    rate, rate_ci = mean_ci([r.moons / 4 for r in results])
    unstoppable, un_ci = mean_ci([(r.moons - r.stoppable) / 4 for r in results])
    oracle, oracle_ci = mean_ci([r.oracle_moons / 4 for r in results])
    change, change_ci = mean_ci([(r.oracle_moons - r.moons) / 4 for r in results])
    print(f"ours vs 3 hunters, {hands} hands ({len(results)} deals x 4 seats, {elapsed:.0f} s)")
    print(f"  hunters' moons: {moons} ({rate:.1%} +- {rate_ci:.1%} of hands)")
    print(
        f"  (a) stoppable by another sequence of our seat's cards: {stoppable} of {moons} "
        f"({stoppable / max(moons, 1):.0%}); not found within {NODES} positions a decision: "
        f"{moons - stoppable} ({unstoppable:.1%} +- {un_ci:.1%} of hands, a ceiling on the "
        f"unstoppable share)"
    )
    print(
        f"  (b) our search handed the true deal: hunters' moons {oracle:.1%} +- {oracle_ci:.1%} "
        f"of hands (change {change:+.1%} +- {change_ci:.1%}, paired by deal)"
    )
    seen = [s for r in results for s in r.seen]
    if seen:
        played, stop, least = (statistics.fmean(column) for column in zip(*seen, strict=True))
        print(
            f"  (c) at the {len(seen)} decisions that lost a stoppable moon, the share of "
            f"playouts ending in that moon: the card played {played:.1%}, the card that began "
            f"a stop {stop:.1%}, the candidate with the fewest {least:.1%}"
        )
    sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
