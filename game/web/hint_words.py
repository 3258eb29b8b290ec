"""Our addition: why the hint chose its card, in one or two plain sentences. Plain Python, no
Django.

The hint (H) marks the card, or the three cards, a computer would choose in the seat; these
sentences say why, from the figures of that very decision (``game.players.weigh_play`` and
``weigh_pass``: the same search, deals and budget as a computer in the seat, over deals that
agree with what the seat may know). Nothing here searches or estimates: every number said is
one of those figures, rounded, and a claim about another seat (it has taken every point so far,
it has shown no spades) is read from the cards played, which the whole table has seen. Where
the figures cannot tell the cards apart, the sentence says so.

The status bar says them (and the live region reads them); the hand review's costliest choice
quotes the hint's sentence for that moment (``game.web.hand_review``), so the advice before and
after a play is the same advice.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from game.engine import Card, Game, Phase

if TYPE_CHECKING:
    from game.players import CardFigures, PassFigures, PassReason, PlayFigures

SHORT_MAX = 130  # characters of the hint the status bar shows; the rest behind "Why?"
MOON_GAP = 0.1  # a card whose moons against you come this much more often is named beside it
CLOSE = 0.5  # mean points for the hand within which two cards are too close to call
AS_GOOD = 0.2  # mean points for the hand within which another card is called as good
AS_GOOD_CLEAN = 0.1  # ... and its share of deals clean on this trick no further from the hint's
AS_GOOD_MOST = 3  # cards named as good, the hint's among them; more, and none is
GUARDS = 3  # lower spades said to guard the queen; with more, one spent is no guard lost
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "S": "spades", "H": "hearts"}
NUMBER_WORDS = (
    "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen",
)  # fmt: skip


# ---- words for figures ---------------------------------------------------------------------


def the(code: str) -> str:
    """ "the four of clubs" """
    return f"the {Card.parse(code).name}"


def cards_text(codes: Sequence[str]) -> str:
    """ "the ace of spades, the king of hearts and the two of clubs" """
    names = [the(code) for code in codes]
    if len(names) < 2:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def count(n: int, noun: str) -> str:
    """ "no spade", "one spade", "two spades": a whole number of things, in words to 13."""
    word = NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)
    return f"{word} {noun}{'' if n == 1 or n == 0 else 's'}"


def whole_points(n: int) -> str:
    """ "no points", "1 point", "9 points" """
    return "no points" if n == 0 else f"{n} point{'' if n == 1 else 's'}"


def mean_points(x: float) -> str:
    """A mean, to a tenth: "no points", "0.4 points", "1 point", "2.5 points", "3 points"."""
    tenths = round(x * 10)
    if tenths == 0:
        return "no points"
    text = f"{tenths // 10}" if tenths % 10 == 0 else f"{tenths / 10:.1f}"
    return f"{text} point{'' if abs(tenths) == 10 else 's'}"


def share_text(share: float) -> str:
    """A share of the deals searched, in tenths: "in every deal", "in more than 9 of 10
    deals", "in 9 of 10 deals", ..., "in fewer than 1 of 10 deals", "in no deal"."""
    if share >= 1.0:
        return "in every deal"
    if share <= 0.0:
        return "in no deal"
    if share < 0.05:
        return "in fewer than 1 of 10 deals"
    if share >= 0.95:
        return "in more than 9 of 10 deals"
    return f"in {round(share * 10)} of 10 deals"


def listing(parts: Sequence[str]) -> str:
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


# ---- what the table has seen ----------------------------------------------------------------


def lone_taker(game: Game) -> int | None:
    """The seat that has taken every point of the hand so far (some points taken), else None:
    read from the tricks taken, which every seat has seen."""
    points = game.hand_points()
    total = sum(points)
    return next((s for s in range(4) if total and points[s] == total), None)


def every_point(game: Game) -> str:
    """ "the only point" or "all 9 points": every point taken this hand, by one seat."""
    total = sum(game.hand_points())
    return "the only point" if total == 1 else f"all {whole_points(total)}"


def shown_void(game: Game, seat: int, suit: str) -> bool:
    """Whether ``seat`` has shown it holds no card of ``suit``: it played another suit to a
    trick led in it, this hand."""
    tricks = [trick.plays for trick in game.completed_tricks] + [game.trick]
    return any(
        plays and plays[0][1][1] == suit and any(s == seat and c[1] != suit for s, c in plays)
        for plays in tricks
    )


