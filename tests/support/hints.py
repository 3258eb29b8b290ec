"""The hint's sentences read back and held against the search's figures.

``check_play`` and ``check_pass`` parse what the status bar says (every clause the sentence
module can write) and compare each number and claim with the figures of the same decision
(``weigh_play`` / ``weigh_pass``) and with the cards played, worked out here again from the
game's tricks rather than borrowed from the code under test. A clause they do not know fails
the check, so a new kind of sentence comes with its reading here."""

from __future__ import annotations

import re

from game.engine import Card, Game

CLOSE = 0.5  # the sentence module's "too close to call", stated again: a test pins the two
AS_GOOD = 0.2  # "as good": within this many points at the hand's end (issue 50), ...
AS_GOOD_CLEAN = 0.1  # ... and as often clean on this trick; never more than three cards named


def as_good(mine, others) -> list:
    """The cards within the tight margin of the hint's, however many."""
    return [
        c
        for c in others
        if abs(c.points - mine.points) <= AS_GOOD + 1e-9
        and abs(c.clean - mine.clean) <= AS_GOOD_CLEAN + 1e-9
    ]


NUMBERS = "no one two three four five six seven eight nine ten eleven twelve thirteen"
WORD = {word: n for n, word in enumerate(NUMBERS.split(" "))}
SUITS = {"clubs": "C", "diamonds": "D", "spades": "S", "hearts": "H"}


def code_of(name: str) -> str:
    """ "four of clubs" -> "4C" """
    found = [
        c for c in (r + s for s in "CDSH" for r in "23456789TJQKA") if Card.parse(c).name == name
    ]
    assert found, f"no card is called {name!r}"
    return found[0]


def amount(text: str) -> float:
    """ "no points" -> 0, "1 point" -> 1, "2.5 points" -> 2.5; the plural checked."""
    if text == "no points":
        return 0.0
    number, noun = text.split(" ")
    assert noun == ("point" if number in ("1", "-1") else "points"), f"plural wrong: {text!r}"
    assert not number.endswith(".0"), text
    return float(number)


def taken(text: str) -> int:
    """ "the only point" -> 1, "all 9 points" -> 9."""
    if text == "the only point":
        return 1
    number = int(text.split(" ")[1])
    assert number > 1, f"all {text}: one point is 'the only point'"
    return number


def share(text: str) -> tuple[float, float]:
    """The range of shares a share's words allow: "in 9 of 10 deals" -> (0.85, 0.95)."""
    if text == "in every deal":
        return (1.0, 1.0)
    if text == "in no deal":
        return (0.0, 0.0)
    if text == "in fewer than 1 of 10 deals":
        return (1e-9, 0.05)
    if text == "in more than 9 of 10 deals":
        return (0.95, 1 - 1e-9)
    tenths = int(re.fullmatch(r"in (\d) of 10 deals", text).group(1))
    return ((tenths - 0.5) / 10, (tenths + 0.5) / 10)


def within(value: float, bounds: tuple[float, float]) -> bool:
    return (
        bounds[0] - 1e-9 <= value <= bounds[1] + 1e-9
        and (bounds != (1.0, 1.0) or value >= 1.0)
        and (bounds != (0.0, 0.0) or value <= 0.0)
    )


def near(said: float, figure: float) -> bool:
    return abs(said - figure) <= 0.05 + 1e-9


def sentences(text: str) -> list[str]:
    """Split after each full stop that ends a sentence (none is inside a number's decimals)."""
    return [s for s in re.split(r"(?<=\.) (?=[A-Z])", text.strip()) if s]


def voids_seen(game: Game, seat: int, suit: str) -> bool:
    plays = [t.plays for t in game.completed_tricks] + [game.trick]
    return any(
        p and p[0][1][1] == suit and any(s == seat and c[1] != suit for s, c in p) for p in plays
    )


ALL = [r + s for s in "CDSH" for r in "23456789TJQKA"]


def below_queen(cards: list[str]) -> int:
    """Spades lower than the queen among ``cards``."""
    return sum(1 for c in cards if c[1] == "S" and Card.parse(c).index < Card.parse("QS").index)


POINTS = r"(no points|-?\d+(?:\.\d)? points?)"
TAKEN = r"(the only point|all \d+ points)"  # "all 9 points", never "all 1 points"
SHARE = r"(in every deal|in no deal|in (?:fewer than 1|more than 9|\d) of 10 deals)"


