"""The review of a finished hand, without the site: the record, the judgements, Pauline."""

import pytest

from game.engine import Game, card_name
from game.engine.handlog import HandRecord, kept_for_review, last_hand
from game.players import choose_pass, choose_play, view_of, weigh_pass, weigh_play
from game.web.hand_review import FINE_MARGIN, judge_play, pauline_in_seat, review
from tests.support import hints

NAMES = ("Ada", "Pauline", "Michele", "Ben")


def computers_hand(number: int, hand_number: int = 1) -> HandRecord:
    """A hand with the computer players' choice in every seat (the hint's, in seat 0)."""
    game = Game.at_hand(number, hand_number)
    if game.phase == "passing":
        choices = [choose_pass(game, seat) for seat in range(4)]
        for seat in range(4):
            game.pass_cards(seat, choices[seat])
    while game.phase == "playing":
        game.play(game.turn, choose_play(game, game.turn))
    record = HandRecord.of(game)
    assert record is not None
    return record


def spade_lead(queen_with: int = 1) -> Game:
    """Hand 4 (nobody passes): Ben took the first trick with the ace of clubs and leads the six
    of spades; you hold the king and the two of spades, and the queen is still out (Pauline,
    after you, holds it with two low spades: a careful ducker drops it under a king)."""
    hands = {
        0: "7C8C9CTC2D3D4D5D6D7D2SKS",
        1: "8D9DTDJD3S4SQS2H3H4H5H6H",
        2: "QDKDAD5S7S8S7H8H9HTHJHQH",
        3: "4C6CJCQCKC9STSJSASKHAH",
    }
    if queen_with == 2:  # the queen with Michele instead, the five of spades with Pauline
        hands[1] = hands[1].replace("QS", "5S")
        hands[2] = hands[2].replace("5S", "QS")
    return Game.from_dict(
        {
            "v": 1,
            "n": 1,
            "m": 0,
            "k": 4,
            "p": "playing",
            "h": [hands[seat] for seat in range(4)],
            "x": ["", "", "", ""],
            "r": ["", "", "", ""],
            "t": "12C3CAC5C36S",
            "s": [[20, 6, 0, 0], [0, 0, 13, 13], [5, 5, 8, 8]],
        }
    )


def test_dropping_the_king_of_spades_under_a_spade_lead_with_the_queen_out_is_costly():
    game = spade_lead()
    assert game.turn == 0 and set(game.legal_plays(0)) == {"2S", "KS"}
    judged, _ = judge_play(view_of(game, 0), "KS")
    assert judged.verdict == "costly"
    assert judged.cost > FINE_MARGIN
    assert judged.hint == ("2S",)
    assert judged.sentence.startswith(
        "You played the king of spades on a spade lead with the queen still out: expected +"
    )
    assert judged.sentence.endswith("points. The hint: the two of spades.")


def test_a_play_is_judged_by_what_the_seat_knew_never_by_where_the_hidden_cards_were():
    with_pauline, with_michele = spade_lead(1), spade_lead(2)
    assert with_pauline.hand(1) != with_michele.hand(1)
    assert view_of(with_pauline, 0) == view_of(with_michele, 0)
    assert judge_play(view_of(with_pauline, 0), "KS") == judge_play(view_of(with_michele, 0), "KS")


def test_the_low_spade_the_hint_plays_there_is_fine():
    game = spade_lead()
    hint = choose_play(game.copy(), 0)
    assert hint == "2S"
    judged, _ = judge_play(view_of(game, 0), hint)
    assert judged.verdict == "fine"
    assert judged.cost == 0
    assert judged.sentence == "You played the two of spades: fine, the hint plays it too."


def test_every_play_and_pass_of_the_hint_in_a_whole_hand_is_judged_fine():
    found = review(computers_hand(617), 0, NAMES)
    verdicts = {judgement.verdict for judgement in found.judgements}
    assert "fine" in verdicts and verdicts <= {"fine", "forced", "settled"}
    assert found.pass_judgement is not None and found.pass_judgement.verdict == "fine"
    assert found.costliest is None