# ---- a play ---------------------------------------------------------------------------------


def hint_text(game: Game, seat: int, figures, names: Sequence[str]) -> str:
    """The hint's whole sentence: the card(s) and why."""
    if game.phase == Phase.PASSING:
        return pass_text(figures)
    return play_text(game, seat, figures, names)


def hint_parts(game: Game, seat: int, figures, names: Sequence[str]) -> tuple[str, str]:
    """The hint for the status bar, in at most ``SHORT_MAX`` characters (its first sentences,
    so it fits the bar's two lines at 1024 px and three on a phone, and the table never moves),
    and the rest of the reason, which a person opens ("Why?") when they want it."""
    head, *rest = re.split(r"(?<=\.) (?=[A-Z])", hint_text(game, seat, figures, names))
    told = 0
    while told < len(rest) and len(head) + 1 + len(rest[told]) <= SHORT_MAX:
        head = f"{head} {rest[told]}"
        told += 1
    return head, " ".join(rest[told:])


def play_text(game: Game, seat: int, figures: PlayFigures, names: Sequence[str]) -> str:
    """ "Hint: play the four of clubs, ducking under the nine of clubs. With it you take no
    points on this trick in 9 of 10 deals the computers imagine, ..." """
    move = hearts_move(game, seat, figures, names) if figures.candidates else ""
    head = f"Hint: play {the(figures.card)}{f', {move}' if move else ''}."
    return f"{head} {play_reason(game, seat, figures, names)}"


def hearts_move(game: Game, seat: int, figures: PlayFigures, names: Sequence[str]) -> str:
    """The card's move in a Hearts player's words, read from the table and the seat's own hand
    (the figures come after it): a duck, a trick taken with nothing on it, a discard that throws
    the queen or a heart or voids a suit, a lead into the void of the seat that could shoot the
    moon, a low spade led to draw out the queen, a card that keeps the queen's guard where a low
    spade would cost you."""
    code = figures.card
    rank = Card.parse(code).index
    hand = game.hand(seat)
    if not game.trick:
        into_void = shooters_void(game, seat, figures, names)
        if into_void:
            return into_void
        queen_out = "QS" not in hand and "QS" not in played(game)
        if code[1] == "S" and rank < Card.parse("QS").index and queen_out:
            return "leading a low spade to draw out the queen"
        return guard(game, seat, figures)
    led = game.trick[0][1][1]
    best = max((c for _, c in game.trick if c[1] == led), key=lambda c: Card.parse(c).index)
    if code[1] == led:
        above = [c for c in hand if c[1] == led and Card.parse(c).index > Card.parse(best).index]
        if rank < Card.parse(best).index and above:
            return f"ducking under {the(best)}"
        points = sum(Card.parse(c).points for _, c in game.trick)
        if rank > Card.parse(best).index and len(game.trick) == 3 and not points:
            return "taking a trick with no points on it"
        return ""
    trick = f"a {SUIT_NAMES[led][:-1]} trick"
    if code == "QS":
        return f"throwing her on {trick}"
    if sum(1 for c in hand if c[1] == code[1]) == 1:
        return f"voiding your {SUIT_NAMES[code[1]]}"
    if code[1] == "H":
        return f"throwing a heart on {trick}"
    return guard(game, seat, figures)


def shooters_void(game: Game, seat: int, figures: PlayFigures, names: Sequence[str]) -> str:
    """ "leading diamonds, which Ben has none of, so Ben cannot take it": a lead in a suit the
    seat that could shoot the moon has shown it holds none of (it has taken every point so far,
    the search sees its moon); it cannot win the trick, and what it throws goes to another."""
    taker = lone_taker(game)
    suit = figures.card[1]
    if taker in (None, seat) or figures.threat != taker or not shown_void(game, taker, suit):
        return ""
    name = names[taker]
    return f"leading {SUIT_NAMES[suit]}, which {name} has none of, so {name} cannot take it"