def check_play(
    text: str, game: Game, seat: int, figures, names: list[str], part: bool = False
) -> list[str]:
    """Every clause of a play's hint, checked; the kinds of clause seen (for coverage).
    ``part``: the status bar's sentence alone (its rest is behind "Why?"), which may be the
    card alone."""
    said = sentences(text)
    head = re.fullmatch(r"Hint: play the (.+?)(?:, (.+))?\.", said.pop(0))
    assert head, text
    assert code_of(head.group(1)) == figures.card, text
    if head.group(2):
        check_move(head.group(2), game, seat, figures, names)
    by_card = {c.card: c for c in figures.candidates}
    mine = by_card.get(figures.card)
    others = [c for c in figures.candidates if c is not mine]
    held = sum(1 for c in game.taken(seat) if c[1] == "H") + 13 * ("QS" in game.taken(seat))
    kinds = []
    for sentence in said:
        if sentence == "It is the only card you may play.":
            assert game.legal_plays(seat) == [figures.card] and not figures.candidates
            kinds.append("only")
        elif sentence == "Every card you may play comes to the same here.":
            assert not figures.candidates and len(game.legal_plays(seat)) > 1
            kinds.append("same")
        elif m := re.fullmatch(
            rf"With it you take (?:(no )?points on this trick {SHARE} the computers imagine|"
            rf"{POINTS} on this trick), and end the hand with {POINTS}( on average)?\.",
            sentence,
        ):
            if m.group(3):  # every deal agrees on this trick: its points, said as certain
                assert mine.trick_certain and near(amount(m.group(3)), mine.trick_points)
            else:
                assert not mine.trick_certain, ("certain, said as a share", sentence)
                clean = mine.clean if m.group(1) else 1 - mine.clean  # "no points" or "points"
                assert clean >= 0.5 and within(clean, share(m.group(2))), (sentence, mine)
            assert near(amount(m.group(4)), held + mine.points), (sentence, mine)
            assert bool(m.group(5)) == (not mine.points_certain), ("on average?", sentence)
            assert not 0 < len(as_good(mine, others)) < 3, ("as good unsaid", sentence)
            kinds.append("clean")
        elif m := re.fullmatch(
            rf"With the (.+) you would end the hand with {POINTS}( on average)?, fewer; the "
            r"computers' search also counts (the moon it plays for|the points the other players "
            r"take), and prefers the (.+)\.",
            sentence,
        ):
            other = by_card[code_of(m.group(1))]
            assert other.points <= mine.points - CLOSE and code_of(m.group(5)) == figures.card
            assert near(amount(m.group(2)), held + other.points), (sentence, other)
            assert bool(m.group(3)) == (not other.points_certain), ("on average?", sentence)
            assert ("moon" in m.group(4)) == figures.shooting, sentence
            kinds.append("better")
        elif m := re.fullmatch(
            rf"With the (.+) you would (?:take {POINTS} on this trick( on average)?, and )?end "
            rf"the hand with {POINTS}\.",
            sentence,
        ):
            other = by_card[code_of(m.group(1))]
            assert other is not mine and other.points >= mine.points + CLOSE, sentence
            said_trick = amount(m.group(2)) if m.group(2) else 0.0
            assert said_trick != 0.0 or not m.group(2), "no points said as taken"
            assert near(said_trick, other.trick_points), (sentence, other)
            if m.group(2):
                assert bool(m.group(3)) == (not other.trick_certain), ("on average?", sentence)
            assert near(amount(m.group(4)), held + other.points), (sentence, other)
            kinds.append("tempting")
        elif m := re.fullmatch(
            r"Any of these is as good, by your points at the hand's end( on average in "
            r"the deals the computers imagine)?: (.+)\.",
            sentence,
        ):
            listed = []
            for part in m.group(2).split("; "):
                name, points = re.fullmatch(rf"the (.+), {POINTS}", part).groups()
                card = by_card[code_of(name)]
                assert near(amount(points), held + card.points), (sentence, card)
                listed.append(card.card)
            close = {c.card for c in as_good(mine, others)}
            assert listed[0] == figures.card and set(listed) == close | {figures.card}, sentence
            assert len(listed) <= 3, ("more than three cards as good", sentence)
            certain = all(by_card[c].points_certain for c in listed)
            assert bool(m.group(1)) == (not certain), ("on average?", sentence)
            kinds.append("close")
        elif m := re.fullmatch(
            rf"(\w+) has taken {TAKEN} so far and could shoot the moon: after the (.+), "
            rf"(\w+) shoots it {SHARE} the computers imagine, after the (.+) {SHARE}\.",
            sentence,
        ):
            worst = by_card[code_of(m.group(6))]  # a moon is said only where the card bears on it
            assert within(worst.moon_against, share(m.group(7))), (sentence, worst)
            assert worst.moon_against >= mine.moon_against + 0.1 - 1e-9, sentence
            assert any(c.moon_against > 0 for c in figures.candidates), sentence
            taker = names.index(m.group(1))
            points = game.hand_points()
            assert taker == figures.threat and m.group(4) == m.group(1), sentence
            assert points[taker] == sum(points) == taken(m.group(2)) > 0, sentence
            assert code_of(m.group(3)) == figures.card
            assert within(mine.moon_against, share(m.group(5))), (sentence, mine)
            kinds.append("moon against")
        elif m := re.fullmatch(
            rf"You are going for the moon: (?:you have taken {TAKEN} so far; )?with the "
            rf"(.+) you make it {SHARE} the computers imagine\.",
            sentence,
        ):
            assert figures.shooting and code_of(m.group(2)) == figures.card, sentence
            if m.group(1):
                points = game.hand_points()
                assert points[seat] == sum(points) == taken(m.group(1)) > 0, sentence
            assert within(mine.moon_own, share(m.group(3))), (sentence, mine)
            kinds.append("moon own")
        elif m := re.fullmatch(
            r"(.+) (?:has|have) shown no (\w+) and may throw points on it\.", sentence
        ):
            suit = SUITS[m.group(2)]
            assert game.trick and game.trick[0][1][1] == suit, sentence
            seen = [c for t in game.completed_tricks for _, c in t.plays] + game.hand(seat)
            seen += [c for _, c in game.trick]
            assert any(Card.parse(c).points for c in ALL if c not in seen), "no points are out"
            who = re.split(r", | and ", m.group(1))
            played = {s for s, _ in game.trick}
            best = max(Card.parse(c).index for _, c in game.trick if c[1] == suit)
            mine_i = Card.parse(figures.card).index
            assert figures.card[1] == suit and mine_i < best, ("a void, but no duck", sentence)
            assert any(
                c[1] == suit and Card.parse(c).index > best for c in game.legal_plays(seat)
            ), ("a void, but nothing that would take the trick", sentence)
            for name in who:
                s = names.index(name)
                assert s != seat and s not in played and voids_seen(game, s, suit), sentence
            kinds.append("void")
        else:
            raise AssertionError(f"a clause no check reads: {sentence!r} in {text!r}")
    assert kinds or part, text
    return kinds


