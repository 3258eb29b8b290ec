"""The review's first line ("Pauline in your seat would have taken ...") can be read as the
dialog opens, at every window size the browser tests check: inside the window, below the
dialog's title bar, and not hidden by anything painted over it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.support.browser import DIALOG, STRIP_SIZES, hand_played_high, open_at, wait_modal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Where the first line is drawn and whether each of its corners (just inside) shows the line
# itself: elementFromPoint gives what the browser paints on top at that point.
FIRST_LINE = """sel => {
  const line = document.querySelector(sel);
  const r = line.getBoundingClientRect();
  const bar = line.closest('dialog').querySelector('.titlebar').getBoundingClientRect();
  const points = [[r.left + 2, r.top + 2], [r.right - 2, r.top + 2],
                  [r.left + 2, r.bottom - 2], [r.right - 2, r.bottom - 2]];
  const shown = points.map(([x, y]) => {
    const hit = document.elementFromPoint(x, y);
    return !!hit && line.contains(hit);
  });
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, barBottom: bar.bottom,
          width: innerWidth, height: innerHeight, shown};
}"""


@pytest.mark.parametrize("size", STRIP_SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_the_reviews_first_line_is_visible_as_it_opens(fresh_context, live_server, size):
    state = hand_played_high()
    context = fresh_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    open_at(page, live_server.url, state)
    page.keyboard.press("r")
    wait_modal(page, "dialog-review")
    line = f"{DIALOG} .review-summary p:first-child"
    expect(page.locator(line)).to_contain_text("Pauline in your seat would have")
    where = page.evaluate(FIRST_LINE, line)
    assert where["top"] >= where["barBottom"] - 0.5, where  # not under the title bar
    assert where["top"] >= 0 and where["bottom"] <= where["height"], where  # in the window
    assert where["left"] >= 0 and where["right"] <= where["width"], where
    assert all(where["shown"]), where  # nothing painted over it
