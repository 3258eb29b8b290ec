"""What the browser tests share: where things are on the page and how to wait for the server."""

from urllib.parse import urlsplit

from playwright.sync_api import BrowserContext, Page, expect

from tests.support import REPO

STATUS = "#status .status-line"
CARDS = "#table .hand .card"
LIT = '#table .hand .card:not([aria-disabled="true"])'
TITLE = "#titlebar #title"

CHROMIUM = "/usr/bin/chromium"  # Debian's package: bin/test installs it where it is missing
CHROMIUM_ARGS = [
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def give_name(page: Page, name: str = "Ada") -> None:
    """Answer the name prompt; a game is then on the table."""
    page.get_by_label("What is your name?").fill(name)
    page.get_by_role("button", name="OK").click()
    expect(page.locator(TITLE)).to_contain_text("Game #")


def start(page: Page, base: str, number: int = 617, name: str = "Ada") -> None:
    """A first visit by a link to game ``number``: the name prompt, then that game."""
    page.goto(f"{base}/#{number}")
    page.wait_for_load_state("networkidle")  # hearts.js has opened the game the link names
    give_name(page, name)
    expect(page.locator(TITLE)).to_have_text(f"Hearts - Game #{number}")
    expect(page).to_have_title(f"Hearts - Game #{number}")


def arrive(page: Page, url: str, name: str = "Ada", number: int = 617) -> None:
    """A first visit by the link to game ``number`` (without JavaScript the link's number does
    not reach the server: the game is then the fixed first number of tests/conftest.py)."""
    page.goto(f"{url}/#{number}")
    expect(page.get_by_text("Welcome to the Microsoft Hearts Network.")).to_be_visible()
    give_name(page, name)
    expect(page.locator(STATUS)).to_contain_text("Select three cards to pass to Pauline.")


def deal_by_the_game_menu(page: Page, name: str, number: int | str = "") -> str:
    """A person's way to a network table of their own: the site, their name at the prompt,
    Game, Network..., OK as the dealer (of game ``number``, or a secret deal); the lobby is
    then on the page. The table's link, as the lobby shows it to them."""
    page.goto("/")
    page.get_by_label("What is your name?").fill(name)
    page.get_by_role("button", name="OK").click()
    expect(page.locator(STATUS)).to_contain_text("Select three cards")
    page.get_by_role("menuitem", name="Game").click()
    page.get_by_role("menuitem", name="Network...").click()
    dialog = page.locator("dialog#dialog-network")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_label("Your name")).to_have_value(name)
    dialog.get_by_label("Game number (empty for a secret deal)").fill(str(number))
    dialog.get_by_role("button", name="OK").click()
    expect(page.locator("#lobby-title")).to_have_text(f"Hearts Network: {name}'s table")
    # its scripts have run, so that a key pressed next (F2 to start) is heard: on a busy
    # machine the title came before them and F2 went unheard
    page.wait_for_load_state()
    return page.locator("#table-link").input_value()


def join_at_the_prompt(page: Page, link: str, name: str) -> None:
    """A friend's way in: the dealer's link opened, the name typed at the prompt, OK."""
    page.goto(link)
    expect(page.get_by_text("Welcome to the Microsoft Hearts Network.")).to_be_visible()
    page.get_by_label("What is your name?").fill(name)
    page.get_by_role("button", name="OK").click()


def pass_by_mouse(page: Page, places: tuple[int, int, int] = (0, 1, 2)) -> None:
    """Click three cards of the hand (by their places, left to right), Pass, then OK."""
    button = page.locator("#pass-button")
    raised = page.locator(f"{CARDS}.raised")
    expect(button).to_be_disabled()
    for place in places:
        act(page, page.locator(CARDS).nth(place))
    expect(raised).to_have_count(3)
    expect(button).to_be_enabled()
    act(page, button)
    expect(page.locator(STATUS)).to_have_text("Press OK to accept cards.")
    expect(raised).to_have_count(3)  # the three received
    act(page, page.get_by_role("button", name="OK", exact=True))
    expect(page.locator(STATUS)).to_have_text("Select a card to play.")


