"""The solo game's adapter around the seat core (``game.seating``): the state is the cookie's
``PlayerState``, the person sits in seat 0 (HUMAN) and the computers in the others. What is the
solo game's own: the statistics, Undo, and a new game when one is left.

Each action either raises IllegalMove (the sentence to show; the view then reads the state
afresh) or changes the state and lets the computer players move until it is the human's turn
again.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from game import seating
from game.engine import Game, IllegalMove, Phase
from game.seating import Clock, plays_so_far
from game.web.challenge import Challenge, Tally
from game.web.player import HUMAN, Daily, PlayerState, new_number
from game.web.table import gathering_ms

DAILY_HANDS = 4  # Today's Deal: one hand of each pass

# The wall clock Undo's window is measured by, in seconds: a test sets its own to drive time.
wall_clock: Callable[[], float] = time.time


def now_ms() -> int:
    return round(wall_clock() * 1000)


def person(seat: int) -> bool:
    """Whether a person plays ``seat``: only you, in seat 0."""
    return seat == HUMAN


NO_GAME = "Start a new game first."


def require_game(state: PlayerState) -> Game:
    return seating.require_game(state.game, NO_GAME)


def start_game(
    state: PlayerState,
    number: int,
    clock: Clock,
    challenge: Challenge | None = None,
    daily: Daily | None = None,
) -> None:
    """Begin game ``number``; a game left unfinished counts as played and lost. Taking up a
    ``challenge``, the game has the challenge's moon rule (your Options stay as they are).
    Today's Deal (``daily``) is four hands under the usual moon rule, the same for everyone."""
    moon_off_shooter = state.options.moon_off_shooter
    if challenge is not None:
        moon_off_shooter = challenge.moon_off_shooter
    if daily is not None:
        moon_off_shooter = False
    game = Game.new(
        number,
        moon_off_shooter=moon_off_shooter,
        finish_dead_hands=state.options.finish_dead_hands,
        hands=DAILY_HANDS if daily is not None else 0,
    )
    abandon(state)
    state.last_hand = seating.kept_for_review(state.game, state.last_hand)
    state.game = game
    state.selected = []
    state.awaiting_ok = False
    state.undo = None
    state.recorded = False
    state.fresh_from = 0
    state.tally = Tally(number)
    state.challenge = challenge
    state.daily = daily
    state.seq += 1
    advance(state, clock)


def abandon(state: PlayerState) -> None:
    """A game left while in progress counts as played and lost (Today's Deal, four hands, is
    not a game of the statistics)."""
    if in_progress(state) and state.daily is None:
        state.stats.record(won=False, score=None)
        state.stats.moons += state.game.moons_shot(HUMAN)  # type: ignore[union-attr]
        state.recorded = True


def toggle(state: PlayerState, code: str) -> None:
    seating.toggle(require_game(state), HUMAN, state, code)
    state.seq += 1


def pass_selected(state: PlayerState, clock: Clock) -> None:
    """Your pass, then the computers' at once: the cards change hands, shown raised until OK."""
    game = require_game(state)
    chosen = "".join(sorted(state.selected))
    seating.pass_selected(game, HUMAN, state)
    if state.daily is not None and len(state.daily.passes) == game.hand_number - 1:
        state.daily.passes.append(chosen)  # the day's pass shares count it
    seating.computers_pass(game, person, clock.think)
    state.awaiting_ok = True
    state.fresh_from = 0
    state.seq += 1


def accept(state: PlayerState, clock: Clock) -> None:
    require_game(state)
    seating.accept(state)
    state.fresh_from = 0
    state.seq += 1
    advance(state, clock)


def play(state: PlayerState, code: str, clock: Clock) -> None:
    game = require_game(state)
    before = game.to_dict()
    fresh_from = plays_so_far(game)
    seating.play(game, HUMAN, state, code)
    state.undo = before
    state.fresh_from = fresh_from
    state.seq += 1
    advance(state, clock)
    state.answered = now_ms()  # Undo's window runs from this answer (``still_drawn``)


def next_hand(state: PlayerState, clock: Clock) -> None:
    game = require_game(state)
    if game.phase == Phase.GAME_OVER:
        start_game(state, new_number(), clock)
        return
    state.last_hand = seating.next_hand(game, state.last_hand)
    state.undo = None
    state.fresh_from = 0
    state.seq += 1
    advance(state, clock)


def advance(state: PlayerState, clock: Clock) -> None:
    """The computer players move until it is the human's turn or the hand is over."""
    game = state.game
    if game is None or state.awaiting_ok:
        return
    seating.computers_play(game, person, clock.think)
    if game.phase == Phase.GAME_OVER and not state.recorded and state.daily is not None:
        state.recorded = True  # Today's Deal is settled by game.today, not the statistics
    if game.phase == Phase.GAME_OVER and not state.recorded:
        totals = game.totals
        state.stats.record(won=HUMAN in game.winners, score=totals[HUMAN], number=game.number)
        state.stats.moons += game.moons_shot(HUMAN)
        state.recorded = True


