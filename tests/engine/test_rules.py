"""One test per rule and per edge case of the engine, on real and crafted positions."""

import pytest

from game.engine import CompletedTrick, Game, IllegalMove, card_name
from tests.support.engine import MIXED, SUITS, codes, craft, play_all, play_out_hand, refused, suit

# You hold the ace of clubs and twelve hearts; Pauline has the two of clubs and the ace of hearts.
ONLY_HEARTS = {
    0: "AC 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
    1: "2C 3C 4C 5C AH 2D 3D 4D 5D 6D 7D 8D 9D",
    2: "6C 7C 8C 9C TD JD QD KD AD 2S 3S 4S 5S",
    # 3: TC JC QC KC 6S 7S 8S 9S TS JS QS KS AS
}
# Pauline holds the queen of spades and twelve hearts and no club.
QUEEN_AND_HEARTS = {
    0: suit("C"),
    1: "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH",
    2: "AH 2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD",
    # 3: AD and the other twelve spades
}


# ---- a new game, its number and the card names ------------------------------------------------


def test_a_new_game_deals_thirteen_cards_each_and_waits_for_the_left_pass():
    g = Game.new(617)
    assert g.number == 617
    assert g.phase == "passing"
    assert g.hand_number == 1
    assert g.pass_direction == "left"
    assert all(len(g.hand(seat)) == 13 for seat in range(4))
    assert len({c for seat in range(4) for c in g.hand(seat)}) == 52
    assert g.turn is None
    assert g.trick == ()
    assert g.last_trick is None
    assert g.completed_tricks == ()
    assert g.history == []
    assert g.totals == (0, 0, 0, 0)
    assert g.winners == ()
    assert not g.hearts_broken
    assert g.moon_shooter is None
    assert all(g.received(seat) == [] and g.passed(seat) == [] for seat in range(4))
    assert all(g.legal_plays(seat) == [] for seat in range(4))
    assert not g.moon_off_shooter
    assert Game.new(617, moon_off_shooter=True).moon_off_shooter


def test_hands_are_sorted_clubs_diamonds_spades_hearts_low_to_high():
    assert Game.new(617).hand(0) == codes("2C 3C 9C JC KC 5D 6D AD 2S 6S 4H 9H KH")


@pytest.mark.parametrize("number", [1, 617, 1_000_000, "617", " #617 ", "1,000,000"])
def test_game_numbers_from_one_to_a_million_are_accepted(number):
    assert 1 <= Game.new(number).number <= 1_000_000
    if number == "617":
        assert Game.new(number) == Game.new(617)


@pytest.mark.parametrize(
    "number", [0, -1, 1_000_001, 10**20, "", "abc", "6l7", None, 1.5, "617.0", True, [617]]
)
def test_a_game_number_out_of_range_or_not_a_number_is_refused(number):
    with pytest.raises(IllegalMove, match=r"^Choose a game number from 1 to 1,000,000\.$"):
        Game.new(number)


def test_illegal_move_is_a_value_error_whose_text_is_the_sentence():
    assert issubclass(IllegalMove, ValueError)
    with pytest.raises(ValueError) as caught:
        Game.new(0)
    assert str(caught.value) == "Choose a game number from 1 to 1,000,000."


@pytest.mark.parametrize(
    ("code", "name"),
    [
        ("QS", "queen of spades"),
        ("2C", "two of clubs"),
        ("TH", "ten of hearts"),
        ("AD", "ace of diamonds"),
        ("JC", "jack of clubs"),
        ("KS", "king of spades"),
        ("9H", "nine of hearts"),
    ],
)
def test_card_names(code, name):
    assert card_name(code) == name


@pytest.mark.parametrize("code", ["", "1S", "QX", "QSS", "ZZ", None, 12])
def test_card_name_of_something_that_is_not_a_card_is_refused(code):
    with pytest.raises(IllegalMove, match="not a card"):
        card_name(code)


# ---- passing --------------------------------------------------------------------------------


