"""Review Last Hand in the solo game: ``/review``, and ``/review/<step>`` without JavaScript."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.http import require_safe

from game.engine import Game
from game.engine.handlog import HandRecord, last_hand
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
    if record is not None and not of_this_game(record, state.game):
        context["game_number"] = record.number  # the title names the game it was played in
    return dialog(request, "review", context, state, timing)


def of_this_game(record: HandRecord, game: Game | None) -> bool:
    """Whether the hand reviewed belongs to the game on the table: the hand it has just
    finished, or the one before the hand now played. A hand kept across New Game or Select Game
    (F2, F3) is an earlier game's, even one of the same number played again."""
    if game is None or record.number != game.number:
        return False
    just_finished = game.phase.over and record.hand_number == game.hand_number
    return just_finished or record.hand_number == game.hand_number - 1
