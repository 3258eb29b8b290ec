"""The computer players: legal, deterministic, honest, and awake to a moon."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from game.engine import Card, Game, SplitMix64
from game.players import choose_pass, choose_play, view_of
from tests.support import REPO
from tests.support.engine import idx, random_position


def mask(codes) -> int:
    """Card codes as the players' bitmask."""
    return sum(1 << Card.parse(code).index for code in codes)


def test_every_pass_is_three_different_cards_of_ones_own():
    for number in range(1, 41):
        game = Game.new(number)
        for seat in range(4):
            cards = choose_pass(game, seat)
            assert len(cards) == 3
            assert len(set(cards)) == 3
            assert set(cards) <= set(game.hand(seat))
        for seat in range(4):
            game.pass_cards(seat, choose_pass(game, seat))
        assert game.phase == "playing"


def test_every_play_is_legal_over_whole_hands_and_random_positions():
    for number in range(1, 4):
        game = Game.new(number)
        for seat in range(4):
            game.pass_cards(seat, choose_pass(game, seat))
        while game.phase == "playing":
            seat = game.turn
            card = choose_play(game, seat)
            assert card in game.legal_plays(seat)
            game.play(seat, card)
        assert game.phase == "hand_over"
    for number in range(100, 160):
        game = random_position(number, 5 + number % 60, 7)
        if game.phase == "playing":
            seat = game.turn
            assert choose_play(game, seat) in game.legal_plays(seat)


def test_play_refuses_a_seat_whose_turn_it_is_not():
    game = random_position(5, 10, 1)
    other = (game.turn + 1) % 4
    try:
        choose_play(game, other)
    except ValueError:
        pass
    else:
        raise AssertionError("choose_play answered for a seat out of turn")


def play_out(number: int, hands: int) -> list[str]:
    game = Game.new(number)
    moves: list[str] = []
    for _ in range(hands):
        if game.phase == "passing":
            for seat in range(4):
                cards = choose_pass(game, seat)
                moves.append("".join(cards))
                game.pass_cards(seat, cards)
        while game.phase == "playing":
            card = choose_play(game, game.turn)
            moves.append(card)
            game.play(game.turn, card)
        if game.phase == "hand_over":
            game.next_hand()
    return moves


def test_same_game_same_decisions():
    assert play_out(617, 2) == play_out(617, 2)


def test_decisions_do_not_depend_on_the_hash_seed_or_the_process():
    here = play_out(99, 1)
    code = (
        "import json; from tests.players.test_players import play_out; "
        "print(json.dumps(play_out(99, 1)))"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout) == here


def test_a_copy_of_the_game_gets_the_same_card():
    game = random_position(31, 30, 3)
    assert game.phase == "playing"
    again = Game.from_json(game.to_json())
    assert choose_play(again, again.turn) == choose_play(game, game.turn)


# ---- honesty -----------------------------------------------------------------------------------


def shown_voids(game: Game) -> list[set[str]]:
    """Suits each seat has shown it lacks, by not following the led suit."""
    voids: list[set[str]] = [set(), set(), set(), set()]
    tricks = [done.plays for done in game.completed_tricks] + [game.trick]
    for plays in tricks:
        if not plays:
            continue
        led = plays[0][1][1]
        for seat, code in plays[1:]:
            if code[1] != led:
                voids[seat].add(led)
    return voids


