"""Short function views over the engine: each action is a real form that works with htmx
(the table fragment comes back) and without JavaScript (a 303 back to the table)."""

from __future__ import annotations

import time
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from game import seating
from game.engine import IllegalMove, check_number
from game.names import TOO_LONG, clean_name, too_long
from game.seating import SEQ_FIELD
from game.solo import actions
from game.today.record import settle
from game.web import respond, table
from game.web.challenge import Sheet, on_sheet
from game.web.player import HUMAN, PlayerState, new_number
from game.web.session import load, save


class Timing:
    """The Server-Timing header, in disjoint parts: the computer players' thinking (``think``)
    and their wait for a turn to think (``wait``) apart from everything else; the time an outer
    part spent in them is not counted again in it. ``hearts_site.middleware`` adds the rest."""

    def __init__(self) -> None:
        self.clock = seating.Clock()
        self.marks: dict[str, float] = {}

    def mark(self, name: str, since: float) -> float:
        now = time.perf_counter()
        ms = (now - since) * 1000 - self.clock.inside_ms(since)
        self.marks[name] = self.marks.get(name, 0.0) + ms
        return now

    def header(self) -> str:
        parts = [f"think;dur={self.clock.think_ms:.1f}", f"wait;dur={self.clock.wait_ms:.1f}"]
        parts += [f"{name};dur={ms:.1f}" for name, ms in self.marks.items()]
        return ", ".join(parts)


def load_state(request: HttpRequest, timing: Timing) -> PlayerState:
    """The one way a view reads the cookie."""
    start = time.perf_counter()
    state = load(request.session)
    timing.mark("session", start)
    return state


def save_state(request: HttpRequest, state: PlayerState, timing: Timing) -> None:
    """The one way a view writes the cookie: once, after acting, before rendering."""
    start = time.perf_counter()
    save(request.session, state)
    timing.mark("session", start)


def seat_player(state: PlayerState, clock: seating.Clock) -> bool:
    """A named player always has a game on the table: deal one if there is none. Returns
    whether the state changed (and must be saved)."""
    if state.options.name and state.game is None:
        actions.start_game(state, new_number(), clock)
        return True
    return False


def take_notice(state: PlayerState) -> str:
    """The one-time notice, cleared from the state (which must then be saved)."""
    notice, state.notice = state.notice, ""
    return notice


def show_table(
    request: HttpRequest,
    state: PlayerState,
    timing: Timing,
    message: str = "",
    changed: bool = False,
    **draw,
) -> HttpResponse:
    """Deal a named player's first game and take the one-time notice; save once if anything
    changed (``changed``: the view's action did), then render the table."""
    dealt = seat_player(state, timing.clock)
    notice = take_notice(state)
    # a table drawn as it stands shows the next lead at once: Undo's window closes with it
    # (not on a refusal or a notice, which leave the saved table exactly as it was)
    shut = not (draw.get("animate") or message or notice) and actions.close_undo_window(state)
    if changed or dealt or notice or shut:
        save_state(request, state, timing)
    return render_table(request, state, timing, message or notice, **draw)


def see_other(to: str = "game:index", timing: Timing | None = None) -> HttpResponse:
    """Post/redirect/get: the 303 that sends a plain form post back to a page."""
    response = respond.see_other(to)
    if timing is not None:
        response["Server-Timing"] = timing.header()
    return response


def compared(state: PlayerState) -> Sheet | None:
    """Our addition, on the score sheet: a challenge's results beside yours while you play it,
    and at the end of a game played here the offer of a challenge link."""
    if state.game is None:
        return None
    return on_sheet(state.game, HUMAN, state.options.name, state.tally, state.challenge)


