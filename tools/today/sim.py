"""A bare-bones Hearts simulator on bitmasks and the fast heuristic that plays inside it.

The search plays thousands of cards per decision, so this module avoids the ``Game`` class and
its strings: a hand is an int whose bit ``i`` is card ``i``, as in ``game.engine.rules``, whose
legality, trick winner and scoring it restates. ``playout`` inlines the trick winner and the
points in its loop for speed; tests/players/test_rules_and_simulator.py pins that loop to the
engine.
``pick`` is also the players' fallback and a readable statement of their card sense.

One source, two forms (see ``tools.today.jit``): imported as usual this is plain Python; loaded
as ``tools.today.sim_compiled`` every ``@hot`` function is compiled by numba. So the hot code
keeps to what numba compiles: ints that fit 64 bits (a hand is 52), no tuples as keys, no
``int.bit_length`` (the bit helpers below differ by form), arrays or lists indexed alike.
The random numbers of the deals are the engine's SplitMix64, restated here bit for bit.
"""

from __future__ import annotations

from game.engine.rules import (
    ALL_CARDS,
    CLUBS,
    DIAMONDS,
    FIRST_HEART,
    HEART_MASK,
    HEARTS,
    MOON,
    NOT_HEARTS,
    POINT_MASK,
    QS,
    QS_BIT,
    QUEEN_POINTS,
    RANKS_PER_SUIT,
    SPADES,
    SUIT,
    TWO_OF_CLUBS_BIT,
)

from .hot import COMPILED_NAME, hot

COMPILED = __name__ == COMPILED_NAME

if COMPILED:
    import numpy as np

    from .bits import count, high, low, scaled
else:

    def high(mask: int) -> int:
        """The highest card of a non-empty mask."""
        return mask.bit_length() - 1

    def low(mask: int) -> int:
        """The lowest card of a non-empty mask."""
        return (mask & -mask).bit_length() - 1

    def count(mask: int) -> int:
        """How many cards a mask holds."""
        return mask.bit_count()

    def scaled(value: int, bound: int) -> int:
        """A 64-bit random ``value`` scaled to [0, bound) by multiply-shift."""
        return (value * bound) >> 64


KS = QS + 1
AS = QS + 2
HIGH_SPADES = (1 << KS) | (1 << AS)
THREAT_POINTS = 10  # when a lone taker of every point so far is worth fighting
THREAT_TRICKS = 8  # from this many tricks on, a lone taker of any points is worth fighting
SHOOT_POINTS = 18  # when a lone taker of every point so far goes for the rest
LAST_TRICK = 13
SUIT_ORDER = (CLUBS, DIAMONDS, SPADES, HEARTS)
MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
DRAW_TRIES = 20  # greedy deals tried before the matching unties a knot
NO_DEAL = -1


def buffer(values) -> list[int]:
    """Ints in the container this form's hot code takes: a list, or an int64 array."""
    if COMPILED:
        return np.array(values, dtype=np.int64)
    return list(values)


def grid(rows: int, cols: int) -> list[list[int]]:
    """A table of zeros in this form's container."""
    if COMPILED:
        return np.zeros((rows, cols), dtype=np.int64)
    return [[0] * cols for _ in range(rows)]


def reals(n: int) -> list[float]:
    """Floats set to 0.0 in this form's container."""
    if COMPILED:
        return np.zeros(n, dtype=np.float64)
    return [0.0] * n


def seed(state: int):
    """A SplitMix64 state in this form's integer type (numba's unsigned 64 bits)."""
    if COMPILED:
        return np.uint64(state)
    return state


# ---- the rules, as the hot code states them -----------------------------------------------


@hot
def lead_mask(hand, first, broken):
    """The cards that may lead (``game.engine.rules.lead_mask``)."""
    if first:
        return TWO_OF_CLUBS_BIT if hand & TWO_OF_CLUBS_BIT else hand
    if broken:
        return hand
    rest = hand & NOT_HEARTS
    return rest if rest else hand


@hot
def discard_mask(hand, first):
    """The cards a void seat may play (``game.engine.rules.discard_mask``)."""
    if first:
        rest = hand & ~POINT_MASK
        return rest if rest else hand
    return hand


@hot
def table_winner(trick, n):
    """The position of the card taking the first ``n`` cards of ``trick``, and their points."""
    win_i = 0
    tpts = 0
    for i in range(n):
        c = trick[i]
        if i and c // RANKS_PER_SUIT == trick[0] // RANKS_PER_SUIT and c > trick[win_i]:
            win_i = i
        if c >= FIRST_HEART:
            tpts += 1
        elif c == QS:
            tpts += QUEEN_POINTS
    return win_i, tpts