def redeal_hidden(game: Game, seat: int, seed: int) -> Game | None:
    """The same game with the cards ``seat`` cannot see shuffled among the other seats.

    Hand sizes, shown voids and the cards ``seat`` passed (still with the receiver) are kept,
    so the new game is one ``seat`` could be in. None if the shuffle found no such deal.
    """
    data = game.to_dict()
    others = [s for s in range(4) if s != seat]
    sizes = {s: len(game.hand(s)) for s in others}
    pinned: dict[str, int] = {}
    if game.phase == "playing" and game.pass_target(seat) is not None:
        target = game.pass_target(seat)
        for code in game.passed(seat):
            if code in game.hand(target):
                pinned[code] = target
    hidden = [code for s in others for code in game.hand(s) if code not in pinned]
    voids = shown_voids(game)
    rng = SplitMix64.for_key(seed, 0xAB)
    for _ in range(200):
        rng.shuffle(hidden)
        hands = {s: [c for c, t in pinned.items() if t == s] for s in others}
        ok = True
        for code in hidden:
            room = [s for s in others if len(hands[s]) < sizes[s] and code[1] not in voids[s]]
            if not room:
                ok = False
                break
            hands[rng.choice(room)].append(code)
        if ok:
            for s in others:
                data["h"][s] = "".join(sorted(hands[s], key=lambda c: Card.parse(c).index))
            return Game.from_dict(data)
    return None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    number=st.integers(min_value=1, max_value=1_000_000),
    steps=st.integers(min_value=0, max_value=60),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_a_decision_never_changes_when_the_unseen_cards_are_dealt_differently(number, steps, seed):
    game = random_position(number, steps, seed)
    assume(game.phase in ("passing", "playing"))  # a finished hand has no decision to compare
    if game.phase == "passing":
        seat = seed % 4
        other = redeal_hidden(game, seat, seed)
        assert other is not None
        assert view_of(other, seat) == view_of(game, seat)
        assert choose_pass(other, seat) == choose_pass(game, seat)
    else:
        seat = game.turn
        other = redeal_hidden(game, seat, seed)
        assume(other is not None)  # no other deal fits what this seat has seen
        assert view_of(other, seat) == view_of(game, seat)
        assert choose_play(other, seat) == choose_play(game, seat)


def test_the_view_holds_only_cards_the_seat_has_seen():
    game = random_position(12, 20, 5)
    seat = game.turn
    view = view_of(game, seat)
    played = {c for _, cards in view.tricks for c in cards} | set(view.trick)
    own = {Card.parse(code).index for code in game.hand(seat)}
    assert set(view.hand) == own
    assert set(view.passed) | set(view.received) <= own | played | set(view.passed)
    assert set(view.__slots__) == {
        "seat", "number", "hand_number", "pass_direction", "pass_target", "moon_off_shooter",
        "phase", "hand", "passed", "received", "tricks", "trick_leader", "trick", "totals",
    }  # fmt: skip


# ---- the moon ----------------------------------------------------------------------------------


def moon_position() -> Game:
    """Ben has taken the queen and nine hearts; he leads the five of hearts with two tricks left.

    Michele holds the three and six of hearts. Ducking with the three lets Ben take this trick,
    and the six must then fall on his last lead: 26 points to everyone else. Taking with the six
    costs her a few points and stops the moon.
    """
    hands = [
        "2C4H7H8HQS2S3S4S5D6D7D2H2D",
        "3C9HTHJH5S6S7S8S8D9DTD3D4D",
        "4CQHKHAH9STSJSKSJDQDKD3H6H",
        "ACKCQCJCTC9C8C7C6C5CAD5HAS",
    ]
    game = Game.from_dict(
        {
            "v": 1,
            "n": 4242,
            "m": 0,
            "k": 4,
            "p": "playing",
            "h": hands,
            "x": ["", "", "", ""],
            "r": ["", "", "", ""],
            "t": "0",
            "s": [[3, 5, 9, 9], [0, 13, 6, 7], [4, 4, 4, 14]],
        }
    )
    for card in ("2C", "3C", "4C", "AC"):
        game.play(game.turn, card)
    discards = [
        ["4H", "7H", "8H", "QS", "2S", "3S", "4S", "5D", "6D"],
        ["9H", "TH", "JH", "5S", "6S", "7S", "8S", "8D", "9D"],
        ["QH", "KH", "AH", "9S", "TS", "JS", "KS", "JD", "QD"],
    ]
    for i, lead in enumerate(["KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C", "5C"]):
        game.play(3, lead)
        for seat in range(3):
            game.play(seat, discards[seat][i])
    for seat, card in ((3, "AD"), (0, "7D"), (1, "TD"), (2, "KD")):
        game.play(seat, card)
    for seat, card in ((3, "5H"), (0, "2H"), (1, "3D")):
        game.play(seat, card)
    return game


def test_a_seat_takes_a_heart_to_stop_a_moon_it_sees_coming():
    game = moon_position()
    assert game.hand_points() == (0, 0, 0, 22)
    assert game.turn == 2
    assert sorted(game.legal_plays(2)) == ["3H", "6H"]
    assert choose_play(game, 2) == "6H"
    game.play(2, "6H")
    while game.phase == "playing":
        game.play(game.turn, choose_play(game, game.turn))
    assert game.moon_shooter is None
    assert game.history[-1] == (0, 0, 4, 22)


# ---- the playout model -------------------------------------------------------------------------