def game_at_hand(hand_number: int, number: int = 617) -> Game:
    g = Game.new(number)
    while g.hand_number < hand_number:
        play_out_hand(g)
        g.next_hand()
    return g


@pytest.mark.parametrize(
    ("hand_number", "direction", "offset"),
    [(1, "left", 1), (2, "right", 3), (3, "across", 2), (5, "left", 1), (6, "right", 3)],
)
def test_passing_goes_left_right_across_by_hand_and_the_receiver_remembers(
    hand_number, direction, offset
):
    g = game_at_hand(hand_number)
    assert g.phase == "passing"
    assert g.pass_direction == direction
    before = [g.hand(seat) for seat in range(4)]
    chosen = [before[seat][-3:] for seat in range(4)]
    for seat in range(3):
        g.pass_cards(seat, chosen[seat])
        assert g.passed(seat) == chosen[seat]
        assert g.phase == "passing", "the exchange waits for all four"
        assert g.hand(seat) == before[seat], "a chosen card stays in the hand until the exchange"
    g.pass_cards(3, list(reversed(chosen[3])))
    assert g.phase == "playing"
    for seat in range(4):
        giver = (seat - offset) % 4
        assert g.received(seat) == chosen[giver]
        expected = set(before[seat]) - set(chosen[seat]) | set(chosen[giver])
        assert set(g.hand(seat)) == expected
        assert len(g.hand(seat)) == 13
    holder = next(seat for seat in range(4) if "2C" in g.hand(seat))
    assert g.turn == holder
    received = [g.received(seat) for seat in range(4)]
    play_all(g, "2C", *g.legal_plays((holder + 1) % 4)[:1])
    assert [g.received(seat) for seat in range(4)] == received, "remembered during the hand"


@pytest.mark.parametrize("hand_number", [4, 8])
def test_every_fourth_hand_is_kept_and_starts_in_play(hand_number):
    g = game_at_hand(hand_number)
    assert g.pass_direction == "keep"
    assert g.phase == "playing"
    assert all(g.received(seat) == [] for seat in range(4))
    assert g.turn == next(seat for seat in range(4) if "2C" in g.hand(seat))
    refused(g, "No cards are passed on this hand.", g.pass_cards, 0, g.hand(0)[:3])


def test_the_next_hand_forgets_what_was_passed_and_received():
    g = Game.new(617)
    play_out_hand(g)
    assert g.received(1) != []
    g.next_hand()
    assert g.hand_number == 2
    assert g.pass_direction == "right"
    assert all(g.received(seat) == [] and g.passed(seat) == [] for seat in range(4))
    assert all(len(g.hand(seat)) == 13 for seat in range(4))


def test_pass_refusals_change_nothing():
    g = Game.new(617)
    hand = g.hand(0)  # 2C 3C 9C JC KC 5D 6D AD 2S 6S 4H 9H KH
    refused(g, "Select three cards to pass.", g.pass_cards, 0, hand[:2])
    refused(g, "Select three cards to pass.", g.pass_cards, 0, hand[:4])
    refused(g, "Select three cards to pass.", g.pass_cards, 0, [])
    refused(g, "Select three cards to pass.", g.pass_cards, 0, "2C3C9C")
    refused(g, "Select three cards to pass.", g.pass_cards, 0, None)
    refused(g, "Select three cards to pass.", g.pass_cards, 0, set(hand[:3]))
    refused(g, "Select three different cards to pass.", g.pass_cards, 0, ["2C", "2C", "3C"])
    refused(g, "Select three different cards to pass.", g.pass_cards, 0, ["KH", "kh", "2C"])
    refused(g, "You do not have the queen of spades.", g.pass_cards, 0, ["2C", "3C", "QS"])
    refused(g, "'XY' is not a card.", g.pass_cards, 0, ["2C", "3C", "XY"])
    refused(g, "There is no such player.", g.pass_cards, 4, hand[:3])
    refused(g, "There is no such player.", g.pass_cards, -1, hand[:3])
    refused(g, "There is no such player.", g.pass_cards, True, hand[:3])
    refused(g, "There is no such player.", g.pass_cards, "0", hand[:3])
    g.pass_cards(0, ("2C", "3C", "KH"))
    refused(g, "You have already passed your cards.", g.pass_cards, 0, ["9C", "JC", "KC"])
    refused(g, "You have already passed your cards.", g.pass_cards, 0, ["2C", "3C", "KH"])
    assert g.passed(0) == ["2C", "3C", "KH"]


