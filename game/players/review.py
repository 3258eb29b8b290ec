"""The hand review's analysis, by the players' own search: what the hint would have played,
the expected points of each card the seat could play, of its pass against the hint's, and what
the computer players would have taken in the seat. ``game.engine.handlog`` keeps the hand's
record and ``game.web.hand_review`` says all this in English; the searching happens here, with
the players' public names only.

Every generator is keyed by public facts of the hand (or a one-way key of the secret seed), so
an analysis is the same each time it is asked for.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from game.engine import DECK, SEATS, Game, Phase, SplitMix64, rules
from game.engine.rules import HEART_MASK, MOON, legal_mask, suit_of

from . import choose_pass, choose_play, jit
from .brain import (
    MOON_STRENGTH,
    STOP_SHARE,
    decide_pass,
    distinct_cards,
    moon_odds,
    moon_strength,
    rule_pass,
    suspect,
)
from .deals import DealSampler, knowledge_of
from .sim import DEFEND_LATE, DEFEND_SELF
from .view import View

PLAY_STREAM = 0x2E71  # the review's own generators, apart from the players' in play
PASS_STREAM = 0x2E72
BUDGET_TIMES = 16  # the review searches with this many times the simulated cards of play, as
# the players spent them before issue 32 (a whole hand's review keeps within a second of CPU)
REVIEW_BUDGET = 12000 * BUDGET_TIMES  # sixteen times the players' budget before issue 32
MIN_DEALS = 128
MAX_REVIEW_DEALS = 150 * BUDGET_TIMES
PASS_DEALS = 240  # imagined deals of the other 39 cards for weighing a pass
MOON_DEALS = 96  # of a play's deals, those replayed to count the moons made
# The playouts' defence the review's figures were measured with (the players' own ``DEFEND``
# became noisier in issue 49; the review's words and their tests rest on these)
DEFEND = DEFEND_SELF | DEFEND_LATE


# ---- weighing one play -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Appraisal:
    """The expected points of each card worth telling apart (by its lowest equal card), over
    the same deals; and, where playing for the moon was in view, the share of those deals in
    which the best card for it made the moon."""

    values: dict[int, float]
    best: int
    moon_share: float | None = None
    moon_card: int | None = None


def same_as(card: int, reps: Sequence[int]) -> int:
    """The card of ``reps`` that ``card`` is worth the same as (the lowest of its run)."""
    return max(r for r in reps if suit_of(r) == suit_of(card) and r <= card)


def appraise(view: View, core=None) -> Appraisal | None:
    """Every distinct legal card searched on the same deals, with the review's budget; None
    when there is nothing to weigh (one card worth playing)."""
    core = core or jit.core()
    know = knowledge_of(view)
    first = not view.tricks
    broken = bool(know.gone & HEART_MASK)
    legal = legal_mask(know.hand, view.trick, first, broken)
    reps = distinct_cards(legal, know)
    if len(reps) < 2:
        return None
    me = view.seat
    pts = list(know.pts)
    options = [(card, -1) for card in reps]
    moon_in_view = pts[me] == sum(pts) and moon_strength(know.hand) >= MOON_STRENGTH
    if moon_in_view:
        options += [(card, me) for card in reps]
    remaining = len(DECK) - view.cards_played
    deals = REVIEW_BUDGET // (len(options) * remaining)
    deals = min(max(deals, MIN_DEALS), MAX_REVIEW_DEALS)
    rng = SplitMix64.for_key(PLAY_STREAM, view.number, view.hand_number, view.cards_played, me)
    drawn = DealSampler(know).draw_many(rng, deals, core)
    hunter = suspect(know)
    leader = view.trick_leader if view.trick_leader is not None else me
    sums = core.reals(len(options))
    core.search_round(
        drawn, deals, 0, STOP_SHARE, me, leader, core.buffer([*view.trick, 0, 0, 0, 0][:4]),
        len(view.trick), core.buffer(pts), know.gone, len(view.tricks),
        core.buffer([card for card, _ in options]), core.buffer([plan for _, plan in options]),
        core.buffer(range(len(options))), len(options), view.moon_off_shooter,
        0.0,  # the seat's own points only: what a person is told it cost
        sums, core.buffer([0] * 52), hunter, moon_odds(core, view, drawn, deals, hunter),
        core.buffer_reals([1.0] * deals), DEFEND,
    )  # fmt: skip
    values: dict[int, float] = {}
    moon_value: dict[int, float] = {}
    for k, (card, plan) in enumerate(options):
        mean = float(sums[k]) / deals
        values[card] = min(values.get(card, mean), mean)
        if plan >= 0:
            moon_value[card] = mean
    best = min(reps, key=lambda card: (values[card], card))
    if not moon_value:
        return Appraisal(values, best)
    moon_card = min(reps, key=lambda card: (moon_value[card], card))
    share = _moon_share(core, drawn, min(deals, MOON_DEALS), view, leader, pts, know, moon_card)
    return Appraisal(values, best, share, moon_card)


def _moon_share(core, drawn, deals: int, view: View, leader: int, pts, know, card: int) -> float:
    """Of the first ``deals`` deals, the share in which playing ``card`` and going on for the
    moon takes all 26 points."""
    me = view.seat
    made = 0
    record = core.buffer([0] * 52)
    for i in range(deals):
        trial = drawn[i].copy()
        trial[me] ^= 1 << card
        table = core.buffer([*view.trick, card, 0, 0, 0, 0][:4])
        stop = (i * STOP_SHARE) % 1.0 < STOP_SHARE
        after = core.play_out(
            trial,
            leader,
            table,
            len(view.trick) + 1,
            core.buffer(pts),
            know.gone,
            len(view.tricks),
            me,
            me,
            stop,
            -1,
            record,
            DEFEND,
        )
        made += int(after[me]) == MOON
    return made / deals if deals else 0.0


# ---- weighing the pass -----------------------------------------------------------------------


def appraise_pass(view: View, passed: Sequence[int], core=None) -> tuple[float, list[int]]:
    """The expected points of passing ``passed`` rather than the hint's three, and the hint's
    three: both passes played out on the same imagined deals of the 39 cards the seat could
    not see, the others passing as the computer players would and everyone playing on as the
    search's playouts do (the seat by the players' rules of thumb, the others as careful
    duckers). Negative when the seat's pass did better than the hint's."""
    core = core or jit.core()
    me = view.seat
    hint = decide_pass(view, core)
    if sorted(passed) == sorted(hint):
        return 0.0, hint
    own = set(view.hand)
    unseen = [c for c in range(52) if c not in own]
    rng = SplitMix64.for_key(PASS_STREAM, view.number, view.hand_number, me)
    others = [s for s in SEATS if s != me]
    target = {s: (s + (view.pass_target - me)) % 4 for s in SEATS}  # type: ignore[operator]
    totals = [0.0, 0.0]
    record = core.buffer([0] * 52)
    for d in range(PASS_DEALS):
        rng.quick_shuffle(unseen)
        hands = {me: own}
        given = {}
        for i, s in enumerate(others):
            hands[s] = set(unseen[13 * i : 13 * i + 13])
            seen = dataclasses.replace(
                view, seat=s, hand=tuple(sorted(hands[s])), pass_target=target[s]
            )
            given[s] = rule_pass(seen)
        stop = (d * STOP_SHARE) % 1.0 < STOP_SHARE
        for j, mine in enumerate((passed, hint)):
            given[me] = list(mine)
            after_pass = [set(hands[s]) for s in SEATS]
            for s in SEATS:
                after_pass[s] -= set(given[s])
            for s in SEATS:
                after_pass[target[s]] |= set(given[s])
            masks = [rules.mask_of(h) for h in after_pass]
            leader = next(s for s in SEATS if masks[s] & 1)
            after = core.play_out(
                core.buffer(masks),
                leader,
                core.buffer([0, 0, 0, 0]),
                0,
                core.buffer([0, 0, 0, 0]),
                0,
                0,
                -1,
                me,
                stop,
                -1,
                record,
                DEFEND,
            )
            score = rules.hand_score([int(p) for p in after], view.moon_off_shooter)
            totals[j] += score[me]
    return (totals[0] - totals[1]) / PASS_DEALS, hint


# ---- the computer players in the seat -------------------------------------------------------


def decide(fn, *args):
    """Work a decision out directly: the default thinker of a review."""
    return fn(*args)


def computers_in_seat(game: Game, seat: int, think=decide) -> tuple[int, int]:
    """The hand ``game`` has just dealt (before any pass) played out with the computer players
    in every seat, passes included: ``seat``'s score for the hand and its points before the
    moon rule. The same each time: the players' generators are keyed by the game and the hand.
    Each decision goes through ``think(fn, *args)``."""
    if game.phase == Phase.PASSING:
        choices = [think(choose_pass, game, s) for s in SEATS]
        for s in SEATS:
            game.pass_cards(s, choices[s])
    while game.phase == Phase.PLAYING:
        turn = game.turn
        game.play(turn, think(choose_play, game, turn))
    points = game.hand_points()
    return rules.hand_score(points, game.moon_off_shooter)[seat], points[seat]
