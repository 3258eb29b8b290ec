"""The seat core: what a seat does, written once for the solo game and the network tables.

A seat chooses the cards to pass and passes them, accepts the cards it received, plays, asks
for a hint, keeps the finished hand for its review; the computers move for every seat no
person plays. The solo game (``game.solo.actions``) and a network table
(``game.network.state``) are adapters around these functions: they say where the state lives
(a cookie, a row) and who may act, and hand in the seat's own choices as ``Mine`` (an object
with ``selected`` and ``awaiting_ok``: the solo ``PlayerState`` and the network's ``Seat`` both
are one). Plain Python, no Django.

Here too: the computers' names, the sentences a seat's refusals share, the form's ``seq`` that
tells a page sent twice, and the clock through which the computers think."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from game import players
from game.engine import PASS_SIZE, PLAYER_NAMES, SEATS, Game, IllegalMove, Phase
from game.engine.handlog import kept_for_review as kept_for_review  # a hand kept when left
from game.players.review import decide as decide  # ask directly, when no Clock paces thinking

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


def attempt(sent: str | None, seq: int, action: Callable[[], None]) -> str | None:
    """The middle of every action's envelope, for the solo game and a network table alike
    (each reads its state before and saves and draws it after): a form from an older page is
    refused, else ``action`` runs. The sentence to show (a refusal leaves the state to be read
    afresh: whatever the action began to change is dropped), or None when the action was done.
    """
    if stale(sent, seq):
        return ALREADY_DONE
    try:
        action()
    except IllegalMove as refusal:
        return str(refusal)
    return None


def plays_so_far(game: Game) -> int:
    """Cards played in this hand: the tricks taken and the trick on the table."""
    return game.tricks_played * 4 + len(game.trick)


def require_game(game: Game | None, missing: str) -> Game:
    """The game, or the refusal ``missing`` while there is none."""
    if game is None:
        raise IllegalMove(missing)
    return game


class Mine(Protocol):
    """A seat's own choices: the cards it has chosen to pass, and whether the cards it received
    are shown raised until it presses OK."""

    selected: list[str]
    awaiting_ok: bool


Think = Callable[..., Any]  # think(fn, *args): how a computer's decision is asked


# ---- what a seat does ---------------------------------------------------------------------


def toggle(game: Game, seat: int, me: Mine, code: str) -> None:
    """Raise or lower one card of ``seat``'s hand among the (at most three) chosen to pass."""
    if game.phase != Phase.PASSING or game.has_passed(seat):
        raise IllegalMove(NOT_PASSING)
    card = code.strip().upper() if isinstance(code, str) else ""
    if card not in game.hand(seat):
        raise IllegalMove(NOT_IN_HAND)
    if card in me.selected:
        me.selected.remove(card)
    elif len(me.selected) >= PASS_SIZE:
        raise IllegalMove(ONLY_THREE)
    else:
        me.selected.append(card)


def pass_selected(game: Game, seat: int, me: Mine) -> bool:
    """Pass the cards ``me`` chose (the engine refuses anything but three of the seat's own);
    whether that was the fourth pass, so that the cards changed hands."""
    game.pass_cards(seat, me.selected)
    me.selected = []
    return game.phase != Phase.PASSING


def accept(me: Mine) -> None:
    """OK on the cards received: they stop being shown raised."""
    if not me.awaiting_ok:
        raise IllegalMove(NOTHING_TO_ACCEPT)
    me.awaiting_ok = False


def play(game: Game, seat: int, me: Mine, code: str) -> None:
    """Play ``code`` from ``seat``'s hand, once the cards received are accepted."""
    if me.awaiting_ok:
        raise IllegalMove(PRESS_OK)
    game.play(seat, code)


@dataclass(frozen=True, slots=True)
class Hint:
    """What H shows: the cards a computer would choose in the seat, and the figures of that very
    decision, from which the status bar says why (``game.web.hint_words``)."""

    cards: list[str]
    figures: players.PlayFigures | players.PassFigures


def hint(game: Game, seat: int, me: Mine, think: Think = decide, away: bool = False) -> Hint:
    """The cards a computer player would choose in ``seat`` now, from what that seat knows, with
    the search's figures; nothing is played. ``away``: a computer is playing the seat, so there
    is nothing to hint."""
    if game.phase == Phase.PASSING and not game.has_passed(seat) and not away:
        passing = think(players.weigh_pass, game.copy(), seat)
        return Hint([code for code in game.hand(seat) if code in passing.cards], passing)
    if me.awaiting_ok:
        raise IllegalMove(PRESS_OK)
    if game.phase == Phase.PLAYING and game.turn == seat and not away:
        playing = think(players.weigh_play, game.copy(), seat)
        return Hint([playing.card], playing)
    raise IllegalMove(NO_HINT)


def computers_pass(game: Game, person: Callable[[int], bool], think: Think = decide) -> bool:
    """Every seat no person plays passes, if the cards are being passed and it has not yet;
    whether the cards changed hands in doing so."""
    if game.phase != Phase.PASSING:
        return False
    for seat in SEATS:
        if not person(seat) and not game.has_passed(seat):
            game.pass_cards(seat, think(players.choose_pass, game, seat))
    return game.phase != Phase.PASSING


def computers_play(
    game: Game, person: Callable[[int], bool], think: Think = decide, choose=None
) -> None:
    """The seats no person plays play until a person's turn comes or the hand is over;
    ``choose`` decides (the solo game's ``players.choose_play`` when not given)."""
    choose = choose or players.choose_play
    while game.phase == Phase.PLAYING and not person(game.turn):
        seat = game.turn
        game.play(seat, think(choose, game, seat))


def next_hand(game: Game, last_hand: dict | None) -> dict | None:
    """Deal the next hand of ``game`` (its hand is over); the hand just finished, kept for its
    review, is returned."""
    kept = kept_for_review(game, last_hand)
    game.next_hand()
    return kept


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
