"""The menus' pages and dialogs: numbered games, options, statistics, undo and hint.

A dialog is a server-rendered ``<dialog>``: an htmx request gets the dialog alone (hearts.js
shows it with showModal()), a plain request gets the whole page with the dialog open over
the table, so every item of the menus also works without JavaScript.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRefresh, reswap, retarget

from game import __version__
from game.engine import IllegalMove, check_number
from game.solo import actions, views
from game.solo.forms import OptionsForm
from game.solo.views import (
    Timing,
    act,
    load_state,
    save_state,
    see_other,
    show_table,
    table_address,
)
from game.web import table
from game.web.last_trick import last_trick_view, why_none
from game.web.player import HUMAN, SPEEDS, PlayerState, Stats
from game.web.respond import dialog_or_page, render_fresh

SPEED_LABELS = {"slow": "Slow", "normal": "Normal", "fast": "Fast", "none": "None"}
NUMBER_ECHO_MAX = 20  # of a refused game number, the characters shown back in the field
CLOSE_DIALOGS = '\n<div id="dialogs" hx-swap-oob="innerHTML"></div>\n'


def dialog(
    request: HttpRequest,
    name: str,
    context: dict | None = None,
    state: PlayerState | None = None,
    timing: Timing | None = None,
) -> HttpResponse:
    """The dialog alone for htmx; for a plain request the table with the dialog open over it."""
    template = f"game/dialog_{name}.html"
    context = dict(context or {})

    def page() -> HttpResponse:
        clock = timing or Timing()
        seen = state if state is not None else load_state(request, clock)
        return show_table(request, seen, clock, dialog=template, extra=context)

    return dialog_or_page(request, template, context, page)


def closing(response: HttpResponse, request: HttpRequest) -> HttpResponse:
    """After a dialog's form did its work: htmx also empties the dialog container."""
    if request.htmx and response.status_code == 200:
        response.content += CLOSE_DIALOGS.encode()
    return response


def into_dialogs(response: HttpResponse, request: HttpRequest) -> HttpResponse:
    """A form that aimed at the table was refused: its dialog comes back, with the reason."""
    if request.htmx:
        response = reswap(retarget(response, "#dialogs"), "innerHTML")
    return response


# -- Help menu ---------------------------------------------------------------------------------


@require_safe
def help_contents(request: HttpRequest) -> HttpResponse:
    return dialog(request, "help")


@require_safe
def quote(request: HttpRequest) -> HttpResponse:
    return dialog(request, "quote")


@require_safe
def about(request: HttpRequest) -> HttpResponse:
    return dialog(request, "about", {"version": __version__})


# -- Game menu ---------------------------------------------------------------------------------


@require_safe
def score(request: HttpRequest) -> HttpResponse:
    timing = Timing()
    state = load_state(request, timing)
    sheet_view = table.build(state) if state.game is not None else None
    context = {"sheet_view": sheet_view, "compared": views.compared(state)}
    return dialog(request, "score", context, state, timing)


@require_http_methods(["GET", "HEAD", "POST"])
def new_game(request: HttpRequest) -> HttpResponse:
    """New Game (F2): GET asks first when a game in progress would be lost, as Select Game
    does (hearts.js skips the question when nothing would be lost); POST starts the game."""
    timing = Timing()
    state = load_state(request, timing)
    if request.method in ("GET", "HEAD"):
        context = {
            "in_progress": actions.in_progress(state),
            "leaving": actions.leaving_words(state),
            "current": state.game.number if state.game else None,
        }
        return dialog(request, "new_game", context, state, timing)
    return closing(views.new_game(request), request)


@require_http_methods(["GET", "HEAD", "POST"])
def select_game(request: HttpRequest) -> HttpResponse:
    timing = Timing()
    state = load_state(request, timing)
    context = {
        "in_progress": actions.in_progress(state),
        "leaving": actions.leaving_words(state),
        "number": "",
    }
    if request.method in ("GET", "HEAD"):
        return dialog(request, "select_game", context, state, timing)
    sent = request.POST.get("number", "")
    try:
        number = check_number(sent)
    except IllegalMove as refusal:
        context.update(number=sent[:NUMBER_ECHO_MAX], message=str(refusal))
        response = dialog(request, "select_game", context, state, timing)
        return into_dialogs(response, request)
    response = act(request, lambda state, clock: actions.start_game(state, number, clock))
    return closing(response, request)


