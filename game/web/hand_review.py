"""Our addition: a finished hand reviewed from one seat, in sentences. Plain Python, no Django.

A ``HandRecord`` (``game.engine.handlog``) is the hand as the game kept it. ``review``
replays it through the engine and, at each play of the seat and at its pass, asks what that
seat could know then: its ``View``, exactly as the computer players get it, never the cards
seen later. The play is weighed against the hint's card, the one H named at that moment (the
same search, deals and budget), both priced by the players' own search with a larger budget,
every card that may be played tried on the same imagined deals, so that the expected cost of
the card chosen is the difference of two averages over one sample; where that deeper search
prefers a third card it says so in its own name, never as the hint. "Pauline in your
seat" plays the same deal again with computers in all four seats, passes included. That
analysis, the searching, is ``game.players.review``; this module holds the English sentences,
for the review's pages. The costliest choice quotes what the hint (H) would have said at that
moment, in the hint's own sentences (``game.web.hint_words``).

Every generator is keyed by public facts of the hand (or a one-way key of the secret seed), so
a review is the same each time it is asked for.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from game.engine import DECK, SEATS, Card, Game, Phase, rules, seat_after
from game.engine.cards import INDEX_OF
from game.engine.handlog import HandRecord
from game.engine.rules import (
    HEART_MASK,
    HEARTS,
    MOON,
    POINT_MASK,
    QS,
    QS_BIT,
    SPADES,
    SUIT,
    legal_mask,
    suit_of,
)
from game.players import jit, weigh_pass, weigh_play
from game.players.brain import decide_play
from game.players.deals import knowledge_of
from game.players.review import (
    Appraisal,
    appraise,
    appraise_pass,
    computers_in_seat,
    decide,
    same_as,
)
from game.players.sim import moon_threat
from game.players.view import View, view_of
from game.web.hint_words import CLOSE, hint_parts
from game.web.words import counted

AS = INDEX_OF["AS"]
KS = INDEX_OF["KS"]
MOON_NOTE_SHARE = 0.2  # a moon worth mentioning: made in at least this share of those deals
FINE_MARGIN = CLOSE  # expected points within which a play counts as good as the hint's: the
# margin within which the hint itself calls two cards as good, so the two never disagree


def cards_text(codes: Sequence[str]) -> str:
    """ "the ace of spades, the king of hearts and the two of clubs" """
    names = [f"the {Card.parse(code).name}" for code in codes]
    if len(names) < 2:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def points_text(points: int) -> str:
    return counted(points, "point")


def all_so_far(points: int) -> str:
    """ "all 3 points so far", "the only point so far" """
    return "the only point so far" if points == 1 else f"all {counted(points, 'point')} so far"


def moon_stopped_sentence(stopper: str, whose: str, holder: str, trick: int, so_far: int) -> str:
    """ "Ben stopped your moon in trick 9, when you had taken all 17 points so far." """
    return (
        f"{stopper} stopped {whose} moon in trick {trick}, when {holder} had taken "
        f"{all_so_far(so_far)}."
    )


def moon_possible_sentence(trick: int, so_far: int, share: float) -> str:
    """ "A moon was possible for you: at trick 4 you had taken all 6 points so far, ..." """
    when = (
        f"you had taken {all_so_far(so_far)}"
        if so_far
        else "no one had taken a point yet and your cards were high"
    )
    return (
        f"A moon was possible for you: at trick {trick} {when}, and going for it "
        f"made the moon in {round(100 * share)}% of the deals searched."
    )


# ---- the review ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Judgement:
    """One decision of the seat: the cards it chose, the hint's, and what it cost."""

    trick: int  # 0 for the pass, else the trick the card went to
    played: tuple[str, ...]
    hint: tuple[str, ...]
    cost: float  # expected points more than the hint's (0 when as good)
    verdict: str  # "fine", "costly", "forced" (no other card, or none that differs), "settled"
    sentence: str  # what a person reads
    costliest: bool = False

    @property
    def headline(self) -> str:
        """The sentence without the hint's card or words: what the review's summary line says
        of the costliest choice, whose step then shows the whole sentence."""
        return self.sentence.split(" The hint", 1)[0]


