"""Helpers shared by the engine tests: crafted positions in the ``to_dict()`` format.

A position is written the way a person reads it: hands as space-separated codes, tricks as
"leader card card card card". ``craft`` fills the one seat left out with every card not
mentioned, appends the leader of the trick now on the table, and goes through
``Game.from_dict`` so the engine's own consistency check vets every position a test uses.
"""

from __future__ import annotations

from typing import Any

import pytest

from game.engine import Card, Game, IllegalMove, SplitMix64

RANKS = "23456789TJQKA"
ALL_CARDS = [rank + suit for suit in "CDSH" for rank in RANKS]


def codes(text: str) -> list[str]:
    """ "2C 3C" -> ["2C", "3C"]."""
    return text.split()


def suit(letter: str) -> str:
    """All thirteen cards of a suit, "C" -> "2C 3C ... AC"."""
    return " ".join(rank + letter for rank in RANKS)


def winner_of(leader: int, cards: list[str]) -> int:
    """The seat that takes a complete trick: highest card of the suit led (written out again
    here rather than borrowed from the engine, so the two can disagree)."""
    led = cards[0][1]
    best = max((i for i in range(4) if cards[i][1] == led), key=lambda i: RANKS.index(cards[i][0]))
    return (leader + best) % 4


def position(
    hands: dict[int, str],
    tricks: tuple[str, ...] | list[str] = (),
    *,
    phase: str = "playing",
    k: int = 4,
    history: list[list[int]] | None = None,
    moon_off_shooter: bool = False,
    number: int = 617,
    passed: list[str] | None = None,
    received: list[str] | None = None,
) -> dict[str, Any]:
    """A dict in the ``to_dict()`` format. ``hands`` names the cards still held; at most one
    seat may be left out and then holds the rest. Each trick is "L c1 c2 c3 c4" (L the
    leader, up to four cards); when play goes on, the next leader is appended for you."""
    parsed = []
    for text in tricks:
        leader, *cards = text.split()
        parsed.append((int(leader), cards))
    mentioned = [c for text in hands.values() for c in text.split()]
    mentioned += [c for _, cards in parsed for c in cards]
    missing = [seat for seat in range(4) if seat not in hands]
    assert len(missing) <= 1, "leave out at most one seat"
    full = {seat: text.split() for seat, text in hands.items()}
    if missing:
        full[missing[0]] = [c for c in ALL_CARDS if c not in mentioned]
    if phase == "playing" and (not parsed or len(parsed[-1][1]) == 4):
        if parsed:
            parsed.append((winner_of(*parsed[-1]), []))
        else:
            parsed.append((next(s for s in range(4) if "2C" in full[s]), []))
    if history is None:
        history = [[7, 6, 7, 6]] * (k - 1)
    return {
        "v": 1,
        "n": number,
        "m": int(moon_off_shooter),
        "k": k,
        "p": phase,
        "h": ["".join(sorted(full[s], key=ALL_CARDS.index)) for s in range(4)],
        "x": passed or ["", "", "", ""],
        "r": received or ["", "", "", ""],
        "t": "".join(f"{leader}{''.join(cards)}" for leader, cards in parsed),
        "s": history,
    }


def craft(*args: Any, **kwargs: Any) -> Game:
    return Game.from_dict(position(*args, **kwargs))


def refused(game: Game, message: str, action, *args: Any) -> None:
    """The action raises IllegalMove with exactly ``message`` and changes nothing."""
    before = game.to_json()
    with pytest.raises(IllegalMove) as caught:
        action(*args)
    assert str(caught.value) == message
    assert game.to_json() == before


def play_all(game: Game, *plays: str) -> None:
    """Play the codes in order, each by the seat whose turn it is."""
    for code in plays:
        game.play(game.turn, code)


def play_out_hand(game: Game) -> None:
    """Pass the lowest three cards (if passing) and play the first legal card until the hand
    ends: deterministic, used to walk a real game forward."""
    if game.phase == "passing":
        for seat in range(4):
            game.pass_cards(seat, game.hand(seat)[:3])
    while game.phase == "playing":
        game.play(game.turn, game.legal_plays(game.turn)[0])


def idx(code: str) -> int:
    """A card's index in the deck (the bit the players' masks use), from its code."""
    return Card.parse(code).index


def random_position(number: int, steps: int, seed: int, moon_off_shooter: bool = False) -> Game:
    """A game ``steps`` actions in, by random legal moves."""
    game = Game.new(number, moon_off_shooter)
    rng = SplitMix64.for_key(seed, number)
    for _ in range(steps):
        if game.phase == "passing":
            for seat in range(4):
                if not game.has_passed(seat):
                    hand = game.hand(seat)
                    rng.shuffle(hand)
                    game.pass_cards(seat, hand[:3])
        elif game.phase == "playing":
            game.play(game.turn, rng.choice(game.legal_plays(game.turn)))
        elif game.phase == "hand_over":
            game.next_hand()
        else:
            break
    return game


# A mixed deal: each seat holds three low/middle ranks of every suit and one ace.
MIXED = {
    0: "2C 6C TC AC 2D 6D TD 2S 6S TS 2H 6H TH",
    1: "3C 7C JC 3D 7D JD AD 3S 7S JS 3H 7H JH",
    2: "4C 8C QC 4D 8D QD 4S 8S QS AS 4H 8H QH",
    # 3: 5C 9C KC 5D 9D KD 5S 9S KS 5H 9H KH AH
}


# One suit each: you clubs, Pauline diamonds, Michele spades, Ben thirteen hearts.
SUITS = {0: suit("C"), 1: suit("D"), 2: suit("S"), 3: suit("H")}


# Ben has taken twelve hearts, every point, in nine tricks; he leads the ace of diamonds to the
# tenth, and you, without a diamond, hold the queen of spades and three low spades. Michele has
# shown no diamonds (trick 8).
BEN_HAS_EVERY_POINT = {
    "hands": {0: "QS 2S 3S 4S", 1: "5S 6S 7S 8D", 2: "TS JS KS AS"},
    "tricks": (
        "0 2C 3C 4C AC",
        "3 KC 5C 6C 7C",
        "3 QC 8C 9C TC",
        "3 JC 2H 3H 4H",
        "3 AH 5H 6H 7H",
        "3 KH 8H 9H 9D",
        "3 QH 2D 5D TD",
        "3 JD 3D 6D 8S",
        "3 JH 4D 7D 9S",
        "3 AD",
    ),
}
# Passing left with the queen of spades and two lower spades: the rule passes her.
QUEEN_AND_TWO_SPADES = {
    "hands": {
        0: "QS 2S 5S 3C 7C 9C 4D 8D JD 3H 6H 9H KH",
        1: "AS KS 3S 4S 2C 4C 5C 2D 3D 5D 2H 4H 5H",
        2: "6S 7S 8S 9S 6C 8C TC 6D 7D 9D 7H 8H TH",
    },
    "phase": "passing",
    "k": 1,
}