def test_passing_is_refused_once_play_has_started_and_after_the_hand():
    g = Game.new(617)
    for seat in range(4):
        g.pass_cards(seat, g.hand(seat)[:3])
    refused(g, "Cards are not being passed now.", g.pass_cards, 0, g.hand(0)[:3])
    while g.phase == "playing":
        g.play(g.turn, g.legal_plays(g.turn)[0])
    assert g.phase == "hand_over"
    refused(g, "Cards are not being passed now.", g.pass_cards, 0, g.hand(0)[:3])


def test_no_card_can_be_played_while_passing():
    g = Game.new(617)
    holder = next(seat for seat in range(4) if "2C" in g.hand(seat))
    refused(g, "Pass three cards first.", g.play, holder, "2C")
    g.pass_cards(0, g.hand(0)[:3])
    refused(g, "Pass three cards first.", g.play, 0, g.hand(0)[0])


# ---- leading and following -----------------------------------------------------------------


def test_the_holder_of_the_two_of_clubs_must_lead_it():
    g = craft(MIXED)
    assert g.turn == 0
    assert g.legal_plays(0) == ["2C"]
    assert all(g.legal_plays(seat) == [] for seat in (1, 2, 3))
    refused(g, "You must lead the two of clubs.", g.play, 0, "AC")
    refused(g, "You must lead the two of clubs.", g.play, 0, "2H")
    g.play(0, "2C")
    assert g.trick == ((0, "2C"),)
    assert g.turn == 1


def test_the_two_of_clubs_holder_leads_whoever_it_is():
    g = craft(ONLY_HEARTS)
    assert g.turn == 1
    assert g.legal_plays(1) == ["2C"]


def test_not_your_turn_names_the_player_awaited():
    g = craft(MIXED)
    refused(g, "It is not your turn. Waiting for You.", g.play, 1, "3C")
    g.play(0, "2C")
    refused(g, "It is not your turn. Waiting for Pauline.", g.play, 0, "6C")
    refused(g, "It is not your turn. Waiting for Pauline.", g.play, 2, "4C")
    g.play(1, "3C")
    refused(g, "It is not your turn. Waiting for Michele.", g.play, 3, "5C")
    g.play(2, "4C")
    refused(g, "It is not your turn. Waiting for Ben.", g.play, 2, "8C")
    refused(g, "There is no such player.", g.play, 4, "5C")


def test_a_card_you_do_not_hold_is_refused():
    g = craft(MIXED)
    refused(g, "You do not have the three of clubs.", g.play, 0, "3C")
    refused(g, "You do not have the queen of spades.", g.play, 0, "QS")
    refused(g, "'1C' is not a card.", g.play, 0, "1C")
    refused(g, "That is not a card.", g.play, 0, None)
    g.play(0, "2C")
    refused(g, "You do not have the two of clubs.", g.play, 1, "2C")


def test_a_card_may_be_written_in_lower_case_or_with_ten_as_10():
    g = craft(SUITS)
    g.play(0, "2c")
    g.play(1, "10D")
    assert g.trick == ((0, "2C"), (1, "TD"))


def test_you_must_follow_clubs():
    g = craft(MIXED)
    g.play(0, "2C")
    assert g.legal_plays(1) == ["3C", "7C", "JC"]
    refused(g, "You must follow suit. Play a club.", g.play, 1, "3D")
    refused(g, "You must follow suit. Play a club.", g.play, 1, "AD")