def test_playouts_model_the_others_as_careful_duckers():
    from game.players.sim import HEART_MASK, duck_pick, table_state
    from tools.bench import ducker_pass, ducker_play

    # the playout's ducker is the benchmark's ducker, card for card
    for number in range(1, 11):
        game = Game.new(number)
        for seat in range(4):
            game.pass_cards(seat, ducker_pass(game, seat))
        while game.phase == "playing":
            seat = game.turn
            gone = mask(code for done in game.completed_tricks for _, code in done.plays)
            trick = [Card.parse(code).index for _, code in game.trick]
            first = game.tricks_played == 0
            broken = bool(gone & HEART_MASK)
            win = table_state(trick)[0]
            card = duck_pick(mask(game.hand(seat)), len(trick), win, first, broken)
            expected = ducker_play(game, seat)
            assert card == Card.parse(expected).index
            game.play(seat, expected)


# ---- reading the other seats -------------------------------------------------------------------


def test_reading_a_ducker_never_rules_out_a_card_it_holds():
    from game.players.deals import knowledge_of
    from tools.bench import ducker_pass, ducker_play

    ruled_out = 0
    for number in range(1, 9):
        game = Game.new(number)
        for seat in range(4):
            game.pass_cards(seat, ducker_pass(game, seat))
        while game.phase == "playing":
            for observer in range(4):
                know = knowledge_of(view_of(game, observer))
                for seat in range(4):
                    held = mask(game.hand(seat))
                    assert know.inferred[seat] & held == 0
                    ruled_out += (know.inferred[seat] & know.unknown).bit_count()
                assert know.strayed == 0  # a ducker is never read as having strayed
            game.play(game.turn, ducker_play(game, game.turn))
    assert ruled_out > 10_000  # the readings say a lot, not nothing


def test_a_ducker_under_the_jack_holds_nothing_between_and_a_seat_that_breaks_form_is_not_read():
    from game.players.deals import _ducker_reading

    trick_one = (0, tuple(idx(c) for c in ("2C", "JC", "7C", "3C")))
    reading, strayed = _ducker_reading([trick_one], 0, (0, 0, 0, 0))
    assert strayed == 0
    between = {idx(c) for c in ("8C", "9C", "TC")}
    assert {c for c in range(52) if reading[2] >> c & 1} == between
    # seat 3 played the 3 under the jack: it holds nothing from the 4 to the 10
    assert {c for c in range(52) if reading[3] >> c & 1} == {
        idx(c) for c in ["4C", "5C", "6C", "7C", "8C", "9C", "TC"]
    }
    assert reading[0] == 0  # never a reading of ourselves
    # seat 2 later plays the 9 of clubs it "could not hold": it is no ducker, so no reading
    trick_two = (1, tuple(idx(c) for c in ("4D", "9C", "5D", "6D")))
    reading, strayed = _ducker_reading([trick_one, trick_two], 0, (0, 0, 0, 0))
    assert reading[2] == 0
    assert reading[3] != 0
    assert strayed == 1 << 2  # and it is said to have strayed, seat 3 not


def king_second_to_the_two() -> tuple[Game, int, int, int]:
    """Game 1, each seat passing its first three cards: the second to play holds the 5, 7 and
    king of clubs, the third the 4, 9 and queen; the two led, the king played second (a ducker
    plays it only if it holds no lower club), the queen third (the ducker's own card: the
    highest that still loses). The game and the second, third and fourth seats."""
    game = Game.new(1)
    for seat in range(4):
        game.pass_cards(seat, game.hand(seat)[:3])
    leader = game.turn
    second, third, fourth = (leader + 1) % 4, (leader + 2) % 4, (leader + 3) % 4
    assert [c for c in game.hand(second) if c.endswith("C")] == ["5C", "7C", "KC"]
    assert [c for c in game.hand(third) if c.endswith("C")] == ["4C", "9C", "QC"]
    for card in ("2C", "KC", "QC"):
        game.play(game.turn, card)
    return game, second, third, fourth


def test_the_ducker_explains_a_duck_under_the_king_and_not_a_king_second_to_the_two():
    from game.players.deals import ducker_likelihood, knowledge_of

    game, second, third, observer = king_second_to_the_two()
    know = knowledge_of(view_of(game, observer))
    high, duck = ducker_likelihood(know, second), ducker_likelihood(know, third)
    assert high < 0.25 and duck == 1.0, (high, duck)
    assert ducker_likelihood(know, observer) == 1.0  # nothing read of ourselves
    assert know.strayed == 0  # nothing contradicts either reading yet