def guard(game: Game, seat: int, figures: PlayFigures) -> str:
    """ "keeping two lower spades to guard the queen": the seat holds the queen of spades with
    one to ``GUARDS`` lower spades, plays no spade and plays for no moon, and every spade it
    might have played instead (a guard, or the queen herself) costs it at least ``CLOSE``
    points more by the search's figures: spending a guard is what the card avoids."""
    hand = game.hand(seat)
    queen = Card.parse("QS").index
    low = [c for c in hand if c[1] == "S" and Card.parse(c).index < queen]
    if "QS" not in hand or figures.card[1] == "S" or figures.shooting:
        return ""
    by_card = {c.card: c for c in figures.candidates}
    mine = by_card.get(figures.card)
    spent = [by_card[c] for c in (*low, "QS") if c in by_card]
    if not 0 < len(low) <= GUARDS or mine is None or not spent:
        return ""
    if any(c.points < mine.points + CLOSE for c in spent):
        return ""
    return f"keeping {count(len(low), 'lower spade')} to guard the queen"


def played(game: Game) -> set[str]:
    """Every card played to a trick this hand, the one on the table included."""
    return {c for t in game.completed_tricks for _, c in t.plays} | {c for _, c in game.trick}


def play_reason(game: Game, seat: int, figures: PlayFigures, names: Sequence[str]) -> str:
    """Why the hint plays its card: its figures beside those of the card most tempting instead
    (or, too close to call, every card as good), a card that would leave you fewer points (the
    search counts more than that), a moon in view, a seat to play that has shown a void."""
    if not figures.candidates:
        if len(game.legal_plays(seat)) == 1:
            return "It is the only card you may play."
        return "Every card you may play comes to the same here."
    mine = next((c for c in figures.candidates if c.card == figures.card), None)
    if mine is None:  # the contract says it cannot be; a sentence all the same, and a true one
        return "The computers' search chose it."
    said = [moon_sentence(game, seat, figures, mine, names)]
    others = sorted(
        (c for c in figures.candidates if c is not mine), key=lambda c: (c.points, c.card)
    )
    close = as_good(mine, others)
    worse = [c for c in others if c.points >= mine.points + CLOSE]
    better = [c for c in others if c.points <= mine.points - CLOSE]
    if close:
        said.append(as_good_sentence(game, seat, mine, close))
    else:
        said.append(clean_sentence(game, seat, mine))
        if worse:
            said.append(tempting_sentence(game, seat, tempting(game, worse)))
    if better:  # rare: the search weighs more than your own points
        said.append(better_sentence(game, seat, figures, better[0]))
    if ducks_a_winner(game, seat, figures.card):
        said.append(voids_sentence(game, seat, names))
    return " ".join(part for part in said if part)


def ducks_a_winner(game: Game, seat: int, code: str) -> bool:
    """Whether the hint's card follows suit under the trick's best card while the seat holds one
    that would take it: where a seat to play after that has shown a void is a reason to duck.
    A discard, a card that takes the trick anyway, or no card that could take it: the void
    changes nothing."""
    if not game.trick:
        return False
    led = game.trick[0][1][1]
    best = max(Card.parse(c).index for _, c in game.trick if c[1] == led)
    follow = [Card.parse(c).index for c in game.legal_plays(seat) if c[1] == led]
    return code[1] == led and Card.parse(code).index < best and any(i > best for i in follow)


def as_good(mine: CardFigures, others: Sequence[CardFigures]) -> list[CardFigures]:
    """The cards a player may call as good as the hint's: within ``AS_GOOD`` points at the
    hand's end and as often clean on this trick; none when more than ``AS_GOOD_MOST`` would be
    named (a list that long tells a player nothing: the best and the most tempting instead)."""
    close = [
        c
        for c in others
        if abs(c.points - mine.points) <= AS_GOOD + 1e-9
        and abs(c.clean - mine.clean) <= AS_GOOD_CLEAN + 1e-9
    ]
    return close if len(close) < AS_GOOD_MOST else []


def hand_end(game: Game, seat: int, figures: CardFigures) -> float:
    """The seat's mean score for the hand with that card: the points it holds now (every seat
    has seen them taken) and the search's mean from now to the hand's end (a moon scored as
    the hand's score scores it: a moon of your own takes back what you hold)."""
    return game.hand_points()[seat] + figures.points


def tempting_sentence(game: Game, seat: int, other: CardFigures) -> str:
    """ "With the king of clubs you would take 3.1 points on this trick on average, and end the
    hand with 5 points." """
    ending = f"end the hand with {mean_points(hand_end(game, seat, other))}"
    if round(other.trick_points * 10) == 0:
        return f"With {the(other.card)} you would {ending}."
    taking = f"take {mean_points(other.trick_points)} on this trick{average(other.trick_certain)}"
    return f"With {the(other.card)} you would {taking}, and {ending}."


