"""How much CPU a hand's review costs: ``python -m tools.bench_review``.

Plays ``--hands`` hands (hand ``h`` of game ``--first + h``, cycling through the four pass
directions) with the computer players in seats 1 to 3 and, in seat 0, a person who plays the
hint's card most of the time and a random legal card otherwise (``--mistakes``, a share), so
that there are costly plays to find. Then reviews each hand from seat 0 and prints the CPU
time of the whole review (every play and the pass weighed, Pauline's replay, the sentences):
median, 90th percentile and worst, with the verdicts found. CPU time of this process, not
wall time, so a busy machine changes it little; the compiled core is loaded before timing.
"""

from __future__ import annotations

import argparse
import statistics
import time

from game.engine import Game, Phase, SplitMix64
from game.engine.handlog import HandRecord
from game.players import choose_pass, choose_play, jit
from game.web.hand_review import review

NAMES = ("You", "Pauline", "Michele", "Ben")


def play_hand(number: int, hand_number: int, mistakes: float) -> HandRecord:
    """Hand ``hand_number`` of game ``number`` played to its end: seat 0 errs at random."""
    game = Game.at_hand(number, hand_number)
    rng = SplitMix64.for_key(0xBE7C, number, hand_number)
    if game.phase == Phase.PASSING:
        choices = [choose_pass(game, seat) for seat in range(4)]
        if rng.random() < mistakes:
            hand = game.hand(0)
            rng.shuffle(hand)
            choices[0] = hand[:3]
        for seat in range(4):
            game.pass_cards(seat, choices[seat])
    while game.phase == Phase.PLAYING:
        seat = game.turn
        if seat == 0 and rng.random() < mistakes:
            card = rng.choice(game.legal_plays(0))
        else:
            card = choose_play(game, seat)
        game.play(seat, card)
    record = HandRecord.of(game)
    assert record is not None
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--mistakes", type=float, default=0.3)
    args = parser.parse_args()
    status, detail = jit.status()
    print(f"players' core: {status} ({detail})")
    records = [play_hand(args.first + h, 1 + h % 4, args.mistakes) for h in range(args.hands)]
    review(records[0], 0, NAMES)  # whatever is loaded lazily, loaded before the clock runs
    times = []
    verdicts: dict[str, int] = {}
    costs = []
    for record in records:
        start = time.process_time()
        done = review(record, 0, NAMES)
        times.append(time.process_time() - start)
        for judgement in done.judgements:
            verdicts[judgement.verdict] = verdicts.get(judgement.verdict, 0) + 1
            if judgement.verdict == "costly":
                costs.append(judgement.cost)
    times.sort()
    p90 = times[min(len(times) - 1, int(0.9 * len(times)))]
    print(
        f"review of a whole hand, CPU seconds over {len(times)} hands: "
        f"median {statistics.median(times):.3f}, 90th percentile {p90:.3f}, "
        f"worst {times[-1]:.3f} (target: at most 1.000)"
    )
    print("verdicts: " + ", ".join(f"{name} {count}" for name, count in sorted(verdicts.items())))
    if costs:
        print(
            f"costly decisions: median expected cost {statistics.median(costs):.1f} points, "
            f"largest {max(costs):.1f}"
        )


if __name__ == "__main__":
    main()
