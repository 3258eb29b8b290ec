"""Review Last Hand in the solo game: ``/review``, and ``/review/<step>`` without JavaScript."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_safe

from game.engine.handlog import last_hand
from game.solo.menus import dialog
from game.solo.views import Timing, load_state
from game.web import table
from game.web.review_page import review_context


def solo_url(step: int) -> str:
    return reverse("game:review_step", args=[step]) if step else reverse("game:review")


@require_safe
def review_hand(request: HttpRequest, step: int = 0) -> HttpResponse:
    """Game > Review Last Hand (R): the hand just finished, or the one before the hand being
    played, until that one ends."""
    timing = Timing()
    state = load_state(request, timing)
    record = last_hand(state.game, state.last_hand)
    context = review_context(record, 0, table.seat_names(state), step, solo_url)
    return dialog(request, "review", context, state, timing)