def click_button(page: Page, name: str) -> None:
    before = seq(page)
    page.get_by_role("button", name=name, exact=True).click()
    after(page, before)


def pass_by_keyboard(page: Page, steps: tuple[int, int] = (1, 1)) -> None:
    """Pick three cards with Space, moving ``steps`` cards right with the arrow key before the
    second and the third; then Enter passes and Enter says OK."""
    page.locator(CARDS).first.focus()
    keys(page, "Space")
    for step in steps:
        for _ in range(step):
            page.keyboard.press("ArrowRight")
        keys(page, "Space")
    expect(page.locator("#table .hand .card.raised")).to_have_count(3)
    page.evaluate("document.activeElement.blur()")
    keys(page, "Enter")
    expect(page.locator(STATUS)).to_have_text("Press OK to accept cards.")
    keys(page, "Enter")
    expect(page.locator(STATUS)).to_have_text("Select a card to play.")


# The dialogs opened from the menus by a click (menu, item, dialog's id), beside those of keys.
MENU_DIALOGS = (
    ("#menu-help-button", "Quote...", "dialog-quote"),
    ("#menu-help-button", "About Hearts", "dialog-about"),
    ("#menu-game-button", "Statistics...", "dialog-stats"),
)


def dialog(page: Page, dialog_id: str):
    return page.locator(f"#dialogs dialog#{dialog_id}")


def wait_modal(page: Page, dialog_id: str) -> None:
    """Wait until the dialog ``dialog_id`` is open as a modal."""
    page.wait_for_function(
        "id => { const d = document.getElementById(id); return d && d.matches(':modal'); }",
        arg=dialog_id,
    )


def expect_modal(page: Page, dialog_id: str) -> None:
    expect(dialog(page, dialog_id)).to_be_visible()
    wait_modal(page, dialog_id)


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


def step_by_the_computer(state, clock) -> None:
    """One of your actions in the solo game, the computer player's choice made for you."""
    from game import players
    from game.solo import actions

    game = state.game
    if game.phase == "hand_over":
        actions.next_hand(state, clock)
    elif game.phase == "passing" and not state.awaiting_ok:
        state.selected = players.choose_pass(game, 0)
        actions.pass_selected(state, clock)
    elif state.awaiting_ok:
        actions.accept(state, clock)
    else:
        actions.play(state, players.choose_play(game, 0), clock)


def played_until(number: int, done, name: str = "Ada"):
    """Game ``number`` with the computer's choices made for you too, up to the first moment
    ``done(state)`` holds (each step is one of your actions and the computers' answers)."""
    from game.solo import actions
    from game.web.player import PlayerState

    state = PlayerState()
    state.options.name = name
    clock = actions.Clock()
    actions.start_game(state, number, clock)
    for _ in range(400):
        if done(state):
            return state
        if state.game.phase == "game_over":
            break
        step_by_the_computer(state, clock)
    raise AssertionError(f"game {number} never reached that moment")


def open_at(page: Page, base: str, state) -> None:
    """Give the browser the cookie holding ``state`` and open the table."""
    from django.conf import settings
    from django.contrib.sessions.backends.signed_cookies import SessionStore

    from game.web.session import save

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
    copy.querySelectorAll("details:not([open]) > :not(summary)").forEach((el) => el.remove());
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


# -- what of each card in your hand can be seen, as the browser paints it ------------------------

