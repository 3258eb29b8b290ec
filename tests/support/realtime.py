"""Two real browsers at one network table, each playing the moment its page lets it (default
animation, no reduced motion), driven from inside the pages themselves so that no round trip
of the test slows a person down: what the real-time tests and the figures share."""

from __future__ import annotations

import contextlib
import os
import statistics
import subprocess
from pathlib import Path

from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.support.browser import STATUS, deal_by_the_game_menu, join_at_the_prompt
from tests.support.production import clean_env
from tests.support.push import HOST, Person, a_table_for_two, instance, site_env
from tools.server import REPO, free_port, healthy

HAND_TIMEOUT_MS = 90_000
CARDS_EACH = 13

# A played card's first moment on the table (in the centre, added to the page) into
# ``window.__seen``, each version the page's stream tells into ``window.__told``, and every
# stream the page opens into ``window.__sources``.
SEEN_AND_TOLD = """new MutationObserver(records => {
  const now = Date.now();
  for (const record of records) for (const node of record.addedNodes) {
    if (!node.querySelectorAll) continue;
    for (const el of [node, ...node.querySelectorAll('.center .played')]) {
      const face = [...el.classList].find(c => c.startsWith('face-'));
      if (el.matches('.center .played') && face && !(face.slice(5) in window.__seen))
        window.__seen[face.slice(5)] = now;
    }
  }
}).observe(document, {subtree: true, childList: true});
// ...and the moment it shows there: a card gliding in shows when its arrive animation starts
// (after the delay its tick sets); a card drawn already in place shows when it is added.
window.__shown = {};
const shownNow = el => {
  const face = [...el.classList].find(c => c.startsWith('face-'));
  if (face && !(face.slice(5) in window.__shown)) window.__shown[face.slice(5)] = Date.now();
};
document.addEventListener('animationstart', e => {
  if (e.animationName === 'arrive' && e.target.matches('.center .played')) shownNow(e.target);
});
new MutationObserver(records => {
  for (const record of records) for (const node of record.addedNodes) {
    if (!node.querySelectorAll) continue;
    for (const el of [node, ...node.querySelectorAll('.center .played')]) {
      if (!el.matches('.center .played')) continue;
      const moving = getComputedStyle(el).animationName.split(', ').includes('arrive');
      if (!moving) shownNow(el);
    }
  }
}).observe(document, {subtree: true, childList: true});
const Original = window.EventSource;
window.EventSource = class extends Original {
  constructor(url, options) {
    super(url, options);
    (window.__sources = window.__sources || []).push(this);
    this.addEventListener('table', e => window.__told.push(Number(e.data)));
    // a step's public part: its first line is "<version before> <version> <seat>"
    this.addEventListener('drawn', e => window.__told.push(Number(e.data.split(/[ \\n]/)[1])));
  }
};
"""

# In every page: each card's send (the moment the page lets it go: its form submitted), the
# first moment each card is on the table (a played card in the centre, added to the page), the
# versions streamed, and a player who presses whatever the page offers as soon as it may.
# ``window.__go`` starts the player; ``window.__silence_poll`` stops the page's timed poll, so
# that only the stream can bring the other person's moves.
PLAYER = (
    """
window.__go = false; window.__silence_poll = false;
window.__clicked = {}; window.__seen = {}; window.__told = [];
document.addEventListener('submit', e => {
  const card = e.submitter;
  if (card && card.matches('.hand .card') && e.target.matches('.hand-form[action$="/play"]'))
    window.__clicked[card.value] = Date.now();
});
document.addEventListener('htmx:beforeRequest', e => {
  const elt = e.detail.elt;
  if (window.__silence_poll && elt && elt.classList && elt.classList.contains('net-poll'))
    e.preventDefault();
}, true);
"""
    + SEEN_AND_TOLD
    + """window.__handOver = () => !!document.querySelector(
  '#table.phase-hand_over, #table.phase-game_over');
setInterval(() => {
  if (!window.__go || !window.htmx || document.readyState !== 'complete') return;
  if (window.__handOver()) return;
  // the page's own request is out, or its answer not yet settled (htmx has not taken the new
  // forms in hand: a click now would send the form as a page of its own)
  if (document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')) return;
  const one = s => document.querySelector(s);
  const button = one('#start-button') || one('#pass-button:not([disabled])');
  if (button) {
    button.click();
    return;
  }
  if (one("#table .hand-form[action$='/select']")) {
    const card = one('#table .hand .card:not(.raised)');
    if (card && document.querySelectorAll('#table .hand .card.raised').length < 3) card.click();
    return;
  }
  // a card the page lets go: hearts.js holds it back while the others' cards still arrive
  const lit = one("#table .hand-form[action$='/play'] .card:not([aria-disabled='true'])");
  if (lit) lit.click();
}, 5);
"""
)


def a_page(browser: Browser, port: int, script: str, reduced_motion: str = "reduce") -> Page:
    """A page in a browser context of its own at ``port``, with ``script`` run in every page
    before its own."""
    context = browser.new_context(base_url=f"http://{HOST}:{port}", reduced_motion=reduced_motion)
    context.set_default_timeout(30_000)
    context.add_init_script(script)
    return context.new_page()


def seated_page(
    browser: Browser, person: Person, port: int, script: str, reduced_motion: str = "reduce"
) -> Page:
    """``a_page`` holding ``person``'s cookies (a seat made over HTTP), on the table's page."""
    page = a_page(browser, port, script, reduced_motion)
    page.context.add_cookies(
        [
            {"name": name, "value": value, "url": f"http://{HOST}:{port}/t/"}
            for name, value in person.cookies.items()
        ]
    )
    page.goto(f"/t/{person.code}/")
    return page


