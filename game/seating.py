"""What a seat adds around the engine, stated once for the solo game and the network tables:
the computers' names, the three cards a seat chooses to pass, how far a hand has been played,
the sentences a seat's refusals share, and the clock through which the computers think."""

from __future__ import annotations

import threading
import time

from game.engine import PASS_SIZE, PLAYER_NAMES, Game, IllegalMove, Phase

COMPUTER_NAMES = PLAYER_NAMES[1:]  # Pauline, Michele and Ben, in seats 1, 2 and 3

ALREADY_DONE = "That was already done. The table shows where the game is now."
TYPE_YOUR_NAME = "Please type your name."
PRESS_OK = "Press OK to accept cards."
NOT_PASSING = "Cards are not being passed now."
NOT_IN_HAND = "Select a card from your hand."
ONLY_THREE = "You can pass only three cards. Click a raised card to lower it."
NOTHING_TO_ACCEPT = "There are no cards to accept."
NO_HINT = "There is nothing to choose now, so there is no hint."


SEQ_FIELD = "seq"  # each table form's count of the seat's actions when the page was drawn


def stale(sent: str | None, seq: int) -> bool:
    """Whether a form was sent from an older page than the seat's (sent twice, or from another
    tab): a form that carries a seq must carry the current one. A form without one (New Game,
    the name) is not tied to a moment of the table, in the solo game and at a network table
    alike; whoever could leave it out could as well copy it from their own page."""
    return sent is not None and sent != str(seq)


def plays_so_far(game: Game) -> int:
    """Cards played in this hand: the tricks taken and the trick on the table."""
    return game.tricks_played * 4 + len(game.trick)


def require_game(game: Game | None, missing: str) -> Game:
    """The game, or the refusal ``missing`` while there is none."""
    if game is None:
        raise IllegalMove(missing)
    return game


def toggle(game: Game, seat: int, selected: list[str], code: str) -> None:
    """Raise or lower one card of ``seat``'s hand among the (at most three) chosen to pass."""
    if game.phase != Phase.PASSING or game.has_passed(seat):
        raise IllegalMove(NOT_PASSING)
    card = code.strip().upper() if isinstance(code, str) else ""
    if card not in game.hand(seat):
        raise IllegalMove(NOT_IN_HAND)
    if card in selected:
        selected.remove(card)
    elif len(selected) >= PASS_SIZE:
        raise IllegalMove(ONLY_THREE)
    else:
        selected.append(card)


# The computer players' thinking is CPU work that may wait; the rest of the site may not. At
# most THINKERS requests of a process think at once, the others wait their turn without holding
# the interpreter, so /healthz and the pages are served between two moves' thinking.
THINKERS = 1
_thinking = threading.BoundedSemaphore(THINKERS)


class Clock:
    """Milliseconds spent by the computer players in one request, for Server-Timing: thinking,
    and waiting for a turn to think. Every decision of the solo game and of a network table
    goes through ``think``."""

    def __init__(self) -> None:
        self.think_ms = 0.0
        self.wait_ms = 0.0
        self.spans: list[tuple[float, float]] = []  # (start, end) of each wait-and-think

    def think(self, fn, *args):
        start = time.perf_counter()
        with _thinking:
            began = time.perf_counter()
            try:
                return fn(*args)
            finally:
                end = time.perf_counter()
                self.wait_ms += (began - start) * 1000
                self.think_ms += (end - began) * 1000
                self.spans.append((start, end))

    def inside_ms(self, since: float) -> float:
        """The waiting and thinking that began at or after ``since``."""
        return sum(end - start for start, end in self.spans if start >= since) * 1000
