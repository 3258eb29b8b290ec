"""The Hearts Network: friends at one table from a link, computers in the empty seats.

Short views over ``game.network.state``. Each request reads the table's row; a move is worked
out (the computer players' thinking included) from that snapshot with no lock held, then saved
in a short transaction that holds the row's lock (PostgreSQL: SELECT ... FOR UPDATE, its wait
bounded by ``lock_timeout``; SQLite: the write lock taken at BEGIN, its wait bounded by the busy
timeout) only if the version is still the snapshot's; otherwise it is worked out again from the
new row. So no table waits on another table's thinking. The version is bumped on each save; the
page is drawn afterwards, from the seat of the browser that asked, with the viewer at the
bottom. A poll compares versions and answers 204 without drawing anything when nothing changed
(most polls never reach this module: ``game.network.quiet``).

The browser's cookie holds only seat tokens (``hearts_seats``, sent to /t/ alone); the row holds
their SHA-256. The solo game's requests never reach this module.
"""

from __future__ import annotations

import functools
import logging
import math
import secrets

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_ratelimit.core import is_ratelimited

from game import seating
from game.engine import IllegalMove, check_number
from game.models import Table
from game.names import TOO_LONG, clean_name, too_long
from game.network import public, seats, store
from game.network import state as tables
from game.network.codes import CODE_PATTERN, LINK_PATTERN, new_code
from game.network.drawing import (  # noqa: F401 (the tests read the limits from the views)
    NETWORK_PAGE,
    Seen,
    dealer_gone_limit,
    draw,
    idle_limit,
    notice,
    seat_view,
    sheet_idle_limit,
    takeover_at,
)
from game.network.quiet import QUIET_ASKED, ask_again, nothing_new, quiet, since_of, whole
from game.web.last_trick import last_trick_view, why_none
from game.web.player import Options, PlayerState
from game.web.respond import dialog_or_page, render_fresh, see_other
from game.web.session import load

log = logging.getLogger(__name__)

STALE = seating.ALREADY_DONE
NO_TABLE = (
    "There is no table at this address. The link may be mistyped, or the table was closed "
    "after a day without play."
)
NO_SEAT = "You have no seat at this table. Open its link to join it while the dealer waits."
UNREACHABLE = "The table could not be reached just now, and nothing was changed. Try again."
BUSY = "The table is busy just now, and nothing was changed. Try again in a moment."
# A move whose table changed while it was worked out is worked out again, at most this often:
# each time means another move at the table was saved, so it is bounded by what people do there.
TRIES = 32


TOO_MANY_HERE = (
    "You have dealt many tables in the last hour. Play at one of them, or deal again later."
)
TOO_MANY_IN_ALL = "So many tables are being dealt just now that no more can be. Try again later."