VISIBLE_STRIPS = """sel => {
  const cards = [...document.querySelectorAll(sel)];
  const focused = cards.includes(document.activeElement) ? document.activeElement : null;
  // A focused card's outline and outer shadows paint beyond its box, where hit testing does
  // not see them: that band counts as covering whatever other card lies under it.
  let ring = null;
  if (focused) {
    const style = getComputedStyle(focused);
    let out = 0;
    if (style.outlineStyle !== "none") {
      out = parseFloat(style.outlineWidth) + parseFloat(style.outlineOffset);
    }
    const shadows = style.boxShadow === "none" ? [] : style.boxShadow.split(/,(?![^(]*\\))/);
    for (const shadow of shadows) {
      if (/inset/.test(shadow)) continue;
      const [x, y, blur = 0, spread = 0] = shadow.replace(/rgba?\\([^)]*\\)/, "")
        .match(/-?[\\d.]+px/g).map(parseFloat);
      out = Math.max(out, Math.max(Math.abs(x), Math.abs(y)) + blur + spread);
    }
    const r = focused.getBoundingClientRect();
    if (out > 0) {
      ring = {box: r, outer: {left: r.left - out, right: r.right + out,
                              top: r.top - out, bottom: r.bottom + out}};
    }
  }
  const inside = (r, x, y) => x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
  const step = 1;  // one sample at the centre of each pixel
  return cards.map(card => {
    const r = card.getBoundingClientRect();
    let widest = 0;
    for (const f of [0.25, 0.5, 0.75]) {
      const y = r.top + r.height * f;
      let seen = 0;
      // hit testing snaps boxes to whole pixels: look a pixel beyond the box on each side
      for (let x = Math.floor(r.left) - 0.5; x < Math.ceil(r.right) + 1; x += step) {
        const hit = document.elementFromPoint(x, y);
        if (!hit || !card.contains(hit)) continue;
        const inRing = ring && inside(ring.outer, x, y) && !inside(ring.box, x, y);
        if (inRing && card !== focused) continue;
        seen += step;
      }
      widest = Math.max(widest, seen);
    }
    return widest;
  });
}"""


def visible_strips(page: Page, cards: str = CARDS) -> list[float]:
    """The width in px of each card that can be seen (at a quarter, half and three quarters of
    its height, the widest of the three), sampled at each pixel's centre with elementFromPoint, so
    the z-order, transforms and the focused card are as the browser hit-tests and paints them."""
    return page.evaluate(VISIBLE_STRIPS, cards)


def walk_focus_across_hand(page: Page, cards: str = CARDS) -> list[tuple[str, list[float]]]:
    """Tab into the hand, Home, then ArrowRight to its last card: with each card focused in
    turn (and the focus ring showing, as by keyboard), the visible strip of every card."""
    page.locator("#menu-game-button").focus()
    page.keyboard.press("Tab")  # to the hand's one stop: the card it remembers
    assert page.locator(cards).evaluate_all("cs => cs.includes(document.activeElement)")
    page.keyboard.press("Home")
    seen = []
    count = page.locator(cards).count()
    for i in range(count):
        if i:
            page.keyboard.press("ArrowRight")
        focused = page.locator(cards).nth(i)
        expect(focused).to_be_focused()
        ring = focused.evaluate(
            "c => c.matches(':focus-visible') && getComputedStyle(c).outlineStyle === 'solid'"
            " && parseFloat(getComputedStyle(c).outlineWidth) >= 2"
        )
        assert ring, "the focused card shows no solid ring"
        seen.append((focused.get_attribute("value"), visible_strips(page, cards)))
    return seen


STRIP_SIZES = [(320, 568), (375, 667), (667, 375), (1024, 768), (1280, 800), (1920, 1080)]


AXE = REPO / "tests" / "vendor" / "axe-core-4.14.1.min.js"


# Rules we do not hold the page to, each with its reason. Empty: the page passes them all.
EXCEPTIONS: dict[str, str] = {}


RUN = """async () => {
  const result = await axe.run(document, { resultTypes: ["violations"] });
  return result.violations.map((v) => ({
    id: v.id,
    help: v.help,
    nodes: v.nodes.map((n) => n.target.join(" ")).slice(0, 5),
  }));
}"""


