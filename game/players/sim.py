"""A bare-bones Hearts simulator on bitmasks and the fast heuristic that plays inside it.

The search plays thousands of cards per decision, so this module avoids the ``Game`` class and
its strings: a hand is an int whose bit ``i`` is card ``i``, as in ``game.engine.rules``, whose
legality, trick winner and scoring it restates. ``playout`` inlines the trick winner and the
points in its loop for speed; tests/players/test_rules_and_simulator.py pins that loop to the
engine.
``pick`` is also the players' fallback and a readable statement of their card sense.

One source, two forms (see ``game.players.jit``): imported as usual this is plain Python; loaded
as ``game.players.sim_compiled`` every ``@hot`` function is compiled by numba. So the hot code
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
DEFEND_POINTS = 4  # with DEFEND_SELF: from this many points our seat defends against a lone taker
DEFEND_SELF = 1  # a bit of ``defend``: our own seat defends in the playouts (``pick``'s guard)
DEFEND_LATE = 2  # a bit of ``defend``: the others duck until a moon threat is real
DEFEND_ALONE = 4  # a bit of ``defend``: the others never fight an imagined shooter (they duck)
STRAY_SEATS = 8  # ``defend``'s bits 8-11: the seats that have strayed from the careful ducker
STRAY_SHIFT = 16  # ``defend``'s bits 16-23: for those seats, the chance in 256 (as NOISE_SHIFT's)
NOISE_SHIFT = 24  # ``defend``'s bits 24-31: the chance in 256 that a ducker plays at random
SALT_SHIFT = 32  # ``defend``'s bits from here: the deal's number, the noise's salt
NOISE_PRIME = 1099511627689
SHOOT_POINTS = 18  # when a lone taker of every point so far goes for the rest
LAST_TRICK = 13
SUIT_ORDER = (CLUBS, DIAMONDS, SPADES, HEARTS)
MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
DRAW_TRIES = 20  # greedy deals tried before the matching unties a knot
NO_DEAL = -1
GOLDEN_SHARE = 0.6180339887498949  # steps of a low-discrepancy sequence on [0, 1)


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


def table_reals(rows: int, cols: int) -> list[list[float]]:
    """A table of 0.0 floats in this form's container (``rows`` may be 0)."""
    if COMPILED:
        return np.zeros((rows, cols), dtype=np.float64)
    return [[0.0] * cols for _ in range(rows)]