def seated(browser: Browser, person: Person, port: int, reduced_motion: str = "no-preference"):
    """``seated_page`` with the player loaded (``PLAYER``), animated by default."""
    return seated_page(browser, person, port, PLAYER, reduced_motion)


@contextlib.contextmanager
def joined_by_the_link(browser: Browser, port: int):
    """Anna and Bea at a table as people get there: Anna deals it through the Game menu and
    reads its link on her page; Bea opens the link in a browser of her own and types her name
    at the prompt (her page, drawn without a seat, gains one by htmx). Both pages wait in the
    lobby, the player loaded (not started), animated by default. Yields (anna, bea)."""
    anna = a_page(browser, port, PLAYER, "no-preference")
    bea = a_page(browser, port, PLAYER, "no-preference")
    try:
        link = deal_by_the_game_menu(anna, "Anna")
        join_at_the_prompt(bea, link, "Bea")
        expect(bea.locator(STATUS)).to_have_text("Waiting for Anna to start the game...")
        yield anna, bea
    finally:
        anna.context.close()
        bea.context.close()


@contextlib.contextmanager
def listening_to_her_stream(browser: Browser, tmp_path: Path):
    """Anna and Bea at a started table on one instance: Anna a plain-HTTP person, Bea a page
    (the player loaded, not started) whose timed poll is silenced, once her stream has told her
    a version, so that only the stream brings Anna's moves. Yields (anna, bea, bea_http): the
    last is Bea's seat spoken to over plain HTTP (another tab of hers, whose selections her
    page is told of; Anna's are not)."""
    env = site_env(tmp_path)
    with instance(env, tmp_path, "a") as server:
        anna, bea_person = a_table_for_two(server.port, ("Anna", "Bea"))
        anna.act("start")
        bea = seated(browser, bea_person, server.port)
        bea.evaluate("() => { window.__silence_poll = true; }")
        bea.wait_for_function("() => window.__told.length > 0")
        yield anna, bea, bea_person


def play_a_hand(pages: list[Page], silence_poll: bool = False) -> None:
    """Let both pages play until the hand is over (every page shows its end)."""
    for page in pages:
        page.evaluate("s => { window.__silence_poll = s; }", silence_poll)
    for page in pages:
        page.evaluate("() => { window.__go = true; }")
    for page in pages:
        try:
            page.wait_for_function("() => window.__handOver()", timeout=HAND_TIMEOUT_MS)
        except PlaywrightTimeout:
            raise AssertionError(f"the hand stopped: {[state(p) for p in pages]}") from None


def state(page: Page) -> dict:
    """Where a page stands: the version drawn, the newest told, what it is doing."""
    return page.evaluate(
        """() => ({
          drawn: document.querySelector('#table .net-poll')?.dataset.version,
          told: Math.max(0, ...window.__told),
          phase: document.querySelector('#table')?.className,
          out: document.querySelectorAll('.htmx-request').length,
          status: document.querySelector('#status')?.textContent.trim(),
        })"""
    )


def arrivals(sender: Page, receiver: Page, moment: str = "__seen") -> list[float]:
    """For each card ``sender``'s person played, the ms from its send until it was in
    ``receiver``'s page (``__seen``: added to it; ``__shown``: showing on its table, its
    animation's delay over), cards not seen there left out: the caller counts them."""
    clicked = sender.evaluate("() => window.__clicked")
    seen = receiver.evaluate(f"() => window.{moment}")
    return [seen[card] - at for card, at in clicked.items() if card in seen]


def summary(latencies: list[float]) -> str:
    """Latencies in ms as one line: how many, mean, median, p95 and the worst."""
    ordered = sorted(latencies)
    if not ordered:
        return "n=0"
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return (
        f"n={len(ordered)} mean {statistics.mean(ordered):.0f} ms, "
        f"median {statistics.median(ordered):.0f} ms, p95 {p95:.0f} ms, max {ordered[-1]:.0f} ms"
    )


@contextlib.contextmanager
def bin_serve(tmp: Path):
    """``bash bin/serve`` as the README starts it (its own SQLite file, a free port), until
    /healthz answers; stopped afterwards."""
    import signal
    import time

    port = free_port()
    env = clean_env(DATABASE_URL=f"sqlite:///{tmp / 'db.sqlite3'}")
    env.pop("DJANGO_SETTINGS_MODULE", None)  # bin/serve as a person runs it
    log = (tmp / "serve.log").open("wb")
    process = subprocess.Popen(
        ["bash", "bin/serve", f"{HOST}:{port}"],
        cwd=REPO,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while not healthy(port):
            assert process.poll() is None, (tmp / "serve.log").read_text()
            assert time.monotonic() < deadline, (tmp / "serve.log").read_text()
            time.sleep(0.1)
        yield port
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()


def measure(browser: Browser, port: int, label: str) -> None:
    """Anna deals by the Game menu, Bea joins by the link at the prompt, and both play the first
    hand as fast as their pages let them (timed polls on, as a person's page has them)."""
    with joined_by_the_link(browser, port) as (anna, bea):
        play_a_hand([anna, bea])
        to_bea, to_anna = arrivals(anna, bea), arrivals(bea, anna)
        print(f"\n{label}: Anna's cards -> Bea's page: {summary(to_bea)}")
        print(f"{label}: Bea's cards -> Anna's page: {summary(to_anna)}")
        print(f"{label}: both ways: {summary(to_bea + to_anna)}")
        shown = arrivals(anna, bea, "__shown") + arrivals(bea, anna, "__shown")
        print(f"{label}: each card showing on the other's table: {summary(shown)}")
        assert len(to_bea) == len(to_anna) == CARDS_EACH  # every card of each reached the other