@require_http_methods(["GET", "HEAD", "POST"])
def open_game(request: HttpRequest, number: str) -> HttpResponse:
    """``/game/617/``: GET asks (hearts.js skips the question when nothing would be lost),
    POST starts the game."""
    timing = Timing()
    state = load_state(request, timing)
    try:
        chosen = check_number(number)
    except IllegalMove as refusal:
        return dialog(request, "refusal", {"message": str(refusal)}, state, timing)
    if request.method in ("GET", "HEAD"):
        if not state.options.name and not request.htmx:
            # a first visitor's page (a link without JavaScript): the name prompt alone, one
            # dialog at a time, and the game it names starts with the name
            return show_table(request, state, timing, extra={"link_number": chosen})
        context = {
            "number": chosen,
            "in_progress": actions.in_progress(state),
            "leaving": actions.leaving_words(state),
            "current": state.game.number if state.game else None,
        }
        return dialog(request, "open_game", context, state, timing)
    response = act(request, lambda state, clock: actions.start_game(state, chosen, clock))
    return closing(response, request)


@require_http_methods(["GET", "HEAD", "POST"])
def options(request: HttpRequest) -> HttpResponse:
    timing = Timing()
    state = load_state(request, timing)
    context = {"speeds": [(s, SPEED_LABELS[s]) for s in SPEEDS], "form": state.options}
    if request.method in ("GET", "HEAD"):
        return dialog(request, "options", context, state, timing)
    form = OptionsForm(request.POST)
    message = form.refusal()
    if message:
        context.update(form=form.options(state.options), message=message)
        response = dialog(request, "options", context, state, timing)
        return into_dialogs(response, request)
    state.options = form.options(state.options)
    save_state(request, state, timing)
    if request.htmx:
        return HttpResponseClientRefresh()  # the speed is a class on <body>: load it afresh
    return see_other()


def streak_text(stats: Stats) -> str:
    if stats.streak > 0:
        return f"{stats.streak} win{'s' if stats.streak > 1 else ''}"
    if stats.streak < 0:
        return f"{-stats.streak} loss{'es' if stats.streak < -1 else ''}"
    return "none"


def stats_context(state: PlayerState, message: str = "") -> dict:
    return {"stats": state.stats, "streak": streak_text(state.stats), "message": message}


@require_safe
def stats(request: HttpRequest) -> HttpResponse:
    timing = Timing()
    state = load_state(request, timing)
    # the dialog's message is the status line's too: an unreadable cookie's notice shows there
    return dialog(request, "stats", stats_context(state, state.notice), state, timing)


@require_http_methods(["GET", "HEAD", "POST"])
def stats_reset(request: HttpRequest) -> HttpResponse:
    timing = Timing()
    state = load_state(request, timing)
    if request.method in ("GET", "HEAD"):
        return dialog(request, "stats_reset", {}, state, timing)
    state.stats = Stats()
    save_state(request, state, timing)
    if request.htmx:
        return dialog(request, "stats", stats_context(state, "Statistics reset."), state, timing)
    return see_other("game:stats")


@require_POST
def undo(request: HttpRequest) -> HttpResponse:
    return act(request, actions.undo)


@require_http_methods(["GET", "HEAD", "POST"])
def hint(request: HttpRequest) -> HttpResponse:
    """Points out the computer's choice for you; nothing else changes. htmx gets the table
    straight away; a plain form, as every other action, a 303 to the table, which shows the
    hint once (a reload shows the table as it stands, and posts nothing again)."""
    timing = Timing()
    state = load_state(request, timing)
    plain = request.method == "POST" and not request.htmx
    if plain and state.game is not None:
        state.show_hint = True  # the table's page searches (once) and the tally counts it there
        save_state(request, state, timing)
        return see_other(table_address(state), timing)
    try:
        found = actions.hint(state, timing.clock)
    except IllegalMove as refusal:
        if plain:
            state.notice = str(refusal)
            save_state(request, state, timing)
            return see_other(table_address(state), timing)
        return show_table(request, state, timing, str(refusal))
    return show_table(request, state, timing, changed=True, hint=found)  # the tally counts it


@require_safe
def exit_page(request: HttpRequest) -> HttpResponse:
    return render_fresh(request, "game/exit.html")


# -- our addition: the last trick ------------------------------------------------------


@require_safe
def last_trick(request: HttpRequest) -> HttpResponse:
    """The trick just gathered, over the table: a dialog for htmx (hearts.js puts it away on
    Esc, L or a click), a page of its own without JavaScript, whose OK returns to the table."""
    timing = Timing()
    state = load_state(request, timing)
    game = state.game
    seen = None if game is None else last_trick_view(game, HUMAN, table.seat_names(state))
    context = {"seen": seen, "why_none": why_none(game)}
    return dialog(request, "last_trick", context, state, timing)
