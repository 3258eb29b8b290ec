"""What the browser tests share: where things are on the page and how to wait for the server."""

from playwright.sync_api import Page, expect

STATUS = "#status .status-line"
CARDS = "#table .hand .card"
LIT = '#table .hand .card:not([aria-disabled="true"])'
TITLE = "#titlebar #title"


def start(page: Page, base: str, number: int = 617, name: str = "Ada") -> None:
    """A first visit by a link to game ``number``: the name prompt, then that game."""
    page.goto(f"{base}/#{number}")
    page.get_by_label("What is your name?").fill(name)
    page.get_by_role("button", name="OK").click()
    expect(page.locator(TITLE)).to_have_text(f"Hearts - Game #{number}")


def keys(page: Page, key: str) -> None:
    """Press a key that makes the server act, and wait for the new table."""
    before = seq(page)
    page.keyboard.press(key)
    after(page, before)


def act(page: Page, locator) -> None:
    """Click and wait until the server has answered with a new table."""
    before = seq(page)
    locator.click(position={"x": 6, "y": 24})
    after(page, before)


def seq(page: Page) -> str:
    return page.locator("#table").get_attribute("data-seq")


def after(page: Page, before: str) -> None:
    """Wait for a new table, swapped and settled (hearts.js has put the focus back)."""
    page.wait_for_function(
        "before => { const t = document.querySelector('#table');"
        " return t && t.dataset.seq !== before"
        " && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling'); }",
        arg=before,
    )


# -- a game brought to a given moment on the server's side, then handed to the browser --------


def played_until(number: int, done, name: str = "Ada"):
    """Game ``number`` with the computer's choices made for you too, up to the first moment
    ``done(state)`` holds (each step is one of your actions and the computers' answers)."""
    from game import actions, players
    from game.session import PlayerState

    state = PlayerState()
    state.options.name = name
    clock = actions.Clock()
    actions.start_game(state, number, clock)
    for _ in range(400):
        if done(state):
            return state
        game = state.game
        if game.phase == "game_over":
            break
        if game.phase == "hand_over":
            actions.next_hand(state, clock)
        elif game.phase == "passing" and not state.awaiting_ok:
            state.selected = players.choose_pass(game, 0)
            actions.pass_selected(state, clock)
        elif state.awaiting_ok:
            actions.accept(state, clock)
        else:
            actions.play(state, players.choose_play(game, 0), clock)
    raise AssertionError(f"game {number} never reached that moment")


def open_at(page: Page, base: str, state) -> None:
    """Give the browser the cookie holding ``state`` and open the table."""
    from django.conf import settings
    from django.contrib.sessions.backends.signed_cookies import SessionStore

    from game.session import save

    store = SessionStore()
    save(store, state)
    store.save()
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": store.session_key, "url": base}]
    )
    page.goto(base)


def your_lead_with_hearts_unbroken(state) -> bool:
    game = state.game
    hand = game.hand(0)
    return (
        game.phase == "playing"
        and not state.awaiting_ok
        and game.turn == 0
        and not game.trick
        and game.tricks_played > 0
        and not game.hearts_broken
        and any(c[1] == "H" for c in hand)
        and any(c[1] != "H" for c in hand)
    )


# -- what a screen reader is told: every change of the live region, as it would be read -------

RECORD_LIVE_REGION = """
window.__heard = [];
document.addEventListener("DOMContentLoaded", () => {
  const region = document.getElementById("status");
  if (!region) return;
  const spoken = () => {
    const copy = region.cloneNode(true);
    copy.querySelectorAll('[aria-hidden="true"]').forEach((el) => el.remove());
    return copy.textContent.replace(/\\s+/g, " ").trim();
  };
  new MutationObserver(() => {
    const text = spoken();
    if (text) window.__heard.push(text);
  }).observe(region, { childList: true, subtree: true, characterData: true });
});
"""


def listen(page: Page) -> None:
    """From the next page load on, record what the live region says at each change."""
    page.add_init_script(RECORD_LIVE_REGION)


def heard(page: Page) -> list[str]:
    return page.evaluate("window.__heard || []")


def focus_said(page: Page) -> str:
    """What a screen reader says on focus: the focused element's role, name and state."""
    return page.evaluate(
        """() => {
      const a = document.activeElement;
      if (!a || a === document.body) return "(nothing focused)";
      const name = (a.getAttribute("aria-label") || a.textContent || a.value || "").trim();
      const tag = a.tagName.toLowerCase();
      const role = a.getAttribute("role") || (tag === "a" ? "link" : tag);
      const states = [];
      if (a.getAttribute("aria-pressed") === "true") states.push("pressed");
      if (a.getAttribute("aria-pressed") === "false") states.push("not pressed");
      if (a.getAttribute("aria-disabled") === "true" || a.disabled) states.push("dimmed");
      const bar = a.closest('[role="toolbar"]');
      const where = bar ? `${bar.getAttribute("aria-label")} toolbar, ` : "";
      return `${where}${name}, ${role}${states.length ? ", " + states.join(", ") : ""}`;
    }"""
    )
