"""What a player's requests do to the state: plain Python over the engine and the players.

Each action either raises IllegalMove (the sentence to show; the state is untouched) or changes
the state and lets the computer players move until it is the human's turn again.
"""

from __future__ import annotations

from game import players, seating
from game.engine import SEATS, Game, IllegalMove, Phase
from game.review import kept_for_review
from game.seating import PRESS_OK, Clock, plays_so_far
from game.web.player import HUMAN, PlayerState, new_number

COMPUTERS = tuple(seat for seat in SEATS if seat != HUMAN)


NO_GAME = "Start a new game first."


def require_game(state: PlayerState) -> Game:
    return seating.require_game(state.game, NO_GAME)


def start_game(state: PlayerState, number: int, clock: Clock) -> None:
    """Begin game ``number``; a game left unfinished counts as played and lost."""
    game = Game.new(
        number,
        moon_off_shooter=state.options.moon_off_shooter,
        finish_dead_hands=state.options.finish_dead_hands,
    )
    abandon(state)
    state.last_hand = kept_for_review(state.game, state.last_hand)
    state.game = game
    state.selected = []
    state.awaiting_ok = False
    state.undo = None
    state.recorded = False
    state.fresh_from = 0
    state.seq += 1
    advance(state, clock)


def abandon(state: PlayerState) -> None:
    """A game left while in progress counts as played and lost."""
    if in_progress(state):
        state.stats.record(won=False, score=None)
        state.stats.moons += state.game.moons_shot(HUMAN)  # type: ignore[union-attr]
        state.recorded = True


def toggle(state: PlayerState, code: str) -> None:
    seating.toggle(require_game(state), HUMAN, state.selected, code)
    state.seq += 1


def pass_selected(state: PlayerState, clock: Clock) -> None:
    trial = require_game(state).copy()  # the engine refuses anything but three of your cards
    trial.pass_cards(HUMAN, state.selected)
    for seat in COMPUTERS:
        trial.pass_cards(seat, clock.think(players.choose_pass, trial, seat))
    state.game = trial
    state.selected = []
    state.awaiting_ok = True
    state.fresh_from = 0
    state.seq += 1


def accept(state: PlayerState, clock: Clock) -> None:
    require_game(state)
    if not state.awaiting_ok:
        raise IllegalMove(seating.NOTHING_TO_ACCEPT)
    state.awaiting_ok = False
    state.fresh_from = 0
    state.seq += 1
    advance(state, clock)


def play(state: PlayerState, code: str, clock: Clock) -> None:
    game = require_game(state)
    if state.awaiting_ok:
        raise IllegalMove(PRESS_OK)
    before = game.to_dict()
    fresh_from = plays_so_far(game)
    game.play(HUMAN, code)
    state.undo = before
    state.fresh_from = fresh_from
    state.seq += 1
    advance(state, clock)


def next_hand(state: PlayerState, clock: Clock) -> None:
    game = require_game(state)
    if game.phase == Phase.GAME_OVER:
        start_game(state, new_number(), clock)
        return
    state.last_hand = kept_for_review(game, state.last_hand)
    game.next_hand()
    state.undo = None
    state.fresh_from = 0
    state.seq += 1
    advance(state, clock)


def advance(state: PlayerState, clock: Clock) -> None:
    """The computer players move until it is the human's turn or the hand is over."""
    game = state.game
    if game is None or state.awaiting_ok:
        return
    while game.phase == Phase.PLAYING and game.turn != HUMAN:
        seat = game.turn
        game.play(seat, clock.think(players.choose_play, game, seat))
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


def undo(state: PlayerState, clock: Clock) -> None:
    """Take back your last card while it is still on the table; the computers then decide
    afresh, which the game number makes the same as before for the same card."""
    game = require_game(state)
    before = _undoable(state, game)
    if before is None:
        raise IllegalMove("There is no card of yours on the table to take back.")
    state.game = before
    state.undo = None
    state.fresh_from = plays_so_far(before)
    state.seq += 1


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


def hint(state: PlayerState, clock: Clock) -> list[str]:
    """The cards the computer player would choose in your seat; nothing is played."""
    game = require_game(state)
    if game.phase == Phase.PASSING and not game.has_passed(HUMAN):
        chosen = set(clock.think(players.choose_pass, game.copy(), HUMAN))
        return [code for code in game.hand(HUMAN) if code in chosen]
    if game.phase == Phase.PLAYING and not state.awaiting_ok and game.turn == HUMAN:
        return [clock.think(players.choose_play, game.copy(), HUMAN)]
    if state.awaiting_ok:
        raise IllegalMove(PRESS_OK)
    raise IllegalMove(seating.NO_HINT)
