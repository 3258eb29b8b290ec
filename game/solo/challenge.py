"""Our addition: challenge a friend to the game you just played. The link carries everything,
signed with the site's key under a salt of its own, and nothing is stored on the server:
``/challenge/617.<payload>:<signature>``, the game number readable at its start so that a
damaged link can still offer the game. The payload's form is ``game.web.challenge``'s.

``/challenge``: the link for the game just finished (a dialog; its field can be selected, and
copied with a button when JavaScript is on). ``/challenge/<link>``: the friend's page, whose one
button plays the same deals; opened by someone whose result it already carries, the reply (both
results, the verdict, OK first); opened by its sender, a reminder that it is theirs to send;
a bad link gets a page saying so and changes nothing.
"""

from __future__ import annotations

import re
from dataclasses import replace

from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_safe

from game.engine import MAX_NUMBER, MIN_NUMBER
from game.names import TOO_LONG, clean_name, too_long
from game.seating import TYPE_YOUR_NAME
from game.solo import actions
from game.solo.menus import closing, dialog, into_dialogs
from game.solo.views import Timing, act, compared, load_state
from game.web import respond
from game.web.challenge import (
    Challenge,
    Result,
    Unreadable,
    link_name,
    pack,
    result_of,
    sheet,
    unpack,
    verdict,
    with_result,
)
from game.web.player import HUMAN, PlayerState
from game.web.words import counted

SALT = "hearts.challenge"
LINK_MAX = 1000  # characters: the longest link we make is about 520
NUMBER_AT_START = re.compile(r"(\d{1,7})\.")


class Damaged(ValueError):
    """A link we did not make, or not whole; ``number``: its game number, where readable."""

    def __init__(self, number: int | None) -> None:
        super().__init__(number)
        self.number = number


def signer() -> signing.Signer:
    return signing.Signer(salt=SALT)


def link_of(challenge: Challenge) -> str:
    """The link's last part: the game number, the payload, the signature over both."""
    return signer().sign(f"{challenge.number}.{pack(challenge)}")


def readable_number(link: str) -> int | None:
    found = NUMBER_AT_START.match(link)
    number = int(found.group(1)) if found else None
    return number if number is not None and MIN_NUMBER <= number <= MAX_NUMBER else None


def read_link(link: str) -> Challenge:
    """The challenge a link carries, or Damaged: too long, unsigned, signed with another key,
    changed or cut short, or a number out of range."""
    number = readable_number(link)
    if len(link) > LINK_MAX or number is None:
        raise Damaged(number)
    try:
        value = signer().unsign(link)
    except signing.BadSignature:
        raise Damaged(number) from None
    signed_number, _, payload = value.partition(".")
    try:
        return unpack(int(signed_number), payload)
    except (Unreadable, ValueError):
        raise Damaged(number) from None


def offered(state: PlayerState) -> Challenge | None:
    """The challenge the game just finished can send: its result after those it was played
    against. None unless the game was played to its end in this browser."""
    game = state.game
    mine = None if game is None else result_of(game, HUMAN, state.options.name, state.tally)
    return None if mine is None else with_result(game, state.challenge, mine)


@require_safe
def challenge_friend(request: HttpRequest) -> HttpResponse:
    """The final sheet's Challenge a Friend: the link, to select or copy."""
    timing = Timing()
    state = load_state(request, timing)
    sent = offered(state)
    context: dict = {"sent": sent, "daily": state.daily is not None}
    if sent is not None:
        path = reverse("game:challenge_link", args=[link_of(sent)])
        context["link"] = request.build_absolute_uri(path)
        context["chain"] = len(sent.results) > 1
        context["total"] = counted(sent.sender.total, "point", zero="0 points")
    return dialog(request, "challenge_friend", context, state, timing)


@require_safe
def comparison(request: HttpRequest) -> HttpResponse:
    """The hand-by-hand comparison of the challenge being played, alone: a move's answer sends
    the score sheet with a placeholder that fetches it here, which keeps every move's answer
    small. Only reads the cookie; without a challenge, a short notice."""
    state = load_state(request, Timing())
    shown = None if state.unreadable else compared(state)
    context = {"sheet": shown if shown is not None and shown.rows else None}
    return respond.render_fresh(request, "game/partials/challenge_compared.html", context)


# What the status bar says over a first visitor's empty table while a challenge dialog is the
# one thing on the screen (status.html; a table drawn behind the dialog has its own line).
DAMAGED_STATUS = "This challenge link is damaged."
ASK_NAME_STATUS = "Type your name and press Play the Same Deals."


def own_result(challenge: Challenge, state: PlayerState) -> Result | None:
    """Your result in a link someone sent back to you (issue 50): one under your name, not the
    sender's (the last). None when the link is a challenge to you."""
    name = link_name(state.options.name) if state.options.name else ""
    if not name or challenge.sender.name == name:
        return None
    return next((r for r in challenge.results[:-1] if r.name == name), None)


def sent_by_you(challenge: Challenge, state: PlayerState) -> bool:
    """The link is yours: its sender (the latest result) bears your name, as ``own_result``
    tells your result in a reply by its name."""
    return bool(state.options.name) and challenge.sender.name == link_name(state.options.name)


@require_http_methods(["GET", "HEAD", "POST"])
def take_up(request: HttpRequest, link: str) -> HttpResponse:
    """The friend's page: who challenges and what they made of the game, and one button that
    plays the same deals (asking first if a game in progress would be lost)."""
    timing = Timing()
    state = load_state(request, timing)
    try:
        challenge = read_link(link)
    except Damaged as damaged:
        # a first visitor sees this dialog alone (no name prompt behind it), the bar its line
        said = {"number": damaged.number, "asks_name": True, "dialog_status": DAMAGED_STATUS}
        response = dialog(request, "challenge_damaged", said, state, timing)
        return into_dialogs(response, request) if request.method == "POST" else response
    context = {
        "challenge": challenge,
        "shown": sheet(challenge),
        "link": link,
        "named": bool(state.options.name),
        "asks_name": not state.options.name,  # in place of the name prompt behind it
        "dialog_status": ASK_NAME_STATUS,  # the bar speaks for it while no table is drawn
        "in_progress": actions.in_progress(state),
        "leaving": actions.leaving_words(state),
        "current": state.game.number if state.game else None,
    }
    if request.method in ("GET", "HEAD"):
        if sent_by_you(challenge, state):  # your own link, opened again: to send, not to play
            context["address"] = request.build_absolute_uri()
            return dialog(request, "challenge_own", context, state, timing)
        mine = own_result(challenge, state)
        if mine is not None:  # the reply to a challenge of yours: no new challenge unasked
            others = tuple(r for r in challenge.results if r is not mine)
            context["shown"] = sheet(replace(challenge, results=others), you=mine)
            context["said"] = verdict(mine, others)
            return dialog(request, "challenge_reply", context, state, timing)
        return dialog(request, "challenge", context, state, timing)
    typed = request.POST.get("name", "")
    name = state.options.name or clean_name(typed)
    refusal = "" if name else TYPE_YOUR_NAME
    if not state.options.name and too_long(typed):  # told, never cut without a word
        refusal, context["typed"] = TOO_LONG, typed[:100]
    if refusal:
        context["message"] = refusal
        return into_dialogs(dialog(request, "challenge", context, state, timing), request)

    def play_the_same_deals(state: PlayerState, clock: actions.Clock) -> None:
        state.options.name = name
        actions.start_game(state, challenge.number, clock, challenge)

    return closing(act(request, play_the_same_deals), request)
