"""The moon hunter's own search: a frozen copy of the players' simulator, deal sampler and pass.

This is a yardstick, not a player: the bench measures how often Pauline, Michele and Ben let
the moon hunter (``tools.hunter``) shoot, so the hunter must not change when they do. Everything
it decides with lives here, copied from ``game.players`` as it stood when the hunter was made
(the simulator, the ducker's reading of play, the deal sampler, the pass and the candidate
cards), and nothing here may change: a change to this file moves the bench's moon figures, and
then no figure before it compares with any after it.

With numba installed the hot functions are compiled (numba's on-disk cache keeps them between
runs); without it they run as the plain Python they are written in, with the same cards.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.engine import SplitMix64, rules
from game.engine.cards import RANKS
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
    cards_of,
    suit_of,
)
from game.players.view import View

try:
    import numba
    import numpy as np
    from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
except ImportError:  # the plain Python form
    numba = None

COMPILED = numba is not None

if COMPILED:

    def hot(func):
        return numba.njit(cache=True, nogil=True)(func)

    @numba.njit(cache=True, inline="always")
    def high(mask):
        return 63 - leading_zeros(mask)

    @numba.njit(cache=True, inline="always")
    def low(mask):
        return trailing_zeros(mask)

    @numba.njit(cache=True, inline="always")
    def count(mask):
        x = mask - ((mask >> 1) & 0x5555555555555555)
        x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
        x = x + (x >> 8)
        x = x + (x >> 16)
        x = x + (x >> 32)
        return x & 0x7F

    @numba.njit(cache=True, inline="always")
    def scaled(value, bound):
        b = np.uint64(bound)
        half = np.uint64(32)
        top = (value >> half) * b + (((value & np.uint64(0xFFFFFFFF)) * b) >> half)
        return np.int64(top >> half)

else:

    def hot(func):
        return func

    def high(mask: int) -> int:
        return mask.bit_length() - 1

    def low(mask: int) -> int:
        return (mask & -mask).bit_length() - 1

    def count(mask: int) -> int:
        return mask.bit_count()

    def scaled(value: int, bound: int) -> int:
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
def hunt_round(
    deals, ndeals, seen, stop_share, me, leader, trick, n, pts, gone, ntricks,
    cards, plans, alive, nalive, moon_off_shooter, credit, bonus, totals, record,
):  # fmt: skip
    """Every option ``alive[:nalive]`` (card ``cards[k]``, moon plan ``plans[k]``) played in
    each of ``deals[:ndeals]`` and finished by ``play_out``; adds each one's utility, less
    ``bonus`` for a moon of ``me``, to ``totals[k]``."""
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
            value = utility(after, me, moon_off_shooter, credit)
            if after[me] == MOON:
                value -= bonus
            totals[k] += value


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


# ---- what a seat knows, and the deals that agree with it ---------------------------------


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What a view implies about the other hands, in bitmask form."""

    seat: int
    hand: int
    gone: int  # cards played to completed tricks
    on_table: tuple[int, ...]
    unknown: int  # cards in the other seats' hands
    need: tuple[int, int, int, int]
    forbidden: tuple[int, int, int, int]
    fixed: tuple[int, int, int, int]
    pts: tuple[int, int, int, int]
    # cards a seat would have played had it held them, if it plays like a careful ducker
    inferred: tuple[int, int, int, int] = (0, 0, 0, 0)


