"""What the page shows, worked out from the state: plain data for the templates.

Two parts that meet only in ``build``:

- the view model (``table_view``): the table as it stands, for one viewer's seat (the solo game
  is seat 0, at the bottom); a refusal, a hint, a dialog or a reload shows exactly this;
- the animation schedule (``schedule``) and the narration (``narrate``): what is new since the
  page last showed the table, the order it arrives in and what a screen reader is told. Only the
  answer to an action that changed the game carries them.

Timing is counted in ticks (a CSS variable sets a tick's length from the speed option), so the
server decides the order and the browser only plays it back. The ``.tN``, ``.gN`` and ``.eN``
classes for ticks 0 to MAX_TICK live in static/css/ticks.css, written by ``tick_css()``
(``python -m game.web.table > static/css/ticks.css``; a test keeps the file in step).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

from django.utils.safestring import SafeString, mark_safe

from game.engine import PASS_SIZE, Card, Game, Phase, seat_after
from game.seating import COMPUTER_NAMES, PRESS_OK, Hint
from game.web.hint_words import hint_parts
from game.web.last_trick import LastTrickView, last_trick_view, place_of
from game.web.player import HUMAN, PlayerState
from game.web.words import counted

DIRECTION_LABEL = {"left": "Pass Left", "right": "Pass Right", "across": "Pass Across"}
NO_POINTS_LEFT = "No points are left in this hand."  # our addition: finish a dead hand
STEP = 2  # ticks between two cards
PAUSE = 5  # ticks a finished trick stays on the table
GATHER = 2  # ticks the gathering takes
MAX_TICK = 60
# A tick's length by the animation speed option, as static/css/hearts.css sets --tick (a test
# keeps the two in step); "none" draws everything at once, as does prefers-reduced-motion.
TICK_MS = {"slow": 350, "normal": 200, "fast": 100, "none": 0}
TICK_PROPERTIES = {"t": "--t", "g": "--g", "e": "--e"}  # arrive, gather, end of a wait


def seat_names(state: PlayerState) -> list[str]:
    return [state.options.name or "You", *COMPUTER_NAMES]


place = place_of  # where ``seat`` sits for ``viewer``: bottom, left, top or right


def seats_from(viewer: int) -> list[int]:
    """The four seats in the order the table shows them to ``viewer``: the viewer first, then
    round the table as it plays (the columns of the score sheet, the names in a sentence)."""
    return [seat_after(viewer, step) for step in range(4)]


@dataclass
class HandCard:
    code: str
    name: str
    raised: bool = False
    dimmed: bool = False
    hint: bool = False


@dataclass
class TableCard:
    seat: int
    code: str
    name: str
    place: str
    who: str  # "You" or the player's name, for the card's accessible name
    tick: int | None = None  # None: on the table already when the page last showed it
    gather_tick: int | None = None
    gather_to: str = ""


@dataclass
class ScoreRow:
    hand: int | str
    points: list[int]
    totals: list[int]

    @property
    def cells(self) -> list[tuple[int, int]]:
        return list(zip(self.points, self.totals, strict=True))


@dataclass
class TableView:
    names: list[str]  # from the viewer round the table (seats_from)
    phase: str
    number: int
    hand_number: int
    direction: str
    hand: list[HandCard]
    hand_action: str  # the form action for a click on a card: "select", "play" or ""
    button: str  # "Pass Left" / "OK" / ""
    button_action: str
    button_enabled: bool
    opponents: list[dict]
    trick: list[TableCard]
    taken: list[dict]
    sheet: list[ScoreRow]
    totals: list[int]
    leaders: list[int]
    winners: list[int]
    show_sheet: bool
    status: str
    result: str = ""
    your_turn: bool = False
    hinted: bool = False  # the status line is the hint's sentences: it wraps, never cut short
    hint_why: str = ""  # the rest of the hint's reason, behind "Why?" (the bar keeps its height)
    # filled in by the schedule and the narration, for the answer to an action only
    last_trick: list[TableCard] = field(default_factory=list)
    announcements: list[str] = field(default_factory=list)
    # the status bar's lines while the answer's table is drawn (``status_steps``); ``status``
    # shows from ``end_tick`` on, when the table is drawn whole
    status_steps: list[StatusStep] = field(default_factory=list)
    end_tick: int = 0  # when the animation is over: the hand lights, the sheet appears
    gathered: LastTrickView | None = None  # the last trick, to see again (our addition)
    # the viewer's card on the table, as hearts.js shows it on a click before the answer: the
    # markup it clones (trick.html's template), given the card's face and name and set arriving
    yours: TableCard | None = None
    by_seat: list[str] = field(default_factory=list)  # the names by seat number
    daily_over: bool = False  # Today's Deal's fourth hand is over: its sheet is offered


@dataclass
class StatusStep:
    """A line the status bar shows from tick ``start`` until tick ``until``, while the table it
    speaks for is being drawn (see ``status_steps``)."""

    before: str  # the line's words before a name ("Waiting for "), then the name, then after
    name: str
    after: str
    start: int
    until: int

    @property
    def text(self) -> str:
        return f"{self.before}{self.name}{self.after}"


@dataclass
class Schedule:
    """When each new card arrives, and when the trick it finished is gathered."""

    arrive: dict[int, int]  # index of the play in the hand -> tick
    gather_tick: int | None  # the last completed trick is new: it is shown, then gathered
    waits: list[tuple[int, int, int]]  # (seat, from, until): "Waiting for Ben to move..."
    end_tick: int
    shown_tick: int | None = None  # when the fourth card of the trick gathered is on the table


def clamp(tick: int) -> int:
    return max(0, min(MAX_TICK, tick))


def build(
    state: PlayerState,
    hint: Hint | None = None,
    *,
    animate: bool = False,
    own_card_placed: bool = False,
    viewer: int = HUMAN,
    names: list[str] | None = None,
    labels: list[str] | None = None,
    status: str = "",
) -> TableView:
    """The view model, with the schedule and the narration of what is new when ``animate``
    (the answer to an action). ``own_card_placed``: the page already moved the viewer's card
    to the table when it was clicked, so it does not arrive a second time. ``viewer``: the seat
    drawn at the bottom (a network table's person; the solo game's is seat 0), with ``names``
    by seat number; the view model turns the table for that seat. ``labels`` and ``status``:
    see ``table_view``."""
    view = table_view(state, viewer, hint, names, labels, status)
    if animate:
        game = state.game
        plan = schedule(game, state.fresh_from, viewer, own_card_placed)
        apply(view, game, plan, viewer)
        view.announcements = narrate(state, view.by_seat, viewer)
        if not state.awaiting_ok:  # the OK is there at once, the others' cards or not
            view.status_steps = status_steps(plan, game, view.by_seat, viewer)
    return view


# -- the view model ---------------------------------------------------------------------------


def shown_tricks(game: Game) -> list:
    """The completed tricks the players played: those the engine played out of a dead hand
    (``Game.played_out_from``) are never shown being played."""
    return game.completed_tricks[: game.played_out_from]


def plays_of_hand(game: Game) -> list[tuple[int, int, str]]:
    """Every card played this hand as (index in the hand, seat, code), in order."""
    plays: list[tuple[int, int, str]] = []
    tricks = shown_tricks(game)
    for t, trick in enumerate(tricks):
        plays.extend((t * 4 + i, seat, code) for i, (seat, code) in enumerate(trick.plays))
    base = len(tricks) * 4
    plays.extend((base + i, seat, code) for i, (seat, code) in enumerate(game.trick))
    return plays


def who(names: list[str], seat: int, viewer: int) -> str:
    return "You" if seat == viewer else names[seat]


def table_card(names: list[str], seat: int, code: str, viewer: int) -> TableCard:
    return TableCard(
        seat, code, Card.parse(code).name, place(seat, viewer), who(names, seat, viewer)
    )


def table_view(
    state: PlayerState,
    viewer: int,
    hint: Hint | None,
    names: list[str] | None = None,
    labels: list[str] | None = None,
    status: str = "",
) -> TableView:
    """The table as it stands for ``viewer``, from its named parts. ``labels``: by seat, who is
    a computer ("a computer player"; a network table's); ``status``: a sentence in place of the
    status line (a network seat a computer plays for, or one that pressed OK already)."""
    game = state.game
    assert game is not None
    names = names or seat_names(state)
    order = seats_from(viewer)
    passing = game.phase == Phase.PASSING and not game.has_passed(viewer)
    playing = game.phase == Phase.PLAYING and not state.awaiting_ok
    button, button_action, enabled = hand_button(state, game, passing)
    totals, leaders, winners = standings(game, order)
    line, result = status_and_result(state, game, names, viewer, [order[i] for i in winners])
    why = ""
    if hint and not status:
        line, why = hint_parts(
            game, viewer, hint.figures, [who(names, s, viewer) for s in range(4)]
        )
    return TableView(
        names=[names[s] for s in order],
        phase=Phase.PASSING
        if passing or state.awaiting_ok or game.phase == Phase.PASSING
        else game.phase,
        number=game.number,
        hand_number=game.hand_number,
        direction=game.pass_direction,
        hand=hand_cards(state, game, viewer, hint.cards if hint else [], playing),
        hand_action="select" if passing else ("play" if playing else ""),
        button=button,
        button_action=button_action,
        button_enabled=enabled,
        opponents=opponents(game, names, viewer, labels),
        trick=[table_card(names, seat, code, viewer) for seat, code in game.trick],
        taken=taken_piles(game, names, order, viewer),
        sheet=score_sheet(game, order),
        totals=totals,
        leaders=leaders,
        winners=winners,
        show_sheet=game.phase == Phase.GAME_OVER
        or (game.phase == Phase.HAND_OVER and state.options.sheet_after_hand),
        status=status or line,
        result=result,
        your_turn=playing and game.turn == viewer,
        hinted=hint is not None and not status,
        hint_why=why,
        gathered=last_trick_view(game, viewer, names),
        by_seat=list(names),
        yours=TableCard(viewer, "", "", place(viewer, viewer), "You"),
        daily_over=state.daily is not None and game.phase == Phase.GAME_OVER,
    )


def hand_cards(
    state: PlayerState, game: Game, viewer: int, hint: list[str], playing: bool
) -> list[HandCard]:
    """The viewer's hand: the cards chosen to pass and those received (until OK) raised, those
    that may not be played dimmed. Cards passed leave the hand at once (a network seat waits
    for the others' passes; the solo game's computers pass with you)."""
    legal = set(game.legal_plays(viewer))
    received = set(game.received(viewer)) if state.awaiting_ok else set()
    gone = set(game.passed(viewer)) if game.phase == Phase.PASSING else set()
    return [
        HandCard(
            code=code,
            name=Card.parse(code).name,
            raised=code in state.selected or code in received,
            dimmed=playing and code not in legal,
            hint=code in hint,
        )
        for code in game.hand(viewer)
        if code not in gone
    ]


def hand_button(state: PlayerState, game: Game, passing: bool) -> tuple[str, str, bool]:
    """The button under the hand: its label, its form's action and whether it may be pressed."""
    if passing:
        return DIRECTION_LABEL[game.pass_direction], "pass", len(state.selected) == PASS_SIZE
    if state.awaiting_ok:
        return "OK", "accept", True
    return "", "", False


BACK = "<i></i>"  # one card's back in an opponent's row
BACKS = tuple(mark_safe(BACK * count) for count in range(14))


def backs(count: int) -> SafeString:
    """An opponent's cards' backs, as the row draws them: made here once, not looped over in
    the template (a loop's turn per card, 39 a table, was a third of its opponents' drawing)."""
    return BACKS[count] if count < len(BACKS) else mark_safe(BACK * count)


def opponents(
    game: Game, names: list[str], viewer: int, labels: list[str] | None = None
) -> list[dict]:
    """The other three seats round the table, with their cards' backs."""
    return [
        {
            "seat": seat,
            "name": names[seat],
            "place": place(seat, viewer),
            "count": len(game.hand(seat)),
            "backs": backs(len(game.hand(seat))),
            **({"computer": labels[seat]} if labels else {}),
        }
        for seat in (seat_after(viewer, step) for step in (1, 2, 3))
    ]


def taken_piles(game: Game, names: list[str], order: list[int], viewer: int) -> list[dict]:
    """After a hand, the point cards each seat took, shown face up."""
    if not game.phase.over:
        return []
    taken = []
    for seat in order:
        cards = sorted(
            (c for c in game.taken(seat) if Card.parse(c).points),
            key=lambda c: Card.parse(c).index,
        )
        taken.append(
            {
                "seat": seat,
                "place": place(seat, viewer),
                "name": names[seat],
                "summary": taken_summary(names[seat], cards),
                "cards": [{"code": c, "name": Card.parse(c).name} for c in cards],
            }
        )
    return taken


def score_sheet(game: Game, order: list[int]) -> list[ScoreRow]:
    """A row a hand (the hands folded into ``carried`` as one), columns from the viewer."""
    sheet, running = [], list(game.carried)
    if game.carried_hands:
        carried = [game.carried[s] for s in order]
        sheet.append(ScoreRow(f"1-{game.carried_hands}", carried, list(carried)))
    for number, row in enumerate(game.history, start=game.carried_hands + 1):
        running = [running[s] + row[s] for s in range(4)]
        sheet.append(ScoreRow(number, [row[s] for s in order], [running[s] for s in order]))
    return sheet


def standings(game: Game, order: list[int]) -> tuple[list[int], list[int], list[int]]:
    """The totals in the viewer's column order, and the columns leading and winning."""
    totals = [game.totals[s] for s in order]
    leaders = [i for i in range(4) if totals[i] == min(totals)] if game.history else []
    winners = [i for i, s in enumerate(order) if s in game.winners]
    return totals, leaders, winners


def status_and_result(
    state: PlayerState,
    game: Game,
    names: list[str],
    viewer: int,
    winners: list[int],
) -> tuple[str, str]:
    """The status line (``table_view`` puts the hint's first sentences in its place while one is
    shown) and, after the game, who won."""
    status = status_line(state, game, names, viewer)
    if game.played_out_from is not None:
        status = f"{NO_POINTS_LEFT} {status}"
    if state.took_back:  # the answer to Undo Card (solo): which card came back
        status = f"The {Card.parse(state.took_back).name} is back in your hand. {status}"
    result = result_sentence(names, winners, viewer) if game.phase == Phase.GAME_OVER else ""
    return status, result


# -- the animation schedule -------------------------------------------------------------------


def schedule(game: Game, since: int, viewer: int, own_card_placed: bool) -> Schedule:
    """Ticks for the plays from index ``since`` on: the first computer card after a moment,
    then one every STEP; a trick finished among them stays PAUSE ticks and is gathered."""
    fresh = [p for p in plays_of_hand(game) if p[0] >= since]
    tricks = shown_tricks(game)
    last_start = (len(tricks) - 1) * 4
    shows_last = bool(tricks) and any(last_start <= index < last_start + 4 for index, _, _ in fresh)
    arrive: dict[int, int] = {}
    waits: list[tuple[int, int, int]] = []
    gather_tick = None
    shown_tick = None
    tick = STEP if fresh and fresh[0][1] != viewer else 0
    shown_until = 0
    for index, seat, _ in fresh:
        if shows_last and index >= last_start + 4 and gather_tick is None:
            gather_tick = tick - STEP + PAUSE
            tick = gather_tick + GATHER + STEP
            shown_until = gather_tick + GATHER
        placed = own_card_placed and seat == viewer and index == since
        if not placed:
            arrive[index] = tick
        if shows_last and index == last_start + 3:
            shown_tick = 0 if placed else tick
        if seat != viewer and tick > shown_until:
            waits.append((seat, clamp(shown_until), clamp(tick)))
        shown_until = tick
        tick += STEP
    if shows_last and gather_tick is None:
        gather_tick = tick - STEP + PAUSE
        tick = gather_tick + GATHER
    return Schedule(arrive, gather_tick, waits, clamp(tick), shown_tick)


def gathering_ms(game: Game, since: int, speed: str) -> tuple[int, int] | None:
    """When, after the answer that made the plays from ``since``, the page begins and ends
    gathering the trick those plays finished (milliseconds at ``speed``): None when no
    finished trick is among them. The next trick's first card is drawn after its end."""
    gather_tick = schedule(game, since, HUMAN, own_card_placed=False).gather_tick
    if gather_tick is None:
        return None
    tick = TICK_MS[speed]
    return clamp(gather_tick) * tick, clamp(gather_tick + GATHER) * tick


def apply(view: TableView, game: Game, plan: Schedule, viewer: int) -> None:
    names = view.by_seat
    tricks = shown_tricks(game)
    base = len(tricks) * 4
    for i, card in enumerate(view.trick):
        tick = plan.arrive.get(base + i)
        card.tick = None if tick is None else clamp(tick)
    if plan.gather_tick is not None:
        last = tricks[-1]
        start = base - 4
        for i, (seat, code) in enumerate(last.plays):
            card = table_card(names, seat, code, viewer)
            tick = plan.arrive.get(start + i)
            card.tick = None if tick is None else clamp(tick)
            card.gather_tick = clamp(plan.gather_tick)
            card.gather_to = place(last.winner, viewer)
            view.last_trick.append(card)
    view.end_tick = plan.end_tick


# -- the status bar: one place decides what it says -----------------------------------------


def status_steps(plan: Schedule, game: Game, names: list[str], viewer: int) -> list[StatusStep]:
    """The status bar's rule: it says one thing, and only what the table shows at that moment.

    While the answer's table is drawn (ticks 0 to ``end_tick``: the hand dimmed, the computers'
    cards arriving, a trick shown and gathered, the score sheet not yet up), the status line of
    the table as it stands (``TableView.status``: "Select a card to play.", "Press OK to deal
    the next hand.") would speak of what is not on the screen yet. So until ``end_tick`` the bar
    shows these lines instead, one at a time, end to end: "Waiting for Ben to move..." until
    Ben's card is down, "Ben takes the trick." while the finished trick is shown and gathered,
    each lasting until the next begins; the table's own line shows from ``end_tick`` on, with
    the hand lit, the OK or the score sheet (status.html, hearts.css's .status-step and
    .status-later). A refusal's sentence replaces them all; with no animation (speed None,
    reduced motion) every tick is 0 and only the table's line shows."""
    steps = [
        StatusStep("Waiting for ", names[seat], " to move...", start, until)
        for seat, start, until in plan.waits
    ]
    if plan.gather_tick is not None:
        winner = shown_tricks(game)[-1].winner
        words = (
            ("You take the trick.", "", "")
            if winner == viewer
            else ("", names[winner], " takes the trick.")
        )
        steps.append(
            StatusStep(*words, clamp(plan.shown_tick or 0), clamp(plan.gather_tick + GATHER))
        )
    if not steps:
        return []
    steps.sort(key=lambda step: step.start)
    for step, following in zip(steps, steps[1:], strict=False):
        step.until = following.start
    steps[0].start, steps[-1].until = 0, plan.end_tick
    return [step for step in steps if step.start < step.until]


# -- the narration: what a screen reader is told, once, in order --------------------------------


def narrate(state: PlayerState, names: list[str], viewer: int) -> list[str]:
    game = state.game
    said: list[str] = []
    if state.awaiting_ok:
        said.extend(passing_sentences(game, names, viewer))
    plays = plays_of_hand(game)
    fresh = [p for p in plays if p[0] >= state.fresh_from]
    hearts_before = any(code[1] == "H" for index, _, code in plays if index < state.fresh_from)
    tricks = shown_tricks(game)
    for index, seat, code in fresh:
        verb = "play" if seat == viewer else "plays"
        said.append(f"{who(names, seat, viewer)} {verb} the {Card.parse(code).name}.")
        if code[1] == "H" and not hearts_before:
            hearts_before = True
            said.append("Hearts has been broken.")
        if index % 4 == 3 and index // 4 < len(tricks):
            said.append(trick_sentence(tricks[index // 4], names, viewer))
    if fresh and game.phase.over:
        if game.played_out_from is not None:
            said.append(NO_POINTS_LEFT)
        said.extend(hand_end_sentences(game, names, viewer))
    return said


def listing(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def passing_sentences(game: Game, names: list[str], viewer: int) -> list[str]:
    target = game.pass_target(viewer)
    giver = next((s for s in range(4) if game.pass_target(s) == viewer), None)
    if target is None or giver is None:
        return []
    gave = listing([f"the {Card.parse(c).name}" for c in game.passed(viewer)])
    got = listing([f"the {Card.parse(c).name}" for c in game.received(viewer)])
    return [f"You pass {gave} to {names[target]}.", f"{names[giver]} passes you {got}."]


def trick_sentence(trick, names: list[str], viewer: int) -> str:
    """ "Ben takes the trick with the king of clubs: 2 hearts and the queen of spades,
    15 points." """
    winner = trick.winner
    high = next(code for seat, code in trick.plays if seat == winner)
    codes = [code for _, code in trick.plays]
    hearts = sum(1 for c in codes if c[1] == "H")
    parts = [counted(hearts, "heart")] if hearts else []
    if "QS" in codes:
        parts.append("the queen of spades")
    points = sum(Card.parse(c).points for c in codes)
    held = f"{' and '.join(parts)}, {counted(points, 'point')}" if parts else ""
    verb = "take" if winner == viewer else "takes"
    subject = who(names, winner, viewer)
    return f"{subject} {verb} the trick with the {Card.parse(high).name}: {held or 'no points'}."


def hand_end_sentences(game: Game, names: list[str], viewer: int) -> list[str]:
    said = []
    shooter = game.moon_shooter
    if shooter is not None:
        said.append(
            "You shot the moon!" if shooter == viewer else f"{names[shooter]} shot the moon!"
        )
    order = seats_from(viewer)
    row = game.history[-1] if game.history else game.hand_points()
    said.append("Points this hand: " + ", ".join(f"{names[s]} {row[s]}" for s in order) + ".")
    totals = game.totals
    said.append("Totals: " + ", ".join(f"{names[s]} {totals[s]}" for s in order) + ".")
    if game.phase == Phase.GAME_OVER:
        winners = [s for s in order if s in game.winners]
        said.append(result_sentence(names, winners, viewer))
    return said


# -- sentences --------------------------------------------------------------------------------


def taken_summary(name: str, cards: list[str]) -> str:
    """ "Ben took 3 hearts and the queen of spades.", said once for the whole pile."""
    hearts = sum(1 for c in cards if c[1] == "H")
    parts = [counted(hearts, "heart")] if hearts else []
    if "QS" in cards:
        parts.append("the queen of spades")
    return f"{name} took {' and '.join(parts) or 'no point cards'}."


def result_sentence(names: list[str], winners: list[int], viewer: int) -> str:
    return "You won!" if viewer in winners else won_sentence(names, winners)


def won_sentence(names: list[str], winners: list[int]) -> str:
    who_won = [names[s] for s in winners]
    if len(who_won) == 1:
        return f"{who_won[0]} won."
    return f"{listing(who_won)} tied for the win."


def status_line(state: PlayerState, game: Game, names: list[str], viewer: int = HUMAN) -> str:
    if game.phase == Phase.PASSING:
        if game.has_passed(viewer):
            return "Waiting for other players to pass..."
        return f"Select three cards to pass to {names[game.pass_target(viewer)]}."
    if state.awaiting_ok:
        return PRESS_OK
    if game.phase == Phase.PLAYING:
        if game.turn == viewer:
            return "Select a card to play."
        return f"Waiting for {names[game.turn]} to move..."
    if game.phase == Phase.HAND_OVER:
        return (
            "Press OK to deal the next hand."
            if state.options.sheet_after_hand
            else "The hand is over."
        )
    return "The game is over. Press OK to begin a new game."


# -- the tick classes -------------------------------------------------------------------------


def tick_css() -> str:
    """static/css/ticks.css: one class per tick and property, for ticks 0 to MAX_TICK."""
    lines = ["/* Written by `python -m game.web.table > static/css/ticks.css`: do not edit. */"]
    for prefix, prop in TICK_PROPERTIES.items():
        lines.append(" ".join(f".{prefix}{n}{{{prop}:{n}}}" for n in range(MAX_TICK + 1)))
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(tick_css())
