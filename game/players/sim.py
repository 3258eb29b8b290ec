"""A bare-bones Hearts simulator on bitmasks and the fast heuristic that plays inside it.

The search plays thousands of cards per decision, so this module avoids the ``Game`` class and
its strings: a hand is an int whose bit ``i`` is card ``i``, as in ``game.engine.rules``, whose
legality, trick winner and scoring it uses. ``playout`` inlines the trick winner and the points
in its loop for speed; tests/test_rules_core.py pins that loop to the engine.
``pick`` is also the players' fallback and a readable statement of their card sense.
"""

from __future__ import annotations

from game.engine.rules import (
    ALL_CARDS,
    CLUBS,
    DIAMONDS,
    FIRST_HEART,
    HEART_MASK,
    HEARTS,
    POINT_MASK,
    QS,
    QS_BIT,
    QUEEN_POINTS,
    RANKS_PER_SUIT,
    SPADES,
    SUIT,
    discard_mask,
    lead_mask,
    suit_of,
    trick_points,
    winning_position,
)

KS = QS + 1
AS = QS + 2
HIGH_SPADES = (1 << KS) | (1 << AS)
THREAT_POINTS = 10  # when a lone taker of every point so far is worth fighting
THREAT_TRICKS = 8  # from this many tricks on, a lone taker of any points is worth fighting
SHOOT_POINTS = 18  # when a lone taker of every point so far goes for the rest
LAST_TRICK = 13


def low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def high(mask: int) -> int:
    return mask.bit_length() - 1


def table_state(trick) -> tuple[int, int, int]:
    """The winning card so far (-1 on an empty table), its position in the trick, and the points
    on the table."""
    if not trick:
        return -1, 0, 0
    win_i = winning_position(trick)
    return trick[win_i], win_i, trick_points(trick)


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


def pick(
    hand: int,
    n: int,
    win: int,
    tpts: int,
    first: bool,
    broken: bool,
    gone: int,
    shooting: bool,
    threat: int,
    winner_seat: int,
    voids: int = 0,
) -> int:
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
            return legal.bit_length() - 1
        if shooting:
            return _lead_to_win(legal, hand, gone)
        return _lead_low(legal, hand, gone, voids)
    led = suit_of(win)
    follow = hand & SUIT[led]
    if follow:
        if follow & (follow - 1) == 0:
            return follow.bit_length() - 1
        above = follow >> (win + 1)
        if shooting:
            return follow.bit_length() - 1 if above else (follow & -follow).bit_length() - 1
        if above and threat >= 0 and winner_seat == threat:
            return follow.bit_length() - 1
        if first:
            return follow.bit_length() - 1
        below = follow & ((1 << win) - 1)
        if n == 3:
            if above and not tpts:
                safe = follow & ~QS_BIT
                if safe >> (win + 1):
                    return safe.bit_length() - 1
            if below:
                return below.bit_length() - 1
            safe = follow & ~QS_BIT
            return safe.bit_length() - 1 if safe else QS
        if below:
            return below.bit_length() - 1
        if led == SPADES:
            safe = follow & ~QS_BIT
            if safe and not (gone & QS_BIT):
                return (safe & -safe).bit_length() - 1
            return safe.bit_length() - 1 if safe else QS
        return follow.bit_length() - 1
    legal = discard_mask(hand, first)
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    if shooting:
        keep = legal & ~POINT_MASK
        return _shed(keep) if keep else (legal & -legal).bit_length() - 1
    if threat >= 0 and winner_seat == threat:
        keep = legal & ~POINT_MASK
        if keep:
            return _shed(keep)
    if legal & QS_BIT:
        return QS
    if not (gone & QS_BIT) and legal & HIGH_SPADES:
        return (legal & HIGH_SPADES).bit_length() - 1
    hearts = legal & HEART_MASK
    if hearts:
        return hearts.bit_length() - 1
    return _shed(legal)


RANK_ORDER = tuple(
    RANKS_PER_SUIT * s + r for r in range(RANKS_PER_SUIT) for s in range(4)
)  # the twos of every suit, then the threes, and so on


def duck_pick(hand: int, n: int, win: int, first: bool, broken: bool) -> int:
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
    follow = hand & SUIT[suit_of(win)]
    if follow:
        below = follow & ((1 << win) - 1)
        if below:
            return below.bit_length() - 1
        safe = (follow & ~QS_BIT) or follow
        if n == 3:
            return safe.bit_length() - 1
        return (safe & -safe).bit_length() - 1
    legal = discard_mask(hand, first)
    if legal & QS_BIT:
        return QS
    hearts = legal & HEART_MASK
    if hearts:
        return hearts.bit_length() - 1
    for c in reversed(RANK_ORDER):
        if legal >> c & 1:
            return c
    return -1


def _shed(cards: int) -> int:
    """The highest card, from the shortest suit on a tie, to make voids."""
    best = -1
    best_key = (-1, 0)
    for s in range(4):
        m = cards & SUIT[s]
        if m:
            c = high(m)
            key = (c - RANKS_PER_SUIT * s, -m.bit_count())
            if key > best_key:
                best_key = key
                best = c
    return best


def _lead_low(legal: int, hand: int, gone: int, voids: int) -> int:
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
        lower = (suit_out & ((1 << c) - 1)).bit_count()
        higher = (suit_out >> (c + 1)).bit_count()
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


def _lead_to_win(legal: int, hand: int, gone: int) -> int:
    """For a shooter: a card no one can beat if there is one, else the highest."""
    out = ~(hand | gone) & ALL_CARDS
    for s in (CLUBS, DIAMONDS, SPADES, HEARTS):
        m = legal & SUIT[s]
        if m and not (out & SUIT[s]) >> (high(m) + 1) and (out & SUIT[s]):
            return high(m)
    for s in (CLUBS, DIAMONDS, SPADES, HEARTS):
        m = legal & SUIT[s]
        if m and not (out & SUIT[s]):
            return high(m)
    return high(legal)


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
    pts = pts[:]
    n = len(trick)
    win, win_i, tpts = table_state(trick)
    trick_bits = 0
    for c in trick:
        trick_bits |= 1 << c
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
                    seat == shooter or (seat == plan_seat and not total),
                    threat,
                    (leader + win_i) % 4,
                    voids,
                )
            hands[seat] ^= 1 << c
            trick_bits |= 1 << c
            if record is not None:
                record.append(c)
            # rules.winning_position inlined, 13 being RANKS_PER_SUIT: this loop plays every card
            if n == 0 or (c > win and c // 13 == win // 13):
                win = c
                win_i = n
            # card_points inlined: this loop plays every simulated card
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