def knowledge_of(view: View) -> Knowledge:
    """Read hand sizes, voids, passed cards and points taken from a view."""
    me = view.seat
    hand = view.hand_mask
    forbidden = [0, 0, 0, 0]
    gone = 0
    pts = [0, 0, 0, 0]
    broken = False
    plays = [(leader, cards) for leader, cards in view.tricks]
    if view.trick_leader is not None and view.trick:
        plays.append((view.trick_leader, view.trick))
    for index, (leader, cards) in enumerate(plays):
        led = rules.suit_of(cards[0])
        first = index == 0
        if not first and led == rules.HEARTS and not broken:
            # a heart led before hearts broke: the leader held nothing else
            forbidden[leader] |= SUIT[rules.CLUBS] | SUIT[rules.DIAMONDS] | SUIT[rules.SPADES]
        for i in range(1, len(cards)):
            seat = (leader + i) % 4
            card = cards[i]
            if rules.suit_of(card) != led:
                forbidden[seat] |= SUIT[led]
                if first and rules.card_points(card):
                    # a point card on the first trick: the seat held nothing else
                    forbidden[seat] |= ALL_CARDS & ~POINT_MASK
        if len(cards) == 4:
            gone |= rules.mask_of(cards)
            broken = broken or bool(gone & HEART_MASK)
            pts[(leader + rules.winning_position(cards)) % 4] += rules.trick_points(cards)
    unknown = ALL_CARDS & ~(hand | gone | rules.mask_of(view.trick))
    need = view.hand_sizes()
    need[me] = 0
    fixed = [0, 0, 0, 0]
    if view.phase == "playing" and view.pass_target is not None:
        for card in view.passed:
            if unknown >> card & 1:
                fixed[view.pass_target] |= 1 << card
    forbidden[me] = ALL_CARDS
    inferred = _ducker_reading(plays, me, fixed)
    return Knowledge(
        seat=me,
        hand=hand,
        gone=gone,
        on_table=tuple(view.trick),
        unknown=unknown,
        need=tuple(need),  # type: ignore[arg-type]
        forbidden=tuple(forbidden),  # type: ignore[arg-type]
        fixed=tuple(fixed),  # type: ignore[arg-type]
        pts=tuple(pts),  # type: ignore[arg-type]
        inferred=inferred,
    )


# each card's place in the order a ducker leads and discards by (RANK_ORDER)
RANK_KEY = tuple(RANK_ORDER.index(c) for c in range(52))
_BELOW_KEY = tuple(sum(1 << d for d in range(52) if RANK_KEY[d] < RANK_KEY[c]) for c in range(52))
_ABOVE_KEY = tuple(sum(1 << d for d in range(52) if RANK_KEY[d] > RANK_KEY[c]) for c in range(52))


def _between(lo: int, hi: int) -> int:
    """The cards strictly between ``lo`` and ``hi`` (same suit)."""
    return ((1 << hi) - 1) & ~((1 << (lo + 1)) - 1) if hi > lo + 1 else 0


def _ducker_reading(plays, me: int, fixed) -> tuple[int, int, int, int]:
    """What each other seat cannot hold if it plays like a careful ducker (the highest card
    that still loses, the queen then the highest heart when void, the lowest lead).

    A ducker that ducks with the 7 under the jack holds neither 8, 9 nor 10 of that suit, and
    one that throws a club while void holds no heart and not the queen. These readings are only
    guesses about the player: a seat whose later play (or a card we know it holds) contradicts
    them has shown it does not play that way, and its readings are dropped.
    """
    out = [0, 0, 0, 0]
    trusted = [seat != me for seat in range(4)]
    broken = False
    for index, (leader, cards) in enumerate(plays):
        first = index == 0
        led = rules.suit_of(cards[0])
        for i, c in enumerate(cards):
            seat = (leader + i) % 4
            if trusted[seat]:
                if out[seat] >> c & 1:
                    trusted[seat] = False
                else:
                    win = cards[rules.winning_position(cards[:i])] if i else c
                    out[seat] |= _not_held(c, i, win, led, first, broken)
        broken = broken or bool(rules.mask_of(cards) & HEART_MASK)
    return tuple(
        out[seat] if trusted[seat] and not out[seat] & fixed[seat] else 0 for seat in range(4)
    )  # type: ignore[return-value]


def _not_held(c: int, n: int, win: int, led: int, first: bool, broken: bool) -> int:
    """The cards a ducker cannot have held when it played ``c`` as card ``n`` of a trick."""
    suit = SUIT[led]
    if n == 0:
        if first:
            return 0
        if broken:
            return _BELOW_KEY[c]
        return _BELOW_KEY[c] & ~HEART_MASK if c < FIRST_HEART else 0
    if rules.suit_of(c) == led:
        if c < win:
            return _between(c, win)
        below = suit & ((1 << win) - 1)
        if c == QS:
            return suit & ~QS_BIT
        if n == 3:
            return below | (suit & ~((1 << (c + 1)) - 1) & ~QS_BIT)
        return below | (_between(win, c) & ~QS_BIT)
    if c == QS:
        return 0
    if c >= FIRST_HEART:
        return 0 if first else QS_BIT | (HEART_MASK & ~((1 << (c + 1)) - 1))
    if first:
        return _ABOVE_KEY[c] & ~POINT_MASK
    return QS_BIT | HEART_MASK | _ABOVE_KEY[c]