# -- undo, hint, and whether a game is in progress ------------------------------------------


def in_progress(state: PlayerState) -> bool:
    """Whether leaving this game now would count it as played and lost."""
    game = state.game
    if game is None or state.recorded or game.phase == Phase.GAME_OVER:
        return False
    return game.hand_number > 1 or plays_so_far(game) > 0 or game.has_passed(HUMAN)


LOST = "The game you leave counts as played and lost."
LEFT_DAILY = "Today's deal you leave is not counted: you may start it again."


def leaving_words(state: PlayerState) -> str:
    """What leaving the game in progress costs, said by the dialogs that would leave it."""
    return LEFT_DAILY if state.daily is not None else LOST


NO_CARD_TO_UNDO = "There is no card of yours on the table to take back."
NEXT_TRICK_BEGUN = "The next trick has begun, so your card can no longer be taken back."


def undo(state: PlayerState, clock: Clock) -> None:
    """Take back your last card while it is still on the table; the computers then decide
    afresh, which the game number makes the same as before for the same card."""
    game = require_game(state)
    before = _undoable(state, game)
    if before is None:
        raise IllegalMove(NO_CARD_TO_UNDO)
    if next_trick_begun(before, game) and not still_drawn(state):
        raise IllegalMove(NEXT_TRICK_BEGUN)
    state.took_back = next(c for c in before.hand(HUMAN) if c not in game.hand(HUMAN))
    state.game = before
    state.undo = None
    state.fresh_from = plays_so_far(before)
    if state.tally is not None:
        state.tally.undo()
    state.seq += 1


UNDO_ON = "on"  # offered until you play again: nobody has played to the next trick
UNDO_UNTIL_GATHERED = "until-gathered"  # offered while the page still draws your card's trick
UNDO_OFF = "off"


def undo_offer(state: PlayerState) -> str:
    """Whether Undo Card is offered now (the menu item lit), exactly when ``undo`` would act:
    UNDO_UNTIL_GATHERED when only the window of ``still_drawn`` allows it."""
    game = state.game
    before = None if game is None else _undoable(state, game)
    if before is None:
        return UNDO_OFF
    if not next_trick_begun(before, game):
        return UNDO_ON
    return UNDO_UNTIL_GATHERED if still_drawn(state) else UNDO_OFF


def undo_offered(state: PlayerState) -> bool:
    return undo_offer(state) != UNDO_OFF


def close_undo_window(state: PlayerState) -> bool:
    """End the window of ``still_drawn`` (the page about to draw the table as it stands shows
    the next lead); returns whether the state changed."""
    if undo_offer(state) != UNDO_UNTIL_GATHERED:
        return False
    state.answered = 0
    return True


def next_trick_begun(before: Game, game: Game) -> bool:
    """Whether anyone has played to the trick after the one your card went to. Taking your
    card back once that lead is seen would let you choose again knowing it."""
    return before.tricks_played < game.tricks_played and bool(game.trick)


def still_drawn(state: PlayerState) -> bool:
    """Whether the page that answered your card still draws the trick it went to: the answer
    shows the computers' cards after yours, the pause and the gathering, then the next
    trick's lead (``table.schedule`` at the speed option). Until the gathering ends (the page
    greys Undo when it begins: the rest is the slack for the request's way back), Undo is
    accepted; at speed None the page draws the lead at once and there is no window."""
    game = state.game
    drawn = None if game is None else gathering_ms(game, state.fresh_from, state.options.speed)
    if drawn is None or not state.answered:
        return False
    return 0 <= now_ms() - state.answered < drawn[1]


def _undoable(state: PlayerState, game: Game) -> Game | None:
    if state.undo is None or game.phase != Phase.PLAYING or state.awaiting_ok:
        return None
    try:
        before = Game.from_dict(state.undo)
    except ValueError:
        return None
    same_hand = (
        before.number == game.number
        and before.hand_number == game.hand_number
        and before.phase == Phase.PLAYING
        and before.turn == HUMAN
    )
    # your card went into the trick that was current before it: still the current trick or,
    # once the computers finished it, the last completed one (it stays shown on the table)
    if not same_hand or before.tricks_played < game.tricks_played - 1:
        return None
    return before


def hint(state: PlayerState, clock: Clock) -> seating.Hint:
    """The cards the computer player would choose in your seat; nothing is played, but the
    game's tally counts it (a challenge's result says how many hints it took)."""
    found = seating.hint(require_game(state), HUMAN, state, clock.think)
    if state.tally is not None:
        state.tally.hint(state.seq)
    return found
