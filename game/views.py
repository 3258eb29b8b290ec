"""Short function views over the engine: each action is a real form that works with htmx
(the table fragment comes back) and without JavaScript (a 303 back to the table)."""

from __future__ import annotations

import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET, require_POST

from game import actions, table
from game.engine import IllegalMove, check_number
from game.session import PlayerState, clean_name, load, new_number, save

SEQ_FIELD = "seq"


class Timing:
    """The Server-Timing header: the computer players' thinking apart from everything else."""

    def __init__(self) -> None:
        self.clock = actions.Clock()
        self.marks: dict[str, float] = {}

    def mark(self, name: str, since: float) -> float:
        now = time.perf_counter()
        self.marks[name] = self.marks.get(name, 0.0) + (now - since) * 1000
        return now

    def header(self) -> str:
        parts = [f"think;dur={self.clock.think_ms:.1f}"]
        parts += [f"{name};dur={ms:.1f}" for name, ms in self.marks.items()]
        return ", ".join(parts)


def load_state(request: HttpRequest, timing: Timing) -> PlayerState:
    start = time.perf_counter()
    state = load(request.session)
    timing.mark("session", start)
    return state


def render_table(
    request: HttpRequest,
    state: PlayerState,
    timing: Timing,
    message: str = "",
    *,
    hint: list[str] | None = None,
    dialog: str = "",
    extra: dict | None = None,
    animate: bool = False,
    own_card_placed: bool = False,
):
    """The table: the fragment for htmx, else the whole page, with a dialog over it if any.
    ``animate``: this page answers the action that changed the game, so what the action made
    new arrives in order and is told to a screen reader; any other page shows the table as
    it stands."""
    start = time.perf_counter()
    if not state.options.name:
        context = {"state": state, "message": message}
        template = "game/name_prompt.html"
    else:
        if state.game is None:
            actions.start_game(state, new_number(), timing.clock)
            save(request.session, state)
        view = table.build(state, hint=hint, animate=animate, own_card_placed=own_card_placed)
        context = {"state": state, "view": view, "message": message, "options": state.options}
        template = f"game/{view.phase}.html"
    if state.notice:
        context["message"] = context["message"] or state.notice
        state.notice = ""
        save(request.session, state)
    context["seq"] = state.seq
    context["template"] = template
    context["dialog"] = dialog
    context.update(extra or {})
    page = "game/table.html" if request.htmx else "game/page.html"
    response = render(request, page, context)
    timing.mark("render", start)
    response["Server-Timing"] = timing.header()
    patch_vary_headers(response, ["HX-Request"])
    response["Cache-Control"] = "no-store"
    return response


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    """The table as it stands; right after a plain form's action (the 303 names that action's
    seq), with what the action made new."""
    timing = Timing()
    state = load_state(request, timing)
    animate = request.GET.get(SEQ_FIELD) == str(state.seq) and state.game is not None
    return render_table(request, state, timing, animate=animate)


def act(
    request: HttpRequest,
    action: Callable[[PlayerState, actions.Clock], None],
    *,
    own_card_placed: bool = False,
) -> HttpResponse:
    """Run one action; a refusal leaves the saved state exactly as it was."""
    timing = Timing()
    state = load_state(request, timing)
    message = ""
    sent = request.POST.get(SEQ_FIELD)
    if state.unreadable:  # the cookie could not be read: show the fresh start, do nothing else
        save(request.session, state)
    elif sent is not None and sent != str(state.seq):
        message = "That was already done. The table shows where the game is now."
    else:
        start = time.perf_counter()
        try:
            action(state, timing.clock)
        except IllegalMove as refusal:
            message = str(refusal)
            state = load(request.session)
        else:
            save(request.session, state)
        timing.mark("engine", start)
    if request.htmx:
        return render_table(
            request, state, timing, message, animate=not message, own_card_placed=own_card_placed
        )
    if message:
        state.notice = message
        save(request.session, state)
        response = redirect("game:index")
    else:
        response = redirect(f"{reverse('game:index')}?{SEQ_FIELD}={state.seq}")
    response.status_code = 303
    response["Server-Timing"] = timing.header()
    return response


@require_POST
def set_name(request: HttpRequest) -> HttpResponse:
    def action(state: PlayerState, clock: actions.Clock) -> None:
        name = clean_name(request.POST.get("name", ""))
        if not name:
            raise IllegalMove("Please type your name.")
        state.options.name = name
        # a link such as /#617 opened on a first visit: hearts.js puts its number in the form
        number = request.POST.get("number", "")
        if number and state.game is None:
            try:
                chosen = check_number(number)
            except IllegalMove:
                return
            actions.start_game(state, chosen, clock)

    return act(request, action)


def card_action(fn):
    def view(request: HttpRequest) -> HttpResponse:
        code = request.POST.get("card", "")
        return act(request, lambda state, clock: fn(state, code, clock))

    return require_POST(view)


select_card = card_action(lambda state, code, clock: actions.toggle(state, code))


@require_POST
def play_card(request: HttpRequest) -> HttpResponse:
    code = request.POST.get("card", "")
    # with htmx, hearts.js has already sent the card towards the table when it was clicked
    return act(
        request,
        lambda state, clock: actions.play(state, code, clock),
        own_card_placed=bool(request.htmx),
    )


@require_POST
def pass_cards(request: HttpRequest) -> HttpResponse:
    return act(request, actions.pass_selected)


@require_POST
def accept(request: HttpRequest) -> HttpResponse:
    return act(request, actions.accept)


@require_POST
def next_hand(request: HttpRequest) -> HttpResponse:
    return act(request, actions.next_hand)


@require_POST
def new_game(request: HttpRequest) -> HttpResponse:
    return act(request, lambda state, clock: actions.start_game(state, new_number(), clock))