class DealSampler:
    """Draws deals for one decision; the work that does not change between deals is done once."""

    def __init__(self, know: Knowledge) -> None:
        self.seat = know.seat
        hands = list(know.fixed)
        hands[know.seat] = know.hand
        self.hands = hands
        cap = [know.need[s] - know.fixed[s].bit_count() for s in range(4)]
        cap[know.seat] = 0
        self.cap = cap
        rest = know.unknown
        for s in range(4):
            rest &= ~know.fixed[s]
        read = tuple(know.forbidden[s] | know.inferred[s] for s in range(4))
        if read == know.forbidden or not self._setup(rest, read, check=True):
            self._setup(rest, know.forbidden, check=False)

    def _setup(self, rest: int, forbidden, check: bool) -> bool:
        """Sort the cards into free and tied ones; with ``check``, whether any deal fits."""
        cap = self.cap
        self.free: list[int] = []  # cards any seat with room may hold
        tied: list[tuple[int, list[int]]] = []  # cards some seat has shown it cannot hold
        open_seats = sum(1 for s in range(4) if cap[s])
        self.eligible: dict[int, list[int]] = {}
        m = rest
        while m:
            b = m & -m
            c = b.bit_length() - 1
            m ^= b
            seats = [s for s in range(4) if cap[s] and not forbidden[s] >> c & 1]
            if not seats and check:
                return False
            self.eligible[c] = seats
            if len(seats) == open_seats:
                self.free.append(c)
            else:
                tied.append((c, seats))
        tied.sort(key=lambda item: len(item[1]))
        self.tied = tied
        if check:
            # Hall's condition, seat set by seat set: the cards that only the seats of a set may
            # hold must fit in that set's room
            within = [0] * 16
            for _, seats in tied:
                key = 0
                for s in seats:
                    key |= 1 << s
                within[key] += 1
            for subset in range(1, 16):
                room = sum(cap[s] for s in range(4) if subset >> s & 1)
                count = sum(within[key] for key in range(1, 16) if key & ~subset == 0)
                if count > room:
                    return False
        return True

    def pack(self) -> None:
        """The sampler's cards in the hot code's containers: its free cards are shuffled in
        place from draw to draw."""
        seats = [[*seats, -1, -1, -1][:4] for _, seats in self.tied] or [[-1] * 4]
        self.packed = (
            buffer(self.free),
            len(self.free),
            buffer([c for c, _ in self.tied] or [0]),
            grid(len(seats), 4),
            buffer([len(seats) for _, seats in self.tied] or [0]),
            len(self.tied),
            buffer(self.cap),
            buffer(self.hands),
        )
        table = self.packed[3]
        for t, row in enumerate(seats):
            for j in range(4):
                table[t][j] = row[j]

    def draw_many(self, rng: SplitMix64, wanted: int):
        """``wanted`` deals, one per row; ``rng`` moves on as one draw after another would."""
        if not hasattr(self, "packed"):
            self.pack()
        out = grid(max(wanted, 1), 4)
        done = 0
        while done < wanted:
            state, done = draw_deals(out, done, wanted, seed(rng.state), *self.packed)
            rng.state = int(state)
            if done < wanted:  # a knot the greedy deal could not untie
                cards = [c for c, _ in self.tied] + [int(c) for c in self.packed[0]]
                deal = _matching(cards, self.eligible, self.cap, self.hands)
                for s in range(4):
                    out[done][s] = deal[s]
                done += 1
        return out


