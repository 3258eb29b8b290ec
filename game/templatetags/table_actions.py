"""``{% action "play" %}``: where a table's form posts. The solo game's partials are drawn for
network tables too; there the same action goes to that table's own address."""

from django import template
from django.urls import reverse

register = template.Library()


@register.simple_tag(takes_context=True)
def action(context, name: str) -> str:
    code = context.get("table_code")
    if code:
        return reverse(f"network:{name}", args=[code])
    return reverse(f"game:{name}")
