"""The computer players' decisions, pinned: every pass and play of whole games as one hash.

A refactor must leave this hash as it is. A change that means the players to decide otherwise
updates GOLDEN on purpose, saying so in its commit. ``python -m tests.support.golden_moves``
prints the hash of more games (40 and 10 by default) for a before/after comparison by hand.
"""

from tests.support.golden_moves import decisions_hash

# Games 1 (standard moon rule) and 2 ("26 off the shooter") with four computer players, and
# games 1001 and 1002 with a scripted person in seat 0, each played to its end.
GOLDEN = "adc346cfaccb04ab4f6760f1f595fbe5719713aae6413c83d498a6364fa1e5bc"


def test_the_players_decide_as_they_always_have():
    assert decisions_hash(games=2, human_games=2) == GOLDEN
