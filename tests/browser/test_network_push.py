"""A network table in real time, in Chromium, against gunicorn as the Procfile runs it: each
page streams its table's versions and fetches what came after its own.

The first test measures, for every card one person plays, the time from the click in that
person's page until the card is in the other person's page, pushed and then with the stream
refused (the page falls back to polling): it prints both and asserts only that every card
arrived. The second puts two instances behind a router: a move made through one appears on a
page streaming from the other, and when that instance dies the page reconnects to the first
and catches up from its version."""

from __future__ import annotations

import itertools
import os
import re
import signal
import time

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from game.engine import Card
from tests.support.browser import after
from tests.support.push import (
    LIT_IN_PLAY,
    ON_THE_TABLE,
    Person,
    Router,
    a_table_for_two,
    act_as_asked,
    hand_of,
    instance,
    site_env,
    version_of,
)
from tests.support.realtime import SEEN_AND_TOLD, seated_page, summary

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYS_MEASURED = 26  # two hands' cards of one person
ARRIVAL_TIMEOUT_MS = 30_000
# a card Ada's page lets her play: a form playing it, never the passing's (a page swapped between
# two looks, from a hand's end to the next one's passing, must not have a card selected for the
# pass taken for a card played: CI saw Bea wait for a 2C that Ada had only selected)
LIT = "#table .hand-form[action$='/play'] .card:not([aria-disabled='true'])"

# In every page: the wall-clock time of each click on a card, the first time each card is put
# on the table (a played card in the centre, added to the page), and each version streamed.
WATCH = (
    """
window.__clicked = {}; window.__seen = {}; window.__told = [];
document.addEventListener('click', e => {
  const card = e.target.closest && e.target.closest('.hand .card');
  if (card) window.__clicked[card.value] = Date.now();
}, true);
"""
    + SEEN_AND_TOLD
)


def click(page: Page, locator) -> None:
    before = page.locator("#table").get_attribute("data-seq")
    height = locator.bounding_box()["height"]
    locator.click(position={"x": 6, "y": height - 8})
    after(page, before)


def step(page: Page) -> str:
    """Do what this page asks of its person now: the card played, "acted", or "" (nothing)."""
    for selector in (
        "#start-button",
        "#table dialog.sheet button.push",
        "#table form.continue button.push",
        "#pass-button:not([disabled])",
    ):
        found = page.locator(selector)
        if found.count():
            before = page.locator("#table").get_attribute("data-seq")
            found.first.click()
            after(page, before)
            return "acted"
    if page.locator("#table .hand-form[action$='/select']").count():
        click(page, page.locator("#table .hand .card:not(.raised)").first)
        return "acted"
    lit = page.locator(LIT)
    if lit.count():
        card = lit.first.get_attribute("value")
        click(page, page.locator(f"{LIT}[value='{card}']"))  # that card, played
        return card
    return ""


# What a page shows of its table: the version drawn, the newest the stream told, the cards in
# the centre and what was seen there; said when a card does not arrive, so that a failure says
# which page was behind and how.
STATE = """() => {
  const table = document.querySelector('#table');
  const poll = document.querySelector('#table .net-poll');
  return {version: poll && poll.dataset.version, told: (window.__told || []).slice(-6),
    phase: table && table.className, seen: Object.keys(window.__seen || {}),
    centre: [...document.querySelectorAll('#table .center .played')].map(c => c.className)};
}"""


def wait_until_seen(bea: Page, ada: Page, card: str) -> None:
    try:
        bea.wait_for_function("c => c in window.__seen", arg=card, timeout=ARRIVAL_TIMEOUT_MS)
    except PlaywrightTimeout:
        raise AssertionError(
            f"{card} played by Ada never reached Bea's page: Bea {bea.evaluate(STATE)}, "
            f"Ada {ada.evaluate(STATE)}"
        ) from None


