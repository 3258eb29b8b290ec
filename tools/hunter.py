"""The moon hunter: a bench opponent that goes for the moon whenever its hand gives a real chance.

It is our own Monte Carlo search, kept in ``tools.hunter_frozen`` as a frozen copy (compiled by
numba when it is installed) so that work on Pauline, Michele and Ben does not move the
yardstick, with two changes of aim: a moon it shoots counts as
``MOON_BONUS`` points better than the moon itself, and it weighs a moon plan on every decision
while nobody else has a point and its hand is not hopeless (``HUNT_STRENGTH``). With a hand
worth shooting it passes its lowest cards, to keep the winners. It sees only its ``View``.

``Hunter.attempted`` holds the seats that chose a moon plan in the hand being played, so the
bench can count failed attempts beside the successful ones.
"""

from __future__ import annotations

from game.engine import DECK, Game, SplitMix64
from game.engine.rules import HEART_MASK, HEARTS, SUIT, cards_of, legal_mask
from game.players.view import View, view_of
from tools.hunter_frozen import (
    DealSampler,
    _distinct,
    _moon_strength,
    buffer,
    decide_pass,
    high,
    hunt_round,
    knowledge_of,
    reals,
)

HUNT_STREAM = 0x3F0D
CARD_BUDGET = 12000  # as ours: simulated cards per decision
MIN_DEALS = 6
MAX_DEALS = 150
PRUNE_MARGIN = 2.5
STOP_SHARE = 0.5  # of the imagined deals, the share in which the others fight its moon
HUNT_STRENGTH = 1.0  # below this average card weight (ten 1 up to ace 5) no moon is tried
PASS_STRENGTH = 1.2  # from this weight on, the pass keeps the winners and sends low cards
MOON_BONUS = 16.0  # how much better than its points a moon of its own counts
OTHERS_CREDIT = 0.05  # per point that goes to another seat instead of the hunter


class Hunter:
    """Decisions of the moon hunter, and a record of who went for the moon this hand."""

    def __init__(self) -> None:
        self.attempted: set[int] = set()

    def reset(self) -> None:
        self.attempted = set()

    def pass_cards(self, game: Game, seat: int) -> list[str]:
        return [DECK[c].code for c in hunt_pass(view_of(game, seat))]

    def play(self, game: Game, seat: int) -> str:
        card, shooting = hunt_play(view_of(game, seat))
        if shooting:
            self.attempted.add(seat)
        return DECK[card].code


def hunt_pass(view: View) -> list[int]:
    """With a hand worth shooting, the three cards most likely to lose a trick (the most higher
    cards of their suit in other hands; on a tie a non-heart, then the lowest); else ours."""
    hand = view.hand_mask
    if _moon_strength(hand) < PASS_STRENGTH:
        return decide_pass(view)

    def losing(c: int) -> tuple[int, bool, int]:
        above = SUIT[c // 13] & ~((2 << c) - 1)
        return (-(above & ~hand).bit_count(), c // 13 == HEARTS, c % 13)

    return sorted(sorted(cards_of(hand), key=losing)[:3])


def hunt_play(view: View) -> tuple[int, bool]:
    """The card to play and whether it was chosen as part of a moon plan."""
    know = knowledge_of(view)
    me = view.seat
    first = not view.tricks
    broken = bool(know.gone & HEART_MASK)
    legal = legal_mask(know.hand, view.trick, first, broken)
    pts = list(know.pts)
    plan = pts[me] == sum(pts) and _moon_strength(know.hand) >= HUNT_STRENGTH
    if legal & (legal - 1) == 0:
        return high(legal), False
    candidates = _distinct(legal, know)
    options = [(card, -1) for card in candidates]
    if plan:
        options += [(card, me) for card in candidates]
    if len(options) == 1:
        return candidates[0], False
    remaining = 52 - view.cards_played
    rng = SplitMix64.for_key(HUNT_STREAM, view.number, view.hand_number, view.cards_played, me)
    leader = view.trick_leader if view.trick_leader is not None else me
    ntricks = len(view.tricks)
    sampler = DealSampler(know)
    cards = buffer([card for card, _ in options])
    plans = buffer([plan for _, plan in options])
    table = buffer([*view.trick, 0, 0, 0, 0][:4])
    held = buffer(pts)
    record = buffer([0] * 52)
    sums = reals(len(options))
    totals = [0.0] * len(options)
    alive = list(range(len(options)))
    seen = 0
    budget = CARD_BUDGET
    for round_ in range(2):
        share = budget // 2 if round_ == 0 else budget
        deals = max(MIN_DEALS if round_ == 0 else 0, share // (len(alive) * remaining))
        deals = min(deals, MAX_DEALS - seen)
        if deals > 0:
            hunt_round(
                sampler.draw_many(rng, deals),
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
                buffer(alive),
                len(alive),
                view.moon_off_shooter,
                OTHERS_CREDIT,
                MOON_BONUS,
                sums,
                record,
            )
        budget -= deals * len(alive) * remaining
        seen += deals
        totals = [float(t) for t in sums]
        if seen:
            best_mean = min(totals[k] for k in alive) / seen
            alive = [k for k in alive if totals[k] / seen <= best_mean + PRUNE_MARGIN]
        if len(alive) == 1 or budget <= 0:
            break
    best = min(alive, key=lambda k: (totals[k], options[k][0], options[k][1]))
    card, plan_seat = options[best]
    return card, plan_seat == me
