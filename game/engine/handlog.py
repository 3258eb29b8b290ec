"""The hand log: a finished hand kept compactly, for its review. What deals it comes back from
the game number or the table's secret seed, the passes from the deal and the plays; replayed,
the engine checks every card again. The solo game and a network table keep the hand just
finished (``kept_for_review``) while the next is played; the review reads it (``last_hand``)."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import INDEX_OF
from .errors import IllegalMove
from .game import SEATS, Game, Phase, seat_after

TRICK_TEXT = 9  # a trick in the record: the leader's seat, then four codes


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A finished hand, compactly: what deals it (number, or secret seed) and its thirteen
    tricks in the engine's text (each: the leader's seat, then four codes in play order)."""

    number: int
    seed: bytes
    moon_off_shooter: bool
    hand_number: int
    tricks: str

    @classmethod
    def of(cls, game: Game) -> HandRecord | None:
        """The hand ``game`` has just finished, or None while no hand is finished."""
        if not game.phase.over or game.tricks_played != 13:
            return None
        text = "".join(
            f"{trick.leader}{''.join(code for _, code in trick.plays)}"
            for trick in game.completed_tricks
        )
        return cls(game.number, game.seed, game.moon_off_shooter, game.hand_number, text)

    def to_dict(self) -> dict:
        data: dict = {"n": self.number, "k": self.hand_number, "t": self.tricks}
        if self.moon_off_shooter:
            data["m"] = 1
        if self.seed:
            data["z"] = self.seed.hex()
        return data

    @classmethod
    def from_dict(cls, data: object) -> HandRecord:
        """A record read back; ValueError unless it is a hand the engine plays through."""
        try:
            record = cls(
                number=int(data["n"]),  # type: ignore[index]
                seed=bytes.fromhex(data.get("z", "")),  # type: ignore[union-attr]
                moon_off_shooter=bool(data.get("m", 0)),  # type: ignore[union-attr]
                hand_number=int(data["k"]),  # type: ignore[index]
                tricks=str(data["t"]),  # type: ignore[index]
            )
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise ValueError("not a finished hand") from error
        record.replay()
        return record

    def plays(self) -> list[tuple[int, list[str]]]:
        text = self.tricks
        if len(text) != 13 * TRICK_TEXT:
            raise ValueError("not thirteen tricks")
        out = []
        for start in range(0, len(text), TRICK_TEXT):
            leader = text[start]
            if leader not in "0123":
                raise ValueError("not a seat")
            chunk = text[start + 1 : start + TRICK_TEXT]
            out.append((int(leader), [chunk[i : i + 2] for i in range(0, 8, 2)]))
        return out

    def dealt(self) -> Game:
        """The hand as dealt, before any pass."""
        try:
            return Game.at_hand(self.number, self.hand_number, self.moon_off_shooter, self.seed)
        except IllegalMove as error:
            raise ValueError("not a game") from error

    def passes(self) -> list[list[str]]:
        """Each seat's cards passed (empty on a keep hand): what it was dealt and never
        played, as the cards it received are the ones it played and was not dealt."""
        start = self.dealt()
        played: list[set[str]] = [set() for _ in SEATS]
        for leader, codes in self.plays():
            for i, code in enumerate(codes):
                played[seat_after(leader, i)].add(code)
        return [sorted(set(start.hand(s)) - played[s], key=INDEX_OF.get) for s in SEATS]

    def replay(self, until=None) -> Game:
        """The hand played through the engine, which checks every pass and card; ``until``,
        called with the game before each play as ``until(game, seat, code)``, may look on."""
        game = self.dealt()
        try:
            if game.phase == Phase.PASSING:
                passes = self.passes()
                if until is not None:
                    until(game, None, None)
                for seat in SEATS:
                    game.pass_cards(seat, passes[seat])
            for leader, codes in self.plays():
                if game.trick_leader != leader:
                    raise ValueError("a trick led by the wrong seat")
                for i, code in enumerate(codes):
                    seat = seat_after(leader, i)
                    if until is not None:
                        until(game, seat, code)
                    game.play(seat, code)
        except IllegalMove as error:
            raise ValueError(f"not a legal hand: {error}") from error
        if not game.phase.over:
            raise ValueError("the hand did not finish")
        return game


def kept_for_review(game: Game | None, kept: dict | None) -> dict | None:
    """What to keep when ``game`` moves on from its hand (to the next hand, or a new game):
    the hand it has just finished, else whatever was kept already."""
    record = None if game is None else HandRecord.of(game)
    return record.to_dict() if record is not None else kept


def last_hand(game: Game | None, kept: dict | None) -> HandRecord | None:
    """The hand to review: the one ``game`` has just finished, else the one kept while the
    next hand is played; None when there is none (or what was kept is not a hand)."""
    record = None if game is None else HandRecord.of(game)
    if record is not None or not kept:
        return record
    try:
        return HandRecord.from_dict(kept)
    except ValueError:
        return None