class Axe:
    def __init__(self, page: Page):
        self.page = page
        self.found: list[str] = []
        self.places: list[str] = []

    def check(self, where: str) -> None:
        if not self.page.evaluate("!!window.axe"):
            self.page.add_script_tag(path=str(AXE))
        self.places.append(where)
        for violation in self.page.evaluate(RUN):
            if violation["id"] not in EXCEPTIONS:
                found = f"{violation['id']} ({violation['help']}) at {violation['nodes']}"
                self.found.append(f"{where}: {found}")


def one_card_from_the_end(number: int):
    """Game ``number`` played by the computer's choices for you, up to your very last card."""
    from game import players
    from game.solo import actions
    from game.web.player import PlayerState

    def step(state: PlayerState, clock: actions.Clock) -> str:
        game = state.game
        if game.phase == "hand_over":
            actions.next_hand(state, clock)
            return "next"
        if game.phase == "passing" and not state.awaiting_ok:
            state.selected = players.choose_pass(game, 0)
            actions.pass_selected(state, clock)
            return "pass"
        if state.awaiting_ok:
            actions.accept(state, clock)
            return "accept"
        actions.play(state, players.choose_play(game, 0), clock)
        return "play"

    def fresh() -> PlayerState:
        state = PlayerState()
        state.options.name = "Ada"
        actions.start_game(state, number, actions.Clock())
        return state

    state, count = fresh(), 0
    while state.game.phase != "game_over":
        last = step(state, actions.Clock())
        count += 1
    assert last == "play"
    state = fresh()
    for _ in range(count - 1):
        step(state, actions.Clock())
    return state


DIALOG = "#dialogs #dialog-review"


def hand_played_high(number: int = 617):
    """Game ``number``'s first hand to its end, you passing as the hint does and always playing
    your highest legal card (costly now and then), the computers as ever."""
    from game import players
    from game.solo import actions
    from game.web.player import PlayerState

    state = PlayerState()
    state.options.name = "Ada"
    clock = actions.Clock()
    actions.start_game(state, number, clock)
    game = state.game
    state.selected = players.choose_pass(game, 0)
    actions.pass_selected(state, clock)
    actions.accept(state, clock)
    while state.game.phase == "playing":
        actions.play(state, state.game.legal_plays(0)[-1], clock)
    return state


# -- the page's Content-Security-Policy, as the browser enforces it ------------------------------

# Injected by Playwright before any of the page's own scripts: not part of the page, so not
# subject to its policy. It records every violation the browser reports to the document.
RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__csp.push(`${event.violatedDirective} blocked ${event.blockedURI || "inline"}`);
});
"""


class Watch:
    def __init__(self, page: Page):
        self.page = page
        self.console: list[str] = []
        self.requests: list[str] = []
        page.add_init_script(RECORD_VIOLATIONS)
        page.on("console", lambda message: self.console.append(message.text))
        page.on("request", lambda request: self.requests.append(request.url))

    def violations(self) -> list[str]:
        reported = self.page.evaluate("window.__csp || []")
        in_console = [text for text in self.console if "Content Security Policy" in text]
        return reported + in_console


def origin(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return parts.scheme, parts.netloc


# -- two people at a network table served as the Procfile serves it (their pages stream) --------

PLAYABLE = "#table .hand-form[action$='/play'] .card:not([aria-disabled='true'])"
# whether the hand waits for the table's drawing (a trick arriving, gathered) before it lights
HAND_WAITING = """() => { const h = document.querySelector('#table .hand');
  return !!h && h.getAnimations().some(a => a.animationName === 'wait-turn'
    && a.playState === 'running'); }"""


def one_step(page: Page, unless_waiting: bool = False, play: bool = True) -> bool:
    """Pass, accept or play what the page offers, if anything (always the first card), and
    whether it did; ``unless_waiting``: no card while the hand waits to light; ``play``: False
    to pass and accept only, never a card."""
    for selector in ("#pass-button:not([disabled])", "#table form.continue button.push"):
        if page.locator(selector).count():
            act(page, page.locator(selector))
            return True
    if page.locator("#table .hand-form[action$='/select']").count():
        act(page, page.locator("#table .hand .card:not(.raised)").first)
        return True
    if not play:
        return False
    if page.locator(PLAYABLE).count() and not (unless_waiting and page.evaluate(HAND_WAITING)):
        act(page, page.locator(PLAYABLE).first)
        return True
    return False


def dealer_and_friend(browser, base: str, deal, friend: str, **friend_options):
    """A dealer's page (``deal(page)`` makes the table and gives its link) and a friend's
    context and page, seated by the link at the prompt; the dealer then starts (F2)."""
    dealer = browser.new_context(base_url=base).new_page()
    friend_context = browser.new_context(base_url=base, **friend_options)
    page = friend_context.new_page()
    join_at_the_prompt(page, deal(dealer), friend)
    expect(dealer.locator(".net-seats")).to_contain_text(friend)
    dealer.keyboard.press("F2")
    return dealer, friend_context, page


# -- a whole solo game played by a person, three ways (the challenge's and Today's Deal's tests) ---

SHEET = "#table dialog.sheet"


def state_in(context: BrowserContext):
    """The solo state this browser's cookie holds: the game as this person played it."""
    from django.conf import settings

    from game.web.session import SessionStore, load

    cookie = next(c for c in context.cookies() if c["name"] == settings.SESSION_COOKIE_NAME)
    return load(SessionStore(session_key=cookie["value"]))


