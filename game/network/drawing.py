"""A network table drawn for one seat: the table's view model (the seat's cards, the others'
counts, the trick, who is away, the status), the lobby and a late friend's waiting page, and the
answer that carries them (the fragment for htmx, the whole page without JavaScript). The views
(``game.network.views``) read a request, act, and hand what they saw to ``draw``; as
``game.web.table`` is for the solo game's table, this module is for the network's.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from types import SimpleNamespace

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import get_script_prefix, get_urlconf, reverse

from game import seating
from game.engine import SEATS
from game.models import Table
from game.network import presence, store
from game.network import state as tables
from game.web.player import Options, PlayerState
from game.web.respond import table_or_page
from game.web.session import load
from game.web.table import build

POLL_SECONDS = 2
NETWORK_PAGE = "game/network/page.html"  # the whole page around a network table


def table_url(name: str, code: str) -> str:
    """A table's address by the URL's name (``table``, ``poll``, ``events``): the same each
    time for one table, so worked out once per table, not three times a drawing."""
    return _table_url(get_script_prefix(), get_urlconf(), name, code)


@functools.lru_cache(maxsize=4096)
def _table_url(prefix: str, urlconf: str | None, name: str, code: str) -> str:
    return reverse(f"network:{name}", urlconf, args=[code])


def idle_limit() -> int:
    """Seconds the table waits for a person before anyone may hand their seat to a computer."""
    return getattr(settings, "HEARTS_IDLE_SECONDS", 60)


def sheet_idle_limit() -> int:
    """Seconds the table waits for someone at the score sheet whose page is still open before
    anyone may hand their seat to a computer: reading the score is not being away."""
    return getattr(settings, "HEARTS_SHEET_IDLE_SECONDS", 300)


def takeover_at(state: tables.TableState, seat: int) -> float:
    """The Unix time from which anyone may let a computer play for ``seat``'s person, whom the
    table waits on: the idle limit after it began waiting (at the score sheet, the longer one),
    or at once once they have left (their page closed)."""
    me, game = state.seats[seat], state.game
    limit = sheet_idle_limit() if game is not None and game.phase.over else idle_limit()
    at = me.waiting_since + limit
    return min(at, me.left + presence.left_grace()) if me.left else at


def dealer_gone_limit() -> int:
    """Seconds the dealer may be away from the lobby before the next person may start."""
    return getattr(settings, "HEARTS_DEALER_GONE_SECONDS", 180)


# ---- drawing ---------------------------------------------------------------------------------


@dataclass
class Seen:
    """What one request draws: the table, from one seat, since one version."""

    row: Table
    state: tables.TableState
    seat: int
    since: int | None = None  # the version the page showed before: what came after animates
    own_card_placed: bool = False  # hearts.js sent the viewer's card to the table on the click
    hint: seating.Hint | None = None  # the cards a computer would choose in this seat (H)
    heir: bool = False  # a late friend waiting for this computer's seat: none of it is drawn


def seat_view(seen: Seen, options: Options):
    state, seat = seen.state, seen.seat
    game = state.game
    assert game is not None
    me = state.seats[seat]
    names = [other.name for other in state.seats]
    player = PlayerState(
        game=game,
        selected=list(me.selected),
        awaiting_ok=me.awaiting_ok,
        seq=me.seq,
        fresh_from=state.fresh_from(seen.since),
        options=options,
    )
    status = ""
    now = store.now_seconds()
    gone = [s for s in SEATS if state.gone(s, now, presence.left_grace())]
    waited = [s for s in state.waiting_for() if s in gone]
    if me.away:
        status = "A computer player is playing for you. Press Sit Down to play again."
    elif waited and seat not in state.waiting_for():
        status = f"{names[waited[0]]} has left the table. You may let a computer play for them."
    elif game.phase.over and me.ready:
        status = "Waiting for the other players to press OK..."
    # what came after the version the page showed (none when it is unknown) arrives in order
    view = build(
        player,
        seen.hint,
        animate=True,
        own_card_placed=seen.own_card_placed,
        viewer=seat,
        names=names,
        # for the eyes and readers
        labels=[
            "has left the table" if index in gone else computer_label(other)
            for index, other in enumerate(state.seats)
        ],
        status=status,
    )
    return player, view


def computer_label(seat: tables.Seat) -> str:
    if seat.heir:
        return f"{seat.heir_name} sits here from the next hand"
    if not seat.person:
        return "a computer player"
    return "a computer plays for them" if seat.away else ""


def idle_seats(seen: Seen) -> list[dict]:
    """The people the table waits for, each with when the table began waiting on them: after
    the idle limit anyone seated may ask a computer player to take over."""
    if seen.state.seats[seen.seat].away or seen.heir:
        return []
    now = store.now_seconds()
    return [
        {
            "seat": s,
            "name": seen.state.seats[s].name,
            "ripe": now >= takeover_at(seen.state, s),
            "ripe_at": takeover_at(seen.state, s),
        }
        for s in seen.state.waiting_for()
        if s != seen.seat
    ]


def redraw_at(seen: Seen, idle: list[dict]) -> int:
    """The Unix second after which this page's poll must draw again although nothing changed
    (a button to offer: replace an idle person, or start for a dealer gone); 0: none."""
    times = [person["ripe_at"] for person in idle if not person["ripe"]]
    state = seen.state
    if state.game is None and seen.seat == tables.DEALER:
        times.append(state.dealer_seen + DEALER_NOTED)  # the dealer's page says it is here
    gone = tables.dealer_gone(state, store.now_seconds(), dealer_gone_limit())
    if state.game is None and seen.seat == tables.DEALER + 1 and not gone:
        times.append(state.dealer_seen + dealer_gone_limit())
    return int(min(times)) + 1 if times else 0


DEALER_NOTED = 30  # seconds between two notes that the dealer's page is open


def note_dealer(seen: Seen) -> None:
    """The dealer's page asked for the lobby: the dealer is here. Written at most every 30 s,
    without a new version (an update that finds the version moved changes nothing)."""
    state = seen.state
    now = store.now_seconds()
    if (
        state.game is not None
        or seen.seat != tables.DEALER
        or now - state.dealer_seen < DEALER_NOTED
    ):
        return
    state.dealer_seen = now
    Table.objects.filter(pk=seen.row.pk, version=seen.row.version).update(state=state.to_json())


def lobby_view(seen: Seen) -> SimpleNamespace:
    state = seen.state
    dealer = state.seats[tables.DEALER].name
    seats = [
        {
            "seat": index,
            "name": seat.name,
            "you": index == seen.seat,
            "dealer": index == tables.DEALER,
            "instead_of": "" if index == tables.DEALER else tables.COMPUTER_NAMES[index - 1],
        }
        for index, seat in enumerate(state.seats)
    ]
    empty = list(tables.COMPUTER_NAMES[len(state.seats) - 1 :])
    may_start = tables.may_start(state, seen.seat, store.now_seconds(), dealer_gone_limit())
    if seen.seat == tables.DEALER:
        status = "Press Start (F2) when everybody is here."
        if len(state.seats) == 1:
            status = "Send the link to your friends; each arrival appears here."
    elif may_start:
        status = f"{dealer} has left the lobby. You may start the game (F2)."
    else:
        status = f"Waiting for {dealer} to start the game..."
    return SimpleNamespace(
        phase="lobby",
        number=state.number,
        status=status,
        announcements=[],
        status_steps=[],
        seats=seats,
        empty=empty,
        dealer=seen.seat == tables.DEALER,
        may_start=may_start,
    )


def arrival_view(seen: Seen) -> SimpleNamespace:
    """The page of a friend who came after the start, until the next deal: who sits where,
    and whose seat will be theirs; no card of the hand in play."""
    state = seen.state
    seat = state.seats[seen.seat]
    return SimpleNamespace(
        phase="arriving",
        number=0,
        status=f"Waiting for this hand to end: {seat.name}'s seat is yours from the next hand.",
        announcements=[],
        status_steps=[],
        instead_of=seat.name,
        seats=[
            {"name": other.name, "label": computer_label(other), "you": other is seat}
            for other in state.seats
        ],
    )


def waiting_on_others(seen: Seen) -> bool:
    """Whether this page only waits (it reloads itself without JavaScript) or needs its player."""
    if seen.state.game is None or seen.heir:
        return True
    me = seen.state.seats[seen.seat]
    return me.away or seen.seat not in seen.state.waiting_for()


def draw(
    request: HttpRequest,
    seen: Seen,
    message: str = "",
    status: int = 200,
    dialog: str = "",
    extra: dict | None = None,
) -> HttpResponse:
    code = seen.row.code
    note_dealer(seen)
    options = load(request.session).options if not request.htmx else Options()
    options.sheet_after_hand, options.message_boxes = True, False
    idle = idle_seats(seen)
    lobby = seen.state.game is None
    if lobby:
        view, player = lobby_view(seen), PlayerState(options=options)
        template = "game/network/lobby.html"
    elif seen.heir:
        view, player = arrival_view(seen), PlayerState(options=options)
        template = "game/network/arriving.html"
    else:
        player, view = seat_view(seen, options)
        template = f"game/network/{view.phase}.html"
    version = seen.row.version
    ripe = redraw_at(seen, idle)  # until then, the poll need not draw again for a new button
    context = {
        "table_code": code,
        "state": player,
        "options": options,
        "view": view,
        "seq": seen.state.seats[seen.seat].seq,
        "template": template,
        "message": message,
        "me": seen.state.seats[seen.seat],
        "idle": idle,
        "idle_limit": idle_limit(),
        "version": version,
        "poll_url": f"{table_url('poll', code)}?v={version}&i={ripe}",
        "redraw": ripe,  # the Unix second the page must be drawn again by (0: none), for network.js
        "poll_seconds": POLL_SECONDS,
        "events_url": table_url("events", code),  # the poll box names it
        "now": int(store.now_seconds()),
        # the lobby alone shows the link to send to friends
        "link": request.build_absolute_uri(table_url("table", code)) if lobby else "",
        "table_name": table_name(seen.state),
        "dialog": dialog,
        **(extra or {}),
    }
    if not request.htmx and waiting_on_others(seen) and not dialog:  # a dialog is not reloaded
        context["refresh_seconds"] = settings.HEARTS_REFRESH_SECONDS
        context["refresh_url"] = f"{table_url('table', code)}?v={version}"
    return table_or_page(request, NETWORK_PAGE, context, status)


def table_name(state: tables.TableState) -> str:
    """A network game is named by its table (its dealer's), never by a number."""
    return f"{state.seats[tables.DEALER].name}'s table"


def notice(
    request: HttpRequest,
    message: str,
    status: int,
    join: str = "",
    back: str = "",
    invited: dict | None = None,
) -> HttpResponse:
    """A page (or, for htmx, a table) with only a sentence on it, or the name prompt that
    joins the table ``join`` (``invited``: whose table it is, and the seat a late friend takes)."""
    context = {
        "back": back,
        "message": message,
        "join": bool(join),
        "invited": invited,
        "table_code": join,
        "state": PlayerState(options=load(request.session).options),
        "template": "game/network/notice.html",
        "view": None,
        "dialog": "",
    }
    # htmx swaps only 2xx answers: a poll of a closed table gets 286, which also stops polling
    if request.htmx and status >= 400:
        status = 286
    return table_or_page(request, NETWORK_PAGE, context, status)