def check_move(move: str, game: Game, seat: int, figures, names: list[str]) -> None:
    """The card's move in a Hearts player's words, against the table, the seat's hand and (for
    a guard kept, a shooter's void led) the figures of the decision."""
    code = figures.card
    index = Card.parse(code).index
    hand = game.hand(seat)
    gone = {c for t in game.completed_tricks for _, c in t.plays}
    if move == "leading a low spade to draw out the queen":
        assert not game.trick and code[1] == "S" and index < Card.parse("QS").index, move
        assert "QS" not in hand and "QS" not in gone, move
        return
    if m := re.fullmatch(r"leading (\w+), which (\w+) has none of, so (\w+) cannot take it", move):
        assert not game.trick and SUITS[m.group(1)] == code[1], move
        taker = names.index(m.group(2))
        assert m.group(3) == m.group(2) and taker != seat and figures.threat == taker, move
        points = game.hand_points()
        assert points[taker] == sum(points) > 0, ("not the lone taker of every point", move)
        assert voids_seen(game, taker, code[1]), ("no void shown", move)
        return
    if m := re.fullmatch(r"keeping (\w+) lower (spades?) to guard the queen", move):
        low = below_queen(hand)
        assert "QS" in hand and code[1] != "S" and not figures.shooting, move
        assert WORD[m.group(1)] == low and 1 <= low <= 3, (move, hand)
        assert m.group(2) == ("spade" if low == 1 else "spades"), move
        by_card = {c.card: c for c in figures.candidates}
        queen = Card.parse("QS").index
        spent = [by_card[c] for c in by_card if c[1] == "S" and Card.parse(c).index <= queen]
        assert spent, ("no spade might have been played instead", move)
        assert all(c.points >= by_card[code].points + CLOSE - 1e-9 for c in spent), (move, spent)
        return
    assert game.trick, move
    led = game.trick[0][1][1]
    best = max(Card.parse(c).index for _, c in game.trick if c[1] == led)
    if m := re.fullmatch(r"ducking under the (.+)", move):
        assert Card.parse(code_of(m.group(1))).index == best and code[1] == led, move
        assert index < best and any(c[1] == led and Card.parse(c).index > best for c in hand)
    elif move == "taking a trick with no points on it":
        assert code[1] == led and index > best and len(game.trick) == 3, move
        assert not any(Card.parse(c).points for _, c in game.trick), move
    elif m := re.fullmatch(r"throwing (her|a heart) on a (\w+) trick", move):
        assert SUITS[m.group(2) + "s"] == led != code[1], move
        assert (code == "QS") if m.group(1) == "her" else (code[1] == "H"), move
    elif m := re.fullmatch(r"voiding your (\w+)", move):
        assert code[1] == SUITS[m.group(1)] != led, move
        assert [c for c in hand if c[1] == code[1]] == [code], move
    else:
        raise AssertionError(f"a move no check reads: {move!r}")


