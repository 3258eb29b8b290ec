"""The rules of Hearts as Microsoft shipped them, in one mutable ``Game``.

Every refused action raises ``IllegalMove`` before anything changes; ``legal_plays`` and the
refusal sentences come from the same checks, so the page and the rules cannot disagree.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from enum import StrEnum
from typing import Any, NamedTuple

from . import rules
from .cards import CODES, SUIT_SINGULAR, SUITS, Card
from .errors import IllegalMove
from .rng import SEED_BYTES, deal, secret_deal, secret_key
from .rules import MOON

SEATS = (0, 1, 2, 3)
PASS_SIZE = 3  # the cards each seat passes


class Phase(StrEnum):
    """Where a game is. Its value is the word the saved game, the templates and the CSS use."""

    PASSING = "passing"
    PLAYING = "playing"
    HAND_OVER = "hand_over"
    GAME_OVER = "game_over"

    @property
    def over(self) -> bool:
        """The hand is over (and, at GAME_OVER, the game): the score sheet's moment."""
        return self in (Phase.HAND_OVER, Phase.GAME_OVER)


def seat_after(seat: int, steps: int = 1) -> int:
    """The seat ``steps`` places clockwise after ``seat`` (the order of play)."""
    return (seat + steps) % len(SEATS)


PLAYER_NAMES = ("You", "Pauline", "Michele", "Ben")
SELECT_THREE = "Select three cards to pass."  # PASS_SIZE, in words
REFUSALS = {  # a card the rules keep back, by the mask that keeps it (rules.refused_by)
    "lead": "You must lead the two of clubs.",
    "hearts": "Hearts has not been broken. Choose another suit.",
    "discard": "You cannot play a point card on the first trick.",
}
PASS_CYCLE = ("left", "right", "across", "keep")
PASS_OFFSET = {"left": 1, "right": 3, "across": 2}
MIN_NUMBER = 1
MAX_NUMBER = 1_000_000
GAME_OVER_SCORE = 100
JSON_VERSION = 1
HISTORY_ROWS = 40
POINT_CARDS = 14  # the thirteen hearts and the queen of spades


class CompletedTrick(NamedTuple):
    """Four cards in play order as (seat, code) pairs, and the seat that took them."""

    plays: tuple[tuple[int, str], ...]
    winner: int

    @property
    def leader(self) -> int:
        return self.plays[0][0]


def pass_direction_for(hand_number: int) -> str:
    return PASS_CYCLE[(hand_number - 1) % 4]


def check_number(number: Any) -> int:
    """The game number as an int, or IllegalMove with the sentence to show."""
    if isinstance(number, bool) or not isinstance(number, int):
        try:
            number = int(str(number).strip().lstrip("#").replace(",", ""))
        except ValueError:
            raise IllegalMove("Choose a game number from 1 to 1,000,000.") from None
    if not MIN_NUMBER <= number <= MAX_NUMBER:
        raise IllegalMove("Choose a game number from 1 to 1,000,000.")
    return number


def check_hands(hands: Any) -> int:
    """A game's length in hands: 0 (played to 100 points) or 1 to HISTORY_ROWS."""
    if isinstance(hands, bool) or not isinstance(hands, int) or not 0 <= hands <= HISTORY_ROWS:
        raise ValueError("a game's hands run from 1 to 40, or 0 for a game to 100")
    return hands


def _trick_winner(leader: int, cards: list[int]) -> int:
    return seat_after(leader, rules.winning_position(cards))


