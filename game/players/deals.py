"""Deals of the hidden cards that agree with everything a seat knows.

The search imagines where the unseen cards are. Each imagined deal respects the hand sizes,
the voids the other seats have shown, and the three cards this seat passed (they sit with the
receiver until played), so the search never wastes effort on deals that cannot be. It also
reads each other seat as a careful ducker would play (``_ducker_reading``) and keeps to those
readings while they hold together.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

from game.engine import Phase, SplitMix64, rules
from game.engine.rules import ALL_CARDS, FIRST_HEART, HEART_MASK, POINT_MASK, QS, QS_BIT, SUIT

from . import sim
from .sim import RANK_ORDER
from .view import View


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
    # the seats whose plays have shown they do not play like a careful ducker (a bit a seat)
    strayed: int = 0


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
    if view.phase == Phase.PLAYING and view.pass_target is not None:
        for card in view.passed:
            if unknown >> card & 1:
                fixed[view.pass_target] |= 1 << card
    forbidden[me] = ALL_CARDS
    inferred, strayed = _ducker_reading(plays, me, fixed)
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
        strayed=strayed,
    )


def ducker_likelihood(know: Knowledge, seat: int) -> float:
    """The chance that a hand dealt at random among the cards ``seat`` may hold holds none of
    the cards a careful ducker would have played had it held them (``Knowledge.inferred``): how
    well the careful ducker explains its plays so far. A ducker that ducks with the seven under
    the jack explains itself well; one that plays the king of clubs second to the two, with
    several lower clubs out, does not."""
    cards = know.unknown
    for fixed in know.fixed:
        cards &= ~fixed
    cards &= ~know.forbidden[seat]
    room = know.need[seat] - know.fixed[seat].bit_count()
    pool = cards.bit_count()
    if room <= 0 or room > pool:
        return 1.0
    return comb(pool - (know.inferred[seat] & cards).bit_count(), room) / comb(pool, room)


def others_plays(view: View) -> list[tuple[int, ...]]:
    """Every card the other seats have played in this hand: (seat, then ``plays_of``'s)."""
    return [(s, *play) for s in range(4) if s != view.seat for play in plays_of(view, s)]


def plays_of(view: View, seat: int) -> list[tuple[int, int, int, int, bool, bool, int, int]]:
    """Every card ``seat`` has played in this hand, with what the table showed when it did:
    (card, its place in the trick, the card winning before it or -1, the points on the table,
    first trick, hearts broken before the trick, cards of the tricks before, the cards the seat
    played from then on, this one included)."""
    out = []
    plays = [(leader, cards) for leader, cards in view.tricks]
    if view.trick_leader is not None and view.trick:
        plays.append((view.trick_leader, view.trick))
    gone = 0
    for index, (leader, cards) in enumerate(plays):
        for i, card in enumerate(cards):
            if (leader + i) % 4 == seat:
                win = cards[rules.winning_position(cards[:i])] if i else -1
                before = rules.trick_points(cards[:i]) if i else 0
                out.append([card, i, win, before, index == 0, bool(gone & HEART_MASK), gone, 0])
        if len(cards) == 4:
            gone |= rules.mask_of(cards)
    held = 0
    for entry in reversed(out):
        held |= 1 << entry[0]
        entry[7] = held
    return [tuple(entry) for entry in out]  # type: ignore[misc]


# each card's place in the order a ducker leads and discards by (sim.RANK_ORDER)
RANK_KEY = tuple(RANK_ORDER.index(c) for c in range(52))
_BELOW_KEY = tuple(sum(1 << d for d in range(52) if RANK_KEY[d] < RANK_KEY[c]) for c in range(52))
_ABOVE_KEY = tuple(sum(1 << d for d in range(52) if RANK_KEY[d] > RANK_KEY[c]) for c in range(52))


def _between(lo: int, hi: int) -> int:
    """The cards strictly between ``lo`` and ``hi`` (same suit)."""
    return ((1 << hi) - 1) & ~((1 << (lo + 1)) - 1) if hi > lo + 1 else 0


def _ducker_reading(plays, me: int, fixed) -> tuple[tuple[int, int, int, int], int]:
    """What each other seat cannot hold if it plays like a careful ducker (the highest card
    that still loses, the queen then the highest heart when void, the lowest lead).

    A ducker that ducks with the 7 under the jack holds neither 8, 9 nor 10 of that suit, and
    one that throws a club while void holds no heart and not the queen. These readings are only
    guesses about the player: a seat whose later play (or a card we know it holds) contradicts
    them has shown it does not play that way, and its readings are dropped. Returns the
    readings and the seats whose own plays so contradicted them (a bit a seat).
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
    readings = tuple(
        out[seat] if trusted[seat] and not out[seat] & fixed[seat] else 0 for seat in range(4)
    )
    strayed = sum(1 << seat for seat in range(4) if seat != me and not trusted[seat])
    return readings, strayed  # type: ignore[return-value]


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

    def pack(self, core) -> None:
        """The sampler's cards in the containers of ``core`` (a form of ``game.players.sim``):
        its free cards are shuffled in place from draw to draw, as ``draw`` did with a list."""
        self.core = core
        seats = [[*seats, -1, -1, -1][:4] for _, seats in self.tied] or [[-1] * 4]
        self.packed = (
            core.buffer(self.free),
            len(self.free),
            core.buffer([c for c, _ in self.tied] or [0]),
            core.grid(len(seats), 4),
            core.buffer([len(seats) for _, seats in self.tied] or [0]),
            len(self.tied),
            core.buffer(self.cap),
            core.buffer(self.hands),
        )
        table = self.packed[3]
        for t, row in enumerate(seats):
            for j in range(4):
                table[t][j] = row[j]

    def draw_many(self, rng: SplitMix64, count: int, core) -> list[list[int]]:
        """``count`` deals, one per row, in ``core``'s containers; ``rng`` moves on as ``draw``
        would move it ``count`` times."""
        if getattr(self, "core", None) is not core:
            self.pack(core)
        out = core.grid(max(count, 1), 4)
        done = 0
        while done < count:
            state, done = core.draw_deals(out, done, count, core.seed(rng.state), *self.packed)
            rng.state = int(state)
            if done < count:  # a knot the greedy deal could not untie
                cards = [c for c, _ in self.tied] + [int(c) for c in self.packed[0]]
                deal = _matching(cards, self.eligible, self.cap, self.hands)
                for s in range(4):
                    out[done][s] = deal[s]
                done += 1
        return out

    def draw(self, rng: SplitMix64) -> list[int]:
        """One deal of the unknown cards; our own hand in our seat."""
        return [int(h) for h in self.draw_many(rng, 1, sim)[0]]


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