def average(certain: bool) -> str:
    """ " on average" after a figure the deals differ on; nothing where every deal agrees."""
    return "" if certain else " on average"


def better_sentence(game: Game, seat: int, figures: PlayFigures, other: CardFigures) -> str:
    """A card that leaves you fewer points than the hint's, which the search did not choose: it
    ranks cards by more than your own points (the moon it plays for, or the points it leaves
    to the others), and this says so rather than call the hint's card the cheaper."""
    counts = "the moon it plays for" if figures.shooting else "the points the other players take"
    return (
        f"With {the(other.card)} you would end the hand with "
        f"{mean_points(hand_end(game, seat, other))}{average(other.points_certain)}, fewer; "
        "the computers' search "
        f"also counts {counts}, and prefers {the(figures.card)}."
    )


def clean_sentence(game: Game, seat: int, mine: CardFigures) -> str:
    """How often the hint's card keeps this trick's points off you (or, where it mostly does
    not, how often it takes some), and your score for the hand."""
    if mine.trick_certain:
        clean = f"you take {whole_points(round(mine.trick_points))} on this trick"
    elif mine.clean >= 0.5:
        clean = f"you take no points on this trick {share_text(mine.clean)} the computers imagine"
    else:
        clean = f"you take points on this trick {share_text(1 - mine.clean)} the computers imagine"
    ending = mean_points(hand_end(game, seat, mine))
    return f"With it {clean}, and end the hand with {ending}{average(mine.points_certain)}."


def as_good_sentence(game: Game, seat: int, mine: CardFigures, close: Sequence[CardFigures]) -> str:
    """Too close to call: the cards ``as_good`` as the hint's, each with its figure."""
    each = [f"{the(c.card)}, {mean_points(hand_end(game, seat, c))}" for c in (mine, *close)]
    certain = all(c.points_certain for c in (mine, *close))
    by = "" if certain else " on average in the deals the computers imagine"
    return f"Any of these is as good, by your points at the hand's end{by}: {'; '.join(each)}."


def tempting(game: Game, others: Sequence[CardFigures]) -> CardFigures:
    """Of ``others`` (cards the figures show costlier than the hint's), the one a player is
    most tempted by: the highest that follows suit, the queen of spades, the highest heart to
    throw; else the next best."""
    rank = {c.card: Card.parse(c.card).index for c in others}
    led = game.trick[0][1][1] if game.trick else None
    following = [c for c in others if led and c.card[1] == led]
    if following:
        return max(following, key=lambda c: rank[c.card])
    queen = [c for c in others if c.card == "QS"]
    if queen:
        return queen[0]
    hearts = [c for c in others if c.card[1] == "H"]
    if led and hearts:
        return max(hearts, key=lambda c: rank[c.card])
    return min(others, key=lambda c: (c.points, c.card))


def moon_sentence(
    game: Game, seat: int, figures: PlayFigures, mine: CardFigures, names: Sequence[str]
) -> str:
    """A moon in view: your own (the search plays for it), or another seat that has taken every
    point so far (the search's threat, and the cards taken agree)."""
    taker = lone_taker(game)
    if figures.shooting:
        taken = f"you have taken {every_point(game)} so far; " if taker == seat else ""
        return (
            f"You are going for the moon: {taken}with {the(mine.card)} you make it "
            f"{share_text(mine.moon_own)} the computers imagine."
        )
    threat = figures.threat
    candidates = figures.candidates
    if threat is None or threat == seat or taker != threat:
        return ""
    if not any(c.moon_against > 0 for c in candidates):
        return ""  # no moon in any deal the search imagined: none in play to speak of
    name = names[threat]
    worst = max(candidates, key=lambda c: (c.moon_against, c.card))
    if worst.moon_against < mine.moon_against + MOON_GAP:
        return ""  # every card gives the moon alike: it does not bear on the choice
    return (
        f"{name} has taken {every_point(game)} so far and could shoot the moon: after "
        f"{the(mine.card)}, {name} shoots it {share_text(mine.moon_against)} the computers "
        f"imagine, after {the(worst.card)} {share_text(worst.moon_against)}."
    )