def game_over(page: Page) -> bool:
    return page.locator(f"{SHEET} .result").count() > 0


def play_to_the_end_by_mouse(page: Page, each_hand=None) -> None:
    while True:
        if page.locator("#pass-button").count():
            pass_by_mouse(page)
        expect(page.locator(STATUS)).to_have_text("Select a card to play.")
        for _ in range(13):
            act(page, page.locator(LIT).first)
        expect(page.locator(SHEET)).to_be_visible()
        if each_hand is not None:
            each_hand()
        if game_over(page):
            return
        click_button(page, "OK")


def play_to_the_end_without_javascript(page: Page) -> None:
    while True:
        if page.locator("#pass-button").count():
            for i in range(3):
                page.locator(CARDS).nth(i).click(position={"x": 6, "y": 24})
                expect(page.locator(f"{CARDS}.raised")).to_have_count(i + 1)
            page.locator("#pass-button").click()
            expect(page.locator(STATUS)).to_have_text("Press OK to accept cards.")
            page.get_by_role("button", name="OK", exact=True).click()
        for left in range(13, 0, -1):
            expect(page.locator(STATUS)).to_have_text("Select a card to play.")
            page.locator(LIT).first.click(position={"x": 6, "y": 24})
            expect(page.locator(CARDS)).to_have_count(left - 1)
        expect(page.locator(SHEET)).to_be_visible()
        if game_over(page):
            return
        page.locator(SHEET).get_by_role("button", name="OK").click()
        expect(page.locator(SHEET)).to_have_count(0)


def focus_a_lit_card(page: Page) -> None:
    """From the card in focus, Home then the right arrow until a card that may be played."""
    page.keyboard.press("Home")
    for _ in range(13):
        if page.evaluate("document.activeElement.getAttribute('aria-disabled') !== 'true'"):
            return
        page.keyboard.press("ArrowRight")
    raise AssertionError("no card may be played")


def play_to_the_end_by_keyboard(page: Page) -> None:
    while True:
        if page.locator("#pass-button").count():
            pass_by_keyboard(page, (1, 1))
        expect(page.locator(STATUS)).to_have_text("Select a card to play.")
        for _ in range(13):
            expect(page.locator(CARDS + ":focus")).to_have_count(1)
            focus_a_lit_card(page)
            keys(page, "Enter")
        expect(page.locator(f"{SHEET} button.push")).to_be_focused()
        if game_over(page):
            return
        keys(page, "Enter")  # OK deals the next hand, and the focus goes to the cards
        expect(page.locator(CARDS).first).to_be_focused()
