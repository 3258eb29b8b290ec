"""Property tests over whole random games: invariants checked at every step.

Moves come from a ``random.Random`` seeded by hypothesis, so a failure shrinks to a game
number, a seed and a way of playing, and replays exactly. Every legal move is checked
against a second, independent statement of the rules (``reference_legal``).
"""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.engine import Game, IllegalMove
from game.engine.game import HISTORY_ROWS
from tests.support.engine import ALL_CARDS, RANKS, winner_of

STABLE = settings(
    derandomize=True,  # the same examples on every run and every machine
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
COOKIE_BUDGET = 1500


def points(code: str) -> int:
    return 1 if code[1] == "H" else 13 if code == "QS" else 0


def reference_legal(game: Game, seat: int) -> list[str]:
    """The rules again, from the product page, without the engine's helpers."""
    hand = game.hand(seat)
    first_trick = not game.completed_tricks
    on_table = [code for _, code in game.trick]
    if not on_table:
        if first_trick:
            return ["2C"]
        broken = any(code[1] == "H" for t in game.completed_tricks for _, code in t.plays)
        non_hearts = [c for c in hand if c[1] != "H"]
        return hand if broken or not non_hearts else non_hearts
    follow = [c for c in hand if c[1] == on_table[0][1]]
    if follow:
        return follow
    if first_trick:
        return [c for c in hand if not points(c)] or hand
    return hand


# ---- ways of playing ---------------------------------------------------------------------------


def pick_random(game: Game, seat: int, legal: list[str], rng: random.Random) -> str:
    return rng.choice(legal)


def pick_spread(game: Game, seat: int, legal: list[str], rng: random.Random) -> str:
    """Keep the game long: the seat with the most points ducks and sheds points, the seat
    with the fewest tries to win tricks; the others play at random."""
    totals = game.totals
    rank = [RANKS.index(c[0]) for c in legal]
    if totals[seat] == max(totals) and totals[seat] != min(totals):
        if game.trick and legal[0][1] != game.trick[0][1][1]:  # discarding
            return max(legal, key=lambda c: (points(c), RANKS.index(c[0])))
        return legal[rank.index(min(rank))]
    if totals[seat] == min(totals):
        return legal[rank.index(max(rank))]
    return rng.choice(legal)


def pick_moon(game: Game, seat: int, legal: list[str], rng: random.Random) -> str:
    """Feed one seat (the hand number's) everything: it plays high, the others play low and
    throw their points away when they cannot follow."""
    shooter = game.hand_number % 4
    rank = [RANKS.index(c[0]) for c in legal]
    if seat == shooter:
        return legal[rank.index(max(rank))]
    if game.trick and legal[0][1] != game.trick[0][1][1]:
        return max(legal, key=lambda c: (points(c), RANKS.index(c[0])))
    return legal[rank.index(min(rank))]


WAYS = {"random": pick_random, "spread": pick_spread, "moon": pick_moon}


# ---- the checks made at every step --------------------------------------------------------------


class Watch:
    """Checks the invariants of a game at every step and keeps the largest to_json seen."""

    def __init__(self, game: Game, rng: random.Random, full: bool = True) -> None:
        self.game = game
        self.rng = rng
        self.full = full  # False: only the size and the end-of-hand checks
        self.largest = 0

    def step(self) -> None:
        g = self.game
        text = g.to_json()
        self.largest = max(self.largest, len(text.encode()))
        assert len(text.encode()) <= COOKIE_BUDGET
        if not self.full:
            return
        assert Game.from_json(text).to_json() == text  # the round trip, at every step

        held = [c for seat in range(4) for c in g.hand(seat)]
        on_table = [c for t in g.completed_tricks for _, c in t.plays] + [c for _, c in g.trick]
        assert sorted(held + on_table, key=ALL_CARDS.index) == ALL_CARDS, "52 distinct cards"
        assert g.totals == tuple(sum(h[s] for h in g.history) for s in range(4))
        assert len(g.history) == g.hand_number - (g.phase in ("passing", "playing"))

        if g.phase == "playing":
            turn = g.turn
            assert turn == (g.trick[0][0] + len(g.trick)) % 4 if g.trick else turn is not None
            for seat in range(4):
                legal = g.legal_plays(seat)
                if seat == turn:
                    assert legal == reference_legal(g, seat)
                    assert legal, "the seat to play always has a legal card"
                else:
                    assert legal == []
            self.refusals(turn)
        else:
            assert g.turn is None
            assert all(g.legal_plays(seat) == [] for seat in range(4))

    def refusals(self, turn: int) -> None:
        """A random refused play: wrong seat, a card not held, or a card the rules forbid."""
        g = self.game
        before = g.to_json()
        other = (turn + self.rng.randrange(1, 4)) % 4
        attempts = [(other, self.rng.choice(g.hand(other)))] if g.hand(other) else []
        legal = g.legal_plays(turn)
        hand = g.hand(turn)
        forbidden = [c for c in hand if c not in legal]
        not_held = [c for c in ALL_CARDS if c not in hand]
        attempts.append((turn, self.rng.choice(not_held)))
        if forbidden:
            attempts.append((turn, self.rng.choice(forbidden)))
        for seat, code in attempts:
            try:
                g.play(seat, code)
            except IllegalMove:
                pass
            else:  # pragma: no cover - only on a broken engine
                raise AssertionError(f"seat {seat} was allowed {code}")
        assert g.to_json() == before

    def end_of_hand(self, before_totals: tuple[int, ...]) -> None:
        g = self.game
        assert g.phase in ("hand_over", "game_over")
        assert len(g.completed_tricks) == 13
        assert all(g.hand(seat) == [] for seat in range(4))
        taken = [sum(points(c) for c in g.taken(seat)) for seat in range(4)]
        assert sum(taken) == 26
        assert sorted(c for s in range(4) for c in g.taken(s)) == sorted(ALL_CARDS)
        for t in g.completed_tricks:
            assert t.winner == winner_of(t.plays[0][0], [c for _, c in t.plays])
        assert Game.from_json(g.to_json()) == g
        last = g.history[-1]
        if 26 in taken:
            shooter = taken.index(26)
            assert g.moon_shooter == shooter
            if g.moon_off_shooter:
                assert last == tuple(-26 if s == shooter else 0 for s in range(4))
                assert sum(last) == -26
            else:
                assert last == tuple(0 if s == shooter else 26 for s in range(4))
                assert sum(last) == 78
        else:
            assert g.moon_shooter is None
            assert last == tuple(taken)
            assert sum(last) == 26
        assert g.totals == tuple(a + b for a, b in zip(before_totals, last, strict=True))
        if max(g.totals) >= 100:
            assert g.phase == "game_over"
            assert g.winners == tuple(s for s in range(4) if g.totals[s] == min(g.totals))
        else:
            assert g.phase == "hand_over"
            assert g.winners == ()


def play_game(game: Game, way, rng: random.Random, full: bool = True) -> Watch:
    watch = Watch(game, rng, full)
    while game.phase != "game_over":
        assert game.hand_number < 100, "a game this long is not what these ways of play make"
        watch.step()
        before_totals = game.totals
        if game.phase == "passing":
            assert game.pass_direction != "keep"
            for seat in rng.sample(range(4), 4):
                before = game.to_json()
                with pytest.raises(IllegalMove):
                    game.pass_cards(seat, game.hand(seat)[:2])
                assert game.to_json() == before
                chosen = rng.sample(game.hand(seat), 3)
                game.pass_cards(seat, chosen)
                assert sorted(game.passed(seat)) == sorted(chosen)
                watch.step()
            offset = {"left": 1, "right": 3, "across": 2}[game.pass_direction]
            for seat in range(4):
                assert game.received((seat + offset) % 4) == game.passed(seat)
        else:
            assert game.received(0) == []
        while game.phase == "playing":
            seat = game.turn
            game.play(seat, way(game, seat, game.legal_plays(seat), rng))
            watch.step()
        watch.end_of_hand(before_totals)
        if game.phase == "hand_over":
            game.next_hand()
    return watch


@settings(STABLE, max_examples=20)
@given(
    number=st.integers(1, 1_000_000),
    seed=st.integers(0, 2**32),
    way=st.sampled_from(sorted(WAYS)),
    variant=st.booleans(),
)
def test_random_complete_games_keep_every_invariant(number, seed, way, variant):
    game = Game.new(number, moon_off_shooter=variant)
    play_game(game, WAYS[way], random.Random(seed))
    if not variant:
        assert game.phase == "game_over"
        assert 4 <= game.hand_number <= 16


@settings(STABLE, max_examples=200)
@given(
    number=st.integers(1, 1_000_000),
    seed=st.integers(0, 2**32),
    data=st.data(),
)
def test_garbled_saved_games_are_refused_with_value_error_only(number, seed, data):
    """Cut, overwrite or splice a real saved game: from_json returns a game or ValueError."""
    game = Game.new(number)
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, 60)):
        if game.phase == "passing":
            for seat in range(4):
                game.pass_cards(seat, rng.sample(game.hand(seat), 3))
        elif game.phase == "playing":
            game.play(game.turn, rng.choice(game.legal_plays(game.turn)))
        else:
            break
    text = game.to_json()
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, len(text)))
    insert = data.draw(st.text(alphabet='0123456789CDSHQKJTA[]{},:"-.e ', max_size=12))
    garbled = text[:start] + insert + text[end:]
    try:
        loaded = Game.from_json(garbled)
    except ValueError:
        return
    assert Game.from_json(loaded.to_json()) == loaded  # what loads is a consistent game


