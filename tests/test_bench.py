"""The benchmark's reference opponents and deals, which anyone must be able to reproduce."""

from __future__ import annotations

from game.bench import deal_game, ducker_pass, ducker_play, random_pass, random_play
from game.engine import PASS_CYCLE, Card, Game


def test_bench_deals_cycle_the_pass_directions():
    for hand_number, direction in enumerate(PASS_CYCLE, start=1):
        game = deal_game(40_001, hand_number)
        assert game.pass_direction == direction
        assert game.phase == ("playing" if direction == "keep" else "passing")


def test_reference_opponents_play_whole_hands_legally():
    for players in ((ducker_pass, ducker_play), (random_pass, random_play)):
        for number in range(1, 6):
            game = Game.new(number)
            for seat in range(4):
                cards = players[0](game, seat)
                assert len(set(cards)) == 3 and set(cards) <= set(game.hand(seat))
                game.pass_cards(seat, cards)
            while game.phase == "playing":
                card = players[1](game, game.turn)
                assert card in game.legal_plays(game.turn)
                game.play(game.turn, card)


def test_ducker_passes_its_highest_cards_and_ducks():
    game = Game.new(617)
    assert sorted(ducker_pass(game, 3)) == ["AC", "AH", "JH"]
    for seat in range(4):
        game.pass_cards(seat, ducker_pass(game, seat))
    game.play(game.turn, "2C")
    seat = game.turn
    clubs = [c for c in game.hand(seat) if c[1] == "C"]
    # nothing loses to the two, so a ducker that is not last plays its lowest club
    assert clubs and ducker_play(game, seat) == clubs[0]
    game.play(seat, clubs[0])
    winning = max(Card.parse(code).index for _, code in game.trick)
    seat = game.turn
    clubs = [c for c in game.hand(seat) if c[1] == "C"]
    under = [c for c in clubs if Card.parse(c).index < winning]
    if under:
        assert ducker_play(game, seat) == under[-1]
