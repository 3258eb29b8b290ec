"""``{% action "play" %}``: where a table's form posts. The solo game's partials are drawn for
network tables too; there the same action goes to that table's own address.

``{% hand_buttons view %}``: the cards of one's hand, one button each; ``{% played card %}``: a
card on the table (the trick's, and the viewer's own card ready in its template);
``{% opponent_seats view %}``: the other three seats round the table; ``{% poll_box %}``: a
network page's poll of its table (drawn four times a card); ``{% hand_section %}``: one's own
seat, its hand's form and the button under it. Stated here rather than
as a loop in hand.html (an include per card in trick.html, ten nodes an opponent in
opponents.html, a quarter of every table's nodes) because it is the hottest markup of the site
(thirteen buttons of a few conditional attributes, on every table drawn, twenty times a second
on a busy server), which Django's template language draws ten times slower than this."""

from functools import lru_cache

from django import template
from django.urls import reverse
from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@lru_cache(maxsize=4096)
def address(name: str, code: str) -> str:
    return reverse(f"network:{name}", args=[code]) if code else reverse(f"game:{name}")


@register.simple_tag(takes_context=True)
def action(context, name: str) -> str:
    return address(name, context.get("table_code") or "")


@register.simple_tag
def hand_buttons(view) -> SafeString:
    act = view.hand_action
    kind = "submit" if act else "button"
    buttons = []
    for card in view.hand:
        code = escape(card.code)
        classes = " raised" if card.raised else ""
        if card.hint:
            classes += " hinted"
        extra = ' aria-disabled="true"' if card.dimmed or not act else ""
        if act == "select":
            extra += ' aria-pressed="true"' if card.raised else ' aria-pressed="false"'
        buttons.append(
            f'<button type="{kind}" name="card" value="{code}" class="card face-{code}{classes}"'
            f'{extra}><span class="label">{escape(card.name)}</span></button>'
        )
    return mark_safe("".join(buttons))


@register.simple_tag
def played(card) -> SafeString:
    """One card on the table: its place, its face (none for the viewer's card to come), the tick
    it arrives at (None: there already), its accessible name, and, in the public part, the words
    for the seat it is "yours" on. Once a template of its own, included per card."""
    face = f" face-{conditional_escape(card.code)}" if card.code else ""
    tick = "" if card.tick is None else f" arrive t{conditional_escape(card.tick)}"
    you_label = getattr(card, "you_label", "")
    you = (
        f' data-you="{conditional_escape(card.seat)}"'
        f' data-you-label="{conditional_escape(you_label)}"'
        if you_label
        else ""
    )
    return mark_safe(
        f'<span class="played at-{conditional_escape(card.place)}{face}{tick}" role="img"'
        f' aria-label="{conditional_escape(card.who)}: {conditional_escape(card.name)}"{you}>'
        "</span>"
    )


@register.simple_tag
def opponent_seats(view) -> SafeString:
    """Each other seat: its name (and, at a network table, who plays it), its cards' backs and,
    for a screen reader, how many it holds; the place (left, top, right, or at the public part
    the seat's absolute place) its section's class."""
    seats = []
    for opponent in view.opponents:
        name, count = conditional_escape(opponent["name"]), opponent["count"]
        computer = opponent.get("computer")
        said = f" ({conditional_escape(computer)})" if computer else ""
        small = (
            f' <small class="net-computer" aria-hidden="true">({conditional_escape(computer)})'
            "</small>"
            if computer
            else ""
        )
        place, backs = conditional_escape(opponent["place"]), conditional_escape(opponent["backs"])
        seats.append(
            f'\n<section class="seat seat-{place}" aria-label="'
            f'{name}{said}, {count} card{"" if count == 1 else "s"}">\n'
            f'  <span class="name"><bdi>{name}</bdi>{small}</span>\n'
            f'  <div class="backs n{count}" aria-hidden="true">{backs}</div>\n</section>\n'
        )
    return mark_safe("".join(seats) + "\n")


@register.simple_tag(takes_context=True)
def poll_box(context) -> SafeString:
    """A network page's poll of its table: where and how often it asks, the version it shows,
    when a button falls due, the server's second and its stream's address (the context's
    ``poll_url``, ``poll_seconds``, ``version``, ``redraw``, ``now``, ``events_url``)."""

    def given(name: str):
        return conditional_escape(context.get(name, ""))

    events = context.get("events_url")
    stream = f' data-events="{conditional_escape(events)}"' if events else ""
    return mark_safe(
        f'<div class="net-poll" hx-get="{given("poll_url")}" hx-trigger="every '
        f'{given("poll_seconds")}s" hx-target="#table" hx-swap="outerHTML" data-version="'
        f'{given("version")}" data-redraw="{given("redraw")}" data-now="{given("now")}"{stream}'
        ' aria-hidden="true"></div>'
    )


def token_input(context) -> str:
    """What ``{% csrf_token %}`` draws: the form's CSRF token, if the context has one."""
    token = context.get("csrf_token")
    if not token or token == "NOTPROVIDED":
        return ""
    return f'<input type="hidden" name="csrfmiddlewaretoken" value="{conditional_escape(token)}">'


def seq_inputs(context) -> str:
    """A form's CSRF token and the seat's action count (``partials/seq.html``, as included)."""
    seq = conditional_escape(context.get("seq", ""))
    return f'{token_input(context)}<input type="hidden" name="seq" value="{seq}">\n'


@register.simple_tag(takes_context=True)
def hand_section(context) -> SafeString:
    """One's own seat (``view``): its name, its hand's form (posting to ``view.hand_action``,
    the cards by ``hand_buttons``, waiting to light until ``view.end_tick`` when the turn is
    one's own) and the button under it (``view.button``); an empty seat in the public part."""
    if context.get("public"):
        return mark_safe('<section class="seat seat-bottom" id="hand"></section>\n')
    view = context.get("view")
    code = context.get("table_code") or ""

    def given(name: str):
        return getattr(view, name, "")

    names, act, hand = given("names"), given("hand_action"), given("hand")
    form = ""
    if hand:
        posts = f' action="{address(act, code)}" hx-post="{address(act, code)}"' if act else ""
        end = given("end_tick")
        waiting = f" waiting t{conditional_escape(end)}" if given("your_turn") and end else ""
        form = (
            f'<form method="post" class="hand-form"{posts}>\n    {seq_inputs(context)}\n'
            f'    <div class="hand n{len(hand)}{waiting}" role="toolbar" aria-label="Your cards"'
            f' data-action="{conditional_escape(act)}">{hand_buttons(view)}</div>\n  </form>'
        )
    button = ""
    if given("button"):
        to = address(given("button_action"), code)
        off = "" if given("button_enabled") else " disabled"
        button = (
            f'\n  <form method="post" class="button-form" action="{to}" hx-post="{to}">\n'
            f"    {seq_inputs(context)}\n"
            f'    <button type="submit" class="push" id="pass-button"{off}>'
            f"{conditional_escape(given('button'))}</button>\n  </form>\n  "
        )
    name = conditional_escape(names[0]) if names else ""
    return mark_safe(
        '<section class="seat seat-bottom" id="hand" tabindex="-1" aria-label="Your hand">\n'
        f'  <span class="name"><bdi>{name}</bdi></span>\n  {form}\n'
        f'  <div class="button-row">{button}</div>\n</section>\n'
    )