def test_a_random_pass_and_random_plays_find_costly_ones_and_the_costliest_is_marked():
    game = Game.at_hand(42, 2)
    choices = [choose_pass(game, seat) for seat in range(4)]
    choices[0] = game.hand(0)[:3]  # the three lowest clubs and diamonds: rarely the hint's
    for seat in range(4):
        game.pass_cards(seat, choices[seat])
    while game.phase == "playing":
        seat = game.turn
        legal = game.legal_plays(seat)
        game.play(seat, legal[-1] if seat == 0 else choose_play(game, seat))
    found = review(HandRecord.of(game), 0, NAMES)
    costly = found.costly
    assert costly, "playing the highest card every time costs something"
    assert all(j.cost > FINE_MARGIN and "expected +" in j.sentence for j in costly)
    marked = [j for j in found.judgements if j.costliest]
    assert marked == [found.costliest]
    assert found.costliest.cost == max(j.cost for j in costly)

    # the costliest quotes the hint as the status bar would have said it at that moment
    top = found.costliest
    moments = {}

    def look(now: Game, seat, code) -> None:
        if (seat is None and top.trick == 0) or (seat == 0 and now.tricks_played + 1 == top.trick):
            moments[top.trick] = now.copy()

    HandRecord.of(game).replay(look)
    then = moments[top.trick]
    quoted = top.sentence.split(" The hint at that moment: ", 1)[1]
    if top.trick == 0:
        hints.check_pass(f"Hint: {quoted}", then, 0, weigh_pass(then, 0), part=True)
    else:
        names = ["You", *NAMES[1:]]
        hints.check_play(f"Hint: {quoted}", then, 0, weigh_play(then, 0), names, part=True)


def test_a_review_is_the_same_each_time():
    record = computers_hand(99, 3)
    assert review(record, 2, NAMES) == review(HandRecord.from_dict(record.to_dict()), 2, NAMES)
    assert pauline_in_seat(record, 1) == pauline_in_seat(record, 1)


def test_each_seat_hears_of_its_own_pass_only():
    record = computers_hand(617)
    passes = record.passes()
    every_card = {card_name(code) for seat in range(4) for code in passes[seat]}
    for seat in range(4):
        found = review(record, seat, NAMES)
        giver = (seat - 1) % 4  # hand 1 passes to the left
        assert found.passed == tuple(passes[seat])
        assert found.received == tuple(passes[giver])
        assert found.pass_to == (seat + 1) % 4 and found.pass_from == giver
        mine = {card_name(code) for code in (*passes[seat], *passes[giver])}
        said = {name for name in every_card if name in found.pass_sentence}
        assert said == mine
        assert found.pass_judgement is not None
        assert set(found.pass_judgement.played) == set(passes[seat])


def test_pauline_in_your_seat_plays_the_hand_as_the_computers_did():
    record = computers_hand(617)
    game = record.replay()
    scores = game.history[-1]
    found = review(record, 0, NAMES)
    assert pauline_in_seat(record, 0)[0] == scores[0] == found.took == found.pauline_took


def test_a_record_is_kept_until_the_next_hand_ends():
    game = Game.at_hand(617, 1)
    assert kept_for_review(game, None) is None
    record = computers_hand(617)
    finished = record.replay()
    kept = kept_for_review(finished, None)
    assert kept == record.to_dict()
    assert last_hand(finished, None) == record
    finished.next_hand()
    assert HandRecord.of(finished) is None
    assert last_hand(finished, kept) == record
    assert kept_for_review(finished, kept) == kept


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(t=d["t"][:-2] + "2C"),  # a card played twice
        lambda d: d.update(t=d["t"][9:] + d["t"][:9]),  # tricks out of order
        lambda d: d.update(k=0),
        lambda d: d.update(n="x"),
        lambda d: d.update(z="ab"),
        lambda d: d.pop("t"),
    ],
)
def test_a_record_that_is_not_a_hand_is_refused(change):
    data = computers_hand(617).to_dict()
    change(data)
    with pytest.raises(ValueError):
        HandRecord.from_dict(data)
    assert last_hand(None, data) is None


@pytest.mark.parametrize("number", [617, 500, 501])
def test_a_forced_card_is_the_only_card_you_could_play_and_said_so_only_then(number):
    """Issue 50: "the only card worth playing" said of a card that was the only one legal."""
    record = computers_hand(number)
    legal = {}

    def look(game: Game, seat, code) -> None:
        if seat == 0:
            legal[game.tricks_played + 1] = game.legal_plays(0)

    record.replay(look)
    found = review(record, 0, NAMES)
    forced = [j for j in found.judgements if j.verdict == "forced"]
    assert forced, "a hand has a forced card or one whose choices all come to the same"
    for judged in forced:
        name = card_name(judged.played[0])
        if len(legal[judged.trick]) == 1:
            assert judged.sentence == f"You played the {name}, the only card you could play."
        else:
            assert judged.sentence == (
                f"You played the {name}: every card you could play came to the same."
            )
