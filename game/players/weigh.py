"""The search's own figures for one decision, for the hint to say why (issue 45's contract,
/work/notes/WEIGH.md in the team's notes; docs/players.md restates it).

``weigh_play`` runs exactly ``choose_play``'s search (the same deals, budget and card) with the
figures recording of ``sim.search_round`` switched on; ``weigh_pass`` gives ``choose_pass``'s
three cards with the branch of the rule (or the pass search) that chose each.

The ``why`` codes of a ``PassReason``:

- passed ``queen``: the queen of spades, not guarded (facts ``low_spades``: spades below the
  queen held after the pass; ``guards``: how many the rule wants);
- passed ``high_spade``: the ace or king of spades, the queen not kept with guards;
- passed ``void``: one of the cards of a short club or diamond suit the pass empties (``suit``);
- passed ``high_heart``: the most dangerous heart left (``suit_length``: hearts held before);
- passed ``high``: the most dangerous card left of another suit (``suit_length`` likewise);
- passed ``low_for_moon``: a low card given up to keep winners for a moon of our own;
- passed ``search``: the pass search's choice over the rule's (``edge_tenths``: mean points
  saved over the rule's pass, times ten);
- kept ``queen_guarded``: the queen of spades kept with enough low spades (``low_spades``);
- kept ``stopper``: a high heart kept to stop a moon; kept ``winner_for_moon``.
"""

from __future__ import annotations

from dataclasses import dataclass

from game.engine import DECK, Game, Phase

from . import brain, jit, sim
from .brain import Searched, rule_pass_reasons, search_play, suspect
from .deals import knowledge_of
from .view import View, view_of

SAME = 1e-3  # a spread below this: every deal agrees (the figures are whole points)


@dataclass(frozen=True, slots=True)
class CardFigures:
    """One candidate as the search weighed it: means over the deals it was played in, each deal
    counting its weight."""

    card: str  # the lowest card of a run worth the same, as the search keeps it
    points: float  # our points from now to the hand's end (another's moon: 26, as counted)
    trick_points: float  # points of the trick now on the table that we take
    clean: float  # share of the deals in which we take no point on this trick
    moon_against: float  # share of the deals in which another seat shoots the moon
    moon_own: float  # share in which we shoot it
    deals: int  # deals behind these figures
    score: float = 0.0  # the root's ranking figure a deal (lower is better): mean utility,
    # less the heuristic's own card's edge; the card chosen has the least among those in the running
    in_running: bool = True  # among the cards the root chose from (else dropped, trailing the
    # best by ``brain.PRUNE_MARGIN`` at the halfway or at the end)
    points_spread: float | None = None  # the spread of ``points`` over the deals (standard
    # deviation): 0 when every deal agrees; None when not known
    trick_spread: float | None = None  # the same of ``trick_points``

    @property
    def points_certain(self) -> bool:
        """Every deal the search imagined ends the hand with the same points for us."""
        return self.points_spread is not None and self.points_spread < SAME

    @property
    def trick_certain(self) -> bool:
        """Every deal gives us the same points on the trick on the table."""
        return self.trick_spread is not None and self.trick_spread < SAME


@dataclass(frozen=True, slots=True)
class PlayFigures:
    card: str  # exactly choose_play(game, seat)
    candidates: tuple[CardFigures, ...]  # () if the card was forced
    threat: int | None  # a lone taker of every point so far, whose moon the search imagines
    shooting: bool  # the card was chosen by a plan to shoot the moon


@dataclass(frozen=True, slots=True)
class PassReason:
    card: str
    why: str
    facts: tuple[tuple[str, int | str], ...]


@dataclass(frozen=True, slots=True)
class PassFigures:
    cards: tuple[str, ...]  # exactly choose_pass(game, seat), in hand order
    passed: tuple[PassReason, ...]
    kept: tuple[PassReason, ...]
    shooting: bool  # the pass is made for a moon of our own