def buffer_reals(values) -> list[float]:
    """Floats in the container this form's hot code takes: a list, or a float64 array."""
    if COMPILED:
        return np.array(values, dtype=np.float64)
    return [float(v) for v in values]


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
def pick(
    hand, n, win, tpts, first, broken, gone, shooting, threat, winner_seat, voids=0, guard=False
):
    """A sound card by rules of thumb: duck, unload the queen and hearts, lead safe low cards.

    ``n`` cards are on the table, ``win`` is the one winning so far (its suit is the led suit)
    and ``tpts`` their points. ``gone`` holds the cards of completed tricks; ``shooting`` means
    this seat goes for every trick; ``threat`` is a seat that must be stopped from shooting (-1
    if none) and ``winner_seat`` the seat winning the trick on the table. ``voids`` has bit
    ``s`` set when another seat is out of suit ``s``: leading it invites a discard.
    ``guard`` (a defender against ``threat``, ``DEFEND`` in the playouts): beat the threat with
    the cheapest card that wins, not the highest; last to a trick someone else takes, give it a
    point card so the points are split; when throwing hearts, keep the highest one as a stopper.
    """
    if n == 0:
        return _pick_lead(hand, first, broken, gone, shooting, voids)
    follow = hand & SUIT[win // RANKS_PER_SUIT]
    if follow:
        return _pick_follow(follow, n, win, tpts, first, gone, shooting, threat, winner_seat, guard)
    return _pick_discard(hand, n, first, gone, shooting, threat, winner_seat, guard)


@hot
def _pick_lead(hand, first, broken, gone, shooting, voids):
    """``pick``'s lead: a winner for a shooter, else the lead most likely to lose."""
    if first:
        return 0  # the two of clubs, which the first leader always holds
    legal = lead_mask(hand, first, broken)
    if legal & (legal - 1) == 0:
        return high(legal)
    if shooting:
        return _lead_to_win(legal, hand, gone)
    return _lead_low(legal, hand, gone, voids)


@hot
def _pick_follow(follow, n, win, tpts, first, gone, shooting, threat, winner_seat, guard):
    """``pick`` following suit from ``follow``, the cards of the led suit held."""
    if follow & (follow - 1) == 0:
        return high(follow)
    above = follow >> (win + 1)
    if shooting:
        return high(follow) if above else low(follow)
    if above and threat >= 0 and winner_seat == threat:
        if guard:
            return low(above << (win + 1))
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
    if win // RANKS_PER_SUIT == SPADES:
        safe = follow & ~QS_BIT
        if safe and not (gone & QS_BIT):
            return low(safe)
        return high(safe) if safe else QS
    return high(follow)


@hot
def _pick_discard(hand, n, first, gone, shooting, threat, winner_seat, guard):
    """``pick`` void in the led suit: keep winners for a moon, else shed the worst card."""
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
    if guard and threat >= 0:
        hearts = legal & HEART_MASK
        if hearts & (hearts - 1):
            return high(hearts & ~(1 << high(hearts)))  # the top heart stays, a stopper
        if hearts and n == 3:
            return high(hearts)  # the points split: no moon
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
def play_out(
    hands, leader, trick, n, pts, gone, ntricks, plan_seat, me, stop, hunter, record, defend
):  # fmt: skip
    """``playout`` on this form's containers: ``trick`` holds ``n`` cards (room for four), the
    cards played go to ``record`` (room for 52); ``hands`` is changed in place. ``defend`` is a
    set of bits: ``DEFEND_SELF``, ``DEFEND_LATE`` (see ``playout``)."""
    pts = pts.copy()
    win_i, tpts = table_winner(trick, n)
    win = trick[win_i] if n else -1
    trick_bits = 0
    for i in range(n):
        trick_bits |= 1 << trick[i]
    played = 0
    while True:
        total = pts[0] + pts[1] + pts[2] + pts[3]
        threat, shooter, plan_seat = read_moon(pts, total, ntricks, plan_seat)
        if hunter >= 0 and total:
            if pts[hunter] != total:
                hunter = -1  # someone else took a point: the imagined moon is off
            else:
                threat = hunter  # every seat sees the imagined shooter's moon coming
        lone = lone_taker(pts, total, me)  # the threat our own seat defends against
        late = total >= THREAT_POINTS or ntricks >= THREAT_TRICKS  # the others see it as real
        first = ntricks == 0
        broken = (gone & HEART_MASK) != 0
        voids = open_voids(hands, leader) if n == 0 else 0
        while n < 4:
            seat = (leader + n) % 4
            c = model_card(
                hands[seat], seat, n, win, tpts, first, broken, gone, voids, (leader + win_i) % 4,
                me, threat, shooter, plan_seat, hunter, lone, late, total, stop, defend,
            )  # fmt: skip
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


@hot
def read_moon(pts, total, ntricks, plan_seat):
    """From the points taken (``total`` in all): the moon threat the players see (a lone taker
    of every point, once it is worth fighting), the seat that goes on shooting (a lone taker of
    ``SHOOT_POINTS``, or our moon plan's seat), and the plan's seat (-1 once it lost a point)."""
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
    return threat, shooter, plan_seat


@hot
def lone_taker(pts, total, me):
    """Another seat than ``me`` that holds every point taken (-1 if none, or none taken)."""
    lone = -1
    if total:
        for s in range(4):
            if pts[s] == total and s != me:
                lone = s
    return lone


@hot
def open_voids(hands, leader):
    """The suits some seat other than the leader, still holding cards, is out of (four bits)."""
    voids = 0
    for s in range(4):
        h = hands[s]
        if s != leader and h:
            for x in range(4):
                if not h & SUIT[x]:
                    voids |= 1 << x
    return voids


@hot
def model_card(
    hand, seat, n, win, tpts, first, broken, gone, voids, winner_seat, me, threat, shooter,
    plan_seat, hunter, lone, late, total, stop, defend,
):  # fmt: skip
    """The playouts' model of ``seat``'s card (``playout`` says who plays how): the imagined
    shooter shoots; our own seat defends against a lone taker (``DEFEND_SELF``); the others play
    ``others_card``; the rest play ``pick``, shooting if they hold every point or our plan."""
    if seat == hunter and seat != me:
        return pick(hand, n, win, tpts, first, broken, gone, True, -1, 0, voids)
    if defend & DEFEND_SELF and seat == me and lone >= 0 and total >= DEFEND_POINTS:
        return pick(
            hand, n, win, tpts, first, broken, gone, False, lone, winner_seat, voids, True
        )  # fmt: skip
    noise = defend >> NOISE_SHIFT & 255  # the others but the imagined shooter, now and then
    if defend >> (STRAY_SEATS + seat) & 1:
        noise = defend >> STRAY_SHIFT & 255  # a seat whose plays strayed from the ducker's
    if noise and seat != me:
        z = noise_of(hand, gone, defend >> SALT_SHIFT, n)
        if z & 255 < noise:
            return random_card(hand, n, win, first, broken, z >> 8)
    if me >= 0 and seat != me:
        c = others_card(
            hand, seat, n, win, tpts, first, broken, gone, voids, winner_seat, me, threat,
            shooter, hunter, late, total, stop, defend,
        )  # fmt: skip
        if c >= 0:
            return c
    shooting = seat == shooter or (seat == plan_seat and total == 0)
    return pick(hand, n, win, tpts, first, broken, gone, shooting, threat, winner_seat, voids)


@hot
def noise_of(hand, gone, salt, n):
    """A pseudo-random number from the position and the deal's ``salt`` (40 bits)."""
    z = (hand ^ (gone >> 3) ^ (salt * 7919 + n)) % NOISE_PRIME
    z = (z * 6364136 + 1442695) % NOISE_PRIME
    z = (z * 6364136 + 1442695) % NOISE_PRIME
    return z


@hot
def random_card(hand, n, win, first, broken, z):
    """A legal card of ``hand`` chosen by ``z``."""
    if n == 0:
        legal = lead_mask(hand, first, broken)
    else:
        legal = hand & SUIT[win // RANKS_PER_SUIT]
        if not legal:
            legal = discard_mask(hand, first)
    k = z % count(legal)
    for c in range(52):
        if legal >> c & 1:
            if k == 0:
                return c
            k -= 1
    return high(legal)


@hot
def others_card(
    hand, seat, n, win, tpts, first, broken, gone, voids, winner_seat, me, threat, shooter,
    hunter, late, total, stop, defend,
):  # fmt: skip
    """The card of a seat other than the searching one: a lone taker of most points shoots on
    (``DEFEND_LATE``); against an imagined shooter the others duck until its threat is real,
    then beat it cheaply (``DEFEND_LATE``; else fight it at once); with no shooter they duck,
    unless ``stop`` has them fight our own moon threat (-1: ``pick`` plays then)."""
    if defend & DEFEND_LATE and seat == shooter:
        return pick(hand, n, win, tpts, first, broken, gone, True, -1, 0, voids)
    if hunter >= 0 and total:
        if defend & DEFEND_ALONE:
            return duck_pick(hand, n, win, first, broken)
        if not defend & DEFEND_LATE:
            return pick(
                hand, n, win, tpts, first, broken, gone, False, hunter, winner_seat, voids
            )  # fmt: skip
        if late:
            return pick(
                hand, n, win, tpts, first, broken, gone, False, hunter, winner_seat, voids, True
            )  # fmt: skip
        return duck_pick(hand, n, win, first, broken)
    if not (stop and threat == me):
        return duck_pick(hand, n, win, first, broken)
    return -1


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
    hunter: int = -1,
    defend: int = 0,
) -> list[int]:
    """Play the hand out with ``pick`` for every seat; returns points taken (before moon).

    ``hands`` is changed in place (callers pass a copy). ``plan_seat`` is a seat that tries to
    shoot the moon for as long as nobody else has a point. ``me`` is the searching seat: the
    others play ``duck_pick``, the careful ducker's rules, which the benchmark found a far better
    guess of how real opponents play (they drop the queen under our ace or king of spades) than
    playing them as eager as ourselves. With ``stop`` they turn on us once we hold every point
    so far (a moon threat) and play to take one, as real opponents who see a moon coming do.
    ``record``, if given, receives every card played, so that a test can replay them in ``Game``.
    ``hunter`` is another seat imagined going for the moon: it plays ``pick`` as a shooter for as
    long as nobody else has a point, and the seats other than ``me`` play ``pick`` against it
    once it holds every point so far (from the start when it is given).
    ``defend`` (bits): with ``DEFEND_SELF`` our own seat defends against a lone taker of
    ``DEFEND_POINTS`` or more (``pick``'s guard); with ``DEFEND_LATE`` the others duck until the
    imagined shooter's threat is real, then beat it cheaply, and a lone taker of
    ``SHOOT_POINTS`` goes on shooting.
    """
    held = buffer(hands)
    table = buffer([*trick, 0, 0, 0, 0][:4])
    cards = buffer([0] * 52)
    after = play_out(
        held, leader, table, len(trick), buffer(pts), gone, ntricks, plan_seat, me, stop, hunter,
        cards, defend,
    )  # fmt: skip
    for s in range(4):
        hands[s] = int(held[s])
    if record is not None:
        record.extend(int(c) for c in cards[: 52 - 4 * ntricks - len(trick)])
    return [int(p) for p in after]


# ---- the search's inner loops ---------------------------------------------------------------


@hot
def scored(pts, me, moon_off_shooter):
    """Our own points for the hand and everyone's, the moon scored as
    ``game.engine.rules.hand_score`` does."""
    shooter = -1
    for s in range(4):
        if pts[s] == MOON:
            shooter = s
    if shooter < 0:
        return pts[me], pts[0] + pts[1] + pts[2] + pts[3]
    if moon_off_shooter:
        return (-MOON if me == shooter else 0), -MOON
    return (0 if me == shooter else MOON), 3 * MOON


@hot
def utility(pts, me, moon_off_shooter, credit):
    """Own score for the hand, less ``credit`` per point that went to the others (the moon
    scored as ``game.engine.rules.hand_score`` does)."""
    mine, total = scored(pts, me, moon_off_shooter)
    return mine - credit * (total - mine)


# the columns of ``search_round``'s figures: sums over the deals, each deal counting its weight
FIG_POINTS = 0  # our points from now to the hand's end (``scored``), less those held before
FIG_TRICK = 1  # the points of the trick on the table that we take
FIG_CLEAN = 2  # 1 when we take no point on the trick on the table
FIG_MOON_AGAINST = 3  # 1 when another seat shoots the moon
FIG_MOON_OWN = 4  # 1 when we shoot it
FIG_WEIGHT = 5  # the weights themselves
FIG_DEALS = 6  # the deals, each counting 1
FIG_POINTS_SQ = 7  # squares of FIG_POINTS' figure: whether every deal agrees (issue 50)
FIG_TRICK_SQ = 8  # squares of FIG_TRICK's
FIG_COLUMNS = 9


@hot
def tally_figures(row, w, after, pts, me, moon_off_shooter, leader, trick, n, record):
    """Add one playout's figures to ``row`` (``FIG_*`` columns), the deal counting ``w``: the
    trick on the table is ``trick[:n]`` (our card last) and the first cards of ``record``."""
    mine, _ = scored(after, me, moon_off_shooter)
    full = trick.copy()
    for j in range(4 - n):
        full[n + j] = record[j]
    win_i, tpts = table_winner(full, 4)
    taken = tpts if (leader + win_i) % 4 == me else 0
    row[FIG_POINTS] += w * (mine - pts[me])
    row[FIG_TRICK] += w * taken
    row[FIG_CLEAN] += w * (1.0 if taken == 0 else 0.0)
    for s in range(4):
        if after[s] == MOON:
            if s == me:
                row[FIG_MOON_OWN] += w
            else:
                row[FIG_MOON_AGAINST] += w
    row[FIG_WEIGHT] += w
    row[FIG_DEALS] += 1.0
    row[FIG_POINTS_SQ] += w * (mine - pts[me]) * (mine - pts[me])
    row[FIG_TRICK_SQ] += w * taken * taken


@hot
def search_round(
    deals, ndeals, seen, stop_share, me, leader, trick, n, pts, gone, ntricks,
    cards, plans, alive, nalive, moon_off_shooter, credit, totals, record, hunter, odds, weights,
    defend,
):  # fmt: skip
    """Every candidate ``alive[:nalive]`` (card ``cards[k]``, moon plan ``plans[k]``) played in
    each of ``deals[:ndeals]`` and finished by ``play_out``; adds each one's utility to
    ``totals[k]``. ``seen`` deals came before: they fix which deals have the others fight a moon
    (``deal_world``). Deal ``i`` counts ``weights[i]`` times (how well it explains the play
    seen). ``defend``: as ``playout``'s. The loop is ``weigh_round``'s written out without its
    helpers' calls: with them the players' own decisions looked some 10% slower in issue 43's
    timing on a loaded machine (not confirmed, but kept apart so that the hint costs them nothing).
    """
    for i in range(ndeals):
        stop = ((seen + i) * stop_share) % 1.0 < stop_share
        shooter = -1
        if hunter >= 0 and ((seen + i) * GOLDEN_SHARE) % 1.0 < odds[i]:
            shooter = hunter
        for a in range(nalive):
            k = alive[a]
            card = cards[k]
            trial = deals[i].copy()
            trial[me] ^= 1 << card
            trick[n] = card
            after = play_out(
                trial, leader, trick, n + 1, pts, gone, ntricks, plans[k], me, stop, shooter,
                record, defend,
            )  # fmt: skip
            totals[k] += weights[i] * utility(after, me, moon_off_shooter, credit)


@hot
def plan_round(
    deals, ndeals, seen, stop_share, me, leader, trick, n, pts, gone, ntricks,
    cards, plans, alive, nalive, moon_off_shooter, credit, totals, record, hunter, odds, weights,
    defend,
):  # fmt: skip
    """``search_round`` planning one of our own later decisions (an experiment, off by default:
    ``brain.PLAN_REPLY``): in each deal, at our next turn after the candidate, every legal card
    is tried and the best one's utility counts (``plan_candidate``)."""
    for i in range(ndeals):
        stop, shooter = deal_world(i, seen, stop_share, hunter, odds)
        for a in range(nalive):
            k = alive[a]
            totals[k] += weights[i] * plan_candidate(
                deals[i], cards[k], plans[k], me, leader, trick, n, pts, gone, ntricks, stop,
                shooter, record, defend, moon_off_shooter, credit,
            )  # fmt: skip


@hot
def plan_candidate(
    deal, card, plan, me, leader, trick, n, pts, gone, ntricks, stop, shooter, record, defend,
    moon_off_shooter, credit,
):  # fmt: skip
    """The utility of ``card`` when our next decision is chosen knowing the deal: the hand is
    played out once, replayed to our next turn (``replay_to_turn``), and every legal card we
    could play there is played out from it; the least utility counts."""
    after = play_candidate(
        deal, card, plan, me, leader, trick, n, pts, gone, ntricks, stop, shooter, record, defend
    )  # fmt: skip
    best = utility(after, me, moon_off_shooter, credit)
    hands = deal.copy()
    hands[me] ^= 1 << card
    table = trick.copy()
    held = pts.copy()
    state = replay_to_turn(record, hands, leader, table, n + 1, held, gone, ntricks, me)
    at_leader, at_n, at_gone, at_tricks = state
    if at_tricks == LAST_TRICK:
        return best
    hand = hands[me]
    if at_n == 0:
        legal = lead_mask(hand, at_tricks == 0, (at_gone & HEART_MASK) != 0)
    else:
        legal = hand & SUIT[table[0] // RANKS_PER_SUIT]
        if not legal:
            legal = discard_mask(hand, at_tricks == 0)
    for c in range(52):
        if legal >> c & 1:
            trial = hands.copy()
            trial[me] ^= 1 << c
            table[at_n] = c
            end = play_out(
                trial, at_leader, table, at_n + 1, held, at_gone, at_tricks, plan, me, stop,
                shooter, record, defend,
            )  # fmt: skip
            value = utility(end, me, moon_off_shooter, credit)
            if value < best:
                best = value
    return best


@hot
def replay_to_turn(record, hands, leader, trick, n, pts, gone, ntricks, me):
    """The cards of ``record`` applied (no model: bookkeeping) to the position ``hands``,
    ``trick[:n]``, ``pts`` (changed in place) until it is ``me``'s turn or the hand is over;
    returns the leader, the cards on the table, the cards gone and the tricks played then."""
    j = 0
    while ntricks < LAST_TRICK:
        if n == 4:
            win_i, tpts = table_winner(trick, 4)
            leader = (leader + win_i) % 4
            pts[leader] += tpts
            for x in range(4):
                gone |= 1 << trick[x]
            ntricks += 1
            n = 0
            continue
        seat = (leader + n) % 4
        if seat == me:
            break
        c = record[j]
        j += 1
        hands[seat] ^= 1 << c
        trick[n] = c
        n += 1
    return leader, n, gone, ntricks


@hot
def weigh_round(
    deals, ndeals, seen, stop_share, me, leader, trick, n, pts, gone, ntricks,
    cards, plans, alive, nalive, moon_off_shooter, credit, totals, record, hunter, odds, weights,
    defend, figures,
):  # fmt: skip
    """``search_round``, the same playouts and sums, that also records each candidate's figures
    in its row of ``figures`` (``tally_figures``): for the hint, apart so that the players' own
    decisions do not pay for it."""
    for i in range(ndeals):
        stop, shooter = deal_world(i, seen, stop_share, hunter, odds)
        for a in range(nalive):
            k = alive[a]
            after = play_candidate(
                deals[i], cards[k], plans[k], me, leader, trick, n, pts, gone, ntricks, stop,
                shooter, record, defend,
            )  # fmt: skip
            totals[k] += weights[i] * utility(after, me, moon_off_shooter, credit)
            tally_figures(
                figures[k], weights[i], after, pts, me, moon_off_shooter, leader, trick, n + 1,
                record,
            )  # fmt: skip


@hot
def deal_world(i, seen, stop_share, hunter, odds):
    """For the search's deal ``seen + i``: whether the others fight a moon of ours in it (a
    ``stop_share`` of the deals), and the seat imagined shooting (-1 for none): ``hunter`` with
    the chance ``odds[i]``, in the deals a low-discrepancy sequence picks, so that the shares are
    kept without a generator."""
    stop = ((seen + i) * stop_share) % 1.0 < stop_share
    shooter = -1
    if hunter >= 0 and ((seen + i) * GOLDEN_SHARE) % 1.0 < odds[i]:
        shooter = hunter
    return stop, shooter


@hot
def play_candidate(
    deal, card, plan, me, leader, trick, n, pts, gone, ntricks, stop, shooter, record, defend
):  # fmt: skip
    """Our ``card`` put on the trick (``trick[:n]`` before it) in a copy of ``deal``, and the
    hand played out (``play_out``, our seat with moon plan ``plan``); the points taken."""
    trial = deal.copy()
    trial[me] ^= 1 << card
    trick[n] = card
    return play_out(
        trial, leader, trick, n + 1, pts, gone, ntricks, plan, me, stop, shooter, record, defend
    )  # fmt: skip


@hot
def duck_pass(hand):
    """The three highest cards by rank (the higher suit on a tie): how the search imagines the
    other seats pass."""
    out = 0
    taken = 0
    for i in range(len(RANK_ORDER) - 1, -1, -1):
        c = RANK_ORDER[i]
        if hand >> c & 1:
            out |= 1 << c
            taken += 1
            if taken == 3:
                break
    return out


@hot
def pass_round(
    deals, ndeals, me, offset, passes, npasses, stop_share, moon_off_shooter, credit, totals,
    record,
):  # fmt: skip
    """Every candidate pass ``passes[:npasses]`` (a mask of three of ``me``'s cards) tried in each
    of ``deals[:ndeals]`` (the hands as dealt): the others pass ``duck_pass``, each seat to the
    seat ``offset`` on, and the hand is played out by ``play_out`` from its first lead; adds the
    utility to ``totals[k]``."""
    hands = deals[0].copy()
    given = deals[0].copy()
    pts = deals[0].copy()
    trick = deals[0].copy()
    for i in range(ndeals):
        stop = (i * stop_share) % 1.0 < stop_share
        for s in range(4):
            given[s] = duck_pass(deals[i][s])
        for k in range(npasses):
            given[me] = passes[k]
            for s in range(4):
                hands[s] = deals[i][s] & ~given[s]
            for s in range(4):
                hands[(s + offset) % 4] |= given[s]
            leader = 0
            for s in range(4):
                pts[s] = 0
                trick[s] = 0
                if hands[s] & 1:
                    leader = s
            after = play_out(hands, leader, trick, 0, pts, 0, 0, -1, me, stop, -1, record, 0)
            totals[k] += utility(after, me, moon_off_shooter, credit)


@hot
def read_weights(
    deals, ndeals, seats, cards, ns, wins, tpts, firsts, brokens, gones, held, nplays, miss, out,
):  # fmt: skip
    """For each of ``deals[:ndeals]``, how well it explains the others' plays so far: play ``k``
    was card ``cards[k]`` of seat ``seats[k]`` (as in ``shooter_odds``); a card that neither a
    careful ducker (``duck_pick``) nor our own rules of thumb (``pick``) would have played from
    the hand the deal gives the seat multiplies the deal's weight by ``miss``."""
    for i in range(ndeals):
        w = 1.0
        for k in range(nplays):
            h = deals[i][seats[k]] | held[k]
            first = firsts[k] != 0
            broken = brokens[k] != 0
            c = cards[k]
            ducked = c == duck_pick(h, ns[k], wins[k], first, broken)
            if not ducked and c != pick(
                h, ns[k], wins[k], tpts[k], first, broken, gones[k], False, -1, 0, 0
            ):
                w *= miss
        out[i] = w


@hot
def shooter_odds(
    deals, ndeals, seat, cards, ns, wins, tpts, firsts, brokens, gones, held, nplays, prior, ratio,
    out,
):  # fmt: skip
    """For each of ``deals[:ndeals]``, the chance that ``seat`` is going for the moon, read from
    its ``nplays`` plays so far: play ``k`` was card ``cards[k]``, the ``ns[k]``-th of its trick,
    with ``wins[k]`` winning and ``tpts[k]`` points on the table, from the hand the deal gives
    the seat plus ``held[k]`` (the cards it has played since, this one included). A play that a
    shooter (``pick`` going for every trick) would make and a careful ducker would not
    multiplies the odds ``prior`` by ``ratio``; the other way round divides them."""
    for i in range(ndeals):
        hand = deals[i][seat]
        odds = prior
        for k in range(nplays):
            h = hand | held[k]
            first = firsts[k] != 0
            broken = brokens[k] != 0
            d = duck_pick(h, ns[k], wins[k], first, broken)
            s = pick(h, ns[k], wins[k], tpts[k], first, broken, gones[k], True, -1, 0, 0)
            if d != s:
                if cards[k] == s:
                    odds *= ratio
                elif cards[k] == d:
                    odds /= ratio
        out[i] = odds / (1.0 + odds)


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
