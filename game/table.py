"""What the page shows, worked out from the state: plain data for the templates.

Timing of the animation is counted in ticks (a CSS variable sets a tick's length from the
speed option), so the server decides the order and the browser only plays it back.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from game.engine import Card, Game
from game.session import PlayerState

COMPUTER_NAMES = ("Pauline", "Michele", "Ben")
SEAT_PLACES = ("bottom", "left", "top", "right")
DIRECTION_LABEL = {"left": "Pass Left", "right": "Pass Right", "across": "Pass Across"}
STEP = 2  # ticks between two cards
PAUSE = 5  # ticks a finished trick stays on the table
GATHER = 2  # ticks the gathering takes
MAX_TICK = 60


def seat_names(state: PlayerState) -> list[str]:
    return [state.options.name or "You", *COMPUTER_NAMES]


def subject(names: list[str], seat: int) -> str:
    return "You" if seat == 0 else names[seat]


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
    tick: int | None = None  # None: already on the table before the last action
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
    names: list[str]
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
    last_trick: list[TableCard]
    trick: list[TableCard]
    taken: list[dict]
    sheet: list[ScoreRow]
    totals: list[int]
    leaders: list[int]
    winners: list[int]
    show_sheet: bool
    status: str
    announcements: list[str] = field(default_factory=list)
    waits: list[tuple[str, int, int]] = field(default_factory=list)
    end_tick: int = 0  # when the animation is over: the sheet and laid-out cards appear then
    result: str = ""


def clamp(tick: int) -> int:
    return max(0, min(MAX_TICK, tick))


def build(
    state: PlayerState, hint: list[str] | None = None, names: list[str] | None = None
) -> TableView:
    """The table seen from seat 0. A network table hands in its game turned so that the viewer
    sits at seat 0, and the names in that order."""
    game = state.game
    assert game is not None
    names = names or seat_names(state)
    hint = hint or []

    # -- the cards on the table and the order they arrive in --------------------------------
    plays: list[tuple[int, int, str]] = []  # (index in the hand, seat, code)
    for t, trick in enumerate(game.completed_tricks):
        plays.extend((t * 4 + i, seat, code) for i, (seat, code) in enumerate(trick.plays))
    base = game.tricks_played * 4
    plays.extend((base + i, seat, code) for i, (seat, code) in enumerate(game.trick))
    fresh = [p for p in plays if p[0] >= state.fresh_from]
    announcements: list[str] = []
    tick = 0
    if fresh and fresh[0][1] != 0:
        tick = STEP  # the first computer card comes after a moment
    ticks: dict[int, int] = {}
    last_trick: list[TableCard] = []
    gather_tick = None
    last = game.last_trick
    last_start = (game.tricks_played - 1) * 4
    show_last = last is not None and any(last_start <= p[0] < last_start + 4 for p in fresh)
    waits: list[tuple[str, int, int]] = []  # "Waiting for Ben to move..." from, until
    shown_until = 0
    for index, seat, code in fresh:
        if show_last and index >= last_start + 4 and gather_tick is None:
            gather_tick = tick - STEP + PAUSE
            tick = gather_tick + GATHER + STEP
            shown_until = gather_tick + GATHER
        ticks[index] = tick
        if seat != 0 and tick > shown_until:
            waits.append((names[seat], clamp(shown_until), clamp(tick)))
        shown_until = tick
        verb = "play" if seat == 0 else "plays"
        announcements.append(f"{subject(names, seat)} {verb} the {Card.parse(code).name}.")
        if show_last and index == last_start + 3:
            winner = last.winner
            announcements.append(
                f"{subject(names, winner)} {'take' if winner == 0 else 'takes'} the trick."
            )
        tick += STEP
    if show_last and gather_tick is None:
        gather_tick = tick - STEP + PAUSE
        tick = gather_tick + GATHER

    def on_table(index: int, seat: int, code: str, **gathering) -> TableCard:
        tick = clamp(ticks[index]) if index in ticks else None
        return TableCard(seat, code, Card.parse(code).name, SEAT_PLACES[seat], tick, **gathering)

    if show_last:
        gathering = {"gather_tick": clamp(gather_tick), "gather_to": SEAT_PLACES[last.winner]}
        last_trick = [
            on_table(last_start + i, seat, code, **gathering)
            for i, (seat, code) in enumerate(last.plays)
        ]
    trick = [on_table(base + i, seat, code) for i, (seat, code) in enumerate(game.trick)]
    end_tick = clamp(tick)

    # -- your hand ---------------------------------------------------------------------------
    legal = set(game.legal_plays(0))
    received = set(game.received(0)) if state.awaiting_ok else set()
    passing = game.phase == "passing" and not game.has_passed(0)
    playing = game.phase == "playing" and not state.awaiting_ok
    hand = [
        HandCard(
            code=code,
            name=Card.parse(code).name,
            raised=code in state.selected or code in received,
            dimmed=playing and code not in legal,
            hint=code in hint,
        )
        for code in game.hand(0)
    ]
    hand_action = "select" if passing else ("play" if playing else "")

    button, button_action, enabled = "", "", False
    if passing:
        button, button_action = DIRECTION_LABEL[game.pass_direction], "pass"
        enabled = len(state.selected) == 3
    elif state.awaiting_ok:
        button, button_action, enabled = "OK", "accept", True

    opponents = [
        {
            "seat": seat,
            "name": names[seat],
            "place": SEAT_PLACES[seat],
            "count": len(game.hand(seat)),
            "cards": range(len(game.hand(seat))),
        }
        for seat in (1, 2, 3)
    ]

    # -- the end of a hand -------------------------------------------------------------------
    over = game.phase in ("hand_over", "game_over")
    taken = []
    if over:
        for seat in range(4):
            cards = [c for c in game.taken(seat) if Card.parse(c).points]
            cards.sort(key=lambda c: Card.parse(c).index)
            taken.append(
                {
                    "seat": seat,
                    "place": SEAT_PLACES[seat],
                    "name": names[seat],
                    "summary": taken_summary(names[seat], cards),
                    "cards": [{"code": c, "name": Card.parse(c).name} for c in cards],
                }
            )
    sheet, running = [], list(game.carried)
    if game.carried_hands:
        sheet.append(ScoreRow(f"1-{game.carried_hands}", list(game.carried), list(running)))
    for number, row in enumerate(game.history, start=game.carried_hands + 1):
        running = [running[s] + row[s] for s in range(4)]
        sheet.append(ScoreRow(number, list(row), list(running)))
    totals = list(game.totals)
    leaders = [s for s in range(4) if totals[s] == min(totals)] if game.history else []
    winners = list(game.winners)
    show_sheet = game.phase == "game_over" or (
        game.phase == "hand_over" and state.options.sheet_after_hand
    )

    status, result = status_line(state, game, names), ""
    if hint:
        status = hint_sentence(game, hint)
    if game.phase == "game_over":
        result = "You won!" if 0 in winners else won_sentence(names, winners)
    return TableView(
        names=names,
        phase="passing" if passing or state.awaiting_ok or game.phase == "passing" else game.phase,
        number=game.number,
        hand_number=game.hand_number,
        direction=game.pass_direction,
        hand=hand,
        hand_action=hand_action,
        button=button,
        button_action=button_action,
        button_enabled=enabled,
        opponents=opponents,
        last_trick=last_trick,
        trick=trick,
        taken=taken,
        sheet=sheet,
        totals=totals,
        leaders=leaders,
        winners=winners,
        show_sheet=show_sheet,
        status=status,
        announcements=announcements,
        waits=waits,
        end_tick=end_tick,
        result=result,
    )


def hint_sentence(game: Game, hint: list[str]) -> str:
    """Our addition: what the hint points out, for the status bar (and a screen reader)."""
    names = [f"the {Card.parse(code).name}" for code in hint]
    if game.phase == "passing" and len(names) > 1:
        return f"Hint: pass {', '.join(names[:-1])} and {names[-1]}."
    return f"Hint: play {names[0]}."


def taken_summary(name: str, cards: list[str]) -> str:
    """ "Ben took 3 hearts and the queen of spades.", said once for the whole pile."""
    hearts = sum(1 for c in cards if c[1] == "H")
    parts = [f"{hearts} heart{'s' if hearts != 1 else ''}"] if hearts else []
    if "QS" in cards:
        parts.append("the queen of spades")
    return f"{name} took {' and '.join(parts) or 'no point cards'}."


def won_sentence(names: list[str], winners: list[int]) -> str:
    who = [names[s] for s in winners]
    if len(who) == 1:
        return f"{who[0]} won."
    return f"{', '.join(who[:-1])} and {who[-1]} tied for the win."


def status_line(state: PlayerState, game: Game, names: list[str]) -> str:
    if game.phase == "passing":
        if game.has_passed(0):
            return "Waiting for other players to pass..."
        return f"Select three cards to pass to {names[game.pass_target(0)]}."
    if state.awaiting_ok:
        return "Press OK to accept cards."
    if game.phase == "playing":
        if game.turn == 0:
            return "Select a card to play."
        return f"Waiting for {names[game.turn]} to move..."
    if game.phase == "hand_over":
        return (
            "Press OK to deal the next hand."
            if state.options.sheet_after_hand
            else "The hand is over."
        )
    return "The game is over. Press OK to begin a new game."
