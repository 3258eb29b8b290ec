"""``{% hand_buttons %}`` draws exactly what the hand's loop in Django's template language drew
(kept here as the statement of the markup), for any hand and any action."""

from __future__ import annotations

from types import SimpleNamespace

from django.template import Context, Template
from hypothesis import given
from hypothesis import strategies as st

from game.web.table import HandCard

THE_LOOP = Template(
    "{% for card in view.hand %}"
    '<button type="{% if view.hand_action %}submit{% else %}button{% endif %}" name="card" '
    'value="{{ card.code }}" class="card face-{{ card.code }}{% if card.raised %} raised'
    '{% endif %}{% if card.hint %} hinted{% endif %}"{% if card.dimmed or not view.hand_action %}'
    ' aria-disabled="true"{% endif %}{% if view.hand_action == "select" %} aria-pressed="'
    '{{ card.raised|yesno:\'true,false\' }}"{% endif %}><span class="label">{{ card.name }}'
    "</span></button>{% endfor %}"
)
THE_TAG = Template("{% hand_buttons view %}")

cards = st.builds(
    HandCard,
    code=st.sampled_from(["2C", "QS", "TH", "AD", '<"&>']),
    name=st.text(max_size=20),
    raised=st.booleans(),
    dimmed=st.booleans(),
    hint=st.booleans(),
)


@given(st.lists(cards, max_size=13), st.sampled_from(["select", "play", ""]))
def test_the_tag_draws_what_the_loop_drew(hand, hand_action):
    view = SimpleNamespace(hand=hand, hand_action=hand_action)
    assert THE_TAG.render(Context({"view": view})) == THE_LOOP.render(Context({"view": view}))