class Game:
    """One game of Hearts: seat 0 is you, 1 Pauline (left), 2 Michele (across), 3 Ben (right)."""

    __slots__ = (
        "number",
        "seed",
        "moon_off_shooter",
        "finish_dead_hands",
        "hand_number",
        "phase",
        "_hands",
        "_passed",
        "_received",
        "_tricks",
        "_completed_memo",
        "_current",
        "history",
        "carried",
        "carried_hands",
        "hands",
    )

    def __init__(self) -> None:
        self.number = 0  # 0: dealt from ``seed`` instead, a secret (a network table)
        self.seed = b""
        self.moon_off_shooter = False
        self.finish_dead_hands = False  # our addition: see finish_dead_hand()
        self.hand_number = 0
        self.phase = Phase.PASSING
        self._hands: list[set[int]] = [set() for _ in SEATS]
        self._passed: list[tuple[int, ...]] = [() for _ in SEATS]
        self._received: list[tuple[int, ...]] = [() for _ in SEATS]
        self._tricks: list[tuple[int, list[int]]] = []  # completed: (leader, four cards)
        # ``completed_tricks`` as last spelled out; None whenever ``_tricks`` changes
        self._completed_memo: tuple[CompletedTrick, ...] | None = None
        self._current: tuple[int, list[int]] | None = None  # the trick on the table
        self.history: list[tuple[int, int, int, int]] = []
        # Hands beyond HISTORY_ROWS are folded into one carried row, so that the saved game
        # stays small even in a variant game that never ends (moons lower the totals).
        self.carried: tuple[int, int, int, int] = (0, 0, 0, 0)
        self.carried_hands = 0
        self.hands = 0  # our addition: a game of this many hands (Today's Deal); 0: to 100

    # ---- starting -------------------------------------------------------------------------

    @classmethod
    def new(
        cls,
        number: int,
        moon_off_shooter: bool = False,
        finish_dead_hands: bool = False,
        seed: bytes = b"",
        hands: int = 0,
    ) -> Game:
        """A numbered game, or with ``seed`` (SEED_BYTES secret bytes) a game dealt from it,
        whose number is 0. ``hands``: a game that ends after that many hands (or at 100 points,
        whichever comes first), as Today's Deal's four; 0, the usual game to 100."""
        game = cls()
        game.hands = check_hands(hands)
        if seed:
            if len(seed) != SEED_BYTES:
                raise ValueError("a seed is 16 bytes")
            game.seed = bytes(seed)
        else:
            game.number = check_number(number)
        game.moon_off_shooter = bool(moon_off_shooter)
        game.finish_dead_hands = bool(finish_dead_hands)
        game._deal(1)
        return game

    @classmethod
    def at_hand(
        cls, number: int, hand_number: int, moon_off_shooter: bool = False, seed: bytes = b""
    ) -> Game:
        """The game's hand ``hand_number`` as dealt, with no score before it: for replaying a
        finished hand (its scores are the hand's alone). Not a state ``from_dict`` accepts."""
        game = cls.new(number, moon_off_shooter=moon_off_shooter, seed=seed)
        if not isinstance(hand_number, int) or isinstance(hand_number, bool) or hand_number < 1:
            raise ValueError("a hand number is a whole number from 1")
        if hand_number != 1:
            game._deal(hand_number)
        return game

    def _deal(self, hand_number: int) -> None:
        self.hand_number = hand_number
        hands = secret_deal(self.seed, hand_number) if self.seed else deal(self.number, hand_number)
        self._hands = [set(cards) for cards in hands]
        self._passed = [() for _ in SEATS]
        self._received = [() for _ in SEATS]
        self._tricks = []
        self._completed_memo = None
        self._current = None
        if self.pass_direction == "keep":
            self._start_play()
        else:
            self.phase = Phase.PASSING

    @property
    def random_key(self) -> int:
        """What keys the computer players' generators: the game number, or at a game dealt
        from a secret seed a one-way 64-bit key of it."""
        return secret_key(self.seed) if self.seed else self.number

    def _start_play(self) -> None:
        self.phase = Phase.PLAYING
        leader = next(seat for seat in SEATS if 0 in self._hands[seat])
        self._current = (leader, [])

    # ---- what anyone may look at ----------------------------------------------------------

    @property
    def pass_direction(self) -> str:
        return pass_direction_for(self.hand_number)

    def pass_target(self, seat: int) -> int | None:
        """The seat that ``seat`` passes to this hand, or None on a keep hand."""
        offset = PASS_OFFSET.get(self.pass_direction)
        return None if offset is None else seat_after(seat, offset)

    def hand(self, seat: int) -> list[str]:
        """That seat's cards, sorted clubs, diamonds, spades, hearts, low to high."""
        return [CODES[i] for i in sorted(self._hands[seat])]

    def passed(self, seat: int) -> list[str]:
        """The three cards that seat chose to pass this hand (empty before it chose)."""
        return [CODES[i] for i in self._passed[seat]]

    def received(self, seat: int) -> list[str]:
        return [CODES[i] for i in self._received[seat]]

    def has_passed(self, seat: int) -> bool:
        return bool(self._passed[seat])

    @property
    def turn(self) -> int | None:
        if self.phase != Phase.PLAYING or self._current is None:
            return None
        leader, cards = self._current
        return seat_after(leader, len(cards))

    @property
    def trick(self) -> tuple[tuple[int, str], ...]:
        if self._current is None:
            return ()
        leader, cards = self._current
        return tuple((seat_after(leader, i), CODES[c]) for i, c in enumerate(cards))

    @property
    def trick_leader(self) -> int | None:
        return None if self._current is None else self._current[0]

    @property
    def completed_tricks(self) -> tuple[CompletedTrick, ...]:
        """Spelled out once while no trick is added: a table's drawing asks for them a dozen
        times (the schedule, the narration, the status, the cards on the table)."""
        if self._completed_memo is None:
            self._completed_memo = tuple(self._completed(*trick) for trick in self._tricks)
        return self._completed_memo

    @staticmethod
    def _completed(leader: int, cards: list[int]) -> CompletedTrick:
        plays = tuple((seat_after(leader, i), CODES[c]) for i, c in enumerate(cards))
        return CompletedTrick(plays, _trick_winner(leader, cards))

    @property
    def last_trick(self) -> CompletedTrick | None:
        if not self._tricks:
            return None
        return self._completed(*self._tricks[-1])

    @property
    def tricks_played(self) -> int:
        return len(self._tricks)

    @property
    def hearts_broken(self) -> bool:
        return any(c >= rules.FIRST_HEART for _, cards in self._tricks for c in cards)

    def taken(self, seat: int) -> list[str]:
        """The cards that seat has taken in tricks this hand, in the order taken."""
        won: list[str] = []
        for leader, cards in self._tricks:
            if _trick_winner(leader, cards) == seat:
                won.extend(CODES[c] for c in cards)
        return won

    def hand_points(self) -> tuple[int, int, int, int]:
        """Points taken so far this hand, before any moon is applied."""
        points = [0, 0, 0, 0]
        for leader, cards in self._tricks:
            points[_trick_winner(leader, cards)] += rules.trick_points(cards)
        return tuple(points)  # type: ignore[return-value]

    @property
    def totals(self) -> tuple[int, int, int, int]:
        return tuple(
            self.carried[seat] + sum(hand[seat] for hand in self.history) for seat in SEATS
        )  # type: ignore[return-value]

    @property
    def winners(self) -> tuple[int, ...]:
        if self.phase != Phase.GAME_OVER:
            return ()
        totals = self.totals
        low = min(totals)
        return tuple(seat for seat in SEATS if totals[seat] == low)

    @property
    def moon_shooter(self) -> int | None:
        """The seat that took all 26 points in the hand just finished, if any."""
        if not self.phase.over or len(self._tricks) != 13:
            return None
        points = self.hand_points()
        return next((seat for seat in SEATS if points[seat] == MOON), None)

    def moons_shot(self, seat: int) -> int:
        """The hands still in ``history`` in which ``seat`` shot the moon: its moon's row."""
        row = rules.hand_score([MOON if s == seat else 0 for s in SEATS], self.moon_off_shooter)
        return self.history.count(row)

    # ---- legality -------------------------------------------------------------------------

    def _legal(self, seat: int) -> list[int]:
        if seat != self.turn:
            return []
        _, cards = self._current  # type: ignore[misc]
        hand = rules.mask_of(self._hands[seat])
        legal = rules.legal_mask(hand, cards, not self._tricks, self.hearts_broken)
        return list(rules.cards_of(legal))

    def legal_plays(self, seat: int) -> list[str]:
        """The codes that seat may play now: empty when it is not that seat's turn."""
        return [CODES[c] for c in self._legal(seat)]

    def _verify_seat(self, seat: Any) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in SEATS:
            raise IllegalMove("There is no such player.")
        return seat

    def _verify_play(self, seat: int, code: str) -> int:
        seat = self._verify_seat(seat)
        if self.phase == Phase.PASSING:
            raise IllegalMove("Pass three cards first.")
        if self.phase == Phase.HAND_OVER:
            raise IllegalMove("The hand is over. Press OK to deal the next hand.")
        if self.phase == Phase.GAME_OVER:
            raise IllegalMove("The game is over.")
        if seat != self.turn:
            raise IllegalMove(f"It is not your turn. Waiting for {PLAYER_NAMES[self.turn]}.")
        card = Card.parse(code)
        hand = self._hands[seat]
        if card.index not in hand:
            raise IllegalMove(f"You do not have the {card.name}.")
        if card.index in self._legal(seat):
            return card.index
        _, cards = self._current  # type: ignore[misc]
        reason = rules.refused_by(rules.mask_of(hand), cards, not self._tricks)
        if reason == "follow":
            led = SUITS[rules.suit_of(cards[0])]
            raise IllegalMove(f"You must follow suit. Play a {SUIT_SINGULAR[led]}.")
        raise IllegalMove(REFUSALS[reason])

    # ---- actions --------------------------------------------------------------------------

    def pass_cards(self, seat: int, codes: Any) -> None:
        """Choose three cards to pass; the exchange happens once all four seats have chosen."""
        seat = self._verify_seat(seat)
        if self.phase != Phase.PASSING:
            if self.pass_direction == "keep" and self.phase == Phase.PLAYING:
                raise IllegalMove("No cards are passed on this hand.")
            raise IllegalMove("Cards are not being passed now.")
        if self._passed[seat]:
            raise IllegalMove("You have already passed your cards.")
        if isinstance(codes, str) or not isinstance(codes, list | tuple) or len(codes) != PASS_SIZE:
            raise IllegalMove(SELECT_THREE)
        cards = [Card.parse(code) for code in codes]
        if len({card.index for card in cards}) != PASS_SIZE:
            raise IllegalMove("Select three different cards to pass.")
        for card in cards:
            if card.index not in self._hands[seat]:
                raise IllegalMove(f"You do not have the {card.name}.")
        self._passed[seat] = tuple(sorted(card.index for card in cards))
        if all(self._passed):
            self._exchange()

    def _exchange(self) -> None:
        for seat in SEATS:
            self._hands[seat] -= set(self._passed[seat])
        for seat in SEATS:
            target = self.pass_target(seat)
            self._hands[target] |= set(self._passed[seat])  # type: ignore[index]
            self._received[target] = self._passed[seat]  # type: ignore[index]
        self._start_play()

    def play(self, seat: int, code: str) -> None:
        """Play a card; raises IllegalMove with the rule's sentence and changes nothing.

        With ``finish_dead_hands`` on, the trick that takes the last point card also ends the
        hand: the engine plays out the rest at once (``finish_dead_hand``)."""
        card = self._verify_play(seat, code)
        self._apply(seat, card)
        if self.finish_dead_hands and self.phase == Phase.PLAYING and not self.points_left:
            self.finish_dead_hand()

    def _apply(self, seat: int, card: int) -> None:
        """Play a card already verified; completes the trick, and the hand, when it is due."""
        self._hands[seat].discard(card)
        leader, cards = self._current  # type: ignore[misc]
        cards.append(card)
        if len(cards) < 4:
            return
        self._tricks.append((leader, cards))
        self._completed_memo = None
        if len(self._tricks) < 13:
            self._current = (_trick_winner(leader, cards), [])
        else:
            self._current = None
            self._finish_hand()

    def _hand_score(self) -> tuple[int, int, int, int]:
        """The points of the 13 tricks played, the moon rule applied."""
        return rules.hand_score(self.hand_points(), self.moon_off_shooter)

    def _finish_hand(self) -> None:
        self.history.append(self._hand_score())
        self._fold_history()
        self.phase = Phase.GAME_OVER if self._ended(self.totals) else Phase.HAND_OVER

    def _ended(self, totals: Sequence[int]) -> bool:
        """Whether the game is over once these totals are scored at the end of this hand."""
        return max(totals) >= GAME_OVER_SCORE or 0 < self.hands <= self.hand_number

    def _fold_history(self) -> None:
        while len(self.history) > HISTORY_ROWS:
            oldest = self.history.pop(0)
            self.carried = tuple(a + b for a, b in zip(self.carried, oldest, strict=True))  # type: ignore[assignment]
            self.carried_hands += 1

    # ---- our addition: no playing out a dead hand -------------------------------------------

    @property
    def points_left(self) -> int:
        """Points not yet taken in a trick this hand: in the hands and on the table."""
        held = [c for hand in self._hands for c in hand]
        if self._current is not None:
            held.extend(self._current[1])
        return sum(rules.card_points(c) for c in held)

    def finish_dead_hand(self) -> None:
        """Play out a hand in which no points are left, at once: each seat in turn plays its
        lowest legal card until the thirteenth trick is taken and the hand is scored.

        Why played out rather than simply collected: the hand stays what it always is, thirteen
        legal tricks, so the compact JSON form, ``from_dict``'s check, the taken piles, the moon
        and the players' ``View`` need nothing new, and a network game replays it like any
        other. Who takes these tricks cannot matter: they hold no points, so the score is
        exactly the one that playing on, any way at all, would give.
        """
        if self.phase != Phase.PLAYING:
            raise IllegalMove("No hand is being played.")
        if self.points_left:
            raise IllegalMove("Points are still left in this hand.")
        while self.phase == Phase.PLAYING:
            seat = self.turn
            self._apply(seat, self._legal(seat)[0])  # type: ignore[arg-type]

    @property
    def played_out_from(self) -> int | None:
        """After a hand the engine finished for lack of points: how many tricks the players
        played (the rest it played out itself). None for any other hand, or while playing."""
        if not self.finish_dead_hands or not self.phase.over:
            return None
        taken = 0
        for played, (_, cards) in enumerate(self._tricks, start=1):
            taken += sum(1 for c in cards if rules.card_points(c))
            if taken == POINT_CARDS:
                return played if played < 13 else None
        return None  # unreachable: thirteen tricks hold every point card

    def _played_out_rightly(self) -> bool:
        """Whether the tricks after ``played_out_from`` are the ones the engine plays."""
        start = self.played_out_from
        if start is None:
            return True
        trial = self.copy()
        for leader, cards in trial._tricks[start:]:
            for i, card in enumerate(cards):
                trial._hands[seat_after(leader, i)].add(card)
        trial._tricks = trial._tricks[:start]
        trial._completed_memo = None
        trial._current = (_trick_winner(*trial._tricks[-1]), [])
        trial.phase = Phase.PLAYING
        trial.history = trial.history[:-1]
        trial.finish_dead_hand()
        return trial._tricks == self._tricks

    def next_hand(self) -> None:
        if self.phase != Phase.HAND_OVER:
            if self.phase == Phase.GAME_OVER:
                raise IllegalMove("The game is over. Start a new game.")
            raise IllegalMove("The hand is not over yet.")
        self._deal(self.hand_number + 1)

    # ---- copying and the compact text form -------------------------------------------------

    def copy(self) -> Game:
        """An independent game in the same position: playing on one never touches the other."""
        other = Game.__new__(Game)
        for name in self.__slots__:
            setattr(other, name, copy.deepcopy(getattr(self, name)))
        other._completed_memo = None  # not worth a deep copy: spelled out again if asked
        return other

    def to_dict(self) -> dict[str, Any]:
        def text(cards) -> str:
            return "".join(CODES[c] for c in cards)

        tricks = "".join(f"{leader}{text(cards)}" for leader, cards in self._tricks)
        if self._current is not None:
            tricks += f"{self._current[0]}{text(self._current[1])}"
        return {
            "v": JSON_VERSION,
            "n": self.number,
            "m": int(self.moon_off_shooter),
            "k": self.hand_number,
            "p": self.phase,
            "h": [text(sorted(hand)) for hand in self._hands],
            "x": [text(cards) for cards in self._passed],
            "r": [text(cards) for cards in self._received],
            "t": tricks,
            "s": [list(points) for points in self.history],
            **({"c": [*self.carried, self.carried_hands]} if self.carried_hands else {}),
            **({"d": 1} if self.finish_dead_hands else {}),
            **({"z": self.seed.hex()} if self.seed else {}),
            **({"e": self.hands} if self.hands else {}),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Game:
        """Rebuild a game; raises ValueError on anything that is not a consistent game."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError, RecursionError) as error:  # RecursionError: deep nesting
            raise ValueError("not a saved game") from error
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> Game:
        try:
            game = cls._from_dict(data)
        except (KeyError, TypeError, IndexError, AttributeError) as error:
            raise ValueError("not a saved game") from error
        game._validate()
        return game

    @classmethod
    def _from_dict(cls, data: dict[str, Any]) -> Game:
        def whole(value: Any) -> int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError("not a whole number")  # also refuses 1e999, NaN and "12"
            return value

        def cards(text: str) -> list[int]:
            if not isinstance(text, str) or len(text) % 2:
                raise ValueError("bad cards")
            return [Card.parse(text[i : i + 2]).index for i in range(0, len(text), 2)]

        if data["v"] != JSON_VERSION:
            raise ValueError("unknown version")
        game = cls()
        game.number = check_number(data["n"]) if isinstance(data["n"], int) and data["n"] else 0
        if "z" in data:
            if not isinstance(data["z"], str) or len(data["z"]) != 2 * SEED_BYTES:
                raise ValueError("bad seed")
            game.seed = bytes.fromhex(data["z"])
        game.moon_off_shooter = bool(data["m"])
        game.finish_dead_hands = bool(data.get("d", 0))
        game.hands = check_hands(whole(data.get("e", 0)))
        game.hand_number = data["k"]
        game.phase = data["p"]
        game._hands = [set(cards(text)) for text in data["h"]]
        game._passed = [tuple(cards(text)) for text in data["x"]]
        game._received = [tuple(cards(text)) for text in data["r"]]
        tricks: list[tuple[int, list[int]]] = []
        text = data["t"]
        if not isinstance(text, str):
            raise ValueError("bad tricks")
        for start in range(0, len(text), 9):
            chunk = text[start : start + 9]
            if chunk[0] not in "0123":
                raise ValueError("bad leader")
            tricks.append((int(chunk[0]), cards(chunk[1:])))
        if tricks and len(tricks[-1][1]) < 4:
            game._current = tricks.pop()
        game._tricks = tricks
        game._completed_memo = None
        game.history = [tuple(whole(p) for p in points) for points in data["s"]]  # type: ignore[misc]
        if "c" in data:
            carried = [whole(p) for p in data["c"]]
            if len(carried) != 5 or carried[4] < 1:
                raise ValueError("bad carried scores")
            game.carried = tuple(carried[:4])  # type: ignore[assignment]
            game.carried_hands = carried[4]
        return game

    def _validate(self) -> None:
        def fail(why: str) -> None:
            raise ValueError(f"not a consistent game: {why}")

        if bool(self.seed) == (MIN_NUMBER <= self.number <= MAX_NUMBER):
            fail("number")  # numbered, or dealt from a secret seed with number 0: one of them
        if (
            isinstance(self.hand_number, bool)
            or not isinstance(self.hand_number, int)
            or self.hand_number < 1
        ):
            fail("hand number")
        if not isinstance(self.phase, str) or self.phase not in tuple(Phase):
            fail("phase")
        self.phase = Phase(self.phase)
        if len(self._hands) != 4 or len(self._passed) != 4 or len(self._received) != 4:
            fail("seats")
        if any(len(points) != 4 for points in self.history):
            fail("history")
        seen: list[int] = [c for hand in self._hands for c in hand]
        for _, cards in self._tricks:
            if len(cards) != 4:
                fail("trick size")
            seen.extend(cards)
        if self._current is not None:
            seen.extend(self._current[1])
        if sorted(seen) != list(range(52)):
            fail("cards")
        played = [0, 0, 0, 0]
        expected_leader = None
        for leader, cards in self._tricks + ([self._current] if self._current else []):
            if expected_leader is not None and leader != expected_leader:
                fail("leader")
            for i in range(len(cards)):
                played[seat_after(leader, i)] += 1
            if len(cards) == 4:
                expected_leader = _trick_winner(leader, cards)
        if any(len(self._hands[s]) + played[s] != 13 for s in SEATS):
            fail("hand sizes")
        if self.phase == Phase.PASSING:
            if self.pass_direction == "keep" or self._tricks or self._current:
                fail("passing")
            if any(not set(p) <= self._hands[s] for s, p in enumerate(self._passed)):
                fail("passed cards")
        elif self.phase == Phase.PLAYING:
            if self._current is None or len(self._tricks) >= 13:
                fail("playing")
        else:
            if len(self._tricks) != 13 or self._current is not None or not self.history:
                fail("hand over")
            if self._ended(self.totals) != (self.phase is Phase.GAME_OVER):
                fail("game over")
        if any(len(p) not in (0, 3) for p in self._passed + self._received):
            fail("pass size")
        if any(len(set(p)) != len(p) for p in self._passed + self._received):
            fail("a card passed twice")  # would give a seat more than thirteen cards
        if self.phase == Phase.PASSING or self.pass_direction == "keep":
            if any(self._received) or (self.pass_direction == "keep" and any(self._passed)):
                fail("nothing is received before the exchange or on a keep hand")
        elif any(
            len(self._passed[s]) != PASS_SIZE
            or sorted(self._received[self.pass_target(s)]) != sorted(self._passed[s])  # type: ignore[index]
            for s in SEATS
        ):
            fail("the exchange")
        self._validate_history()
        if self.finish_dead_hands:
            if self.phase == Phase.PLAYING and not self.points_left:
                fail("a dead hand left to play on")
            if not self._played_out_rightly():
                fail("a dead hand played out otherwise than by the engine")

    def _validate_history(self) -> None:
        """One possible score per finished hand, and no hand dealt after the game was over."""
        over = self.phase.over
        if self.carried_hands and len(self.history) != HISTORY_ROWS:
            raise ValueError("not a consistent game: carried scores")
        if self.hands and self.hand_number > self.hands:
            raise ValueError("not a consistent game: a hand dealt after the last")
        if self.carried_hands + len(self.history) != self.hand_number - (0 if over else 1):
            raise ValueError("not a consistent game: history length")
        moon = sorted(rules.moon_scores(self.moon_off_shooter))
        running = list(self.carried)
        for points in self.history:
            if max(running) >= GAME_OVER_SCORE:
                raise ValueError("not a consistent game: played on after the end")
            if sorted(points) != moon and (
                sum(points) != MOON or not all(0 <= p < MOON for p in points)
            ):
                raise ValueError("not a consistent game: not a hand's score")
            running = [a + b for a, b in zip(running, points, strict=True)]
        if not over and max(running) >= GAME_OVER_SCORE:
            raise ValueError("not a consistent game: played on after the end")
        if over and self.history[-1] != self._hand_score():
            raise ValueError("not a consistent game: the score is not the tricks'")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.to_dict() == other.to_dict()

    # A game changes as it is played, so it must not be a key of a dict or a member of a set:
    # its hash would go stale. Its JSON text is the hashable form.
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Game.from_json({self.to_json()!r})"