def test_the_playouts_give_a_seat_read_as_strayed_its_own_chance(monkeypatch):
    from game.players import brain, sim
    from game.players.deals import knowledge_of

    # the second seat's king of clubs second to the two, which the careful ducker explains
    # badly, though no later card of its own contradicts it yet
    game, second, _, observer = king_second_to_the_two()
    game.play(observer, game.legal_plays(observer)[0])
    know = knowledge_of(view_of(game, observer))
    assert know.strayed == 0
    monkeypatch.setattr(brain, "STRAY_NOISE", 0)
    assert brain.defence_of(know) == brain.DEFEND  # off: the common chance for every seat
    monkeypatch.setattr(brain, "STRAY_NOISE", 102)
    monkeypatch.setattr(brain, "STRAY_LIKELY", 0.25)  # the king explains badly
    defend = brain.defence_of(know)
    assert defend >> sim.STRAY_SEATS & 15 == 1 << second
    assert defend >> sim.STRAY_SHIFT & 255 == 102
    assert defend & 0xFF0000FF == brain.DEFEND & 0xFF0000FF  # the rest as DEFEND says
    monkeypatch.setattr(brain, "STRAY_LIKELY", 0.0)
    assert brain.defence_of(know) >> sim.STRAY_SEATS & 15 == 0


# ---- defending against a moon (issue 38) -------------------------------------------------------


def test_a_guard_beats_the_threat_cheaply_splits_the_points_and_keeps_its_top_heart():
    from game.players.sim import pick

    def card(hand, n, win, tpts, winner, threat=3, guard=True):
        args = (mask(hand), n, Card.parse(win).index, tpts, False, True, 0, False, threat, winner)
        return Card(pick(*args, 0, guard)).code

    # the threat (seat 3) wins the trick with the 9: the guard beats it with its ten, not its ace
    assert card(["TH", "AH", "2C"], 1, "9H", 1, 3) == "TH"
    assert card(["TH", "AH", "2C"], 1, "9H", 1, 3, guard=False) == "AH"
    # last to a trick seat 1 takes, void: a point card, so no one can have all 26
    assert card(["5H", "2D"], 3, "KC", 0, 1) == "5H"
    # throwing hearts with a threat about, the ace stays in hand to stop it later
    assert card(["AH", "JH", "4H", "2D"], 1, "KC", 0, 1) == "JH"
    assert card(["AH", "JH", "4H", "2D"], 1, "KC", 0, 1, guard=False) == "AH"


def test_the_safety_net_beats_a_lone_taker_of_eight_points_or_splits_them():
    from game.players import brain
    from game.players.deals import knowledge_of

    game = moon_position()  # seat 3 holds all 22 points; seat 2 to play, after 5H and 2H
    know = knowledge_of(view_of(game, 2))
    trick = [Card.parse(code).index for _, code in game.trick]
    six, three = Card.parse("6H").index, Card.parse("3H").index
    # seat 3 led the 5H and wins it so far: the cheapest card over it is the net's
    assert brain.safety_card(know, trick, 3, [three, six]) == six
    # a trick another seat takes, ours last: a point card, the queen first
    assert brain.safety_card(know, trick, 1, [three, six]) == six
    assert brain.safety_card(know, trick[:2], 1, [three, six]) == -1  # not last, not its trick


def test_keep_stopper_holds_back_the_top_heart_from_the_pass(monkeypatch):
    from game.players import brain
    from game.players.brain import rule_pass

    game = Game.from_dict(
        {
            "v": 1, "n": 5, "m": 0, "k": 1, "p": "passing",
            "h": [
                "AH9H5H2HKC9C4C3CJD8D5D2D7S", "KHQH4H3HQCTC5C2CKDTD6D3D8S",
                "JHTH7H6HJC8C7C6CQD9D7D4DAD", "8HAC2SAS3SKS4SQS5S6S9SJSTS",
            ],  # fmt: skip
            "x": ["", "", "", ""], "r": ["", "", "", ""], "t": "", "s": [],
        }
    )  # fmt: skip
    ace = Card.parse("AH").index
    assert ace in rule_pass(view_of(game, 0))  # off: the ace of hearts is among the first to go
    monkeypatch.setattr(brain, "KEEP_STOPPER", 10)
    kept = rule_pass(view_of(game, 0))
    assert ace not in kept and len(kept) == 3
