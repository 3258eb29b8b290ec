"""Issue 5: the menus' pages and dialogs, numbered games, options, statistics, undo and hint.

A dialog is a server-rendered ``<dialog>``: an htmx request gets the dialog alone (hearts.js
shows it with showModal()), a plain request gets the whole page with the dialog open over
the table, so every item of the menus also works without JavaScript.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRefresh, reswap, retarget

from game import __version__, actions, table, views
from game.engine import IllegalMove, check_number
from game.session import SPEEDS, PlayerState, Stats, clean_name, load, save
from game.views import Timing, act, load_state, render_table

HTMX_VERSION = "2.0.11"
SPEED_LABELS = {"slow": "Slow", "normal": "Normal", "fast": "Fast", "none": "None"}
CLOSE_DIALOGS = '\n<div id="dialogs" hx-swap-oob="innerHTML"></div>\n'


def dialog(
    request: HttpRequest, name: str, context: dict | None = None, state: PlayerState | None = None
) -> HttpResponse:
    template = f"game/dialog_{name}.html"
    context = dict(context or {})
    if request.htmx:
        response = render(request, template, context)
        response["Cache-Control"] = "no-store"
    else:
        timing = Timing()
        if state is None:
            state = load_state(request, timing)
        response = render_table(request, state, timing, dialog=template, extra=context)
    response["Vary"] = "HX-Request"
    return response


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


@require_GET
def help_contents(request: HttpRequest) -> HttpResponse:
    return dialog(request, "help")


@require_GET
def quote(request: HttpRequest) -> HttpResponse:
    return dialog(request, "quote")


@require_GET
def about(request: HttpRequest) -> HttpResponse:
    return dialog(request, "about", {"version": __version__, "htmx_version": HTMX_VERSION})


# -- Game menu ---------------------------------------------------------------------------------


@require_GET
def score(request: HttpRequest) -> HttpResponse:
    state = load(request.session)
    sheet_view = table.build(state) if state.game is not None else None
    return dialog(request, "score", {"sheet_view": sheet_view}, state)


@require_http_methods(["GET", "POST"])
def new_game(request: HttpRequest) -> HttpResponse:
    """New Game (F2): GET asks first when a game in progress would be lost, as Select Game
    does (hearts.js skips the question when nothing would be lost); POST starts the game."""
    state = load(request.session)
    if request.method == "GET":
        context = {
            "in_progress": actions.in_progress(state),
            "current": state.game.number if state.game else None,
        }
        return dialog(request, "new_game", context, state)
    return closing(views.new_game(request), request)


@require_http_methods(["GET", "POST"])
def select_game(request: HttpRequest) -> HttpResponse:
    state = load(request.session)
    context = {"in_progress": actions.in_progress(state), "number": ""}
    if request.method == "GET":
        return dialog(request, "select_game", context, state)
    sent = request.POST.get("number", "")
    try:
        number = check_number(sent)
    except IllegalMove as refusal:
        context.update(number=sent[:20], message=str(refusal))
        response = dialog(request, "select_game", context, state)
        return into_dialogs(response, request)
    response = act(request, lambda state, clock: actions.start_game(state, number, clock))
    return closing(response, request)


@require_http_methods(["GET", "POST"])
def open_game(request: HttpRequest, number: str) -> HttpResponse:
    """``/game/617/``: GET asks (hearts.js skips the question when nothing would be lost),
    POST starts the game."""
    state = load(request.session)
    try:
        chosen = check_number(number)
    except IllegalMove as refusal:
        return dialog(request, "refusal", {"message": str(refusal)}, state)
    if request.method == "GET":
        context = {
            "number": chosen,
            "in_progress": actions.in_progress(state),
            "current": state.game.number if state.game else None,
        }
        return dialog(request, "open_game", context, state)
    response = act(request, lambda state, clock: actions.start_game(state, chosen, clock))
    return closing(response, request)


@require_http_methods(["GET", "POST"])
def options(request: HttpRequest) -> HttpResponse:
    state = load(request.session)
    current = state.options
    context = {"speeds": [(s, SPEED_LABELS[s]) for s in SPEEDS], "form": current}
    if request.method == "GET":
        return dialog(request, "options", context, state)
    post = request.POST
    name = clean_name(post.get("name", ""))
    speed = post.get("speed", current.speed)
    form = type(current)(
        name=name,
        speed=speed if speed in SPEEDS else current.speed,
        message_boxes=post.get("message_boxes") == "1",
        sheet_after_hand=post.get("sheet_after_hand") == "1",
        moon_off_shooter=post.get("moon_off_shooter") == "1",
    )
    message = ""
    if not name:
        message = "Please type your name."
    elif speed not in SPEEDS:
        message = "Choose one of the animation speeds."
    if message:
        context.update(form=form, message=message)
        response = dialog(request, "options", context, state)
        return into_dialogs(response, request)
    state.options = form
    save(request.session, state)
    if request.htmx:
        return HttpResponseClientRefresh()  # the speed is a class on <body>: load it afresh
    return see_table()


def see_table() -> HttpResponse:
    response = redirect("game:index")
    response.status_code = 303
    return response


def streak_text(stats: Stats) -> str:
    if stats.streak > 0:
        return f"{stats.streak} win{'s' if stats.streak > 1 else ''}"
    if stats.streak < 0:
        return f"{-stats.streak} loss{'es' if stats.streak < -1 else ''}"
    return "none"


def stats_context(state: PlayerState, message: str = "") -> dict:
    return {"stats": state.stats, "streak": streak_text(state.stats), "message": message}


@require_GET
def stats(request: HttpRequest) -> HttpResponse:
    state = load(request.session)
    return dialog(request, "stats", stats_context(state), state)


@require_http_methods(["GET", "POST"])
def stats_reset(request: HttpRequest) -> HttpResponse:
    state = load(request.session)
    if request.method == "GET":
        return dialog(request, "stats_reset", {}, state)
    state.stats = Stats()
    save(request.session, state)
    if request.htmx:
        return dialog(request, "stats", stats_context(state, "Statistics reset."), state)
    response = redirect("game:stats")
    response.status_code = 303
    return response


@require_POST
def undo(request: HttpRequest) -> HttpResponse:
    return act(request, actions.undo)


@require_http_methods(["GET", "POST"])
def hint(request: HttpRequest) -> HttpResponse:
    """Points out the computer's choice for you; nothing changes, so the table is rendered
    straight away (no redirect) for htmx and for a plain form alike."""
    timing = Timing()
    state = load_state(request, timing)
    try:
        cards = actions.hint(state, timing.clock)
    except IllegalMove as refusal:
        return render_table(request, state, timing, str(refusal))
    return render_table(request, state, timing, hint=cards)


@require_GET
def exit_page(request: HttpRequest) -> HttpResponse:
    response = render(request, "game/exit.html")
    response["Cache-Control"] = "no-store"
    return response