def reachable(view, poll: bool = False):
    """A database that fails mid-request (a lost connection, say) is a 503 with a sentence:
    the transaction was rolled back, so the table is as it was. A ``poll`` gets the quiet 204
    instead, with ``Hearts-Poll: retry``: the page keeps its table and asks again at its next
    poll (a sentence would take the table's place and stop its polling over a passing hiccup);
    the person is told when they next act, if the trouble lasts."""

    @functools.wraps(view)
    def guarded(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except Exception as error:
            if not store.database_failed(error):
                raise
            is_busy = store.noted(error)
            if poll:
                return ask_again()
            code = kwargs.get("code", "")
            back = reverse("network:table", args=[code]) if CODE_PATTERN.fullmatch(code) else ""
            return notice(request, BUSY if is_busy else UNREACHABLE, status=503, back=back)

    return guarded


HINT_ONCE = "table_hint"  # the session's note that the next table drawn shows the hint (H)


def see(code: str, since: int | None = None) -> HttpResponse:
    url = reverse("network:table", args=[code])
    return see_other(f"{url}?v={since}" if since is not None else url)


# ---- the Network dialog: be the dealer, or connect --------------------------------------------


def browser_key(group: str, request: HttpRequest) -> str:
    """The browser, by its CSRF cookie (every form post carries it)."""
    return request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")


def creation_refused(request: HttpRequest) -> str:
    """Count one table dealt by this browser, from this address and in all (in the shared
    cache, so every instance counts alike); the sentence to refuse it with, or ""."""
    limits = [
        ("tables-browser", browser_key, settings.HEARTS_TABLES_PER_BROWSER, TOO_MANY_HERE),
        ("tables-address", "ip", settings.HEARTS_TABLES_PER_ADDRESS, TOO_MANY_HERE),
        (
            "tables-all",
            lambda group, request: "all",
            settings.HEARTS_TABLES_IN_ALL,
            TOO_MANY_IN_ALL,
        ),
    ]
    refusal = ""
    for group, key, rate, sentence in limits:
        if is_ratelimited(request, group=group, key=key, rate=rate, increment=True):
            refusal = refusal or sentence
    return refusal


def network_form(request: HttpRequest, context: dict, status: int = 200) -> HttpResponse:
    """The Network dialog alone for htmx; without JavaScript, a page of the network's own with
    the dialog open over it (not the solo game's table)."""
    template = "game/dialog_network.html"
    page = {
        "state": PlayerState(options=load(request.session).options),
        "template": "game/network/no_table.html",
        "view": None,
        "dialog": template,
        **context,
    }
    return dialog_or_page(
        request,
        template,
        context,
        lambda: render_fresh(request, NETWORK_PAGE, page, status),
        status,
    )


@require_http_methods(["GET", "POST"])
@reachable
def network_dialog(request: HttpRequest) -> HttpResponse:
    name = load(request.session).options.name
    context = {"name": name, "number": "", "link": "", "role": "dealer"}
    if request.method == "GET":
        return network_form(request, context)
    post = request.POST
    role = "connect" if post.get("role") == "connect" else "dealer"
    context.update(
        role=role,
        name=clean_name(post.get("name", "")),
        number=post.get("number", "")[:20],
        link=post.get("link", "")[:300],
    )
    try:
        if role == "connect":
            found = LINK_PATTERN.search(context["link"].strip())
            if not found:
                raise IllegalMove("Paste the table link the dealer sent you, such as /t/… .")
            return see(found.group(1))
        if not context["name"]:
            raise IllegalMove(seating.TYPE_YOUR_NAME)
        if too_long(post.get("name", "")):
            context["name"] = post.get("name", "")[:100]  # as typed, to be shortened
            raise IllegalMove(TOO_LONG)
        tables.refuse_name(context["name"], [])
        if not seats.room_for_a_seat(request):
            raise IllegalMove(seats.TOO_MANY_SEATS)
        # empty: the game is dealt from a secret seed drawn at the start
        number = check_number(context["number"]) if context["number"].strip() else 0
    except IllegalMove as refusal:
        context["message"] = str(refusal)
        return network_form(request, context, 200 if request.htmx else 400)
    too_many = creation_refused(request)
    if too_many:
        context["message"] = too_many
        # htmx-config lets htmx swap a 429 in: it carries the sentence
        return network_form(request, context, 429)
    store.purge()
    token = secrets.token_urlsafe(18)
    code = new_code()
    rules = load(request.session).options  # the dealer's own Options set the table's rules
    state = tables.new_table(
        number,
        context["name"],
        seats.token_hash(token),
        moon_off_shooter=rules.moon_off_shooter,
        finish_dead_hands=rules.finish_dead_hands,
        now=store.now_seconds(),
    )
    row = Table(code=code, version=1, touched=timezone.now())
    state.mark(row.version)
    row.state = state.to_json()
    row.save()
    response = see(code)
    seats.remember_seat(request, response, code, token)
    return response


# ---- the table ----------------------------------------------------------------------------------


@require_safe
@reachable
def table_page(request: HttpRequest, code: str) -> HttpResponse:
    store.purge_now_and_then()
    found = lookup(request, code)
    if isinstance(found, HttpResponse):
        return found
    row, state, seat = found
    if seat is None:
        heir = seats.heir_of(request, code, state)
        if heir is not None:
            return draw(request, Seen(row, state, heir, since_of(request), heir=True))
        return ask_name(request, state, code)
    seen = Seen(row, state, seat, since_of(request))
    if request.session.pop(HINT_ONCE, None) == code:  # the answer to a plain form's Hint
        try:
            seen.hint = tables.hint(state, seat)
        except IllegalMove as refusal:  # nothing to choose: said once, on this page
            return draw(request, seen, str(refusal))
    return draw(request, seen)


def ask_name(
    request: HttpRequest, state: tables.TableState, code: str, message: str = "", status: int = 409
) -> HttpResponse:
    """The name prompt of a friend who opened the link: whose table it is, and after the start
    the computer's seat they will take; or, with no seat left, the sentence that says so."""
    if not tables.room_for(state):
        return notice(request, tables.FULL if state.game is None else tables.NO_COMPUTER_SEAT, 409)
    seat = tables.free_seat(state) if state.game is not None else None
    invited = {
        "dealer": state.seats[tables.DEALER].name,
        "seat": "" if seat is None else state.seats[seat].name,
    }
    return notice(request, message, status if message else 200, join=code, invited=invited)


@require_safe
@functools.partial(reachable, poll=True)
def poll(request: HttpRequest, code: str) -> HttpResponse:
    """htmx asks every two seconds: 204 (nothing drawn) while the version it holds is current,
    and while the idle limit has not passed since it drew idle players without their button
    (game.network.quiet answers most of those before the view)."""
    since = since_of(request)
    if not request.META.get(QUIET_ASKED) and quiet(code, since, whole(request.GET.get("i", ""))):
        return nothing_new()
    found = lookup(request, code)
    if isinstance(found, HttpResponse):
        return found
    row, state, seat = found
    heir = seats.heir_of(request, code, state) if seat is None else None
    if heir is not None:  # a late friend's waiting page: until the deal, still no seat
        return draw(request, Seen(row, state, heir, since, heir=True))
    if seat is None:
        return notice(request, NO_SEAT, 403)
    return draw(request, Seen(row, state, seat, since))


def lookup(
    request: HttpRequest, code: str
) -> tuple[Table, tables.TableState, int | None] | HttpResponse:
    """The table (its row and state) and this browser's seat at it (None: none), or the page
    that says there is no such table."""
    row = store.fetch(code)
    if row is None:
        return notice(request, NO_TABLE, 404)
    state = tables.TableState.from_json(row.state)
    return row, state, seats.seat_of(request, code, state)


def seated(request: HttpRequest, code: str, since: int | None = None) -> Seen | HttpResponse:
    """The table as this browser's seat sees it, or the page that says why it cannot."""
    found = lookup(request, code)
    if isinstance(found, HttpResponse):
        return found
    row, state, seat = found
    if seat is None:
        return notice(request, NO_SEAT, 403)
    return Seen(row, state, seat, since)


@require_POST
@reachable
def join(request: HttpRequest, code: str) -> HttpResponse:
    typed = request.POST.get("name", "")
    name = clean_name(typed)
    token = secrets.token_urlsafe(18)
    for _ in range(TRIES):
        row = store.fetch(code)
        if row is None:
            return notice(request, NO_TABLE, 404)
        state = tables.TableState.from_json(row.state)
        held = seats.seat_of(request, code, state), seats.heir_of(request, code, state)
        if held != (None, None):
            return see(code)  # already seated: a double submit, or the link opened again
        if not name or too_long(typed):
            refusal = TOO_LONG if name else seating.TYPE_YOUR_NAME
            return ask_name(request, state, code, refusal, status=400)
        if not seats.room_for_a_seat(request):
            return notice(request, seats.TOO_MANY_SEATS, 409)
        try:
            tables.join(state, name, seats.token_hash(token))
        except IllegalMove as refusal:
            if tables.room_for(state):  # a name refused: ask again
                return ask_name(request, state, code, str(refusal))
            return notice(request, str(refusal), 409)
        if store.save_if_current(row, state):
            break
    else:
        raise store.Busy
    response = see(code)
    seats.remember_seat(request, response, code, token)
    return response


def thinker() -> seating.Clock:
    """What the computer players at a table think through: the Clock the solo game uses too,
    whose semaphore lets one request of a process think at a time."""
    return seating.Clock()


def act(
    request: HttpRequest,
    code: str,
    action,
    own_card_placed: bool = False,
    seen_by_all: bool = False,
) -> HttpResponse:
    """One action of the seat this browser holds, worked out from a snapshot of the row with no
    lock held and saved only if the table has not changed meanwhile (else worked out again); a
    refusal changes nothing. htmx gets the table drawn from that seat; a plain form a 303.
    ``seen_by_all``: the action, when done, changes what every page shows (a card played), so
    the change is not compared with the row to find whether only this seat's pages see it."""
    clock = thinker()
    for _ in range(TRIES):
        message = ""
        seen = seated(request, code)
        if isinstance(seen, HttpResponse):
            return seen
        row, state, seat = seen.row, seen.state, seen.seat
        since = row.version
        refusal = seating.attempt(
            request.POST.get(seating.SEQ_FIELD),
            state.seats[seat].seq,
            functools.partial(action, state, seat, row),
        )
        if refusal is not None:
            message = refusal
            state = tables.TableState.from_json(row.state)
            break
        state.seats[seat].seq += 1
        tables.advance(state, clock.think)
        only = None if seen_by_all else tables.private_to(row.state, state, seat)
        if store.save_if_current(row, state, only, draw=public.stored):
            break
    else:
        raise store.Busy
    seen = Seen(row, state, seat, since, own_card_placed and bool(request.htmx) and not message)
    if request.htmx and seen_by_all and not message:
        answer = public.mover_answer(seen)  # the step the save drew, turned by the page
        if answer is not None:
            return answer
    if request.htmx or message:
        return draw(request, seen, message)
    return see(code, since)


def card_of(request: HttpRequest) -> str:
    return request.POST.get("card", "")


class NothingChanged(IllegalMove):
    """An action that leaves the table as it was (OK pressed again): nothing is saved, no
    version is bumped, and no sentence is shown."""

    def __init__(self) -> None:
        super().__init__("")


def seat_action(fn, own_card_placed: bool = False, always_changes: bool = False):
    """The view of an action at a network table. ``always_changes``: the action either refuses
    or changes what every page shows (a card played), so the table is not written out before
    and after it to find whether it changed nothing, nor compared with the row to find whether
    only this seat's pages see it (each time its whole game spelled out)."""

    @require_POST
    @reachable
    def view(request: HttpRequest, code: str) -> HttpResponse:
        def action(state: tables.TableState, seat: int, row: Table) -> None:
            if always_changes:
                fn(request, state, seat, row)
                return
            before = state.to_json()
            fn(request, state, seat, row)
            if state.to_json() == before:
                raise NothingChanged

        return act(request, code, action, own_card_placed, seen_by_all=always_changes)

    return view


start = seat_action(
    lambda request, state, seat, row: tables.start(
        state, seat, store.now_seconds(), dealer_gone_limit()
    )
)
select_card = seat_action(
    lambda request, state, seat, row: tables.toggle(state, seat, card_of(request))
)
pass_cards = seat_action(lambda request, state, seat, row: tables.pass_selected(state, seat))
accept = seat_action(lambda request, state, seat, row: tables.accept(state, seat))
play_card = seat_action(
    lambda request, state, seat, row: tables.play(state, seat, card_of(request)),
    own_card_placed=True,
    always_changes=True,  # a card leaves a hand for the trick, or the play is refused
)
next_hand = seat_action(lambda request, state, seat, row: tables.ready(state, seat))
sit_down = seat_action(lambda request, state, seat, row: tables.sit_down(state, seat))


def _replace(request: HttpRequest, state: tables.TableState, seat: int, row: Table) -> None:
    other = request.POST.get("seat", "")
    if other not in ("0", "1", "2", "3"):
        raise IllegalMove("There is no such player.")
    them = int(other)
    since = state.seats[them].waiting_since  # 0: the table does not wait on them (refused)
    limit = max(0, math.floor(takeover_at(state, them) - since)) if since else 0
    tables.replace(state, them, store.now_seconds(), limit)


replace = seat_action(_replace)


def _remove(request: HttpRequest, state: tables.TableState, seat: int, row: Table) -> None:
    other = request.POST.get("seat", "")
    if other not in ("1", "2", "3"):
        raise IllegalMove("There is no such player in the lobby.")
    tables.remove(state, seat, int(other))


remove = seat_action(_remove)


@require_safe
@reachable
def last_trick(request: HttpRequest, code: str) -> HttpResponse:
    """The trick just gathered, as this seat saw it: the solo game's dialog (or, without
    JavaScript, the table with it open), drawn from the turned game so the viewer is "you"."""
    at = seated(request, code)
    if isinstance(at, HttpResponse):
        return at
    game, seat = at.state.game, at.seat
    seen = None
    if game is not None:
        names = [other.name for other in at.state.seats]
        seen = last_trick_view(game, seat, names)
    return dialog(request, at, "game/dialog_last_trick.html", seen=seen, why_none=why_none(game))


# ---- the Game menu's score, hint and undo ------------------------------------------------------

NO_UNDO = "Undo is not possible at a shared table: the other players have seen every card played."


@require_safe
@reachable
def score(request: HttpRequest, code: str) -> HttpResponse:
    """The score sheet (F4), as the solo game's dialog."""
    at = seated(request, code)
    if isinstance(at, HttpResponse):
        return at
    sheet_view = None if at.state.game is None else seat_view(at, Options())[1]
    return dialog(request, at, "game/dialog_score.html", sheet_view=sheet_view)


def dialog(request: HttpRequest, at: Seen, template: str, **context) -> HttpResponse:
    """A dialog over this seat's table: the fragment for htmx, else the whole page under it."""
    return dialog_or_page(
        request, template, context, lambda: draw(request, at, dialog=template, extra=context)
    )


@require_http_methods(["GET", "HEAD", "POST"])
@reachable
def hint(request: HttpRequest, code: str) -> HttpResponse:
    """H: the cards a computer player would choose in this seat, worked out from what this
    seat knows (the players see only their own view); nothing changes at the table."""
    at = seated(request, code)
    if isinstance(at, HttpResponse):
        return at
    if request.method == "POST" and not request.htmx:  # a plain form: a 303, as every action
        request.session[HINT_ONCE] = code  # the table it leads to searches and shows it, once
        return see(code)
    try:
        at.hint = tables.hint(at.state, at.seat)
    except IllegalMove as refusal:
        return draw(request, at, str(refusal))
    return draw(request, at)


@require_http_methods(["GET", "HEAD", "POST"])
@reachable
def undo(request: HttpRequest, code: str) -> HttpResponse:
    """Ctrl+Z: a sentence, as nothing played at a shared table can be taken back."""
    at = seated(request, code)
    if isinstance(at, HttpResponse):
        return at
    return draw(request, at, NO_UNDO)