def check_pass(text: str, game: Game, seat: int, figures, part: bool = False) -> list[str]:
    """Every clause of a pass's hint, checked against the reasons and the hand (``part``: as
    ``check_play``'s)."""
    said = sentences(text)
    head = re.fullmatch(r"Hint: pass (.+)\.", said.pop(0))
    assert head, text
    named = [code_of(n) for n in re.split(r", the | and the ", head.group(1).removeprefix("the "))]
    assert sorted(named) == sorted(figures.cards) and len(named) == 3, text
    hand = game.hand(seat)
    left = [c for c in hand if c not in figures.cards]
    why = {r.card: r for r in figures.passed}
    kept = {r.card: r for r in figures.kept}
    told = []
    kinds = []
    for sentence in said:
        if sentence == "Your hand can go for the moon.":
            assert figures.shooting
            kinds.append("moon")
            continue
        m = re.fullmatch(r"(Pass|Keep|Void your) (.+?): (.+)\.", sentence)
        assert m, sentence
        verb, cards, reason = m.groups()
        if verb == "Void your":  # every card of the suit passed: two or three of them
            codes = [c for c in figures.cards if c[1] == SUITS[cards]]
            assert len(codes) > 1 and all(why[c].why == "void" for c in codes), sentence
        else:
            codes = [code_of(n) for n in re.split(r", the | and the ", cards.removeprefix("the "))]
        if verb == "Keep":
            (card,) = codes
            r = kept[card]
            facts = dict(r.facts)
            assert card in left, sentence
            if r.why == "queen_guarded":
                low = re.fullmatch(r"(\w+) lower spades? guards? it", reason).group(1)
                assert WORD[low] == facts["low_spades"], sentence
                assert WORD[low] == below_queen(left), sentence
            elif r.why == "stopper":
                assert reason == "it can stop a moon" and card[1] == "H"
            elif r.why == "winner_for_moon":
                assert reason == "a winner for your moon"
            kinds.append(f"keep {r.why}")
            continue
        for card in codes:
            assert card in figures.cards and card not in told, sentence
            told.append(card)
        r = why[codes[0]]
        facts = dict(r.facts)
        if r.why == "void":
            suit = codes[0][1]
            assert all(why[c].why == "void" and c[1] == suit for c in codes), sentence
            assert not any(c[1] == suit for c in left), sentence  # none of the suit is kept
            assert f"with no {[n for n, s in SUITS.items() if s == suit][0]} left" in reason
        elif r.why == "queen":
            assert codes == ["QS"], sentence
            if "no lower spade" in reason:
                assert facts["low_spades"] == 0
            else:
                low, wants = re.fullmatch(
                    r"(\w+) lower spades? cannot guard it \(it wants (\w+)\)", reason
                ).groups()
                assert WORD[low] == facts["low_spades"] and WORD[wants] == facts["guards"]
            assert below_queen(left) == facts["low_spades"], (sentence, left)
        elif r.why == "high_spade":
            assert codes[0] in ("AS", "KS") and "QS" not in left, sentence
        elif r.why == "high_heart":
            assert codes[0][1] == "H", sentence
        elif r.why == "high":
            length = re.search(r"your (?:only|(\w+)) \w+", reason)
            said_length = WORD[length.group(1)] if length.group(1) else 1
            assert said_length == facts["suit_length"], sentence
        elif r.why == "search":
            edge = re.search(rf"saves {POINTS}", reason).group(1)
            assert near(amount(edge), facts["edge_tenths"] / 10), sentence
        kinds.append(r.why)
    assert part or sorted(told) == sorted(figures.cards), (text, figures)
    return kinds