def play_and_measure(ada: Page, bea: Page, plays: int) -> list[float]:
    """Both play what their pages ask until Ada has played ``plays`` cards; for each of hers,
    the milliseconds from her click until the card is in Bea's page."""
    latencies: list[float] = []
    idle_since = time.monotonic()
    while len(latencies) < plays:
        bea.evaluate("() => { window.__seen = {}; }")  # a card's code comes back each hand
        card = step(ada)
        if card and card != "acted":
            wait_until_seen(bea, ada, card)
            clicked = ada.evaluate("c => window.__clicked[c]", card)
            latencies.append(bea.evaluate("c => window.__seen[c]", card) - clicked)
        acted = bool(card) or bool(step(bea))
        if acted:
            idle_since = time.monotonic()
        else:
            assert time.monotonic() - idle_since < 60, "nobody could act for a minute"
            ada.wait_for_timeout(20)
    return latencies


def test_a_card_played_reaches_the_other_page_pushed_and_polled(browser: Browser, tmp_path):
    env = site_env(tmp_path)
    results = {}
    with instance(env, tmp_path, "a") as server:
        for mode in ("push", "poll"):
            ada_person, bea_person = a_table_for_two(server.port)
            ada = seated_page(browser, ada_person, server.port, WATCH)
            bea = seated_page(browser, bea_person, server.port, WATCH)
            if mode == "poll":  # no stream can be opened: the pages poll every two seconds
                for page in (ada, bea):
                    page.context.route("**/events", lambda route: route.abort())
                    page.reload()
            else:
                for page in (ada, bea):
                    page.wait_for_function("() => window.__told.length > 0")
            latencies = play_and_measure(ada, bea, PLAYS_MEASURED)
            results[mode] = latencies
            told = bea.evaluate("() => window.__told")
            if mode == "push":
                assert len(told) > PLAYS_MEASURED  # the versions came down the stream
            else:
                assert told == []
            assert len(latencies) == PLAYS_MEASURED  # every card arrived
            ada.context.close()
            bea.context.close()
    for mode, latencies in results.items():
        print(f"click -> card in the other page, {mode}: {summary(latencies)}")


def told(page: Page) -> list[int]:
    return page.evaluate("() => window.__told")


def test_a_page_streams_from_one_instance_then_from_the_other_when_it_dies(
    browser: Browser, tmp_path
):
    env = site_env(tmp_path)
    with instance(env, tmp_path, "a") as first, instance(env, tmp_path, "b") as second:
        router = Router([second.port, first.port])  # B while it lives, then A
        try:
            ada, bea_person = a_table_for_two(first.port)
            bea = seated_page(browser, bea_person, router.port, WATCH)
            bea.wait_for_function("() => window.__told.length > 0")
            assert set(router.sent_to) == {second.port}
            # a move through A: told on the stream B serves, and drawn
            version = version_of(ada.act("start"))
            bea.wait_for_function("v => window.__told.includes(v)", arg=version)
            expect(bea.locator("#table")).to_have_class("table phase-passing")
            expect(bea.locator("#table .net-poll")).to_have_attribute("data-version", str(version))
            # B dies with the stream open; Ada goes on through A
            for pid in [*second.worker_pids(), second.process.pid]:
                os.kill(pid, signal.SIGKILL)
            second.process.wait()
            for _ in range(3):
                version = version_of(ada.act("select", card=hand_of(ada)[0]))
            version = version_of(ada.act("pass"))
            # the page reconnected through the router to A, and caught up from its version
            bea.wait_for_function("v => window.__told.includes(v)", arg=version, timeout=30_000)
            expect(bea.locator("#table .net-poll")).to_have_attribute("data-version", str(version))
            assert router.sent_to[-1] == first.port
            # and plays on there: Bea's pass reaches Ada at A
            for _ in range(4):  # three cards and Pass
                assert step(bea) == "acted"
            assert "/accept" in ada.table()  # Ada is offered her received cards
        finally:
            router.close()
            bea.context.close()


def test_with_its_stream_open_a_page_still_offers_the_replace_button_when_it_falls_due(
    browser: Browser, tmp_path
):
    """Nothing is saved when the idle limit passes, so nothing is pushed: the page asks at the
    time its poll was told (the button's due time), although its stream is open."""
    env = site_env(tmp_path, HEARTS_IDLE_SECONDS="4")
    with instance(env, tmp_path, "a") as server:
        ada_person, bea_person = a_table_for_two(server.port)
        ada_person.act("start")
        ada = seated_page(browser, ada_person, server.port, WATCH)
        ada.wait_for_function("() => window.__told.length > 0")
        asked: list[str] = []
        ada.on("request", lambda request: asked.append(request.url))
        button = ada.get_by_role("button", name="Let a computer play for Bea")
        expect(button).to_have_count(0)
        expect(button).to_be_visible(timeout=15_000)  # Bea has not passed for 4 s
        polls = [url for url in asked if "/poll?" in url]
        assert 1 <= len(polls) <= 2, polls  # not one every two seconds: the stream is open
        assert ada.evaluate("() => window.__told.length") == 1  # and nothing was pushed
        ada.context.close()


