from game.engine import DECK, Game, SplitMix64, deal


def test_splitmix64_matches_the_published_reference_sequence():
    rng = SplitMix64(0)
    assert [rng.next64() for _ in range(2)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4]


def test_keyed_generator_output_is_pinned():
    rng = SplitMix64.for_key(617, 1, 2)
    assert [rng.below(52) for _ in range(8)] == PINNED_KEYED


def test_golden_first_deals():
    assert Game.new(1).to_dict()["h"] == [
        "2C3C6CTCJCTD4S6STSQS6HTHJH",
        "5C7CKC4DJDAD3S5S7S9SQHKHAH",
        "4C9CQC2D6D8D9DQD2S8SKSAS8H",
        "8CAC3D5D7DKDJS2H3H4H5H7H9H",
    ]
    assert Game.new(617).to_dict()["h"] == [
        "2C3C9CJCKC5D6DAD2S6S4H9HKH",
        "5CQC2D9DQDKD5S8SQS2H7HTHQH",
        "4C6C3DJD3S9STSJSKSAS3H5H6H",
        "7C8CTCAC4D7D8DTD4S7S8HJHAH",
    ]
    assert Game.new(1_000_000).to_dict()["h"] == [
        "3C4C7CTC2D3D2S6STS5H9HJHQH",
        "2C6C8CQCKCJDKDAD4S8S3H6HAH",
        "4D6D7DTD5S7S9SJSKS2H4H7HTH",
        "5C9CJCAC5D8D9DQD3SQSAS8HKH",
    ]


def test_deals_differ_by_hand_and_number_and_hold_every_card_once():
    seen = set()
    for number in (1, 2, 617):
        for hand in (1, 2, 3):
            cards = deal(number, hand)
            assert sorted(c for h in cards for c in h) == list(range(52))
            seen.add(tuple(map(tuple, cards)))
    assert len(seen) == 9


PINNED_KEYED = [3, 19, 21, 38, 11, 16, 34, 34]


def test_every_hand_of_a_game_is_the_deal_for_its_number_and_hand():
    game = Game.new(617)
    for hand_number in (1, 2, 3, 4, 5):
        assert game.hand_number == hand_number
        expected = [[DECK[i].code for i in cards] for cards in deal(617, hand_number)]
        assert [game.hand(seat) for seat in range(4)] == expected
        if game.phase == "passing":
            for seat in range(4):
                game.pass_cards(seat, game.hand(seat)[:3])
        while game.phase == "playing":
            game.play(game.turn, game.legal_plays(game.turn)[0])
        game.next_hand()


def test_the_same_number_and_the_same_moves_give_the_same_game():
    games = [Game.new(1_000_000), Game.new(1_000_000)]
    while games[0].phase != "game_over":
        for game in games:
            if game.phase == "passing":
                for seat in range(4):
                    game.pass_cards(seat, game.hand(seat)[-3:])
            elif game.phase == "playing":
                game.play(game.turn, game.legal_plays(game.turn)[-1])
            else:
                game.next_hand()
        assert games[0].to_json() == games[1].to_json()