def table_state(trick) -> tuple[int, int, int]:
    """The winning card so far (-1 on an empty table), its position in the trick, and the points
    on the table."""
    if not trick:
        return -1, 0, 0
    win_i, tpts = table_winner(list(trick), len(trick))
    return trick[win_i], win_i, tpts


def moon_threat(pts, ntricks: int) -> int:
    """The seat that has taken every point so far, once that is worth fighting; else -1."""
    total = pts[0] + pts[1] + pts[2] + pts[3]
    if total == 0:
        return -1
    for s in range(4):
        if pts[s] == total:
            if total >= THREAT_POINTS or ntricks >= THREAT_TRICKS:
                return s
            return -1
    return -1


# ---- the players' card sense ----------------------------------------------------------------


@hot
def pick(hand, n, win, tpts, first, broken, gone, shooting, threat, winner_seat, voids=0):
    """A sound card by rules of thumb: duck, unload the queen and hearts, lead safe low cards.

    ``n`` cards are on the table, ``win`` is the one winning so far (its suit is the led suit)
    and ``tpts`` their points. ``gone`` holds the cards of completed tricks; ``shooting`` means
    this seat goes for every trick; ``threat`` is a seat that must be stopped from shooting (-1
    if none) and ``winner_seat`` the seat winning the trick on the table. ``voids`` has bit
    ``s`` set when another seat is out of suit ``s``: leading it invites a discard.
    """
    if n == 0:
        if first:
            return 0  # the two of clubs, which the first leader always holds
        legal = lead_mask(hand, first, broken)
        if legal & (legal - 1) == 0:
            return high(legal)
        if shooting:
            return _lead_to_win(legal, hand, gone)
        return _lead_low(legal, hand, gone, voids)
    led = win // RANKS_PER_SUIT
    follow = hand & SUIT[led]
    if follow:
        if follow & (follow - 1) == 0:
            return high(follow)
        above = follow >> (win + 1)
        if shooting:
            return high(follow) if above else low(follow)
        if above and threat >= 0 and winner_seat == threat:
            return high(follow)
        if first:
            return high(follow)
        below = follow & ((1 << win) - 1)
        if n == 3:
            if above and not tpts:
                safe = follow & ~QS_BIT
                if safe >> (win + 1):
                    return high(safe)
            if below:
                return high(below)
            safe = follow & ~QS_BIT
            return high(safe) if safe else QS
        if below:
            return high(below)
        if led == SPADES:
            safe = follow & ~QS_BIT
            if safe and not (gone & QS_BIT):
                return low(safe)
            return high(safe) if safe else QS
        return high(follow)
    legal = discard_mask(hand, first)
    if legal & (legal - 1) == 0:
        return high(legal)
    if shooting:
        keep = legal & ~POINT_MASK
        return _shed(keep) if keep else low(legal)
    if threat >= 0 and winner_seat == threat:
        keep = legal & ~POINT_MASK
        if keep:
            return _shed(keep)
    if legal & QS_BIT:
        return QS
    if not (gone & QS_BIT) and legal & HIGH_SPADES:
        return high(legal & HIGH_SPADES)
    hearts = legal & HEART_MASK
    if hearts:
        return high(hearts)
    return _shed(legal)


RANK_ORDER = tuple(
    RANKS_PER_SUIT * s + r for r in range(RANKS_PER_SUIT) for s in range(4)
)  # the twos of every suit, then the threes, and so on