@dataclass(frozen=True, slots=True)
class Step:
    """One trick as the seat saw it played."""

    number: int
    leader: int
    winner: int
    plays: tuple[tuple[int, str], ...]  # (seat, code) in play order
    points: int
    sentence: str  # the whole trick in one sentence, for the eyes and a screen reader
    judgement: Judgement | None  # the seat's card in it


@dataclass(frozen=True, slots=True)
class Review:
    seat: int
    hand_number: int
    direction: str  # "left", "right", "across" or "keep"
    passed: tuple[str, ...]
    received: tuple[str, ...]
    pass_to: int | None
    pass_from: int | None
    pass_sentence: str
    pass_judgement: Judgement | None
    steps: tuple[Step, ...]
    costliest: Judgement | None
    took: int  # the seat's score for the hand, the moon rule applied
    pauline_took: int  # Pauline's in the seat, the same deal played afresh
    pauline_sentence: str
    moon_notes: tuple[str, ...]

    @property
    def judgements(self) -> list[Judgement]:
        found = [self.pass_judgement] if self.pass_judgement else []
        return found + [step.judgement for step in self.steps if step.judgement]

    @property
    def costly(self) -> list[Judgement]:
        return [j for j in self.judgements if j.verdict == "costly"]


def pauline_in_seat(record: HandRecord, seat: int, think=decide) -> tuple[int, int]:
    """The same deal played afresh from the thirteen cards dealt, with the computer players in
    every seat, passes included: ``seat``'s score for the hand and its points before the moon
    rule."""
    return computers_in_seat(record.dealt(), seat, think)


