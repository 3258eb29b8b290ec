"""What a hint costs, with its sentence: ``python -m tools.bench_hint``.

Plays ``--hands`` hands of fixed games with four computer players and, at every choice of
every seat (its pass, each of its cards), times on the same position:

- a computer's decision, as the solo game asks it (``choose_pass`` / ``choose_play``);
- the same search with its figures (``weigh_pass`` / ``weigh_play``);
- the hint's answer: the seat core's ``seating.hint`` (``weigh_pass`` / ``weigh_play``, the
  same search with its figures), its sentence (``game.web.hint_words``) and the table's view
  model drawn with it for the seat (``game.web.table.build``), as the hint's page gets them;
- the sentence alone.

Prints the median and 99th percentile of each, plays and passes apart, and the hint's median
over the decision's (the issue's target: a hint costs what a decision costs, plus its
drawing). The compiled core is loaded and warmed before the clock runs; the form in use is
printed first. Wall time of one thread: run it on a quiet machine (``flock
/tmp/hearts-measure.lock``). A benchmark that prints figures; it asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import time

from game import seating
from game.engine import Game, Phase
from game.players import choose_pass, choose_play, jit, weigh_pass, weigh_play
from game.web import table
from game.web.hint_words import hint_text
from game.web.player import PlayerState
from tools.stats import percentile

FIRST_NUMBER = 80_001
WAYS = {"pass": (choose_pass, weigh_pass), "play": (choose_play, weigh_play)}
NAMES = ["Ada", "Pauline", "Michele", "Ben"]


def ms_of(fn, *args):
    start = time.perf_counter()
    result = fn(*args)
    return result, (time.perf_counter() - start) * 1000


def hint_answer(game: Game, seat: int) -> tuple[seating.Hint, str]:
    """The hint's answer as a page gets it: the cards and figures, then the view model drawn
    with the sentence for that seat."""
    state = PlayerState(game=game)
    found = seating.hint(game, seat, state)
    view = table.build(state, found, viewer=seat, names=NAMES)
    return found, view.status


def choices(number: int):
    """Each choice of a hand of game ``number`` played by the computers: (game, seat)."""
    game = Game.new(number)
    if game.phase == Phase.PASSING:
        for seat in range(4):
            yield game, seat
        passes = [choose_pass(game, seat) for seat in range(4)]
        for seat in range(4):
            game.pass_cards(seat, passes[seat])
    while game.phase == Phase.PLAYING:
        seat = game.turn
        yield game, seat
        game.play(seat, choose_play(game, seat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10)
    args = parser.parse_args()
    status, detail = jit.status()
    print(f"players' core: {status} ({detail})")
    for game, seat in choices(FIRST_NUMBER - 1):  # warm every path before the clock runs
        hint_answer(game.copy(), seat)
    times: dict[tuple[str, str], list[float]] = {}
    for number in range(FIRST_NUMBER, FIRST_NUMBER + args.hands):
        for game, seat in choices(number):
            kind = "pass" if game.phase == Phase.PASSING else "play"
            decide, weigh = WAYS[kind]
            times.setdefault((kind, "decision"), []).append(ms_of(decide, game.copy(), seat)[1])
            times.setdefault((kind, "weigh"), []).append(ms_of(weigh, game.copy(), seat)[1])
            (found, status_line), ms = ms_of(hint_answer, game.copy(), seat)
            times.setdefault((kind, "hint"), []).append(ms)
            names = ["You" if s == seat else n for s, n in enumerate(NAMES)]
            said, ms = ms_of(hint_text, game, seat, found.figures, names)
            assert said == status_line  # the sentence timed is the one the page shows
            times.setdefault((kind, "sentence"), []).append(ms)
    plays, passes = len(times[("play", "hint")]), len(times.get(("pass", "hint"), []))
    print(f"{args.hands} hands: {plays} plays and {passes} passes, of every seat")
    for kind, plural in (("play", "plays"), ("pass", "passes")):
        for name, label in (
            ("decision", "a computer's decision (choose_)"),
            ("weigh", "the same search with its figures (weigh_)"),
            ("hint", "the hint's answer: figures, sentence, view model"),
            ("sentence", "the sentence alone"),
        ):
            ms = times.get((kind, name))
            if ms:
                print(
                    f"{plural:6}: {label:50} median {statistics.median(ms):7.2f} ms"
                    f"   p99 {percentile(ms, 99):7.2f}"
                )
        ratio = statistics.median(times[(kind, "hint")]) / statistics.median(
            times[(kind, "decision")]
        )
        print(f"{plural:6}: hint median / decision median {ratio:.2f}")


if __name__ == "__main__":
    main()
