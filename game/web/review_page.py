"""Our addition: Review Last Hand (R), a dialog over the table: what the solo game and a seat
at a network table share (their views are ``game.solo.review`` and ``game.network.review``).

The review is worked out on demand, in a thread pool of its own (never the pages' threads'
work, never a move's), and each decision in it takes the computer players' turn to think
(``seating.Clock``), so moves and reviews share the CPU a decision at a time. A page waits
for its review a few seconds at most; a finished review is kept in memory a while (the same
hand and seat give the same review, so whichever instance answers shows the same).

The dialog holds every step (the pass, then the thirteen tricks); hearts' review.js steps
through them with the arrow keys, Home and End. Without JavaScript each step is a page of its
own (``/review/3``), the links between them plain links.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as Pending

from game.engine import Card
from game.engine.handlog import HandRecord
from game.seating import Clock
from game.web.hand_review import FINE_MARGIN, Review, review
from game.web.last_trick import place_of

REVIEW_THREADS = 1
WAIT_SECONDS = 8.0  # a page waits this long for its review, then says it is being worked out
KEPT = 64  # finished reviews kept in memory, the least recently asked for going first
STEPS = 13  # after the pass (step 0), one step per trick
NONE_YET = "No hand has been finished yet, so there is nothing to review."
WORKING = "The review of the last hand is being worked out. Try again in a moment."

_pool = ThreadPoolExecutor(REVIEW_THREADS, thread_name_prefix="review")
_kept: OrderedDict[tuple, Future] = OrderedDict()
_lock = threading.Lock()


def _work(record: HandRecord, seat: int, names: tuple[str, ...]) -> Review:
    return review(record, seat, names, think=Clock().think)


def reviewed(record: HandRecord, seat: int, names: Sequence[str]) -> Review | None:
    """The review of ``record`` from ``seat``, worked out in the review pool; None if it is
    not ready within WAIT_SECONDS (it goes on, and the next request finds it)."""
    key = (record, seat, tuple(names))
    with _lock:
        future = _kept.get(key)
        if future is None:
            future = _pool.submit(_work, record, seat, tuple(names))
            _kept[key] = future
            while len(_kept) > KEPT:
                _kept.popitem(last=False)
        else:
            _kept.move_to_end(key)
    try:
        return future.result(timeout=WAIT_SECONDS)
    except Pending:
        return None
    except Exception:
        with _lock:
            _kept.pop(key, None)  # asked again, it is worked out again
        raise


def _card(code: str) -> dict:
    return {"code": code, "name": Card.parse(code).name}


def steps_of(found: Review, viewer: int, names: Sequence[str]) -> list[dict]:
    """What each step shows: the pass, then each trick's cards round the table."""

    def who(seat: int) -> str:
        return "you" if seat == viewer else names[seat]

    steps = [
        {
            "number": 0,
            "label": "Pass",
            "title": "The pass",
            "sentence": found.pass_sentence,
            "judgement": found.pass_judgement,
            "passed": [_card(code) for code in found.passed],
            "received": [_card(code) for code in found.received],
            "pass_to": None if found.pass_to is None else names[found.pass_to],
            "pass_from": None if found.pass_from is None else names[found.pass_from],
        }
    ]
    for step in found.steps:
        steps.append(
            {
                "number": step.number,
                "label": str(step.number),
                "title": f"Trick {step.number} of {STEPS}",
                "sentence": step.sentence,
                "judgement": step.judgement,
                "cards": [
                    {
                        **_card(code),
                        "player": who(seat),
                        "place": place_of(seat, viewer),
                        "won": seat == step.winner,
                        "led": i == 0,
                    }
                    for i, (seat, code) in enumerate(step.plays)
                ],
            }
        )
    for item in steps:
        judgement = item["judgement"]
        item["costly"] = bool(judgement and judgement.verdict == "costly")
        item["costliest"] = bool(judgement and judgement.costliest)
    return steps


def review_context(
    record: HandRecord | None,
    viewer: int,
    names: Sequence[str],
    step: int,
    url_of: Callable[[int], str],
) -> dict:
    """The dialog's context: the review (or why there is none) and its steps' addresses."""
    if record is None:
        return {"why_none": NONE_YET}
    found = reviewed(record, viewer, names)
    if found is None:
        return {"why_none": WORKING, "retry": url_of(step)}
    steps = steps_of(found, viewer, names)
    step = max(0, min(STEPS, step))
    for item in steps:
        item["url"] = url_of(item["number"])
        item["current"] = item["number"] == step
    costliest = found.costliest
    return {
        "review": found,
        "steps": steps,
        "step": step,
        "first_url": url_of(0),
        "last_url": url_of(STEPS),
        "prev_url": url_of(max(0, step - 1)),
        "next_url": url_of(min(STEPS, step + 1)),
        "costliest_url": None if costliest is None else url_of(costliest.trick),
        "fine_margin": FINE_MARGIN,
        "hand_number": record.hand_number,
    }
