"""The rules of Hearts as Microsoft shipped them, in one mutable ``Game``.

Every refused action raises ``IllegalMove`` before anything changes; ``legal_plays`` and the
refusal sentences come from the same checks, so the page and the rules cannot disagree.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from .cards import DECK, QUEEN_OF_SPADES_INDEX, SUIT_SINGULAR, SUITS, Card
from .errors import IllegalMove
from .rng import deal

SEATS = (0, 1, 2, 3)
PLAYER_NAMES = ("You", "Pauline", "Michele", "Ben")
PASS_CYCLE = ("left", "right", "across", "keep")
PASS_OFFSET = {"left": 1, "right": 3, "across": 2}
MIN_NUMBER = 1
MAX_NUMBER = 1_000_000
GAME_OVER_SCORE = 100
MOON = 26
HEARTS = SUITS.index("H")
JSON_VERSION = 1
HISTORY_ROWS = 40


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


def _trick_winner(leader: int, cards: list[int]) -> int:
    led_suit = cards[0] // 13
    best = 0
    for i in range(1, 4):
        if cards[i] // 13 == led_suit and cards[i] > cards[best]:
            best = i
    return (leader + best) % 4


def _points(card: int) -> int:
    if card // 13 == HEARTS:
        return 1
    return 13 if card == QUEEN_OF_SPADES_INDEX else 0


class Game:
    """One game of Hearts: seat 0 is you, 1 Pauline (left), 2 Michele (across), 3 Ben (right)."""

    __slots__ = (
        "number",
        "moon_off_shooter",
        "hand_number",
        "phase",
        "_hands",
        "_passed",
        "_received",
        "_tricks",
        "_current",
        "history",
        "carried",
        "carried_hands",
    )

    def __init__(self) -> None:
        self.number = 0
        self.moon_off_shooter = False
        self.hand_number = 0
        self.phase = "passing"
        self._hands: list[set[int]] = [set() for _ in SEATS]
        self._passed: list[tuple[int, ...]] = [() for _ in SEATS]
        self._received: list[tuple[int, ...]] = [() for _ in SEATS]
        self._tricks: list[tuple[int, list[int]]] = []  # completed: (leader, four cards)
        self._current: tuple[int, list[int]] | None = None  # the trick on the table
        self.history: list[tuple[int, int, int, int]] = []
        # Hands beyond HISTORY_ROWS are folded into one carried row, so that the saved game
        # stays small even in a variant game that never ends (moons lower the totals).
        self.carried: tuple[int, int, int, int] = (0, 0, 0, 0)
        self.carried_hands = 0

    # ---- starting -------------------------------------------------------------------------

    @classmethod
    def new(cls, number: int, moon_off_shooter: bool = False) -> Game:
        game = cls()
        game.number = check_number(number)
        game.moon_off_shooter = bool(moon_off_shooter)
        game._deal(1)
        return game

    def _deal(self, hand_number: int) -> None:
        self.hand_number = hand_number
        self._hands = [set(cards) for cards in deal(self.number, hand_number)]
        self._passed = [() for _ in SEATS]
        self._received = [() for _ in SEATS]
        self._tricks = []
        self._current = None
        if self.pass_direction == "keep":
            self._start_play()
        else:
            self.phase = "passing"

    def _start_play(self) -> None:
        self.phase = "playing"
        leader = next(seat for seat in SEATS if 0 in self._hands[seat])
        self._current = (leader, [])

    # ---- what anyone may look at ----------------------------------------------------------

    @property
    def pass_direction(self) -> str:
        return pass_direction_for(self.hand_number)

    def pass_target(self, seat: int) -> int | None:
        """The seat that ``seat`` passes to this hand, or None on a keep hand."""
        offset = PASS_OFFSET.get(self.pass_direction)
        return None if offset is None else (seat + offset) % 4

    def hand(self, seat: int) -> list[str]:
        """That seat's cards, sorted clubs, diamonds, spades, hearts, low to high."""
        return [DECK[i].code for i in sorted(self._hands[seat])]

    def passed(self, seat: int) -> list[str]:
        """The three cards that seat chose to pass this hand (empty before it chose)."""
        return [DECK[i].code for i in self._passed[seat]]

    def received(self, seat: int) -> list[str]:
        return [DECK[i].code for i in self._received[seat]]

    def has_passed(self, seat: int) -> bool:
        return bool(self._passed[seat])

    @property
    def turn(self) -> int | None:
        if self.phase != "playing" or self._current is None:
            return None
        leader, cards = self._current
        return (leader + len(cards)) % 4

    @property
    def trick(self) -> tuple[tuple[int, str], ...]:
        if self._current is None:
            return ()
        leader, cards = self._current
        return tuple(((leader + i) % 4, DECK[c].code) for i, c in enumerate(cards))

    @property
    def trick_leader(self) -> int | None:
        return None if self._current is None else self._current[0]

    @property
    def completed_tricks(self) -> tuple[CompletedTrick, ...]:
        return tuple(self._completed(leader, cards) for leader, cards in self._tricks)

    @staticmethod
    def _completed(leader: int, cards: list[int]) -> CompletedTrick:
        plays = tuple(((leader + i) % 4, DECK[c].code) for i, c in enumerate(cards))
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
        return any(c // 13 == HEARTS for _, cards in self._tricks for c in cards)

    def taken(self, seat: int) -> list[str]:
        """The cards that seat has taken in tricks this hand, in the order taken."""
        won: list[str] = []
        for leader, cards in self._tricks:
            if _trick_winner(leader, cards) == seat:
                won.extend(DECK[c].code for c in cards)
        return won

    def hand_points(self) -> tuple[int, int, int, int]:
        """Points taken so far this hand, before any moon is applied."""
        points = [0, 0, 0, 0]
        for leader, cards in self._tricks:
            points[_trick_winner(leader, cards)] += sum(_points(c) for c in cards)
        return tuple(points)  # type: ignore[return-value]

    @property
    def totals(self) -> tuple[int, int, int, int]:
        return tuple(
            self.carried[seat] + sum(hand[seat] for hand in self.history) for seat in SEATS
        )  # type: ignore[return-value]

    @property
    def winners(self) -> tuple[int, ...]:
        if self.phase != "game_over":
            return ()
        totals = self.totals
        low = min(totals)
        return tuple(seat for seat in SEATS if totals[seat] == low)

    @property
    def moon_shooter(self) -> int | None:
        """The seat that took all 26 points in the hand just finished, if any."""
        if self.phase not in ("hand_over", "game_over") or len(self._tricks) != 13:
            return None
        points = self.hand_points()
        return next((seat for seat in SEATS if points[seat] == MOON), None)

    # ---- legality -------------------------------------------------------------------------

    def _legal(self, seat: int) -> list[int]:
        if seat != self.turn:
            return []
        hand = self._hands[seat]
        leader, cards = self._current  # type: ignore[misc]
        first_trick = not self._tricks
        if not cards:
            if first_trick:
                return [0] if 0 in hand else sorted(hand)
            if self.hearts_broken:
                return sorted(hand)
            not_hearts = [c for c in hand if c // 13 != HEARTS]
            return sorted(not_hearts or hand)
        led_suit = cards[0] // 13
        following = [c for c in hand if c // 13 == led_suit]
        if following:
            return sorted(following)
        if first_trick:
            safe = [c for c in hand if _points(c) == 0]
            return sorted(safe or hand)
        return sorted(hand)

    def legal_plays(self, seat: int) -> list[str]:
        """The codes that seat may play now: empty when it is not that seat's turn."""
        return [DECK[c].code for c in self._legal(seat)]

    def _verify_seat(self, seat: Any) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or seat not in SEATS:
            raise IllegalMove("There is no such player.")
        return seat

    def _verify_play(self, seat: int, code: str) -> int:
        seat = self._verify_seat(seat)
        if self.phase == "passing":
            raise IllegalMove("Pass three cards first.")
        if self.phase == "hand_over":
            raise IllegalMove("The hand is over. Press OK to deal the next hand.")
        if self.phase == "game_over":
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
        if not cards:
            if not self._tricks:
                raise IllegalMove("You must lead the two of clubs.")
            raise IllegalMove("Hearts has not been broken. Choose another suit.")
        led = SUITS[cards[0] // 13]
        if card.suit != led:
            if any(c // 13 == cards[0] // 13 for c in hand):
                raise IllegalMove(f"You must follow suit. Play a {SUIT_SINGULAR[led]}.")
            raise IllegalMove("You cannot play a point card on the first trick.")
        raise IllegalMove("You cannot play that card now.")  # unreachable by the rules above

    # ---- actions --------------------------------------------------------------------------

    def pass_cards(self, seat: int, codes: Any) -> None:
        """Choose three cards to pass; the exchange happens once all four seats have chosen."""
        seat = self._verify_seat(seat)
        if self.phase != "passing":
            if self.pass_direction == "keep" and self.phase == "playing":
                raise IllegalMove("No cards are passed on this hand.")
            raise IllegalMove("Cards are not being passed now.")
        if self._passed[seat]:
            raise IllegalMove("You have already passed your cards.")
        if isinstance(codes, str) or not isinstance(codes, list | tuple) or len(codes) != 3:
            raise IllegalMove("Select three cards to pass.")
        cards = [Card.parse(code) for code in codes]
        if len({card.index for card in cards}) != 3:
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
        """Play a card; raises IllegalMove with the rule's sentence and changes nothing."""
        card = self._verify_play(seat, code)
        self._hands[seat].discard(card)
        leader, cards = self._current  # type: ignore[misc]
        cards.append(card)
        if len(cards) < 4:
            return
        self._tricks.append((leader, cards))
        if len(self._tricks) < 13:
            self._current = (_trick_winner(leader, cards), [])
        else:
            self._current = None
            self._finish_hand()

    def _hand_score(self) -> tuple[int, int, int, int]:
        """The points of the 13 tricks played, the moon rule applied."""
        points = list(self.hand_points())
        if MOON in points:
            shooter = points.index(MOON)
            if self.moon_off_shooter:
                points = [-MOON if seat == shooter else 0 for seat in SEATS]
            else:
                points = [0 if seat == shooter else MOON for seat in SEATS]
        return tuple(points)  # type: ignore[return-value]

    def _finish_hand(self) -> None:
        self.history.append(self._hand_score())
        self._fold_history()
        self.phase = "game_over" if max(self.totals) >= GAME_OVER_SCORE else "hand_over"

    def _fold_history(self) -> None:
        while len(self.history) > HISTORY_ROWS:
            oldest = self.history.pop(0)
            self.carried = tuple(a + b for a, b in zip(self.carried, oldest, strict=True))  # type: ignore[assignment]
            self.carried_hands += 1

    def next_hand(self) -> None:
        if self.phase != "hand_over":
            if self.phase == "game_over":
                raise IllegalMove("The game is over. Start a new game.")
            raise IllegalMove("The hand is not over yet.")
        self._deal(self.hand_number + 1)

    # ---- copying and the compact text form -------------------------------------------------

    def copy(self) -> Game:
        other = Game()
        other.number = self.number
        other.moon_off_shooter = self.moon_off_shooter
        other.hand_number = self.hand_number
        other.phase = self.phase
        other._hands = [set(h) for h in self._hands]
        other._passed = list(self._passed)
        other._received = list(self._received)
        other._tricks = [(leader, list(cards)) for leader, cards in self._tricks]
        other._current = (
            None if self._current is None else (self._current[0], list(self._current[1]))
        )
        other.history = list(self.history)
        other.carried = self.carried
        other.carried_hands = self.carried_hands
        return other

    def to_dict(self) -> dict[str, Any]:
        def text(cards) -> str:
            return "".join(DECK[c].code for c in cards)

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
        game.number = check_number(data["n"]) if isinstance(data["n"], int) else 0
        game.moon_off_shooter = bool(data["m"])
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

        if not MIN_NUMBER <= self.number <= MAX_NUMBER:
            fail("number")
        if (
            isinstance(self.hand_number, bool)
            or not isinstance(self.hand_number, int)
            or self.hand_number < 1
        ):
            fail("hand number")
        if self.phase not in ("passing", "playing", "hand_over", "game_over"):
            fail("phase")
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
                played[(leader + i) % 4] += 1
            if len(cards) == 4:
                expected_leader = _trick_winner(leader, cards)
        if any(len(self._hands[s]) + played[s] != 13 for s in SEATS):
            fail("hand sizes")
        if self.phase == "passing":
            if self.pass_direction == "keep" or self._tricks or self._current:
                fail("passing")
            if any(not set(p) <= self._hands[s] for s, p in enumerate(self._passed)):
                fail("passed cards")
        elif self.phase == "playing":
            if self._current is None or len(self._tricks) >= 13:
                fail("playing")
        else:
            if len(self._tricks) != 13 or self._current is not None or not self.history:
                fail("hand over")
            over = max(self.totals) >= GAME_OVER_SCORE
            if over != (self.phase == "game_over"):
                fail("game over")
        if any(len(p) not in (0, 3) for p in self._passed + self._received):
            fail("pass size")
        if any(len(set(p)) != len(p) for p in self._passed + self._received):
            fail("a card passed twice")  # would give a seat more than thirteen cards
        if self.phase == "passing" or self.pass_direction == "keep":
            if any(self._received) or (self.pass_direction == "keep" and any(self._passed)):
                fail("nothing is received before the exchange or on a keep hand")
        elif any(
            len(self._passed[s]) != 3
            or sorted(self._received[self.pass_target(s)]) != sorted(self._passed[s])  # type: ignore[index]
            for s in SEATS
        ):
            fail("the exchange")
        self._validate_history()

    def _validate_history(self) -> None:
        """One possible score per finished hand, and no hand dealt after the game was over."""
        over = self.phase in ("hand_over", "game_over")
        if self.carried_hands and len(self.history) != HISTORY_ROWS:
            raise ValueError("not a consistent game: carried scores")
        if self.carried_hands + len(self.history) != self.hand_number - (0 if over else 1):
            raise ValueError("not a consistent game: history length")
        moon = sorted((-MOON, 0, 0, 0) if self.moon_off_shooter else (0, MOON, MOON, MOON))
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

    def __hash__(self) -> int:
        return hash(self.to_json())

    def __repr__(self) -> str:
        return f"Game.from_json({self.to_json()!r})"