def render_table(
    request: HttpRequest,
    state: PlayerState,
    timing: Timing,
    message: str = "",
    *,
    hint: seating.Hint | None = None,
    dialog: str = "",
    extra: dict | None = None,
    animate: bool = False,
    own_card_placed: bool = False,
) -> HttpResponse:
    """The table: the fragment for htmx, else the whole page, with a dialog over it if any.
    It only reads the state: the view saved whatever it changed before.
    ``animate``: this page answers the action that changed the game, so what the action made
    new arrives in order and is told to a screen reader; any other page shows the table as
    it stands."""
    start = time.perf_counter()
    if not state.options.name or state.game is None:
        context = {"state": state, "message": message}
        template = "game/name_prompt.html"
    else:
        view = table.build(state, hint=hint, animate=animate, own_card_placed=own_card_placed)
        context = {"state": state, "view": view, "message": message, "options": state.options}
        context["compared"] = shown = compared(state)
        # a move's answer stays small: the sheet fetches the hand-by-hand comparison itself
        context["comparison_later"] = bool(request.htmx)
        if shown is not None and shown.verdict and view.announcements:
            view.announcements.append(shown.verdict)  # the live region tells it, at the end
        template = f"game/{view.phase}.html"
    context["seq"] = state.seq
    offer = actions.undo_offer(state)
    if offer == actions.UNDO_UNTIL_GATHERED:  # the page greys Undo, then says this itself
        context["undo_late"] = actions.NEXT_TRICK_BEGUN
        if not animate:  # the table as it stands: the next lead is in view at once
            offer = actions.UNDO_OFF
    context["undo_offer"] = offer
    context["undo_offered"] = offer != actions.UNDO_OFF
    context["template"] = template
    context["dialog"] = dialog
    context.update(extra or {})
    response = respond.table_or_page(request, "game/page.html", context)
    timing.mark("render", start)
    response["Server-Timing"] = timing.header()
    return response


def table_address(state: PlayerState) -> str:
    """Where a plain form's action lands: the table, at the game's own address (``/#617``), as
    a link to a numbered game and the page with JavaScript name it."""
    home = reverse("game:index")
    return f"{home}#{state.game.number}" if state.game is not None else home


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    """The table as it stands; the first time after a plain form's action, with what the action
    made new (a reload, or an old page's address, shows the table as it stands)."""
    timing = Timing()
    state = load_state(request, timing)
    animate, state.show_new = state.show_new and state.game is not None, False
    if state.show_hint:  # the answer to Hint without JavaScript: shown once
        state.show_hint = False
        try:
            found = actions.hint(state, timing.clock)  # the tally counts it
        except IllegalMove as refusal:  # nothing to choose: said once, as a notice is
            state.notice = str(refusal)
            return show_table(request, state, timing, changed=True)
        return show_table(request, state, timing, changed=True, hint=found)
    return show_table(request, state, timing, changed=animate, animate=animate)


def act(
    request: HttpRequest,
    action: Callable[[PlayerState, seating.Clock], None],
    *,
    own_card_placed: bool = False,
) -> HttpResponse:
    """Run one action; a refusal leaves the saved game exactly as it was."""
    timing = Timing()
    state = load_state(request, timing)
    message = ""
    changed = False
    if state.unreadable:  # the cookie could not be read: show the fresh start, do nothing else
        changed = True
    else:
        start = time.perf_counter()
        sent = request.POST.get(SEQ_FIELD)
        refusal = seating.attempt(sent, state.seq, lambda: action(state, timing.clock))
        if refusal is None:
            changed = True
            settle(request, state)  # a daily game's end: its result on the day's board
        else:
            message = refusal
            state = load_state(request, timing)  # whatever the action began to change is gone
        timing.mark("engine", start)
    if not request.htmx:
        state.show_new = not message  # the page the 303 leads to answers this action
        if message:
            state.notice = message
            changed = True
        if changed:
            save_state(request, state, timing)
        return see_other(table_address(state), timing)
    state.show_new = False  # this answer shows what the action made new itself
    return show_table(
        request,
        state,
        timing,
        message,
        changed,
        animate=not message,
        own_card_placed=own_card_placed,
    )


@require_POST
def set_name(request: HttpRequest) -> HttpResponse:
    def action(state: PlayerState, clock: seating.Clock) -> None:
        typed = request.POST.get("name", "")
        name = clean_name(typed)
        if not name:
            raise IllegalMove(seating.TYPE_YOUR_NAME)
        if too_long(typed):  # the prompt says at most 20 characters: told, never cut
            raise IllegalMove(TOO_LONG)
        state.options.name = name
        if state.game is None:  # a named player has a game: the 303 can name its address
            actions.start_game(state, linked_number(request.POST.get("number", "")), clock)

    return act(request, action)


def linked_number(number: str) -> int:
    """The game a link such as /#617 names on a first visit (hearts.js puts its number in the
    name prompt's form), else a new number."""
    try:
        return check_number(number) if number else new_number()
    except IllegalMove:
        return new_number()


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