def _matching(cards, eligible, cap, hands) -> list[int]:
    """A deal by augmenting paths, for the rare knots the greedy deal cannot untie."""
    slots = [s for s in range(4) for _ in range(cap[s])]
    owner: list[int | None] = [None] * len(slots)

    def place(c: int, seen: set[int]) -> bool:
        for j, s in enumerate(slots):
            if s in eligible[c] and j not in seen:
                seen.add(j)
                if owner[j] is None or place(owner[j], seen):  # type: ignore[arg-type]
                    owner[j] = c
                    return True
        return False

    for c in cards:
        if not place(c, set()):
            raise ValueError("no deal agrees with this view")
    out = hands[:]
    for j, c in enumerate(owner):
        if c is not None:
            out[slots[j]] |= 1 << c
    return out


# ---- candidates and the pass ----------------------------------------------------------------

MOON_RANK_FLOOR = RANKS.index("9")  # a ten weighs 1 towards a moon, an ace 5
PASS_SIZE = 3
QUEEN_GUARDS = 3  # low spades that keep the queen safe to hold
QUEEN_GUARDS_PASSING_RIGHT = 2  # the seat on our right plays before us: the queen comes in view
MINORS = (0, 1)  # clubs, diamonds: the suits worth voiding by a pass

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
LENGTH_RELIEF = 0.4
LONG_SPADES = 5


def _distinct(legal: int, know: Knowledge) -> list[int]:
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


def _moon_strength(hand: int) -> float:
    """Average weight of the cards held (ten 1 up to ace 5): high hands may shoot the moon."""
    total = 0
    count = 0
    for c in cards_of(hand):
        total += max(0, c % RANKS_PER_SUIT - MOON_RANK_FLOOR)
        count += 1
    return total / count if count else 0.0


def decide_pass(view: View) -> list[int]:
    """Three cards to pass: dangerous spades, a short suit to void, then the highest cards."""
    hand = view.hand_mask
    chosen: list[int] = []
    spades = hand & SUIT[SPADES]
    guards = (spades & ((1 << QS) - 1)).bit_count()
    has_queen = bool(hand & QS_BIT)
    needed = QUEEN_GUARDS_PASSING_RIGHT if view.pass_direction == "right" else QUEEN_GUARDS
    keep_queen = has_queen and guards >= needed
    if has_queen and not keep_queen:
        chosen.append(QS)
    for c in (AS, KS):
        if hand >> c & 1 and guards < QUEEN_GUARDS and not keep_queen:
            chosen.append(c)
    chosen = chosen[:PASS_SIZE]
    left = hand
    for c in chosen:
        left &= ~(1 << c)
    # void a short minor suit if the remaining slots allow it
    room = PASS_SIZE - len(chosen)
    options = []
    for s in MINORS:
        m = left & SUIT[s]
        n = m.bit_count()
        if 0 < n <= room:
            keeps_two = s == 0 and m & 1
            options.append((n, keeps_two, -high(m), s))
    if options:
        options.sort()
        s = options[0][3]
        m = left & SUIT[s]
        if not (s == 0 and m & 1 and options[0][0] == 1):
            chosen.extend(cards_of(m))
            left &= ~m
    while len(chosen) < PASS_SIZE:
        chosen.append(_most_dangerous(left, hand, view))
        left &= ~(1 << chosen[-1])
    return sorted(chosen)


def _most_dangerous(left: int, hand: int, view: View) -> int:
    """The card we least want to keep: high hearts and high cards in short suits."""
    best = -1
    best_score = -1e9
    for c in cards_of(left):
        s, r = divmod(c, RANKS_PER_SUIT)
        length = (hand & SUIT[s]).bit_count()
        if s == SPADES:
            if c == QS:
                score = QUEEN_GUARDED if length >= LONG_SPADES else QUEEN_DANGER
            elif c > QS:
                safe = hand & QS_BIT or length >= LONG_SPADES
                score = HIGH_SPADE_SAFE if safe else HIGH_SPADE_DANGER
            else:
                score = r - LOW_SPADE_KEEP
        elif s == HEARTS:
            score = r + HEART_EXTRA
        else:
            score = r - LENGTH_RELIEF * length
        if score > best_score:
            best_score = score
            best = c
    return best