def review(record: HandRecord, seat: int, names: Sequence[str], core=None, think=decide) -> Review:
    """The hand ``record`` from ``seat``, with the four players' names by seat (the seat itself
    is "you" in every sentence). Costs a fraction of a second with the compiled core. Each
    decision weighed or made goes through ``think(fn, *args)``: the site passes the computer
    players' ``Clock.think``, so that a review takes their turn a decision at a time."""
    core = core or jit.core()
    if seat not in SEATS:
        raise ValueError("no such seat")

    def who(s: int) -> str:
        return "you" if s == seat else names[s]

    judged: dict[int, Judgement] = {}
    pass_judgement: list[Judgement] = []
    moments: dict[int, Game] = {}  # the position of each judged choice (0: the pass)
    moon_chances: list[tuple[float, int, int]] = []  # (share, trick, points so far)

    def look(game: Game, at: int | None, code: str | None) -> None:
        if at is None:
            pass_judgement.append(think(_judge_pass, game, seat, record, core))
            moments[0] = game.copy()
        elif at == seat:
            view = view_of(game, seat)
            judgement, appraisal = think(judge_play, view, code, core)
            judged[judgement.trick] = judgement
            moments[judgement.trick] = game.copy()
            if appraisal is not None and appraisal.moon_share is not None:
                so_far = game.hand_points()
                if so_far[seat] == sum(so_far):
                    moon_chances.append((appraisal.moon_share, judgement.trick, so_far[seat]))

    finished = record.replay(look)
    points = finished.hand_points()
    scores = rules.hand_score(points, record.moon_off_shooter)
    costly = [j for j in (*pass_judgement, *judged.values()) if j.verdict == "costly"]
    top = max(costly, key=lambda j: (j.cost, -j.trick)) if costly else None
    if top is not None:
        told = ["You" if s == seat else names[s] for s in SEATS]
        said = hint_then(moments[top.trick], seat, told, think)
        top = dataclasses.replace(top, costliest=True, sentence=quoting(top, *said))
        if top.trick == 0:
            pass_judgement[0] = top
        else:
            judged[top.trick] = top
    steps = []
    for number, trick in enumerate(finished.completed_tricks, start=1):
        said = [
            f"{who(s)} {'led' if i == 0 else 'played'} the {Card.parse(code).name}"
            for i, (s, code) in enumerate(trick.plays)
        ]
        trick_points = rules.trick_points([INDEX_OF[code] for _, code in trick.plays])
        sentence = (
            f"Trick {number}: {', '.join(said)}; {who(trick.winner)} took it, "
            f"{points_text(trick_points)}."
        )
        steps.append(
            Step(
                number,
                trick.leader,
                trick.winner,
                trick.plays,
                trick_points,
                sentence,
                judged.get(number),
            )
        )
    direction = finished.pass_direction
    pass_to = finished.pass_target(seat)
    pass_from = None if pass_to is None else seat_after(seat, seat - pass_to)
    passed = tuple(finished.passed(seat))
    received = tuple(finished.received(seat))
    if pass_to is None:
        pass_sentence = "No cards were passed on this hand."
    else:
        pass_sentence = (
            f"You passed {cards_text(passed)} to {names[pass_to]}, and received "
            f"{cards_text(received)} from {names[pass_from]}."  # type: ignore[index]
        )
    pauline = pauline_in_seat(record, seat, think)
    took = scores[seat]
    pauline_sentence = (
        f"Pauline in your seat would have {_taken_text(*pauline, would=True)}; "
        f"you {_taken_text(took, points[seat], would=False)}."
    )
    return Review(
        seat=seat,
        hand_number=record.hand_number,
        direction=direction,
        passed=passed,
        received=received,
        pass_to=pass_to,
        pass_from=pass_from,
        pass_sentence=pass_sentence,
        pass_judgement=pass_judgement[0] if pass_judgement else None,
        steps=tuple(steps),
        costliest=top,
        took=took,
        pauline_took=pauline[0],
        pauline_sentence=pauline_sentence,
        moon_notes=tuple(_moon_notes(finished, seat, who, moon_chances)),
    )


def hint_then(game: Game, seat: int, names: Sequence[str], think=decide) -> tuple[str, ...]:
    """What the hint (H) would have shown at ``game``, the seat's choice: its cards and the
    sentence the status bar shows (``game.web.hint_words.hint_parts``, without the rest behind
    "Why?"), from the search as it runs in play."""
    if game.phase == Phase.PASSING:
        passing = think(weigh_pass, game.copy(), seat)
        return tuple(sorted(passing.cards)), hint_parts(game, seat, passing, names)[0]
    playing = think(weigh_play, game.copy(), seat)
    return (playing.card,), hint_parts(game, seat, playing, names)[0]


def quoting(judgement: Judgement, cards: tuple[str, ...], hint_words: str) -> str:
    """The costliest choice's sentence, with the hint's own words at that moment (its card is
    the judgement's hint: the same search) in place of the bare card."""
    return f"{judgement.headline} The hint at that moment: {hint_words.removeprefix('Hint: ')}"


def _taken_text(score: int, raw: int, would: bool) -> str:
    """ "taken 3 points" or "shot the moon", after "would have" (``would``) or "you"."""
    if raw == MOON:
        return "shot the moon"
    return f"{'taken' if would else 'took'} {points_text(score)}"


