"""How strong and how fast are the computer players? ``python -m tools.bench [--hands N]``.

Every deal comes from a fixed game and hand number and is replayed four times with the seats
rotated (duplicate dealing), so luck of the cards cancels out and anyone can reproduce the
figures. Pass directions cycle left, right, across, keep. Three match-ups, each with the target
in ``MATCHUPS`` it must meet: ours against three duckers, ours against three random players, and
three of ours against one ducker. A fourth puts ours against three moon hunters (``tools.hunter``)
and counts their successful and failed moon attempts per hand. Two more measure ours against
today's players, frozen in ``tools.today`` as a yardstick: one of ours against three of today's,
and three of ours against one.

Every match-up is judged by its differential: ours' mean points minus the others' mean, on all
hands, moons included (negative is better for ours), with a paired 95% interval over deals (the
four rotations of a deal are one sample). ``--ours today`` seats today's players as "ours", for
the figures before a change; ``--budget`` multiplies the search's card budget, ``--set`` any
other constant of ``game.players.brain``, to try a change without editing it.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from game.engine import DECK, Card, Game, Phase, SplitMix64, deal
from game.players import choose_pass, choose_play
from tools import today
from tools.hunter import Hunter
from tools.stats import percentile

RANDOM_STREAM = 0x7A2D
FIRST_NUMBER = 40_001  # bench deals use their own stretch of game numbers


THINK_POSITIONS = 200  # play decisions timed in both forms of the search core


# ---- the reference opponents -------------------------------------------------------------------


def random_pass(game: Game, seat: int) -> list[str]:
    """Three cards picked by a generator seeded from the position."""
    rng = SplitMix64.for_key(RANDOM_STREAM, game.number, game.hand_number, 99, seat)
    hand = game.hand(seat)
    rng.shuffle(hand)
    return hand[:3]


def random_play(game: Game, seat: int) -> str:
    """A legal card picked by a generator seeded from the position."""
    played = 4 * game.tricks_played + len(game.trick)
    rng = SplitMix64.for_key(RANDOM_STREAM, game.number, game.hand_number, played, seat)
    return rng.choice(game.legal_plays(seat))


def _rank(code: str) -> int:
    return Card.parse(code).rank


def ducker_pass(game: Game, seat: int) -> list[str]:
    """The three highest cards, whatever the suit."""
    hand = sorted(game.hand(seat), key=lambda code: (_rank(code), Card.parse(code).index))
    return hand[-3:]


def ducker_play(game: Game, seat: int) -> str:
    """Highest card that still loses; when void the queen, then the highest heart; lead low."""
    legal = [Card.parse(code) for code in game.legal_plays(seat)]
    trick = [Card.parse(code) for _, code in game.trick]
    if not trick:
        return min(legal, key=lambda card: (card.rank, card.index)).code
    led = trick[0].suit
    following = [card for card in legal if card.suit == led]
    if following:
        winning = max(card.rank for card in trick if card.suit == led)
        losing = [card for card in following if card.rank < winning]
        if losing:
            return max(losing, key=lambda card: card.rank).code
        safe = [card for card in following if card.code != "QS"] or following
        if len(trick) == 3:
            return max(safe, key=lambda card: card.rank).code
        return min(safe, key=lambda card: card.rank).code
    for card in legal:
        if card.code == "QS":
            return card.code
    hearts = [card for card in legal if card.suit == "H"]
    if hearts:
        return max(hearts, key=lambda card: card.rank).code
    return max(legal, key=lambda card: (card.rank, card.index)).code


@dataclass(frozen=True)
class Kind:
    name: str
    pass_cards: Callable[[Game, int], list[str]]
    play: Callable[[Game, int], str]


OURS = Kind("ours", choose_pass, choose_play)
TODAY = Kind("today", today.choose_pass, today.choose_play)
DUCKER = Kind("ducker", ducker_pass, ducker_play)
RANDOM = Kind("random", random_pass, random_play)
HUNTER_PLAYER = Hunter()
HUNTER = Kind("hunter", HUNTER_PLAYER.pass_cards, HUNTER_PLAYER.play)


@dataclass(frozen=True)
class Matchup:
    title: str
    ours_seats: int  # 1: ours in one seat; 3: ours in three seats
    other: Kind
    measured: str  # "ours" or "other": whose points the target is about
    target: float | None  # None: no points target, only figures
    at_most: bool
    differential: float | None = None  # the most ours' mean may exceed the others' (a target)


MATCHUPS = (
    Matchup("ours vs 3 duckers", 1, DUCKER, "ours", 3.5, True),
    Matchup("ours vs 3 random", 1, RANDOM, "ours", 2.0, True),
    Matchup("3 ours vs 1 ducker", 3, DUCKER, "other", 11.0, False),
    Matchup("ours vs 3 hunters", 1, HUNTER, "ours", None, True),
    # issue 32: half a point a hand better than today's players, in either proportion
    Matchup("ours vs 3 today's", 1, TODAY, "ours", None, True, -0.5),
    Matchup("3 ours vs 1 today's", 3, TODAY, "other", None, False, -0.5),
)
# A third of the hunters' moon rate before any stopping work, 17.0% +- 5.3% over 200
# hands (`python -m tools.bench --only hunters --hands 200`, commit 0648ed5)
HUNTER_MOON_TARGET: float | None = 0.17 / 3
SHORT_NAMES = ("duckers", "random", "ducker", "hunters", "todays", "today")  # --only, as MATCHUPS


# ---- playing -----------------------------------------------------------------------------------


EVEN_HAND = [7, 7, 6, 6]


def deal_game(number: int, hand_number: int) -> Game:
    """A fresh hand ``hand_number`` of game ``number``; earlier hands (at most three) are
    scored as evenly as 26 points allow, so no seat starts ahead."""
    hands = deal(number, hand_number)
    keep = (hand_number - 1) % 4 == 3
    leader = next(seat for seat in range(4) if 0 in hands[seat])
    return Game.from_dict(
        {
            "v": 1,
            "n": number,
            "m": 0,
            "k": hand_number,
            "p": "playing" if keep else "passing",
            "h": ["".join(DECK[c].code for c in cards) for cards in hands],
            "x": ["", "", "", ""],
            "r": ["", "", "", ""],
            "t": str(leader) if keep else "",
            "s": [EVEN_HAND[i:] + EVEN_HAND[:i] for i in range(hand_number - 1)],
        }
    )


@dataclass
class DealResult:
    """One deal of one match-up, played by each version of ours (the change first, then the
    base when the run is paired)."""

    points: list[list[float]] = field(default_factory=list)  # per version: [ours, other]
    moons: list[list[str]] = field(default_factory=list)  # per version: "" or shooter's kind
    failed: list[list[int]] = field(default_factory=list)  # per version: hunters' failed tries
    play_times: list[float] = field(default_factory=list)  # CPU seconds of this process
    pass_times: list[float] = field(default_factory=list)
    play_walls: list[float] = field(default_factory=list)  # wall-clock seconds


def play_hand(game: Game, kinds: list[Kind], result: DealResult | None) -> tuple[int, ...]:
    """Play one hand to its end; returns the scores with any moon applied. Ours' decision
    times go to ``result`` (none when it is None)."""
    if game.phase == Phase.PASSING:
        for seat in range(4):
            start = time.thread_time()
            cards = kinds[seat].pass_cards(game, seat)
            if kinds[seat] is OURS and result is not None:
                result.pass_times.append(time.thread_time() - start)
            game.pass_cards(seat, cards)
    while game.phase == Phase.PLAYING:
        seat = game.turn
        start, wall = time.thread_time(), time.perf_counter()
        card = kinds[seat].play(game, seat)
        if kinds[seat] is OURS and result is not None:
            result.play_times.append(time.thread_time() - start)
            result.play_walls.append(time.perf_counter() - wall)
        game.play(seat, card)
    return game.history[-1]


def seating(matchup: Matchup, rotation: int) -> list[Kind]:
    """Who sits where in one rotation of a match-up's deal."""
    if matchup.ours_seats == 1:
        kinds = [matchup.other] * 4
        kinds[rotation] = OURS
    else:
        kinds = [OURS] * 4
        kinds[rotation] = matchup.other
    return kinds