def test_you_must_follow_diamonds_and_spades():
    g = craft(MIXED)
    play_all(g, "2C", "3C", "QC", "5C")  # Michele's queen takes it
    assert g.turn == 2
    g.play(2, "4D")
    assert g.legal_plays(3) == ["5D", "9D", "KD"]
    refused(g, "You must follow suit. Play a diamond.", g.play, 3, "5S")
    play_all(g, "KD", "2D", "3D")  # Ben's king takes it
    assert g.turn == 3
    g.play(3, "5S")
    refused(g, "You must follow suit. Play a spade.", g.play, 0, "2H")
    refused(g, "You must follow suit. Play a spade.", g.play, 0, "6D")
    assert g.legal_plays(0) == ["2S", "6S", "TS"]


def test_you_must_follow_hearts():
    g = craft(ONLY_HEARTS)
    play_all(g, "2C", "6C", "TC", "AC")
    assert g.turn == 0
    g.play(0, "2H")
    assert g.legal_plays(1) == ["AH"]
    refused(g, "You must follow suit. Play a heart.", g.play, 1, "2D")


def test_a_player_without_the_suit_led_may_play_anything_after_the_first_trick():
    g = craft(ONLY_HEARTS)
    play_all(g, "2C", "6C", "TC", "AC", "2H", "AH")
    assert g.turn == 2
    assert g.legal_plays(2) == g.hand(2)
    g.play(2, "AD")
    assert g.legal_plays(3) == g.hand(3)  # including the queen of spades
    g.play(3, "QS")
    assert g.last_trick == CompletedTrick(((0, "2H"), (1, "AH"), (2, "AD"), (3, "QS")), 1)
    assert g.taken(1) == ["2H", "AH", "AD", "QS"]


# ---- the first trick -------------------------------------------------------------------------


def test_no_heart_and_not_the_queen_of_spades_on_the_first_trick():
    g = craft(
        {
            0: "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
            1: "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
            2: "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH 2S 3S",
        }
    )
    g.play(0, "2C")
    g.play(1, "2D")
    assert g.legal_plays(2) == ["2S", "3S"]
    refused(g, "You cannot play a point card on the first trick.", g.play, 2, "QS")
    refused(g, "You cannot play a point card on the first trick.", g.play, 2, "2H")
    g.play(2, "3S")
    assert "QS" not in g.legal_plays(3)
    assert not any(code.endswith("H") for code in g.legal_plays(3))
    refused(g, "You cannot play a point card on the first trick.", g.play, 3, "AH")


def test_a_player_holding_only_hearts_may_play_one_on_the_first_trick_and_it_breaks_hearts():
    g = craft(SUITS)
    g.play(0, "2C")
    g.play(1, "2D")
    assert "QS" not in g.legal_plays(2)
    refused(g, "You cannot play a point card on the first trick.", g.play, 2, "QS")
    g.play(2, "2S")
    assert g.legal_plays(3) == codes(suit("H")), "thirteen hearts: every one may be played"
    assert not g.hearts_broken
    g.play(3, "AH")
    assert g.last_trick == CompletedTrick(((0, "2C"), (1, "2D"), (2, "2S"), (3, "AH")), 0)
    assert g.hearts_broken, "a heart played to the first trick breaks hearts"


def test_a_player_holding_only_hearts_and_the_queen_may_play_either_on_the_first_trick():
    g = craft(QUEEN_AND_HEARTS)
    g.play(0, "2C")
    assert g.legal_plays(1) == g.hand(1)
    assert len(g.legal_plays(1)) == 13
    g.play(1, "QS")
    refused(g, "You cannot play a point card on the first trick.", g.play, 2, "AH")
    g.play(2, "2D")
    g.play(3, "AD")
    assert g.last_trick.winner == 0
    assert g.taken(0) == ["2C", "QS", "2D", "AD"]
    assert not g.hearts_broken, "the queen of spades does not break hearts"


def test_a_heart_from_a_hand_of_only_points_on_the_first_trick_breaks_hearts():
    g = craft(QUEEN_AND_HEARTS)
    play_all(g, "2C", "KH", "2D", "AD")
    assert g.hearts_broken
    assert g.turn == 0  # you took it with the only club; your hand is all clubs anyway
    assert g.legal_plays(0) == g.hand(0)


