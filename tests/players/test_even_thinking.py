"""At a network table a computer's forced card does the work of a search: counted in cards
simulated (``brain.Tally``), never timed. The card chosen is the solo game's card."""

from __future__ import annotations

import statistics

from game.engine import Game
from game.players import brain, choose_even_play, choose_pass, choose_play


def work(decide, game: Game, seat: int) -> tuple[str, int, int]:
    """The card, the searches run and the cards simulated by one decision."""
    searches, cards = brain.Tally.searches, brain.Tally.cards
    card = decide(game.copy(), seat)
    return card, brain.Tally.searches - searches, brain.Tally.cards - cards


def decisions(numbers: range):
    """(cards in hand, plain work, even work) of every play of the first hand of each game."""
    for number in numbers:
        game = Game.new(number)
        for seat in range(4):
            game.pass_cards(seat, choose_pass(game, seat))
        while game.phase == "playing":
            seat = game.turn
            plain = work(choose_play, game, seat)
            even = work(choose_even_play, game, seat)
            yield len(game.hand(seat)), plain, even
            game.play(seat, plain[0])


def test_a_forced_card_at_a_network_table_is_searched_for_as_hard_as_a_chosen_one():
    searched: dict[int, list[int]] = {}
    forced: dict[int, list[int]] = {}
    for left, plain, even in decisions(range(70_001, 70_004)):
        assert even[0] == plain[0]  # the same card either way
        assert even[1] in (1, 2)  # the search, and a thrown-away one spending what it left
        if plain[1] == 0:  # the solo game did not search: a forced card
            forced.setdefault(left, []).append(even[2])
        else:
            assert plain[1] == 1
            searched.setdefault(left, []).append(even[2])
    compared = 0
    for left in forced:
        if left == 1 or left not in searched:
            continue  # with one card left every seat is forced: nothing to tell apart
        typical = statistics.median(searched[left])
        for cards in forced[left]:
            assert 0.5 * typical <= cards <= 2 * typical, (left, cards, searched[left])
            compared += 1
    assert compared >= 10  # forced cards at many points of the hand were compared


def test_the_solo_game_answers_a_forced_card_without_a_search():
    for _, plain, even in decisions(range(70_001, 70_002)):
        if plain[1] == 0:
            assert even[1] == 1
            return
    raise AssertionError("no forced card in that hand")


def test_at_a_network_table_a_forced_card_and_a_searched_one_simulate_the_same_cards():
    # issue 49, step 5: the whole budget every time (brain.EVEN_TOP_UP), at every point of the
    # hand, so that no count of legal cards shows in the time a decision takes
    assert brain.EVEN_TOP_UP
    counts: dict[bool, list[int]] = {True: [], False: []}
    for _, plain, even in decisions(range(70_004, 70_006)):
        counts[plain[1] == 0].append(even[2])
    assert len(counts[True]) >= 10 and len(counts[False]) >= 10
    for cards in counts[True] + counts[False]:
        assert 0.97 * brain.CARD_BUDGET <= cards <= 1.05 * brain.CARD_BUDGET
    assert abs(statistics.median(counts[True]) / statistics.median(counts[False]) - 1) < 0.02