def run_deal(index: int, k: int, versions: tuple[tuple[str, ...], ...] = ((),)) -> DealResult:
    """One deal of match-up ``k``, replayed with every rotation by each version of ours (the
    brain's constants ``versions[v]`` set, as ``--set`` does, for that version only)."""
    number = FIRST_NUMBER + index
    hand_number = 1 + index % 4
    matchup = MATCHUPS[k]
    result = DealResult()
    for v, settings in enumerate(versions):
        old = tune(1.0, list(settings))
        ours_total = other_total = 0.0
        moons = []
        failed = []
        try:
            for rotation in range(4):
                HUNTER_PLAYER.reset()
                kinds = seating(matchup, rotation)
                game = deal_game(number, hand_number)
                scores = play_hand(game, kinds, result if v == 0 else None)
                ours = [scores[s] for s in range(4) if kinds[s] is OURS]
                others = [scores[s] for s in range(4) if kinds[s] is not OURS]
                ours_total += sum(ours) / len(ours)
                other_total += sum(others) / len(others)
                shooter = next((s for s in range(4) if game.moon_shooter == s), None)
                moons.append("" if shooter is None else kinds[shooter].name)
                failed.append(len(HUNTER_PLAYER.attempted - {shooter}))
        finally:
            tune(1.0, [f"{name}={value}" for name, value in old.items()])
        result.points.append([ours_total / 4, other_total / 4])
        result.moons.append(moons)
        result.failed.append(failed)
    return result


