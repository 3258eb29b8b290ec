"""The page's turning of a network table's public part (static/js/network.js), stated again in
Python: what the tests compare with the tables drawn for one seat, and how the test client, as
a page does, makes the mover's answer (``game.network.public.mover_answer``) its table."""

from __future__ import annotations

import re

PLACES = ("bottom", "left", "top", "right")
OPPONENT = re.compile(r'<section class="seat seat-s(\d)" aria-label=.*?</section>', re.S)
POLL = re.compile(r'<div class="net-poll".*?</div>', re.S)
HAND = re.compile(r'<section class="seat seat-bottom" id="hand".*?</section>', re.S)
BAR = re.compile(r'<section class="net-bar".*?</section>', re.S)


def turn(html: str, seat: int, answer: str = "", mine: str = "", seq: str = "") -> str:
    """The public drawing as the page of ``seat`` shows it: its hand and its action count from
    ``answer`` (the seat's page before), or for the seat whose turn came its own part
    (``mine``: its lit hand, given the page's CSRF token, and its poll box)."""
    found = OPPONENT.findall(html), [m.group(0) for m in OPPONENT.finditer(html)]
    sections = dict(zip((int(s) for s in found[0]), found[1], strict=True))
    block = re.compile("|".join(re.escape(text) for text in sections.values()))
    first = True

    def order(match):
        nonlocal first
        if not first:
            return ""
        first = False
        return "".join(sections[(seat + step) % 4] for step in (1, 2, 3))

    html = block.sub(order, html)
    me = str(seat)
    html = re.sub(
        r'<span data-you="(\d)" data-you-text="([^"]*)" data-unwrap>(.*?)</span>',
        lambda m: m[2] if m[1] == me else m[3],
        html,
    )
    html = re.sub(
        r'(<span [^>]*?) data-you="(\d)" data-you-text="([^"]*)">(.*?)</span>',
        lambda m: f"{m[1]}>{m[3] if m[2] == me else m[4]}</span>",
        html,
    )
    html = re.sub(
        r'aria-label="([^"]*)"([^<>]*?) data-you="(\d)" data-you-label="([^"]*)"',
        lambda m: f'aria-label="{m[4] if m[3] == me else m[1]}"{m[2]}',
        html,
    )
    html = re.sub(
        r"\b(seat|at|to|pile|taken)-s([0-3])\b",
        lambda m: f"{m[1]}-{PLACES[(int(m[2]) - seat) % 4]}",
        html,
    )
    own_seq = f'data-seq="{seq}"' if seq else re.search(r'data-seq="\d+"', answer).group(0)
    html = html.replace('data-seq=""', own_seq, 1)
    if not mine:
        hand = HAND.search(answer).group(0)
    else:
        hand = HAND.search(mine)[0]
        token = re.search(r'name="csrfmiddlewaretoken" value="[^"]*"', answer)
        if token:
            hand = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', token[0], hand)
        own_bar = BAR.search(mine)
        if BAR.search(html):
            html = BAR.sub(lambda m: own_bar[0] if own_bar else "", html)
        elif own_bar:
            html = POLL.sub(lambda m: own_bar[0] + m[0], html)
        html = POLL.sub(lambda m: POLL.search(mine).group(0), html)
    return HAND.sub(lambda m: hand, html, count=1)


TICK = re.compile(r"\b([tge])(\d+)\b")


def for_mover(html: str, seat: int) -> str:
    """The public part put right for the mover's own page, as network.js's ``forMover`` does:
    its card not gliding in, every moment one step (two ticks) sooner, the status bar's first
    step gone (and with it, if it was the only one, the steps' box and the line's wait)."""

    def placed(match):
        return re.sub(r" arrive t\d+", "", match[0])

    html = re.sub(rf'class="played at-s{seat} [^"]*arrive[^"]*"', placed, html)

    def sooner(match):
        classes = TICK.sub(lambda t: f"{t[1]}{max(0, int(t[2]) - 2)}", match[1])
        return f'class="{classes}"'

    html = re.sub(r'class="([^"]*)"', sooner, html)
    steps = re.findall(
        r'<span class="status-step[^"]*"[^>]*>.*?</span>(?=<span class="status|</span>)', html
    )
    if len(steps) == 1:
        html = re.sub(
            r'<span aria-hidden="true"><span class="status-step.*?</span></span>', "", html
        )
        html = re.sub(r'class="status-line status-later t\d+"', 'class="status-line"', html)
    elif steps:
        html = html.replace(steps[0], "", 1)
    return html


def unprefixed(data: str) -> str:
    return "\n".join(line.removeprefix("data: ") for line in data.split("\n"))


def mover_page(text: str) -> str:
    """A mover's answer (its head line, its own part, the public part) as its page shows it."""
    head, rest = text.split("\n", 1)
    _, _, seat, count, seq = (int(x) for x in head.split())
    lines = rest.split("\n")
    mine, html = "\n".join(lines[:count]), "\n".join(lines[count:])
    return turn(for_mover(html, seat), seat, "", mine, str(seq))