def test_a_page_behind_its_stream_waits_longer_after_each_204_before_asking_again(
    browser: Browser, tmp_path
):
    """A busy process puts a poll off (204, ``Hearts-Poll: later``): a page its stream told of
    a newer version asks again 50 ms on, then after twice as long each time up to two seconds,
    not at once in a loop that would press on the busy process (it made 265 requests in 3 s);
    when the answer comes, the table is drawn."""
    env = site_env(tmp_path)
    with instance(env, tmp_path, "a") as server:
        ada, bea_person = a_table_for_two(server.port)
        bea = seated_page(browser, bea_person, server.port, WATCH)
        bea.wait_for_function("() => window.__told.length > 0")
        asked: list[float] = []

        def put_off(route) -> None:
            asked.append(time.monotonic())
            route.fulfill(status=204, headers={"Cache-Control": "no-store", "Hearts-Poll": "later"})

        polls = re.compile(r"/poll\?")
        bea.route(polls, put_off)
        version = version_of(ada.act("start"))
        bea.wait_for_function("v => window.__told.includes(v)", arg=version)
        # seven asks: six waits, 50 ms doubled up to 1.6 s (a slow machine only lengthens them)
        deadline = time.monotonic() + 60
        while len(asked) < 7:
            assert time.monotonic() < deadline, f"{len(asked)} polls in 60 s"
            bea.wait_for_timeout(50)  # lets Playwright run the route handler meanwhile
        gaps = [b - a for a, b in itertools.pairwise(asked)]
        assert all(gap >= 0.04 * 2**k for k, gap in enumerate(gaps[:6])), gaps  # 50 ms, doubled
        bea.unroute(polls)
        expect(bea.locator("#table .net-poll")).to_have_attribute(
            "data-version", str(version), timeout=10_000
        )
        expect(bea.locator("#table")).to_have_class("table phase-passing")
        bea.context.close()


def three_to_adas_turn(port: int) -> tuple[Person, Person, Person]:
    """Ada, Bea and Cleo (seats 0, 1 and 2) at a table with a computer, played over HTTP to
    Ada's turn with a trick taken already, to lead or to play second: Bea plays after her, and
    Cleo after Bea (neither card ends the trick)."""
    ada, bea = a_table_for_two(port)
    cleo = Person("Cleo", port)
    cleo.join(ada.code)
    ada.act("start")
    for _ in range(300):
        html = ada.table()
        ready = LIT_IN_PLAY.search(html) and 'id="trick-pile"' in html
        if ready and "Select a card to play." in html and len(ON_THE_TABLE.findall(html)) < 2:
            return ada, bea, cleo
        if any(act_as_asked(person) for person in (ada, bea, cleo)):
            continue
        # the deal is secret: a hand may end before that turn comes (its points all taken
        # early); everyone presses OK, and the next hand is played to it
        waiting = [person for person in (ada, bea, cleo) if '/next"' in person.table()]
        assert waiting, html[-800:]
        for person in waiting:
            person.act("next")
    raise AssertionError("never Ada's turn with a trick taken")