def test_long_games_stay_within_the_cookie_budget():
    """Drive games toward many hands by spreading the points, and count the largest text."""
    hands = []
    largest = 0
    for number in range(1, 41):
        game = Game.new(number)
        watch = play_game(game, pick_spread, random.Random(number), full=False)
        hands.append(game.hand_number)
        largest = max(largest, watch.largest)
    assert max(hands) >= 12, hands  # the way of playing does make long games
    # a long game's text, measured in this test alone: well over a fresh game's, under budget
    assert len(Game.new(1).to_json()) * 2 < largest <= COOKIE_BUDGET


# ---- the largest saved games ---------------------------------------------------------------------

# Under the standard rule a game lasts at most 16 hands: each hand adds at least 26 to the sum of
# the totals, and after 15 hands that sum (at least 390) allows no moon and leaves everyone close
# to 100. No hand's score is wider than "[13,13,0,0]" then. So the largest text is a game that
# reaches hand 15 or 16 with such entries, the largest number, and the passes of hand 15 kept.
WIDE = [[13, 13, 0, 0], [0, 0, 13, 13]] * 7  # 14 hands, (91, 91, 91, 91)


def largest_game(hand_number: int, history: list[list[int]]) -> Game:
    from tests.support.engine import craft, suit

    hands = {0: suit("C"), 1: suit("D"), 2: suit("S"), 3: suit("H")}
    phase = "passing" if hand_number % 4 else "playing"
    game = craft(hands, k=hand_number, history=history, number=1_000_000, phase=phase)
    sizes = []
    if phase == "passing":
        for seat in range(4):
            game.pass_cards(seat, game.hand(seat)[-3:])
    while game.phase == "playing":
        game.play(game.turn, game.legal_plays(game.turn)[-1])
        sizes.append(len(game.to_json()))
    assert max(sizes) == len(game.to_json()), "the finished hand is the largest moment"
    return game