# ---- breaking hearts and the queen of spades --------------------------------------------------


def test_hearts_cannot_be_led_before_they_are_broken():
    g = craft(MIXED)
    play_all(g, "2C", "3C", "4C", "5C")
    assert g.turn == 3
    assert not g.hearts_broken
    assert g.legal_plays(3) == codes("9C KC 5D 9D KD 5S 9S KS")
    refused(g, "Hearts has not been broken. Choose another suit.", g.play, 3, "AH")
    refused(g, "Hearts has not been broken. Choose another suit.", g.play, 3, "5H")


def test_a_leader_holding_only_hearts_may_lead_one_before_they_are_broken():
    g = craft(ONLY_HEARTS)
    play_all(g, "2C", "6C", "TC", "AC")
    assert g.turn == 0
    assert not g.hearts_broken
    assert g.legal_plays(0) == g.hand(0) == codes("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH")
    g.play(0, "KH")
    assert g.trick == ((0, "KH"),)


@pytest.mark.parametrize(("discard", "broken"), [("6H", True), ("KS", False)])
def test_hearts_may_be_led_once_one_was_discarded_to_an_earlier_trick(discard, broken):
    g = craft(
        {
            0: "2C 3C 4C 5C 6C 7C 8C 9C AC 2H 3H 4H 5H",
            1: "TC JC QC KC 2D 3D 4D 5D 6D 7D 8D 9D TD",
            2: "JD QD KD AD 2S 3S 4S 5S 6S 7S 8S 9S TS",
            # 3: JS QS KS AS 6H 7H 8H 9H TH JH QH KH AH
        }
    )
    play_all(g, "2C", "KC", "2S", "JS")
    play_all(g, "TC", "3S", discard, "AC")  # Ben, void in clubs, discards; your ace wins
    assert g.last_trick.winner == 0
    assert g.hearts_broken is broken
    hearts = ["2H", "3H", "4H", "5H"]
    if broken:
        assert g.legal_plays(0) == g.hand(0)
        g.play(0, "2H")
        assert g.trick == ((0, "2H"),)
    else:
        assert g.legal_plays(0) == [c for c in g.hand(0) if c not in hearts]
        refused(g, "Hearts has not been broken. Choose another suit.", g.play, 0, "2H")


def test_the_queen_of_spades_may_be_led_before_hearts_are_broken_and_does_not_break_them():
    g = craft(MIXED)
    play_all(g, "2C", "3C", "QC", "5C")
    assert g.turn == 2
    assert "QS" in g.legal_plays(2)
    assert not any(code.endswith("H") for code in g.legal_plays(2))
    play_all(g, "QS", "5S", "2S", "3S")
    assert g.last_trick == CompletedTrick(((2, "QS"), (3, "5S"), (0, "2S"), (1, "3S")), 2)
    assert "QS" in g.taken(2)
    assert not g.hearts_broken
    assert g.turn == 2
    refused(g, "Hearts has not been broken. Choose another suit.", g.play, 2, "QH")


def test_the_completed_tricks_asked_between_plays_follow_every_trick_a_copy_and_a_new_hand():
    """``completed_tricks`` is kept between asks (a drawing asks a dozen times): asked after
    every card, on a copy played further, after the next deal and after a reload, it is what
    the tricks spell out afresh."""

    def afresh(game: Game) -> tuple:
        return Game.from_json(game.to_json()).completed_tricks

    g = Game.new(617)
    for seat in range(4):
        g.pass_cards(seat, g.hand(seat)[:3])
    while g.phase == "playing":
        assert g.completed_tricks == afresh(g)
        if len(g.completed_tricks) == 6 and not g.trick:
            other = g.copy()
            other.play(other.turn, other.legal_plays(other.turn)[0])
            play_out_hand(other)
            assert len(other.completed_tricks) == 13 and len(g.completed_tricks) == 6
        g.play(g.turn, g.legal_plays(g.turn)[0])
    assert len(g.completed_tricks) == 13 == len(afresh(g))
    g.next_hand()
    assert g.completed_tricks == () == afresh(g)


