"""tools.moons: where the hunters' moons are lost, on the bench's deals."""

from __future__ import annotations

from game.engine import Phase
from tools import moons
from tools.bench import FIRST_NUMBER


def test_a_stop_found_is_a_real_sequence_of_our_cards_that_splits_the_points():
    # deal 22 (its hand 3, as run_deal plays it) with ours in seat 3: a hunter shoots, as the
    # computers' choices decide it; the search finds a card of ours from which the hunters,
    # replying by their own play, no longer make the moon
    seat = 3
    game, decisions = moons.play(FIRST_NUMBER + 22, 1 + 22 % 4, seat)
    shooter = game.moon_shooter
    assert shooter not in (None, seat)
    found = None
    for position in reversed(decisions):
        card = moons.stop_search(position, seat, shooter, [moons.NODES])
        if card is not None:
            found = (position, card)
            break
    assert found is not None
    position, card = found
    # the card played there in the real hand is not the one that begins the stop
    assert moons.card_index(moons.decisions_card(position, game, seat)) != card
    trial = position.copy()
    trial.play(seat, moons.DECK[card].code)
    moons.hunters_until(trial, seat)
    assert trial.phase == Phase.PLAYING or trial.moon_shooter is None


def test_the_tool_prints_the_three_figures(capsys):
    # deal 22's four rotations hold one hunters' moon, which our seat could have stopped (the
    # computers' choices decide it)
    moons.main(["--first", "22", "--hands", "4", "--workers", "1"])
    out = capsys.readouterr().out
    assert "ours vs 3 hunters, 4 hands" in out
    assert "(a) stoppable by another sequence of our seat's cards: 1 of 1" in out
    assert "(b) our search handed the true deal" in out
    assert "(c) at the 1 decisions that lost a stoppable moon" in out