def test_the_largest_possible_standard_games_fit_the_cookie_budget():
    fifteen = largest_game(15, WIDE)
    sixteen = largest_game(16, [*WIDE, [8, 8, 8, 2]])
    assert fifteen.phase == sixteen.phase == "game_over"
    for game in (fifteen, sixteen):
        assert len(game.to_json()) <= 600  # 15/16 hands: well within 1,500


# With "26 off the shooter" a moon lowers the sum of the totals, so a game can go on as long as
# moons keep coming: eight hands in which each seat takes 13 twice and shoots once leave the
# totals where they were. Each hand adds about 12 bytes to the text.
BALANCED = [
    [13, 13, 0, 0], [-26, 0, 0, 0], [0, 13, 13, 0], [0, -26, 0, 0],
    [0, 0, 13, 13], [0, 0, -26, 0], [13, 0, 0, 13], [0, 0, 0, -26],
]  # fmt: skip


def variant_game(hand_number: int) -> Game:
    from tests.support.engine import craft, suit

    history = (BALANCED * (hand_number // 8 + 1))[: hand_number - 1]
    hands = {0: suit("C"), 1: suit("D"), 2: suit("S"), 3: suit("H")}
    game = craft(hands, k=hand_number, history=history, number=1_000_000, moon_off_shooter=True)
    while game.phase == "playing":
        game.play(game.turn, game.legal_plays(game.turn)[0])
    return game


def test_the_variant_fits_the_budget_for_eighty_hands_with_forty_moons():
    game = variant_game(80)  # a moon every other hand, far beyond what play produces
    assert game.phase == "hand_over"
    assert len(game.to_json()) <= COOKIE_BUDGET


def test_the_variant_fits_the_budget_for_any_length():
    """Past HISTORY_ROWS hands the oldest are carried in one row: totals stay exact."""
    game = variant_game(300)
    crafted = (BALANCED * (300 // 8 + 1))[:299] + [game.history[-1]]
    assert game.carried_hands == 300 - HISTORY_ROWS
    assert game.history == [tuple(row) for row in crafted[-HISTORY_ROWS:]]
    assert game.totals == tuple(sum(row[seat] for row in crafted) for seat in range(4))
    assert Game.from_json(game.to_json()) == game
    assert len(game.to_json()) <= COOKIE_BUDGET