def voids_sentence(game: Game, seat: int, names: Sequence[str]) -> str:
    """The seats still to play to this trick that have shown they hold none of its suit (they
    may throw points on it, while a point card is out of sight of this seat)."""
    seen = {code for t in game.completed_tricks for _, code in t.plays}
    seen |= {code for _, code in game.trick} | set(game.hand(seat))
    out = [c for c in ("QS", *(r + "H" for r in "23456789TJQKA")) if c not in seen]
    if not game.trick or not out:
        return ""
    suit = game.trick[0][1][1]
    played = {s for s, _ in game.trick}
    after = [s for s in range(4) if s != seat and s not in played]
    void = [names[s] for s in after if shown_void(game, s, suit)]
    if not void:
        return ""
    verb = "has" if len(void) == 1 else "have"
    return f"{listing(void)} {verb} shown no {SUIT_NAMES[suit]} and may throw points on it."


# ---- a pass ---------------------------------------------------------------------------------


def pass_text(figures: PassFigures) -> str:
    """ "Hint: pass the queen of spades, ... Pass the queen of spades: two low spades cannot
    guard it. ..." """
    return f"Hint: pass {cards_text(figures.cards)}. {pass_reason(figures)}"


def pass_reason(figures: PassFigures) -> str:
    said = ["Your hand can go for the moon."] if figures.shooting else []
    voids: dict[str, list[str]] = {}
    for reason in figures.passed:
        if reason.why == "void":
            suit = str(dict(reason.facts).get("suit", reason.card[1]))
            voids.setdefault(suit, []).append(reason.card)
    told: set[str] = set()
    for reason in figures.passed:
        if reason.why == "void":
            suit = str(dict(reason.facts).get("suit", reason.card[1]))
            if suit not in told:
                told.add(suit)
                said.append(void_sentence(voids[suit], suit))
        else:
            said.append(passed_sentence(reason))
    said.extend(kept_sentence(reason) for reason in figures.kept)
    return " ".join(said)


def void_sentence(codes: Sequence[str], suit: str) -> str:
    """ "Void your diamonds: ..." for the cards a pass that empties the suit gives (the head of
    the hint has named them); "Pass the five of diamonds: ..." for one alone."""
    name = SUIT_NAMES.get(suit, "that suit")
    when = f"{name} are led" + (" after the first trick" if suit == "C" else "")
    head = f"Pass {the(codes[0])}" if len(codes) == 1 else f"Void your {name}"
    return f"{head}: with no {name} left, you may throw points when {when}."


def passed_sentence(reason: PassReason) -> str:
    """Why one card goes, by the rule or search that chose it (``PassReason.why``)."""
    facts = dict(reason.facts)
    card = the(reason.card)
    why = reason.why
    if why == "queen":
        low = int(facts.get("low_spades", 0))
        if low == 0:
            return "Pass the queen of spades: you have no lower spade to guard it."
        wants = int(facts.get("guards", low + 1))
        return (
            f"Pass the queen of spades: {count(low, 'lower spade')} cannot guard it "
            f"(it wants {NUMBER_WORDS[wants] if wants < len(NUMBER_WORDS) else wants})."
        )
    if why == "high_spade":
        return (
            f"Pass {card}: without the queen of spades in your hand, it could take her on a "
            "spade trick."
        )
    if why == "high_heart":
        return f"Pass {card}: a heart this high can win tricks full of hearts."
    if why == "high":
        length = int(facts.get("suit_length", 0))
        suit = SUIT_NAMES[reason.card[1]]
        held = f"your only {suit[:-1]}" if length == 1 else f"your {count(length, suit[:-1])}"
        return f"Pass {card}: a high card among {held} may take a trick with points on it."
    if why == "low_for_moon":
        return f"Pass {card}: you keep your high cards for a moon."
    if why == "search":
        edge = int(facts.get("edge_tenths", 0)) / 10
        return (
            f"Pass {card}: over the deals the computers imagine, this pass saves "
            f"{mean_points(edge)} on average against the usual one."
        )
    return f"Pass {card}: the computers' rules choose it to go."


def kept_sentence(reason: PassReason) -> str:
    facts = dict(reason.facts)
    card = the(reason.card)
    if reason.why == "queen_guarded":
        low = int(facts.get("low_spades", 0))
        verb = "guards" if low == 1 else "guard"
        return f"Keep the queen of spades: {count(low, 'lower spade')} {verb} it."
    if reason.why == "stopper":
        return f"Keep {card}: it can stop a moon."
    if reason.why == "winner_for_moon":
        return f"Keep {card}: a winner for your moon."
    return f"Keep {card}: the computers' rules keep it."
