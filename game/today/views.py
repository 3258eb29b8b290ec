"""Today's Deal's pages: the start (Game > Today's Deal), the day's sheet after the fourth
hand, and the day's board. Each is a dialog over the table for htmx and a whole page without
JavaScript, as the menus' dialogs are."""

from __future__ import annotations

import datetime as dt
import secrets

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_http_methods, require_safe

from game.engine import Phase
from game.names import TOO_LONG, clean_name, too_long
from game.seating import TYPE_YOUR_NAME
from game.solo import actions
from game.solo.menus import closing, dialog, into_dialogs
from game.solo.views import Timing, act, load_state
from game.today import day as days
from game.today import sheet as words
from game.today import store
from game.web.player import TOKEN_CHARS, Daily, PlayerState

MARKUP = "A name on the board cannot hold < or >. Please type another."
NO_SUCH_DAY = "There is no board for that day: choose today or a day before it."
NOT_FINISHED = "Finish today's deal to see how everyone played it."


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_CHARS * 3 // 4)


def refusal_of(typed: str) -> str:
    if not clean_name(typed):
        return TYPE_YOUR_NAME
    if too_long(typed):
        return TOO_LONG
    if "<" in typed or ">" in typed:
        return MARKUP
    return ""


def first_result(state: PlayerState, day: dt.date) -> store.DayResult | None:
    """This browser's result on ``day``'s board, if it has put one there."""
    if state.streak.last != day.toordinal():
        return None
    return store.result_of(day, state.streak.token)


@require_http_methods(["GET", "HEAD", "POST"])
def start(request: HttpRequest) -> HttpResponse:
    """Game > Today's Deal: what it is and one button (asking for the name on the board)."""
    timing = Timing()
    state = load_state(request, timing)
    day = days.today()
    playing = _playing_today(state, day)
    context = {
        "day": days.readable(day),
        "first": first_result(state, day) if request.method != "POST" else None,
        "in_progress": actions.in_progress(state) and not playing,
        "leaving": actions.leaving_words(state),
        "playing": playing,
        "current": state.game.number if state.game else None,
        "name": state.options.name,
        "asks_name": not state.options.name,  # in place of the name prompt behind it
        "dialog_status": "Type your name and press Play Today's Deal.",
        "streak": state.streak.running(day.toordinal()),
    }
    if request.method in ("GET", "HEAD"):
        return dialog(request, "today", context, state, timing)
    typed = request.POST.get("name", "")
    refusal = refusal_of(typed)
    if refusal:
        context.update(message=refusal, name=typed[:100])
        return into_dialogs(dialog(request, "today", context, state, timing), request)

    def play_today(state: PlayerState, clock: actions.Clock) -> None:
        state.options.name = clean_name(typed)
        practice = state.streak.last == day.toordinal()
        daily = Daily(day.toordinal(), new_token(), practice)
        actions.start_game(state, days.number_of(day), clock, daily=daily)

    return closing(act(request, play_today), request)


def _playing_today(state: PlayerState, day: dt.date) -> bool:
    game = state.game
    return (
        state.daily is not None
        and state.daily.day == day.toordinal()
        and game is not None
        and game.phase != Phase.GAME_OVER
    )


@require_safe
def day_sheet(request: HttpRequest) -> HttpResponse:
    """After the fourth hand: your points beside the computers' in your seat and everyone's."""
    timing = Timing()
    state = load_state(request, timing)
    shown = _sheet_of(state)
    context = {"sheet": shown, "not_finished": NOT_FINISHED}
    return dialog(request, "today_sheet", context, state, timing)


def _sheet_of(state: PlayerState) -> words.DaySheet | None:
    daily, game = state.daily, state.game
    if daily is not None and game is not None and game.phase == Phase.GAME_OVER:
        day = dt.date.fromordinal(daily.day)
        tally = state.tally
        on_board = store.result_of(day, daily.token) or first_result(state, day)
        return words.day_sheet(
            day,
            store.points_of(game),
            daily.passes,
            tally.hints if tally else 0,
            tally.undos if tally else 0,
            on_board,
            practice=daily.practice,
            streak=state.streak.running(days.today().toordinal()),
        )
    day = days.today()
    first = first_result(state, day)
    if first is None:
        return None
    return words.day_sheet(
        day,
        first.hand_points,
        store.passes_of(first),
        first.hints,
        first.undos,
        first,
        practice=False,
        streak=state.streak.running(day.toordinal()),
    )


@require_safe
def board(request: HttpRequest, on: str = "") -> HttpResponse:
    """The day's results by place (results only, no cards); today's with yesterday's beside."""
    timing = Timing()
    state = load_state(request, timing)
    today = days.today()
    day = days.parse(on) if on else today
    if day is None or day > today:
        context = {"message": NO_SUCH_DAY, "today": today}
        response = dialog(request, "today_board", context, state, timing)
        response.status_code = 404
        return response
    boards = [store.board(day)]
    if day == today:
        boards.append(store.board(today - dt.timedelta(days=1)))
    mine = first_result(state, day)
    context = {
        "boards": [(b, days.readable(b.day), b.day == today) for b in boards],
        "mine": mine.id if mine else None,
        "earlier": (boards[-1].day - dt.timedelta(days=1)).isoformat(),
        "today": today,
    }
    return dialog(request, "today_board", context, state, timing)
