"""Review Last Hand at a network table, from the asking browser's seat:
``/t/<code>/review``, and ``/t/<code>/review/<step>`` without JavaScript."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_safe

from game.engine.handlog import last_hand
from game.network import views as network
from game.web.review_page import review_context


@require_safe
@network.reachable
def table_review(request: HttpRequest, code: str, step: int = 0) -> HttpResponse:
    """The same review from this browser's seat at the table: only what that seat could know
    (its own pass and what it received; never another seat's pass)."""
    at = network.seated(request, code)
    if isinstance(at, HttpResponse):
        return at
    state = at.state
    record = last_hand(state.game, state.last_hand)
    if state.seats[at.seat].late and not (state.game and state.game.phase.over):
        record = None  # the hand before this one was a computer's, before this person sat down
    names = [seat.name for seat in state.seats]

    def url_of(number: int) -> str:
        if number:
            return reverse("network:review_step", args=[code, number])
        return reverse("network:review", args=[code])

    context = review_context(record, at.seat, names, step, url_of)
    return network.dialog(request, at, "game/dialog_review.html", **context)