@hot
def duck_pick(hand, n, win, first, broken):
    """The careful ducker's card: the highest that still loses; when void the queen of spades,
    then the highest heart, then the highest card; when it cannot lose, the lowest card (the
    highest, queen aside, when last); leads its lowest card. Careful humans play much like it.
    """
    if n == 0:
        if first:
            return 0  # the two of clubs, which the first leader always holds
        legal = lead_mask(hand, first, broken)
        for c in RANK_ORDER:
            if legal >> c & 1:
                return c
    follow = hand & SUIT[win // RANKS_PER_SUIT]
    if follow:
        below = follow & ((1 << win) - 1)
        if below:
            return high(below)
        safe = follow & ~QS_BIT
        if not safe:
            safe = follow
        if n == 3:
            return high(safe)
        return low(safe)
    legal = discard_mask(hand, first)
    if legal & QS_BIT:
        return QS
    hearts = legal & HEART_MASK
    if hearts:
        return high(hearts)
    for i in range(len(RANK_ORDER) - 1, -1, -1):
        c = RANK_ORDER[i]
        if legal >> c & 1:
            return c
    return -1


@hot
def _shed(cards):
    """The highest card, from the shortest suit on a tie, to make voids."""
    best = -1
    best_rank = -1
    best_short = 0
    for s in range(4):
        m = cards & SUIT[s]
        if m:
            c = high(m)
            rank = c - RANKS_PER_SUIT * s
            short = -count(m)
            if rank > best_rank or (rank == best_rank and short > best_short):
                best_rank = rank
                best_short = short
                best = c
    return best


@hot
def _lead_low(legal, hand, gone, voids):
    """The lead most likely to lose: low relative to the cards still out, spades with care."""
    out = ~(hand | gone) & ALL_CARDS
    qs_out = not (gone & QS_BIT) and not (hand & QS_BIT)
    best = -1
    best_score = 1e9
    for s in range(4):
        m = legal & SUIT[s]
        if not m:
            continue
        c = low(m)
        suit_out = out & SUIT[s]
        lower = count(suit_out & ((1 << c) - 1))
        higher = count(suit_out >> (c + 1))
        score = 50.0 + (c - RANKS_PER_SUIT * s) if higher == 0 else lower / (lower + higher) * 10
        if s == SPADES:
            if hand & QS_BIT or (not (gone & QS_BIT) and c > QS):
                score += 30
            elif qs_out and c < QS:
                score -= 3
        elif s == HEARTS:
            score += 1
        if voids >> s & 1 and out & POINT_MASK:
            score += 15
        if score < best_score:
            best_score = score
            best = c
    return best


@hot
def _lead_to_win(legal, hand, gone):
    """For a shooter: a card no one can beat if there is one, else the highest."""
    out = ~(hand | gone) & ALL_CARDS
    for s in SUIT_ORDER:
        m = legal & SUIT[s]
        if m and not (out & SUIT[s]) >> (high(m) + 1) and (out & SUIT[s]):
            return high(m)
    for s in SUIT_ORDER:
        m = legal & SUIT[s]
        if m and not (out & SUIT[s]):
            return high(m)
    return high(legal)


# ---- the playout ----------------------------------------------------------------------------


@hot
def play_out(hands, leader, trick, n, pts, gone, ntricks, plan_seat, me, stop, record):
    """``playout`` on this form's containers: ``trick`` holds ``n`` cards (room for four), the
    cards played go to ``record`` (room for 52); ``hands`` is changed in place."""
    pts = pts.copy()
    win_i, tpts = table_winner(trick, n)
    win = trick[win_i] if n else -1
    trick_bits = 0
    for i in range(n):
        trick_bits |= 1 << trick[i]
    played = 0
    while True:
        total = pts[0] + pts[1] + pts[2] + pts[3]
        threat = -1
        shooter = -1
        if total:
            for s in range(4):
                if pts[s] == total:
                    if total >= THREAT_POINTS or ntricks >= THREAT_TRICKS:
                        threat = s
                    if total >= SHOOT_POINTS or s == plan_seat:
                        shooter = s
                    break
            if plan_seat >= 0 and pts[plan_seat] != total:
                plan_seat = -1
        broken = (gone & HEART_MASK) != 0
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
            if me >= 0 and seat != me and not (stop and threat == me):
                c = duck_pick(hands[seat], n, win, first, broken)
            else:
                c = pick(
                    hands[seat],
                    n,
                    win,
                    tpts,
                    first,
                    broken,
                    gone,
                    seat == shooter or (seat == plan_seat and total == 0),
                    threat,
                    (leader + win_i) % 4,
                    voids,
                )
            hands[seat] ^= 1 << c
            trick_bits |= 1 << c
            record[played] = c
            played += 1
            # the trick winner inlined: this loop plays every simulated card
            if n == 0 or (c > win and c // RANKS_PER_SUIT == win // RANKS_PER_SUIT):
                win = c
                win_i = n
            # the card's points inlined, likewise
            if c >= FIRST_HEART:
                tpts += 1
            elif c == QS:
                tpts += QUEEN_POINTS
            n += 1
        leader = (leader + win_i) % 4
        pts[leader] += tpts
        gone |= trick_bits
        ntricks += 1
        if ntricks == LAST_TRICK:
            return pts
        n = 0
        tpts = 0
        trick_bits = 0


def playout(
    hands: list[int],
    leader: int,
    trick: list[int],
    pts: list[int],
    gone: int,
    ntricks: int,
    plan_seat: int = -1,
    me: int = -1,
    stop: bool = False,
    record: list[int] | None = None,
) -> list[int]:
    """Play the hand out with ``pick`` for every seat; returns points taken (before moon).

    ``hands`` is changed in place (callers pass a copy). ``plan_seat`` is a seat that tries to
    shoot the moon for as long as nobody else has a point. ``me`` is the searching seat: the
    others play ``duck_pick``, the careful ducker's rules, which the benchmark found a far better
    guess of how real opponents play (they drop the queen under our ace or king of spades) than
    playing them as eager as ourselves. With ``stop`` they turn on us once we hold every point
    so far (a moon threat) and play to take one, as real opponents who see a moon coming do.
    ``record``, if given, receives every card played, so that a test can replay them in ``Game``.
    """
    held = buffer(hands)
    table = buffer([*trick, 0, 0, 0, 0][:4])
    cards = buffer([0] * 52)
    after = play_out(
        held, leader, table, len(trick), buffer(pts), gone, ntricks, plan_seat, me, stop, cards
    )
    for s in range(4):
        hands[s] = int(held[s])
    if record is not None:
        record.extend(int(c) for c in cards[: 52 - 4 * ntricks - len(trick)])
    return [int(p) for p in after]


# ---- the search's inner loops ---------------------------------------------------------------


@hot
def utility(pts, me, moon_off_shooter, credit):
    """Own score for the hand, less ``credit`` per point that went to the others (the moon
    scored as ``game.engine.rules.hand_score`` does)."""
    shooter = -1
    for s in range(4):
        if pts[s] == MOON:
            shooter = s
    if shooter < 0:
        mine = pts[me]
        total = pts[0] + pts[1] + pts[2] + pts[3]
    elif moon_off_shooter:
        mine = -MOON if me == shooter else 0
        total = -MOON
    else:
        mine = 0 if me == shooter else MOON
        total = 3 * MOON
    return mine - credit * (total - mine)


@hot
def search_round(
    deals, ndeals, seen, stop_share, me, leader, trick, n, pts, gone, ntricks,
    cards, plans, alive, nalive, moon_off_shooter, credit, totals, record,
):  # fmt: skip
    """Every candidate ``alive[:nalive]`` (card ``cards[k]``, moon plan ``plans[k]``) played in
    each of ``deals[:ndeals]`` and finished by ``play_out``; adds each one's utility to
    ``totals[k]``. ``seen`` deals came before: they fix which deals have the others fight a moon.
    """
    for i in range(ndeals):
        stop = ((seen + i) * stop_share) % 1.0 < stop_share
        for a in range(nalive):
            k = alive[a]
            card = cards[k]
            trial = deals[i].copy()
            trial[me] ^= 1 << card
            trick[n] = card
            after = play_out(
                trial, leader, trick, n + 1, pts, gone, ntricks, plans[k], me, stop, record
            )
            totals[k] += utility(after, me, moon_off_shooter, credit)


@hot
def _mix(z):
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return z ^ (z >> 31)


@hot
def draw_deals(
    out, start, stop, state, free, nfree, tied_cards, tied_seats, tied_n, ntied, cap, hands
):  # fmt: skip
    """Deals ``out[start:stop]`` of the unknown cards, by ``DealSampler.draw``'s greedy rule:
    the tied cards (seats in ``tied_seats[t][:tied_n[t]]``) go to a seat with room, drawn in
    proportion to the room; the free cards are shuffled (in place, SplitMix64's
    ``quick_shuffle``) and dealt into the rest. Returns the generator's state and the index of
    the first deal not made: ``stop``, or a deal whose ``DRAW_TRIES`` greedy tries all failed.
    """
    left = cap.copy()
    for d in range(start, stop):
        row = out[d]
        made = False
        for _ in range(DRAW_TRIES):
            for s in range(4):
                left[s] = cap[s]
                row[s] = hands[s]
            stuck = False
            for t in range(ntied):
                c = tied_cards[t]
                seats = tied_seats[t]
                s = seats[0]
                if tied_n[t] == 1:
                    if not left[s]:
                        stuck = True
                        break
                else:
                    room = 0
                    for j in range(tied_n[t]):
                        room += left[seats[j]]
                    if not room:
                        stuck = True
                        break
                    state = (state + GOLDEN_GAMMA) & MASK64
                    r = scaled(_mix(state), room)
                    for j in range(tied_n[t]):
                        s = seats[j]
                        r -= left[s]
                        if r < 0:
                            break
                row[s] |= 1 << c
                left[s] -= 1
            if not stuck:
                for i in range(nfree - 1, 0, -1):
                    state = (state + GOLDEN_GAMMA) & MASK64
                    j = scaled(_mix(state), i + 1)
                    free[i], free[j] = free[j], free[i]
                i = 0
                for s in range(4):
                    for x in range(i, i + left[s]):
                        row[s] |= 1 << free[x]
                    i += left[s]
                made = True
                break
        if not made:
            return state, d
    return state, stop
