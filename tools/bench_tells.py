"""Does a computer's answer time tell how many legal cards it had? ``python -m tools.bench_tells``.

Plays ``--hands`` hands of fixed games with four computer players and times every decision
twice: as the solo game decides (``choose_play``: a forced card is answered at once) and as a
network table decides (``choose_even_play``: a forced card is searched for anyway). Decisions
are split into forced ones (a single legal card, or a single one worth playing) and searched
ones; prints, for each way of deciding, the median and the 10th and 90th percentiles of each
group, and the ratio of the forced median to the searched one (1.0: the time tells nothing).
Forced cards come mostly late in a hand, when every search is shorter, and the other seats know
how far the hand is: so the same figures follow for each number of cards left in the hand.
Also the cards simulated per decision (``Tally``), the work itself, free of the machine's noise.
A benchmark that prints figures; it asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import time

from game.engine import Game, Phase
from game.players import brain, choose_even_play, choose_pass, choose_play
from tools.stats import percentile

FIRST_NUMBER = 70_001


def forced(game: Game, seat: int) -> bool:
    """Whether the seat has nothing to search among (the plain decision makes no search)."""
    before = brain.Tally.searches
    choose_play(game.copy(), seat)
    return brain.Tally.searches == before


def timed(decide, game: Game, seat: int) -> tuple[str, float, int]:
    cards = brain.Tally.cards
    start = time.perf_counter()
    card = decide(game, seat)
    return card, (time.perf_counter() - start) * 1000, brain.Tally.cards - cards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=8)
    args = parser.parse_args()
    figures: dict[tuple[str, bool], list[tuple[float, int]]] = {}
    by_stage: dict[tuple[str, int, bool], list[float]] = {}
    for number in range(FIRST_NUMBER, FIRST_NUMBER + args.hands):
        game = Game.new(number)
        for seat in range(4):
            if not game.has_passed(seat):
                game.pass_cards(seat, choose_pass(game, seat))
        while game.phase == Phase.PLAYING:
            seat = game.turn
            is_forced = forced(game, seat)
            results = {}
            for name, decide in (("solo", choose_play), ("network", choose_even_play)):
                card, ms, cards = timed(decide, game.copy(), seat)
                figures.setdefault((name, is_forced), []).append((ms, cards))
                stage = len(game.hand(seat))
                by_stage.setdefault((name, stage, is_forced), []).append(ms)
                results[name] = card
            assert results["solo"] == results["network"]  # the same card either way
            game.play(seat, results["solo"])
    print(f"{args.hands} hands, {sum(len(v) for v in figures.values()) // 2} decisions each way")
    for name in ("solo", "network"):
        medians = {}
        for is_forced in (False, True):
            rows = figures.get((name, is_forced), [])
            if not rows:
                continue
            ms = [row[0] for row in rows]
            cards = [row[1] for row in rows]
            label = "forced  " if is_forced else "searched"
            medians[is_forced] = statistics.median(ms)
            print(
                f"{name:8} {label} n={len(rows):4}  median {statistics.median(ms):7.2f} ms"
                f"  p10 {percentile(ms, 10):7.2f}  p90 {percentile(ms, 90):7.2f}"
                f"  cards simulated: median {statistics.median(cards):7.0f}"
            )
        if len(medians) == 2:
            print(f"{name:8} forced/searched median ratio {medians[True] / medians[False]:.2f}")
    print("cards in hand: median ms searched / forced (n), solo then network")
    for stage in range(13, 0, -1):
        line = []
        for name in ("solo", "network"):
            searched = by_stage.get((name, stage, False), [])
            gone = by_stage.get((name, stage, True), [])
            if searched and gone:
                ratio = statistics.median(gone) / statistics.median(searched)
                line.append(
                    f"{name} {statistics.median(searched):6.1f} / {statistics.median(gone):6.1f}"
                    f" ({len(searched)}/{len(gone)}) ratio {ratio:4.2f}"
                )
        if line:
            print(f"  {stage:2}: " + "   ".join(line))


if __name__ == "__main__":
    main()