def judge_play(view: View, code: str, core=None) -> tuple[Judgement, Appraisal | None]:
    """The seat's card ``code`` at ``view`` (its turn) weighed against the hint's, and the
    appraisal behind it (None for a card that no other could beat or lose to). The hint's card
    is the one H named at that moment (the same search, deals and budget); the deeper
    appraisal only prices the two, and says so in its own words where it prefers a third."""
    core = core or jit.core()
    card = INDEX_OF[code]
    number = len(view.tricks) + 1
    know = knowledge_of(view)
    if not POINT_MASK & ~know.gone:
        sentence = f"You played the {DECK[card].name}. No points were left: no card could matter."
        return Judgement(number, (code,), (code,), 0.0, "settled", sentence), None
    appraisal = appraise(view, core)
    if appraisal is None:
        first, broken = not view.tricks, bool(know.gone & HEART_MASK)
        if legal_mask(know.hand, view.trick, first, broken).bit_count() == 1:
            sentence = f"You played the {DECK[card].name}, the only card you could play."
        else:
            sentence = (
                f"You played the {DECK[card].name}: every card you could play came to the same."
            )
        return Judgement(number, (code,), (code,), 0.0, "forced", sentence), None
    hinted = decide_play(view, core)
    hint = DECK[hinted].code
    reps = list(appraisal.values)
    mine, theirs = same_as(card, reps), same_as(hinted, reps)
    difference = appraisal.values[mine] - appraisal.values[theirs]
    cost = max(0.0, difference)
    deeper = deeper_choice(appraisal, theirs)
    if card == hinted:
        sentence = f"You played the {DECK[card].name}: fine, the hint plays it too."
    elif mine == deeper:
        sentence = (
            f"You played the {DECK[card].name}: fine, a deeper look prefers it to the hint's "
            f"card, the {DECK[hinted].name}."
        )
    elif mine == theirs or cost <= FINE_MARGIN:
        sentence = (
            f"You played the {DECK[card].name}: fine, {near(difference)} the hint's card, "
            f"the {DECK[hinted].name}."
        )
    else:
        reason = play_reason(view, card, hinted, know.gone)
        sentence = f"You {reason}: expected +{cost:.1f} points. The hint: the {DECK[hinted].name}."
        if deeper is not None:
            sentence = f"{sentence[:-1]}; a deeper look prefers the {DECK[deeper].name}."
        return Judgement(number, (code,), (hint,), round(cost, 2), "costly", sentence), appraisal
    if deeper is not None and mine != deeper:
        sentence = f"{sentence[:-1]}; a deeper look prefers the {DECK[deeper].name}."
    return Judgement(number, (code,), (hint,), round(cost, 2), "fine", sentence), appraisal


def deeper_choice(appraisal: Appraisal, hinted: int) -> int | None:
    """The deeper search's best card where it beats the hint's by more than the margin."""
    best = appraisal.best
    if best == hinted or appraisal.values[hinted] - appraisal.values[best] <= FINE_MARGIN:
        return None
    return best


def play_reason(view: View, card: int, best: int, gone: int) -> str:
    """Why a card cost points, in a few plain words, from what the seat could see."""
    name = DECK[card].name
    other = DECK[best].name
    hand = view.hand_mask
    on_table = rules.mask_of(view.trick)
    queen_out = not (gone | hand | on_table) & QS_BIT
    high_spade = card in (AS, KS)
    if not view.trick:
        if high_spade and queen_out:
            return f"led the {name} with the queen still out"
        if card == QS:
            return "led the queen of spades"
        if suit_of(card) == suit_of(best) and card > best:
            return f"led the {name} where the {other} was lower"
        return f"led the {name}; leading the {other} was expected to cost less"
    led = suit_of(view.trick[0])
    win = view.trick[rules.winning_position(view.trick)]
    table_points = rules.trick_points(view.trick)
    last = len(view.trick) == 3
    if suit_of(card) == led:
        takes = card > win
        if led == SPADES and high_spade and queen_out:
            return f"played the {name} on a spade lead with the queen still out"
        if takes and last and table_points and best < win:
            return f"took {points_text(table_points)} with the {name} where the {other} ducked"
        if takes and best < win:
            return f"took the lead with the {name} where the {other} would have ducked"
        if card == QS:
            return "gave the queen of spades to a trick you might take"
        return f"played the {name}; the {other} was expected to cost less"
    if best == QS:
        return f"kept the queen of spades, discarding the {name}"
    if suit_of(best) == HEARTS and suit_of(card) != HEARTS:
        return f"discarded the {name} and kept the {other}"
    if best in (AS, KS) and queen_out:
        return f"kept the {other} with the queen still out, discarding the {name}"
    return f"discarded the {name}; the {other} was expected to cost less"


