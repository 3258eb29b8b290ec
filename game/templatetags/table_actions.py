"""``{% action "play" %}``: where a table's form posts. The solo game's partials are drawn for
network tables too; there the same action goes to that table's own address.

``{% hand_buttons view %}``: the cards of one's hand, one button each. Stated here rather than
as a loop in hand.html because it is the hottest markup of the site (thirteen buttons of a few
conditional attributes, on every table drawn, twenty times a second on a busy server), which
Django's template language draws ten times slower than this."""

from functools import lru_cache

from django import template
from django.urls import reverse
from django.utils.html import escape
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
