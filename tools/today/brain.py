"""Decisions from a ``View``: a passing heuristic and a Monte Carlo search for each card.

The search imagines deals of the unseen cards that agree with the view, plays every candidate
card in each of them, finishes the hand with the fast heuristic of ``sim`` and keeps the card
with the fewest points on average. The number of deals is a count, never a time budget, so the
same position gives the same card on any machine.
"""

from __future__ import annotations

from game.engine import DECK, SplitMix64
from game.engine.cards import RANKS
from game.engine.rules import (
    HEART_MASK,
    HEARTS,
    QS,
    QS_BIT,
    RANKS_PER_SUIT,
    SPADES,
    SUIT,
    cards_of,
    legal_mask,
    suit_of,
)
from game.players.view import View

from .deals import DealSampler, Knowledge, knowledge_of
from .sim import AS, KS, high, moon_threat, pick, table_state

PLAY_STREAM = 0x91A7
CARD_BUDGET = 12000  # simulated cards per decision, shared among deals and candidates
MIN_DEALS = 6
MAX_DEALS = 150
PRUNE_MARGIN = 2.5  # mean points by which a card must trail to be dropped after the first half
MOON_STRENGTH = 1.4
STOP_SHARE = 0.5  # of the imagined deals, the share in which the others fight our moon
FALLBACK_EDGE = 0.5  # total points by which the heuristic's own card wins a near tie
OTHERS_CREDIT = 0.05  # per point that goes to another seat instead of us
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


class Tally:
    """Searches run and cards simulated by this process, to show that work is done (not timed)."""

    searches = 0
    cards = 0


def decide_play(view: View, core, even: bool = False) -> int:
    """The card to play, as an index; the view must be at this seat's turn. ``core`` is the form
    of ``tools.today.sim`` the search runs in (``tools.today.jit.core()``, the compiled one if
    it loaded, or ``sim`` itself): both give the same card.

    ``even``: where others watch how long a decision takes (a network table), a card that
    needs no search (the only legal one, or the only one worth playing) is searched for
    anyway, over the whole hand as if every card were playable, and that search is thrown
    away; and no search stops early when one card is left in the running (it spends its whole
    budget on that card). A forced card does the same work as a searched one, so the answer's
    time does not tell how many legal cards the seat had. The card chosen is the same either
    way: a search that goes on with one card left can only choose that card."""
    know = knowledge_of(view)
    first = not view.tricks
    broken = bool(know.gone & HEART_MASK)
    legal = legal_mask(know.hand, view.trick, first, broken)
    candidates = [high(legal)] if legal & (legal - 1) == 0 else distinct_cards(legal, know)
    if len(candidates) == 1:
        if even:
            _search(view, know, cards_of(know.hand), first, broken, core, full=True)
        return candidates[0]
    return _search(view, know, candidates, first, broken, core, full=even)


def distinct_cards(legal: int, know: Knowledge) -> list[int]:
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


def _search(
    view: View,
    know: Knowledge,
    candidates: list[int],
    first: bool,
    broken: bool,
    core,
    full: bool = False,
) -> int:
    Tally.searches += 1
    me = view.seat
    remaining = len(DECK) - view.cards_played
    rng = SplitMix64.for_key(PLAY_STREAM, view.number, view.hand_number, view.cards_played, me)
    leader = view.trick_leader if view.trick_leader is not None else me
    pts = list(know.pts)
    ntricks = len(view.tricks)
    threat = moon_threat(pts, ntricks)
    win, win_i, tpts = table_state(view.trick)
    fallback = pick(
        know.hand,
        len(view.trick),
        win,
        tpts,
        first,
        broken,
        know.gone,
        threat == me,
        threat,
        (leader + win_i) % 4,
        _shown_voids(know),
    )
    options = [(card, -1) for card in candidates]
    if pts[me] == sum(pts) and moon_strength(know.hand) >= MOON_STRENGTH:
        options += [(card, me) for card in candidates]
    sampler = DealSampler(know)
    # the loop over deals and candidates runs in ``core``, on its containers
    cards = core.buffer([card for card, _ in options])
    plans = core.buffer([plan for _, plan in options])
    table = core.buffer([*view.trick, 0, 0, 0, 0][:4])
    held = core.buffer(pts)
    record = core.buffer([0] * 52)
    sums = core.reals(len(options))
    alive = list(range(len(options)))
    seen = 0
    budget = CARD_BUDGET
    for round_ in range(2):
        share = budget // 2 if round_ == 0 else budget
        deals = max(MIN_DEALS if round_ == 0 else 0, share // (len(alive) * remaining))
        deals = min(deals, MAX_DEALS - seen)
        if deals > 0:
            core.search_round(
                sampler.draw_many(rng, deals, core),
                deals,
                seen,
                STOP_SHARE,
                me,
                leader,
                table,
                len(view.trick),
                held,
                know.gone,
                ntricks,
                cards,
                plans,
                core.buffer(alive),
                len(alive),
                view.moon_off_shooter,
                OTHERS_CREDIT,
                sums,
                record,
            )
        budget -= deals * len(alive) * remaining
        Tally.cards += deals * len(alive) * remaining
        seen += deals
        totals = [float(t) for t in sums]
        if seen:
            best_mean = min(totals[k] for k in alive) / seen
            alive = [k for k in alive if totals[k] / seen <= best_mean + PRUNE_MARGIN]
        if (len(alive) == 1 and not full) or budget <= 0:
            break
    best_key = None
    best = fallback
    for k in alive:
        card = options[k][0]
        key = (totals[k] - (FALLBACK_EDGE if card == fallback else 0.0), card)
        if best_key is None or key < best_key:
            best_key = key
            best = card
    return best


def moon_strength(hand: int) -> float:
    """Average weight of the cards held (ten 1 up to ace 5): high hands may shoot the moon."""
    total = 0
    count = 0
    for c in cards_of(hand):
        total += max(0, c % RANKS_PER_SUIT - MOON_RANK_FLOOR)
        count += 1
    return total / count if count else 0.0


def _shown_voids(know: Knowledge) -> int:
    """Suits another seat still holding cards has shown it lacks, as four bits."""
    voids = 0
    for s in range(4):
        if s != know.seat and know.need[s]:
            for x in range(4):
                if know.forbidden[s] & SUIT[x] == SUIT[x]:
                    voids |= 1 << x
    return voids


# ---- passing ---------------------------------------------------------------------------------


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