def _judge_pass(game: Game, seat: int, record: HandRecord, core) -> Judgement:
    view = view_of(game, seat)
    passed = [INDEX_OF[code] for code in record.passes()[seat]]
    cost, hint = appraise_pass(view, passed, core)
    codes = tuple(DECK[c].code for c in sorted(passed))
    hint_codes = tuple(DECK[c].code for c in sorted(hint))
    if cost <= FINE_MARGIN:
        tail = (
            "the hint passes the same"
            if codes == hint_codes
            else f"{near(cost)} the hint's {cards_text(hint_codes)}"
        )
        sentence = f"Your pass: fine, {tail}."
        return Judgement(0, codes, hint_codes, round(max(cost, 0.0), 2), "fine", sentence)
    sentence = (
        f"You {pass_reason(view, passed, hint)}: expected +{cost:.1f} points. "
        f"The hint: {cards_text(hint_codes)}."
    )
    return Judgement(0, codes, hint_codes, round(cost, 2), "costly", sentence)


def near(difference: float) -> str:
    """How a fine choice compares with the hint's, before "the hint's ...": "within 0.3
    expected points of" (it costs that much more), "as good as" when the difference rounds to
    nothing (within the hint's own margin for "as good"), and where the deeper look values it
    more, "by a deeper look 0.3 expected points better than"."""
    shown = f"{abs(difference):.1f}"
    if shown == "0.0":
        return "as good as"
    if difference < 0:
        return f"by a deeper look {shown} expected points better than"
    return f"within {shown} expected points of"


def kept_queen_text(guards: int) -> str:
    return f"kept the queen of spades with {counted(guards, 'lower spade')}"


def passed_queen_text(guards: int) -> str:
    return f"passed the queen of spades away with {counted(guards, 'lower spade')} to guard it"


def pass_reason(view: View, passed: Sequence[int], hint: Sequence[int]) -> str:
    hand = view.hand_mask
    guards = (hand & SUIT[SPADES] & (QS_BIT - 1)).bit_count()
    if QS in hint and QS not in passed:
        return kept_queen_text(guards)
    if QS in passed and QS not in hint:
        return passed_queen_text(guards)
    kept = [c for c in hint if c not in passed and c in (AS, KS)]
    if kept and not hand & QS_BIT:
        return f"kept the {DECK[kept[0]].name} with the queen out of your hand"
    return f"passed {cards_text([DECK[c].code for c in sorted(passed)])}"


def _moon_notes(finished: Game, seat: int, who, chances) -> list[str]:
    notes = []
    points = finished.hand_points()
    shooter = next((s for s in SEATS if points[s] == MOON), None)
    if shooter is not None and shooter != seat:  # the summary's first line says "you shot"
        notes.append(f"{who(shooter)} shot the moon.")
    taken = [0, 0, 0, 0]
    for number, trick in enumerate(finished.completed_tricks, start=1):
        threat = moon_threat(taken, number - 1)
        got = rules.trick_points([INDEX_OF[code] for _, code in trick.plays])
        if threat >= 0 and got and trick.winner != threat:
            whose = "your" if threat == seat else f"{who(threat)}'s"
            stopper = "You" if trick.winner == seat else who(trick.winner)
            holder = "you" if threat == seat else who(threat)
            notes.append(moon_stopped_sentence(stopper, whose, holder, number, taken[threat]))
            break
        taken[trick.winner] += got
    if shooter != seat and chances:
        share, trick, so_far = max(chances, key=lambda item: (item[0], -item[1]))
        if share >= MOON_NOTE_SHARE:
            notes.append(moon_possible_sentence(trick, so_far, share))
    return notes