def test_a_page_that_only_watched_a_move_draws_it_from_its_stream_without_a_fetch(
    browser: Browser, tmp_path
):
    """Ada, Bea and Cleo (seats 0, 1 and 2) and a computer: when Ada plays and Bea's turn
    comes, Cleo's page is sent the step's public part by its stream, turns it to its own seat
    and draws it: Ada's card across the table from Cleo, Bea's hand counted on her right, Cleo's
    own hand as it was; Bea's page is sent it with her hand lit; neither asks the server
    anything for it, and both go on playing through what they drew."""
    env = site_env(tmp_path)
    with instance(env, tmp_path, "a") as server:
        ada, bea, cleo = three_to_adas_turn(server.port)
        page = seated_page(browser, cleo, server.port, WATCH)
        beas = seated_page(browser, bea, server.port, WATCH)
        for each in (page, beas):
            each.wait_for_function("() => window.__told.length > 0")
        since = version_of(page.content())
        focused = page.locator("#table .hand .card").nth(2)
        focused.focus()  # a person reading their hand by the keyboard meanwhile
        kept = focused.get_attribute("value")
        hand = page.locator("#table #hand").inner_html()
        seq = page.locator("#table").get_attribute("data-seq")
        asked: list[str] = []
        page.on("request", lambda request: asked.append(request.url))
        beas.on("request", lambda request: asked.append(request.url))
        card = LIT_IN_PLAY.search(ada.table()).group(1)
        version = version_of(ada.act("play", card=card))
        for each in (page, beas):
            poll = each.locator("#table .net-poll")
            expect(poll).to_have_attribute("data-version", str(version))
        assert not [url for url in asked if f"/t/{ada.code}/" in url], asked  # nothing fetched
        assert version > since
        # Bea's turn came: her hand lit from her stream, and her card goes with her own token
        expect(beas.locator("#status .status-line")).to_have_text("Select a card to play.")
        expect(beas.locator(LIT).first).to_be_visible(timeout=ARRIVAL_TIMEOUT_MS)
        expect(beas.locator(f"#table .center .played.face-{card}")).to_have_class(
            re.compile(r"\bat-right\b")  # Ada plays just before Bea: on her right
        )
        # turned to Cleo's seat: Ada's card across the table, Ben on her left, Bea on her right
        played = page.locator(f"#table .center .played.face-{card}")
        expect(played).to_have_class(re.compile(r"\bat-top\b"))
        expect(played).to_have_attribute("aria-label", re.compile(r"^Ada: "))
        seats = page.locator("#table section.seat:not(#hand)")
        expect(seats).to_have_count(3)
        assert [seats.nth(i).get_attribute("class") for i in range(3)] == [
            "seat seat-left",
            "seat seat-top",
            "seat seat-right",
        ]
        expect(seats.nth(0)).to_have_attribute("aria-label", re.compile(r"^Ben \(a computer"))
        expect(seats.nth(2)).to_have_attribute("aria-label", re.compile(r"^Bea, \d+ cards?$"))
        assert page.locator("#table #hand").inner_html() == hand
        assert page.evaluate("() => document.activeElement.value") == kept  # focus kept there
        assert page.locator("#table").get_attribute("data-seq") == seq
        expect(page.locator("#status .status-line")).to_have_text("Waiting for Bea to move...")
        assert page.locator("#table [data-you], #table [class*='-s']").count() == 0
        played = step(beas)
        assert played not in ("", "acted")
        expect(beas.locator("#status .status-line")).not_to_have_class(re.compile("refusal"))
        # and Cleo's page, its turn come from Bea's card, plays through the page it drew
        lit = page.locator(LIT)
        expect(lit.first).to_be_visible(timeout=ARRIVAL_TIMEOUT_MS)
        assert step(page) not in ("", "acted")
        expect(page.locator("#status .status-line")).not_to_have_class(re.compile("refusal"))
        page.context.close()
        beas.context.close()