# ---- winning tricks --------------------------------------------------------------------------


def test_the_highest_card_of_the_suit_led_wins_and_its_winner_leads_next():
    g = craft(SUITS)
    play_all(g, "2C", "AD", "AS", "AH")
    assert g.last_trick == CompletedTrick(((0, "2C"), (1, "AD"), (2, "AS"), (3, "AH")), 0)
    assert g.completed_tricks == (g.last_trick,)
    assert g.last_trick.leader == 0
    assert g.turn == 0
    assert g.trick == ()
    assert g.taken(0) == ["2C", "AD", "AS", "AH"]
    assert g.taken(1) == g.taken(2) == g.taken(3) == []


def test_rank_order_decides_within_the_suit_led():
    g = craft(MIXED)
    play_all(g, "2C", "JC", "4C", "KC")  # king beats jack
    assert g.last_trick.winner == 3
    assert g.turn == 3
    play_all(g, "9D", "TD", "AD", "QD")  # ace beats queen, ten, nine
    assert g.last_trick.winner == 1
    assert g.turn == 1
    play_all(g, "7S", "QS", "9S", "TS")  # queen beats ten; the king is still held
    assert g.last_trick.winner == 2
    assert g.taken(2) == ["7S", "QS", "9S", "TS"]


# ---- the end of a hand, scoring and the moon ----------------------------------------------------


def test_points_a_heart_each_and_thirteen_for_the_queen():
    g = craft(MIXED)
    while g.phase == "playing":
        g.play(g.turn, g.legal_plays(g.turn)[-1])  # always the last legal card
    assert g.phase == "hand_over"
    assert len(g.completed_tricks) == 13
    expected = []
    for seat in range(4):
        taken = g.taken(seat)
        expected.append(sum(c.endswith("H") for c in taken) + 13 * ("QS" in taken))
    assert sum(expected) == 26
    assert g.history[-1] == tuple(expected)
    assert g.history[-1] == (0, 0, 16, 10)  # pinned for this deal and this way of playing
    assert g.moon_shooter is None


def test_after_the_thirteenth_trick_the_hand_is_over_and_nothing_more_may_be_played():
    g = craft(SUITS, k=4)
    play_out_hand(g)
    assert g.phase == "hand_over"
    assert g.turn is None
    assert g.trick == ()
    assert all(g.hand(seat) == [] for seat in range(4))
    assert all(g.legal_plays(seat) == [] for seat in range(4))
    refused(g, "The hand is over. Press OK to deal the next hand.", g.play, 0, "2C")
    g.next_hand()
    assert g.hand_number == 5
    assert g.pass_direction == "left"
    assert g.phase == "passing"


def test_the_next_hand_is_refused_while_a_hand_is_on():
    g = Game.new(617)
    refused(g, "The hand is not over yet.", g.next_hand)
    play_out_hand(g)
    g.next_hand()
    for seat in range(4):
        g.pass_cards(seat, g.hand(seat)[:3])
    refused(g, "The hand is not over yet.", g.next_hand)


def test_shooting_the_moon_gives_twenty_six_to_each_opponent():
    g = craft(SUITS, k=4)
    play_out_hand(g)
    assert len(g.taken(0)) == 52
    assert g.moon_shooter == 0
    assert g.history[-1] == (0, 26, 26, 26)
    assert g.totals == (21, 44, 47, 44)  # 7, 6, 7, 6 for each of the three hands before
    assert [g.moons_shot(seat) for seat in range(4)] == [1, 0, 0, 0]


def test_shooting_the_moon_with_twenty_six_off_the_shooter():
    g = craft(SUITS, k=4, moon_off_shooter=True)
    play_out_hand(g)
    assert g.moon_shooter == 0
    assert g.history[-1] == (-26, 0, 0, 0)
    assert g.totals == (-5, 18, 21, 18)
    assert [g.moons_shot(seat) for seat in range(4)] == [1, 0, 0, 0]