def weigh_play(game: Game, seat: int) -> PlayFigures:
    """The same search as ``choose_play`` (same deals, same budget, same card), with its figures."""
    if game.turn != seat:
        raise ValueError("it is not that seat's turn")
    return weigh_view(view_of(game, seat), jit.core())


def weigh_view(view: View, core, budget: int | None = None) -> PlayFigures:
    """``weigh_play`` from a view, in ``core`` (either form) on ``budget`` (as ``decide_play``)."""
    hunter = suspect(knowledge_of(view))
    threat = hunter if hunter >= 0 else None
    searched = search_play(view, core, budget=budget, figures=True)
    if isinstance(searched, int):
        return PlayFigures(DECK[searched].code, (), threat, False)
    shooting = searched.root.options[searched.chosen][1] == view.seat
    return PlayFigures(DECK[searched.card].code, candidates_of(searched), threat, shooting)


def candidates_of(found: Searched) -> tuple[CardFigures, ...]:
    """One ``CardFigures`` a card weighed: its option the root ranks best (a card may be
    weighed plainly and with a moon plan), those in the running first."""
    best: dict[int, tuple[tuple[bool, float], int]] = {}
    for k, (card, _) in enumerate(found.root.options):
        row = found.root.figures[k]
        weight = float(row[sim.FIG_WEIGHT])
        score = brain.option_score(found, k) / weight if weight else float("inf")
        key = (k not in found.alive, score)
        if card not in best or key < best[card][0]:
            best[card] = (key, k)
    return tuple(_figures(found, k) for _, k in sorted(best.values()))


def _figures(found: Searched, k: int) -> CardFigures:
    row = [float(x) for x in found.root.figures[k]]
    weight = row[sim.FIG_WEIGHT] or 1.0
    return CardFigures(
        card=DECK[found.root.options[k][0]].code,
        points=row[sim.FIG_POINTS] / weight,
        trick_points=row[sim.FIG_TRICK] / weight,
        clean=row[sim.FIG_CLEAN] / weight,
        moon_against=row[sim.FIG_MOON_AGAINST] / weight,
        moon_own=row[sim.FIG_MOON_OWN] / weight,
        deals=int(row[sim.FIG_DEALS]),
        score=brain.option_score(found, k) / weight,
        in_running=k in found.alive,
        points_spread=spread(row[sim.FIG_POINTS], row[sim.FIG_POINTS_SQ], weight),
        trick_spread=spread(row[sim.FIG_TRICK], row[sim.FIG_TRICK_SQ], weight),
    )


def spread(total: float, squares: float, weight: float) -> float:
    """The standard deviation of a weighted figure from its sums."""
    mean = total / weight
    return max(0.0, squares / weight - mean * mean) ** 0.5


def weigh_pass(game: Game, seat: int) -> PassFigures:
    """``choose_pass``'s three cards and, for each, the reason the rule or search that chose it
    had."""
    if game.phase != Phase.PASSING:
        raise ValueError("cards are not being passed now")
    return weigh_pass_view(view_of(game, seat), jit.core())


def weigh_pass_view(view: View, core) -> PassFigures:
    """``weigh_pass`` from a view, in ``core``."""
    chosen, kept = rule_pass_reasons(view)
    cards = sorted(card for card, _, _ in chosen)
    if brain.PASS_DEALS:
        searched, edge = brain.searched_pass(view, core, cards)
        if searched != cards:
            facts = (("edge_tenths", round(edge * 10)),)
            chosen = [(card, "search", facts) for card in searched]
            cards = searched
    by_card = {card: (why, facts) for card, why, facts in chosen}
    passed = tuple(PassReason(DECK[c].code, *by_card[c]) for c in cards)
    held = tuple(PassReason(DECK[c].code, w, f) for c, w, f in kept if c not in cards)
    return PassFigures(tuple(DECK[c].code for c in cards), passed, held, False)