def test_a_public_part_that_comes_while_the_page_fetches_is_left_for_the_fetch(
    browser: Browser, tmp_path
):
    """Cleo's page has a fetch of its own out (held back here until after the move) when Ada's
    card comes down its stream as the public part: the page does not swap it in under its
    fetch; the fetch's answer, drawn after the move, brings the card, and the page is left at
    the newest version with nothing fetched twice."""
    env = site_env(tmp_path)
    with instance(env, tmp_path, "a") as server:
        ada, _, cleo = three_to_adas_turn(server.port)
        page = seated_page(browser, cleo, server.port, WATCH)
        page.wait_for_function("() => window.__told.length > 0")
        since = version_of(page.content())
        page.evaluate(
            """() => { window.__swaps = [];
            document.addEventListener('htmx:afterSwap', e => {
              if (e.target.id === 'table')  // (once a swap: not for its out-of-band parts)
                window.__swaps.push(e.detail.xhr ? 'fetched' : 'streamed');
            }); }"""
        )
        held: list = []
        page.route(re.compile(r"/poll\?"), lambda route: held.append(route))
        page.evaluate(  # not awaited here: its answer is held until after the move
            """() => { htmx.ajax('GET',
                document.querySelector('#table .net-poll').getAttribute('hx-get'),
                {source: '#table', target: '#table', swap: 'outerHTML'}); }"""
        )
        page.wait_for_function("() => !!document.querySelector('#table.htmx-request')")
        while not held:
            page.wait_for_timeout(20)
        drawn: list[str] = []
        page.on("console", lambda message: drawn.append(message.text))
        page.evaluate(
            """() => window.__sources.at(-1).addEventListener('drawn',
                e => console.log('drawn ' + e.data.split('\\n')[0]))"""
        )
        card = LIT_IN_PLAY.search(ada.table()).group(1)
        version = version_of(ada.act("play", card=card))
        deadline = time.monotonic() + 30
        while not drawn:
            assert time.monotonic() < deadline, "no public part came"
            page.wait_for_timeout(20)
        assert drawn[0].startswith(f"drawn {since} {version} 2 "), drawn
        page.wait_for_timeout(300)  # time enough to have swapped it, had it been taken
        assert page.evaluate("() => window.__swaps") == []
        held[0].continue_()  # the fetch, answered now: after the move
        page.unroute(re.compile(r"/poll\?"))
        poll = page.locator("#table .net-poll")
        expect(poll).to_have_attribute("data-version", str(version))
        expect(page.locator(f"#table .center .played.face-{card}")).to_have_count(1)
        page.wait_for_timeout(300)
        assert page.evaluate("() => window.__swaps") == ["fetched"]
        page.context.close()


def test_the_movers_own_card_comes_back_as_the_step_turned_by_its_page(browser: Browser, tmp_path):
    """Ada plays her cards in her page as a person does (a click on a lit card): the answer
    to each is the step the move drew for the watching pages with her own part beside it
    (``Hearts-Drawn: mover``), which her page turns to her: her card on the table where she
    put it (no glide), her hand a card shorter, her own sentence in the live region, no
    waiting for herself on the status bar, her action count and the new version in place."""
    env = site_env(tmp_path)
    with instance(env, tmp_path, "a") as server:
        ada_person, bea_person = a_table_for_two(server.port)
        ada_person.act("start")
        ada = seated_page(browser, ada_person, server.port, WATCH)
        bea = seated_page(browser, bea_person, server.port, WATCH)
        for page in (ada, bea):
            page.wait_for_function("() => window.__told.length > 0")
        turned = 0
        for _ in range(400):
            if turned >= 6:
                break
            lit = ada.locator(LIT)
            if not lit.count() or not ada.locator("#table.phase-playing").count():
                if not step(bea) and not step(ada):
                    ada.wait_for_timeout(20)
                continue
            card = lit.first.get_attribute("value")
            seq = int(ada.locator("#table").get_attribute("data-seq"))
            with ada.expect_response(lambda r: r.url.endswith("/play")) as answered:
                click(ada, lit.first)
            answer = answered.value
            if answer.headers.get("hearts-drawn") != "mover":
                continue  # no step for the page's version (the hand's end): the whole table
            version = int(answer.text().split(" ", 2)[1])
            table = ada.locator("#table")
            assert int(table.get_attribute("data-seq")) == seq + 1
            assert int(ada.locator("#table .net-poll").get_attribute("data-version")) == version
            played = ada.locator(f"#table .center .played.at-bottom.face-{card}")
            expect(played).to_have_count(1)
            assert "arrive" not in played.get_attribute("class")
            expect(ada.locator(f"#table .hand .card[value='{card}']")).to_have_count(0)
            said = ada.locator("#status .vh").text_content()
            assert f"You play the {Card.parse(card).name}." in said, said
            assert "Ada plays" not in said, said
            steps = ada.locator("#status .status-step").all_text_contents()
            assert not [s for s in steps if "Ada" in s], steps
            turned += 1
        assert turned >= 6
        ada.context.close()
        bea.context.close()
