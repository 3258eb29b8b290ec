"""Seeing another seat's moon coming, and stopping it at the cheapest moment (issue 16).

A seat that has taken every point so far and does not play like a careful ducker may be
shooting. The search then imagines, in a share of its deals, that it is: the deal gives that
seat a strong hand (the strongest of a few draws) and the playout lets it run for every trick
while our own seat fights it. Taking a heart or the queen now costs 1 to 13 points; a moon costs
26, so where the imagined moons succeed the search pays for the stop, and where they fail it
does not.
"""

from __future__ import annotations

from game.engine import SplitMix64

from .deals import DealSampler, Knowledge
from .sim import (
    HEART_MASK,
    POINT_MASK,
    QS,
    SUIT,
    cards_of,
    duck_pick,
    moon_threat,
    pick,
    table_state,
)

SHOOTER_EVERY = 2  # with a suspect, every second imagined deal has it shooting
SUSPECT_DRAWS = 5  # deals drawn for each of those; the one with the suspect's strongest hand
MIN_SUSPECT_POINTS = 1  # points a lone taker must hold before it is suspected


def suspect(know: Knowledge) -> int:
    """Another seat holding every point taken so far whose play does not read as a ducker's;
    -1 if none. Everything here comes from public plays."""
    total = sum(know.pts)
    if total < MIN_SUSPECT_POINTS:
        return -1
    for s in range(4):
        if know.pts[s] == total:
            if s != know.seat and not know.inferred[s]:
                return s
            return -1
    return -1


def spare(candidates: list[int], know: Knowledge, trick, leader: int | None) -> list[int]:
    """The candidates less the point cards we would throw on a trick a suspect is winning,
    while we have anything else to throw: each point fed to a shooter is one it need not win."""
    if not trick or leader is None:
        return candidates
    shooter = suspect(know)
    if shooter < 0:
        return candidates
    win, win_i, _ = table_state(trick)
    if (leader + win_i) % 4 != shooter:
        return candidates
    kept = [c for c in candidates if c // 13 == win // 13 or not POINT_MASK >> c & 1]
    return kept or candidates


def imagines(index: int, shooter: int) -> tuple[bool, int]:
    """Whether deal ``index`` of a search imagines ``shooter`` shooting, and the index the
    deal has among the others (which keep their own share of moon fighting)."""
    if shooter < 0:
        return False, index
    return index % SHOOTER_EVERY == SHOOTER_EVERY - 1, index - index // SHOOTER_EVERY


def shooter_weight(hand: int) -> int:
    """How much of a moon hand ``hand`` is: ten 1 up to ace 5, hearts counting double."""
    total = 0
    for c in cards_of(hand):
        w = max(0, c % 13 - 7)
        total += 2 * w if c >= 39 else w
    return total


def draw_for_shooter(sampler: DealSampler, rng: SplitMix64, seat: int) -> list[int]:
    """The deal, of a few drawn, that gives ``seat`` its strongest moon hand."""
    best = sampler.draw(rng)
    best_weight = shooter_weight(best[seat])
    for _ in range(SUSPECT_DRAWS - 1):
        hands = sampler.draw(rng)
        weight = shooter_weight(hands[seat])
        if weight > best_weight:
            best, best_weight = hands, weight
    return best


def shooter_playout(
    hands: list[int],
    leader: int,
    trick: list[int],
    pts: list[int],
    gone: int,
    ntricks: int,
    me: int,
    shooter: int,
) -> list[int]:
    """Play the hand out with ``shooter`` going for every trick while it holds every point.

    Our seat plays ``pick`` and fights it (takes its tricks when it can, throws it no point);
    the two others play as careful ducks, so the stopping is ours to do. Once anyone else takes
    a point the shooter ducks like the rest. Returns the points taken (before moon), as
    ``sim.playout``; ``hands`` is changed in place.
    """
    pts = pts[:]
    n = len(trick)
    win, win_i, tpts = table_state(trick)
    trick_bits = 0
    for c in trick:
        trick_bits |= 1 << c
    while True:
        total = pts[0] + pts[1] + pts[2] + pts[3]
        running = pts[shooter] == total
        threat = shooter if running else moon_threat(pts, ntricks)
        broken = bool(gone & HEART_MASK)
        first = ntricks == 0
        voids = 0
        if n == 0:
            for s in range(4):
                h = hands[s]
                if s != leader and h:
                    for x in range(4):
                        if not h & SUIT[x]:
                            voids |= 1 << x
        while n < 4:
            seat = (leader + n) % 4
            hand = hands[seat]
            if seat == me or (seat == shooter and running):
                c = pick(
                    hand,
                    n,
                    win,
                    tpts,
                    first,
                    broken,
                    gone,
                    seat == shooter,
                    threat,
                    (leader + win_i) % 4,
                    voids,
                )
            else:
                c = duck_pick(hand, n, win, first, broken)
            hands[seat] = hand ^ (1 << c)
            trick_bits |= 1 << c
            if n == 0 or (c > win and c // 13 == win // 13):
                win = c
                win_i = n
            if c >= 39:
                tpts += 1
            elif c == QS:
                tpts += 13
            n += 1
        leader = (leader + win_i) % 4
        pts[leader] += tpts
        gone |= trick_bits
        ntricks += 1
        if ntricks == 13:
            return pts
        n = 0
        tpts = 0
        trick_bits = 0