def tune(budget: float, settings: list[str]) -> dict[str, object]:
    """Multiply the players' card budget (compiled) by ``budget``; set brain's constants from
    "NAME=VALUE" strings (a number, else the text): for trying a change from the command line.
    Returns the constants' old values, so that a paired run can put them back."""
    from game.players import brain

    old: dict[str, object] = {}
    for text in settings:
        name, _, value = text.partition("=")
        if not hasattr(brain, name):
            raise SystemExit(f"game.players.brain has no {name}")
        was = getattr(brain, name)
        old.setdefault(name, was)
        setattr(brain, name, type(was)(float(value)) if isinstance(was, int | float) else value)
    if budget != 1.0:
        old.setdefault("CARD_BUDGET", brain.CARD_BUDGET)
        brain.CARD_BUDGET = round(brain.CARD_BUDGET * budget)
    return old


def mean_ci(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.inf
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


# ---- the search core, compiled and in Python --------------------------------------------------


def think_positions(count: int, first: int = 0) -> list:
    """The views of ``count`` play decisions of ours, from bench deals played by four of ours."""
    from game.players import view_of

    views = []
    index = first
    while len(views) < count:
        game = deal_game(FIRST_NUMBER + index, 1 + index % 4)
        index += 1
        while not game.phase.over and len(views) < count:
            if game.phase == Phase.PASSING:
                for seat in range(4):
                    game.pass_cards(seat, choose_pass(game, seat))
                continue
            seat = game.turn
            views.append(view_of(game, seat))
            game.play(seat, choose_play(game, seat))
    return views


def think_table(count: int, first: int = 0) -> bool:
    """Thinking CPU time per play decision of the compiled and the Python search core, on the
    same positions, one after the other; prints the table; whether they decided alike."""
    from game.players import brain, jit, sim
    from game.players.brain import decide_play

    form, detail = jit.status()
    if form != "compiled":
        print(f"search core: no compiled form to time ({detail})")
        return False
    fast = jit.core()
    views = think_positions(count, first)
    times: dict[str, list[float]] = {"compiled": [], "python": []}
    differ = 0
    budget = brain.CARD_BUDGET  # both forms on the same budget, so the same card
    for view in views:
        cards = []
        for name, core in (("compiled", fast), ("python", sim)):
            start = time.thread_time()
            cards.append(decide_play(view, core, budget=budget))
            times[name].append(time.thread_time() - start)
        differ += cards[0] != cards[1]
    print(
        f"search core: thinking CPU time per play decision, {len(views)} positions, both forms "
        f"on each ({brain.CARD_BUDGET:,} simulated cards a decision, {detail})"
    )
    print(f"  {'':10} {'median':>10} {'p99':>10} {'mean':>10}")
    for name, values in times.items():
        print(
            f"  {name:10} {statistics.median(values) * 1000:8.3f} ms "
            f"{percentile(values, 99) * 1000:8.3f} ms {statistics.fmean(values) * 1000:8.3f} ms"
        )
    ratios = [
        statistics.median(times["python"]) / statistics.median(times["compiled"]),
        percentile(times["python"], 99) / percentile(times["compiled"], 99),
        statistics.fmean(times["python"]) / statistics.fmean(times["compiled"]),
    ]
    ok = ratios[0] >= 10 and differ == 0
    print(
        f"  {'ratio':10} {ratios[0]:9.1f}x  {ratios[1]:9.1f}x  {ratios[2]:9.1f}x   "
        f"(target median ratio >= 10x, same card in every position: {len(views) - differ}"
        f"/{len(views)}): {'PASS' if ok else 'FAIL'}"
    )
    return ok


# ---- a worker's start ---------------------------------------------------------------------------


def _memory_kb(pid: int) -> tuple[int, int]:
    """(Rss, Pss) of a process in kB; Pss shares the pages forked workers hold in common."""
    found = {"Rss": 0, "Pss": 0}
    with open(f"/proc/{pid}/smaps_rollup") as rollup:
        for text in rollup:
            name, _, rest = text.partition(":")
            if name in found:
                found[name] = int(rest.split()[0])
    return found["Rss"], found["Pss"]


def _children(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as listing:
        return [int(child) for child in listing.read().split()]


def start_figures(workers: int) -> None:
    """Start the Procfile's server twice (numba's cache empty, then filled) and print the time
    to the first answer, when every worker is up, each process's memory and the first moves."""
    import shutil
    import tempfile
    from pathlib import Path

    from tools import loadtest, server

    with tempfile.TemporaryDirectory(prefix="hearts-start-") as folder:
        env = loadtest.production_env(Path(folder) / "static", workers)
        env["NUMBA_CACHE_DIR"] = str(Path(folder) / "numba")
        loadtest.collectstatic(env)
        shutil.rmtree(env["NUMBA_CACHE_DIR"], ignore_errors=True)  # collectstatic filled it
        for label in ("numba cache empty", "numba cache filled"):
            log = Path(folder) / "gunicorn.log"
            started = time.perf_counter()
            process, port = server.spawn(env, log)
            try:
                first = None
                while first is None or len(_children(process.pid)) < workers:
                    if process.poll() is not None or time.perf_counter() - started > 120:
                        raise RuntimeError(f"gunicorn did not start:\n{log.read_text()}")
                    if first is None:
                        record = loadtest.Record()
                        answer = loadtest.Browser(port, record)
                        if answer.request("GET", "/healthz", htmx=False) is not None:
                            first = time.perf_counter() - started
                        answer.close()
                    time.sleep(0.05)
                all_up = time.perf_counter() - started
                time.sleep(1)
                print(
                    f"{label}: first /healthz answer {first:.2f} s after launch, "
                    f"{workers} workers up at {all_up:.2f} s"
                )
                for name, pid in [("master", process.pid)] + [
                    (f"worker {i + 1}", child) for i, child in enumerate(_children(process.pid))
                ]:
                    rss, pss = _memory_kb(pid)
                    print(f"  {name:9} RSS {rss / 1024:6.1f} MB   PSS {pss / 1024:6.1f} MB")
                record = loadtest.Record()
                player = loadtest.Player(port, record, seed=1)
                table = player.sit_down()
                # the computers pass on /pass, then play (a search each) on /accept and /play
                while table is not None and not any(
                    s.think and s.path != "/pass" for s in record.samples
                ):
                    table, _ = player.move(table)
                player.browser.close()
                for path in ("/pass", "/accept", "/play"):
                    thinking = [s for s in record.samples if s.think and s.path == path]
                    if thinking:
                        print(
                            f"  first {path} after the start: {thinking[0].ms:.1f} ms, of which "
                            f"the computers thought {thinking[0].think:.1f} ms (Server-Timing)"
                        )
            finally:
                server.stop(process)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench", description=__doc__)
    parser.add_argument("--hands", type=int, default=400, help="hands per match-up (default 400)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--first", type=int, default=0, help="first deal (default 0): check figures on other deals"
    )
    parser.add_argument(
        "--only",
        action="append",
        choices=SHORT_NAMES,
        help="run only this match-up (repeatable): duckers, random, ducker (3 ours vs 1), "
        "hunters, todays (ours vs 3 of today's), today (3 ours vs 1 of today's)",
    )
    parser.add_argument(
        "--ours",
        choices=("new", "today"),
        default="new",
        help="who sits as ours: game.players (new, the default) or today's frozen players",
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=1.0,
        help="multiply the players' simulated cards per decision (and deal cap) by this",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set a constant of game.players.brain for this run (repeatable), to try a change",
    )
    parser.add_argument(
        "--pair",
        action="store_true",
        help="play every deal also with the base (brain's defaults, or --base-set) and print the "
        "change's differential and moons minus the base's, paired by deal",
    )
    parser.add_argument(
        "--base-set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="with --pair: a constant of game.players.brain set for the base only (repeatable)",
    )
    parser.add_argument(
        "--think",
        type=int,
        default=THINK_POSITIONS,
        help=f"play decisions timed in both forms of the search core (default {THINK_POSITIONS})",
    )
    parser.add_argument(
        "--think-only", action="store_true", help="only the compiled-against-Python timing"
    )
    parser.add_argument(
        "--start",
        type=int,
        metavar="WORKERS",
        help="only a server's start: time, memory and first move, with this many workers",
    )
    args = parser.parse_args(argv)
    if args.start:
        start_figures(args.start)
        return 0
    if args.think_only:
        return 0 if think_table(args.think, args.first) else 1
    from game.players import jit

    jit.core()  # loaded once here, before the worker processes fork
    today.jit.core()
    global OURS
    seated = OURS
    if args.ours == "today":
        OURS = Kind("ours", today.choose_pass, today.choose_play)  # the workers fork after this
    try:
        return match_ups(args)
    finally:
        OURS = seated


def versions_of(args: argparse.Namespace) -> tuple[tuple[str, ...], ...]:
    """The settings each version of ours plays with: the change (``--set``, ``--budget``), then,
    when the run is paired, the base (``--base-set``)."""
    from game.players import brain

    change = list(args.set)
    if args.budget != 1.0:
        change.append(f"CARD_BUDGET={round(brain.CARD_BUDGET * args.budget)}")
    if not args.pair:
        return (tuple(change),)
    return (tuple(change), tuple(args.base_set))


def match_ups(args: argparse.Namespace) -> int:
    """Play the match-ups ``args`` ask for, printing each as it ends; 1 if a target is missed."""
    deals = max(1, math.ceil(args.hands / 4))
    indices = range(args.first, args.first + deals)
    only = sorted({SHORT_NAMES.index(name) for name in args.only or ()}) or range(len(MATCHUPS))
    versions = versions_of(args)
    print(f"{deals} deals x 4 seat rotations = {4 * deals} hands per match-up")
    print("points per hand, mean +- 95% CI over deals (a fair share is 6.5); differential: ours'")
    print("mean minus the others', negative is better for ours")
    if args.ours != "new" or versions != ((),):
        print(f"ours: {args.ours}, set: {' '.join(versions[0]) or '-'}")
    if args.pair:
        print(f"paired with the base on the same deals, set: {' '.join(versions[1]) or '-'}")
    failures = 0
    results: list[DealResult] = []
    for k in only:
        started = time.perf_counter()
        ks = [k] * deals
        vs = [versions] * deals
        if args.workers > 1:
            with ProcessPoolExecutor(args.workers) as pool:
                done = list(pool.map(run_deal, indices, ks, vs, chunksize=1))
        else:
            done = [run_deal(i, k, versions) for i in indices]
        results += done
        failures += report_matchup(MATCHUPS[k], done, time.perf_counter() - started)
        sys.stdout.flush()
    failures += report_times(results)
    if args.think and args.ours == "new":
        failures += not think_table(args.think, args.first)
    return 1 if failures else 0


def moon_rate(results: list[DealResult], version: int, name: str) -> list[float]:
    """Per deal, the share of its four rotations in which a seat of kind ``name`` shot."""
    return [sum(m == name for m in r.moons[version]) / 4 for r in results]


def paired_moons(results: list[DealResult], name: str) -> list[float]:
    """Per deal, the change's share of rotations in which a seat of kind ``name`` shot, less
    the base's."""
    change, base = moon_rate(results, 0, name), moon_rate(results, 1, name)
    return [a - b for a, b in zip(change, base, strict=True)]


def report_matchup(matchup: Matchup, results: list[DealResult], elapsed: float) -> int:
    """Print one match-up's figures (and, when paired, the change against the base); returns
    the number of targets missed."""
    ours, ours_ci = mean_ci([r.points[0][0] for r in results])
    other, other_ci = mean_ci([r.points[0][1] for r in results])
    diff, diff_ci = mean_ci([r.points[0][0] - r.points[0][1] for r in results])
    by_ours, by_ours_ci = mean_ci(moon_rate(results, 0, "ours"))
    by_other, by_other_ci = mean_ci(moon_rate(results, 0, matchup.other.name))
    measured = ours if matchup.measured == "ours" else other
    failures = 0
    verdict = "no target"
    if matchup.target is not None:
        ok = measured <= matchup.target if matchup.at_most else measured >= matchup.target
        failures += not ok
        who = "ours" if matchup.measured == "ours" else matchup.other.name
        sign = "<=" if matchup.at_most else ">="
        verdict = f"target {who} {sign} {matchup.target}: {'PASS' if ok else 'FAIL'}"
    name = matchup.other.name
    print(f"{matchup.title} ({4 * len(results)} hands, {elapsed:.0f} s)")
    print(
        f"  {'':20} ours {ours:5.2f} +- {ours_ci:4.2f}   {name} {other:5.2f} +- {other_ci:4.2f}"
        f"   {verdict}"
    )
    print(
        f"  {'':20} moons: ours {by_ours:5.1%} +- {by_ours_ci:4.1%}, "
        f"{name} {by_other:5.1%} +- {by_other_ci:4.1%}"
    )
    verdict = "no target"
    if matchup.differential is not None:
        ok = diff <= matchup.differential and diff + diff_ci < 0
        failures += not ok
        verdict = f"target <= {matchup.differential}, interval below 0: {'PASS' if ok else 'FAIL'}"
    print(f"  {'':20} differential {diff:+6.2f} +- {diff_ci:4.2f} (paired)   {verdict}")
    if matchup.other is HUNTER:
        tried = [sum(r.failed[0]) / 4 for r in results]
        fail, fail_ci = mean_ci(tried)
        verdict = "no target"
        if HUNTER_MOON_TARGET is not None:
            ok = by_other <= HUNTER_MOON_TARGET
            failures += not ok
            verdict = f"target made <= {HUNTER_MOON_TARGET:.1%}: {'PASS' if ok else 'FAIL'}"
        print(
            f"  {'':20} hunters' moon attempts per hand: made {by_other:5.1%} +- "
            f"{by_other_ci:4.1%}, failed {fail:5.1%} +- {fail_ci:4.1%}   {verdict}"
        )
    if len(results[0].points) > 1:
        base = [r.points[1][0] - r.points[1][1] for r in results]
        change, change_ci = mean_ci([r.points[0][0] - r.points[0][1] - b for r, b in zip(
            results, base, strict=True)])  # fmt: skip
        base_mean, base_ci = mean_ci(base)
        moon_change, moon_ci = mean_ci(paired_moons(results, name))
        base_moons, _ = mean_ci(moon_rate(results, 1, name))
        ours_moons, _ = mean_ci(moon_rate(results, 1, "ours"))
        own, own_ci = mean_ci(paired_moons(results, "ours"))
        print(
            f"  {'':20} base: differential {base_mean:+6.2f} +- {base_ci:4.2f}, {name} moons "
            f"{base_moons:5.1%}, ours' moons {ours_moons:5.1%}"
        )
        print(
            f"  {'':20} change minus base: differential {change:+6.2f} +- {change_ci:4.2f}, "
            f"{name} moons {moon_change:+6.1%} +- {moon_ci:4.1%}, ours' moons {own:+6.1%} +- "
            f"{own_ci:4.1%} (paired by deal)"
        )
    return failures


def report_times(results: list[DealResult]) -> int:
    """Print ours' decision times over every match-up played; returns the targets missed."""
    failures = 0
    plays = [t for r in results for t in r.play_times]
    passes = [t for r in results for t in r.pass_times]
    walls = [t for r in results for t in r.play_walls]
    print("decision time in CPU seconds of one core (a busy machine inflates wall-clock time):")
    for name, times in (("choose_play", plays), ("choose_pass", passes)):
        if not times:
            continue
        median = statistics.median(times) * 1000
        p99 = percentile(times, 99) * 1000
        ok = median <= 15 and p99 <= 60
        failures += not ok
        print(
            f"  {name}: {len(times)} decisions, median {median:.2f} ms, p99 {p99:.2f} ms "
            f"(target median <= 15, p99 <= 60): {'PASS' if ok else 'FAIL'}"
        )
    if walls:
        print(
            f"  choose_play wall-clock: median {statistics.median(walls) * 1000:.2f} ms, "
            f"p99 {percentile(walls, 99) * 1000:.2f} ms"
        )
    return failures


if __name__ == "__main__":
    sys.exit(main())