def test_the_moon_when_the_queen_comes_on_the_first_trick():
    g = craft(QUEEN_AND_HEARTS, k=4)
    play_out_hand(g)  # you hold every club and so win every trick
    assert g.moon_shooter == 0
    assert g.history[-1] == (0, 26, 26, 26)


def test_a_moon_survives_the_json_round_trip_of_a_finished_hand():
    g = craft(SUITS, k=4, moon_off_shooter=True)
    play_out_hand(g)
    again = Game.from_json(g.to_json())
    assert again == g
    assert again.moon_shooter == 0
    assert again.moon_off_shooter


# ---- the end of the game -----------------------------------------------------------------------

# Seven earlier hands (each a possible score: 26 points, nobody with all of them) leading to the
# totals named, then the moon of SUITS on the keep hand 8: you 0, everyone else 26.
TIE_PAULINE_MICHELE = [[10, 1, 1, 14]] * 5 + [[12, 0, 0, 14]] * 2  # (74, 5, 5, 98)
TIE_YOU_PAULINE = [[6, 2, 5, 13]] * 6 + [[4, 2, 8, 12]]  # (40, 14, 38, 90)
TO_EXACTLY_100 = [[8, 4, 4, 10]] * 6 + [[12, 0, 0, 14]]  # (60, 24, 24, 74)
TO_99 = [[8, 4, 4, 10]] * 6 + [[13, 0, 0, 13]]  # (61, 24, 24, 73)


def finish(history, moon_off_shooter=False) -> Game:
    g = craft(SUITS, k=8, history=history, moon_off_shooter=moon_off_shooter)
    play_out_hand(g)
    return g


def test_the_game_ends_when_a_total_reaches_100_and_the_lowest_wins():
    g = finish(TO_EXACTLY_100)
    assert g.totals == (60, 50, 50, 100)
    assert g.phase == "game_over"
    assert g.winners == (1, 2)


def test_the_game_goes_on_at_99():
    g = finish(TO_99)
    assert g.totals == (61, 50, 50, 99)
    assert g.phase == "hand_over"
    assert g.winners == ()
    g.next_hand()
    assert g.hand_number == 9


def test_a_tie_for_lowest_gives_several_winners():
    g = finish(TIE_PAULINE_MICHELE)
    assert g.totals == (74, 31, 31, 124)
    assert g.winners == (1, 2)
    g = finish(TIE_YOU_PAULINE)
    assert g.totals == (40, 40, 64, 116)
    assert g.winners == (0, 1)


def test_a_single_lowest_total_is_the_only_winner():
    g = finish([[8, 4, 4, 10]] * 6 + [[12, 1, 0, 13]])  # (60, 25, 24, 73) -> 99, no
    assert g.phase == "hand_over"
    g = finish([[8, 4, 4, 10]] * 6 + [[11, 1, 0, 14]])  # (59, 25, 24, 74) -> 100
    assert g.totals == (59, 51, 50, 100)
    assert g.winners == (2,)


def test_nothing_can_be_done_once_the_game_is_over():
    g = finish(TO_EXACTLY_100)
    assert g.turn is None
    assert all(g.legal_plays(seat) == [] for seat in range(4))
    refused(g, "The game is over.", g.play, 0, "2C")
    refused(g, "The game is over. Start a new game.", g.next_hand)
    refused(g, "Cards are not being passed now.", g.pass_cards, 0, ["2C", "3C", "4C"])
    assert Game.from_json(g.to_json()).winners == (1, 2)


def test_with_26_off_the_shooter_a_moon_never_ends_the_game_and_the_shooter_can_go_negative():
    g = finish(TO_99, moon_off_shooter=True)
    assert g.history[-1] == (-26, 0, 0, 0)
    assert g.totals == (35, 24, 24, 73)
    assert g.phase == "hand_over"
