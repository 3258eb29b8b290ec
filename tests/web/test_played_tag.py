"""``{% played card %}`` draws exactly what game/partials/played.html drew (kept here as the
statement of the markup), for any card on the table: the solo game's, a seat's, the public
part's (with the words for the seat it is "yours" on)."""

from __future__ import annotations

from django.template import Context, Template
from django.utils.safestring import mark_safe
from hypothesis import given
from hypothesis import strategies as st

from game.web.table import TableCard

THE_PARTIAL = Template(
    '<span class="played at-{{ card.place }}{% if card.code %} face-{{ card.code }}{% endif %}'
    '{% if card.tick is not None %} arrive t{{ card.tick }}{% endif %}" role="img" '
    'aria-label="{{ card.who }}: {{ card.name }}"{% if card.you_label %} '
    'data-you="{{ card.seat }}" data-you-label="{{ card.you_label }}"{% endif %}></span>'
)
THE_TAG = Template("{% played card %}")

words = st.text(max_size=12) | st.sampled_from(["<b>\"&'", "Ann & Bo"])


@st.composite
def table_cards(draw) -> TableCard:
    card = TableCard(
        seat=draw(st.integers(-1, 3)),
        code=draw(st.sampled_from(["", "2C", "QS", '<"&>'])),
        name=draw(words),
        place=draw(st.sampled_from(["bottom", "left", "s2", "<x>"])),
        who=draw(words | st.just(mark_safe("<i>safe</i>"))),
        tick=draw(st.none() | st.integers(0, 40)),
    )
    you = draw(st.none() | words)
    if you is not None:  # the public part's cards carry it; the solo game's have none
        card.you_label = you
    return card


@given(table_cards())
def test_the_tag_draws_what_the_partial_drew(card):
    context = {"card": card}
    assert THE_TAG.render(Context(context)) == THE_PARTIAL.render(Context(context))
