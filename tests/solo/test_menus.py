"""Through the Django test client: every dialog (as an htmx fragment and as a page of
its own), numbered games, options, statistics, undo, hint and exit, and each refusal."""

from __future__ import annotations

import html
import re
import tomllib

import pytest

import game
from game import players
from game.engine import Game
from game.names import TOO_LONG
from game.solo import actions
from game.web import table
from game.web.player import PlayerState, Stats
from tests.support import REPO, hints
from tests.support.browser import played_until
from tests.support.web import (
    HX,
    card_a_computer_takes,
    hint_of,
    state_of,
    store,
    winning_card,
)

DIALOGS = {
    "/help": "dialog-help",
    "/quote": "dialog-quote",
    "/about": "dialog-about",
    "/score": "dialog-score",
    "/options": "dialog-options",
    "/stats": "dialog-stats",
    "/stats/reset": "dialog-stats-reset",
    "/select-game": "dialog-select-game",
    "/game/617/": "dialog-open-game",
}


# -- helpers -----------------------------------------------------------------------------------


def named(client, number: int = 617) -> PlayerState:
    """A player called Ann at the start of game ``number``."""
    state = PlayerState()
    state.options.name = "Ann"
    actions.start_game(state, number, actions.Clock())
    store(client, state)
    return state


def playing(client, number: int = 617) -> PlayerState:
    """Game ``number`` after the pass, waiting for your first card."""
    state = named(client, number)
    clock = actions.Clock()
    state.selected = players.choose_pass(state.game, 0)
    actions.pass_selected(state, clock)
    actions.accept(state, clock)
    store(client, state)
    return state


def text(response) -> str:
    return response.content.decode()


def table_number(response) -> int:
    return int(re.search(r"Hearts - Game #(\d+)", text(response)).group(1))


# -- the menu bar ------------------------------------------------------------------------------


def test_menu_bar_has_the_aria_roles_and_every_item(client):
    named(client)
    page = text(client.get("/"))
    assert page.count('role="menubar"') == 1
    assert page.count('role="menu"') == 2
    for item in (
        "New Game",
        "Select Game...",
        "Score...",
        "Options...",
        "Statistics...",
        "Undo Card",
        "Hint",
        "Exit",
        "Help Contents",
        "Quote...",
        "About Hearts",
    ):
        assert re.search(r'role="menuitem"[^>]*>' + re.escape(item), page), item
    for key in ("F1", "F2", "F3", "F4", "F5", "Control+Z", "H", "Alt+G", "Alt+H"):
        assert f'aria-keyshortcuts="{key}"' in page
    # without JavaScript every item is a link or a form to a page of its own
    for url in ("/new", "/select-game", "/score", "/options", "/stats", "/exit", "/help"):
        assert f'href="{url}"' in page
    for url in ("/undo", "/hint"):
        assert f'action="{url}"' in page


# -- dialogs: a fragment for htmx, a page of their own without JavaScript ---------------------


@pytest.mark.parametrize(("url", "dialog_id"), DIALOGS.items())
def test_each_dialog_is_a_fragment_for_htmx(client, url, dialog_id):
    named(client)
    response = client.get(url, **HX)
    assert response.status_code == 200
    body = text(response).strip()
    assert body.startswith("<dialog") and body.endswith("</dialog>")
    assert f'id="{dialog_id}"' in body
    assert " open" not in body.split(">", 1)[0]  # hearts.js opens it with showModal()
    assert "<html" not in body
    assert "HX-Request" in response["Vary"]


@pytest.mark.parametrize(("url", "dialog_id"), DIALOGS.items())
def test_each_dialog_is_a_page_of_its_own(client, url, dialog_id):
    named(client)
    response = client.get(url)
    assert response.status_code == 200
    page = text(response)
    assert page.startswith("<!doctype html>")
    assert re.search(rf'<dialog [^>]*id="{dialog_id}"[^>]*open', page)
    assert 'id="table"' in page  # over the table, which stays as it was
    assert "<script>" not in page and "style=" not in page and "hx-on" not in page


def test_dialog_pages_change_nothing(client):
    before = named(client)
    for url in DIALOGS:
        client.get(url)
        client.get(url, **HX)
    after = state_of(client)
    assert after.game == before.game and after.seq == before.seq


def test_help_explains_rules_keys_and_our_additions(client):
    named(client)
    page = text(client.get("/help", **HX))
    for words in ("two of clubs", "queen of spades", "Shooting the moon", "100"):
        assert words in page
    for key in ("F1", "F2", "F3", "F4", "F5", "Ctrl+Z", "H", "Enter", "Alt+G, Alt+H", "Esc"):
        assert f'<th scope="row">{key}</th>' in page
    additions = page.split("<h2>Our additions</h2>", 1)[1]
    assert "we added them" in additions
    assert "and says why in a sentence or two" in additions  # the hint's reasons (issue 45)
    for words in ("Numbered games", "reload", "Statistics", "Undo Card", "Hint", "26 off"):
        assert words in additions


def test_quote_and_about(client):
    named(client)
    quote = text(client.get("/quote", **HX))
    assert "I come not, friends, to steal away your hearts..." in quote
    assert "Julius Caesar, Act III, scene ii" in quote
    about = text(client.get("/about", **HX))
    assert f"version {game.__version__}" in about
    for words in ("Adrian Kennard", "CC0", "htmx 2.0.11", "0BSD"):
        assert words in about


def test_version_is_the_project_version():
    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert game.__version__ == project["project"]["version"]


def test_score_sheet_on_demand(client):
    state = playing(client)
    assert "No hand has been finished yet." in text(client.get("/score", **HX))
    clock = actions.Clock()
    while state.game.phase == "playing":
        actions.play(state, players.choose_play(state.game, 0), clock)
    store(client, state)
    sheet = text(client.get("/score", **HX))
    row = state.game.history[0]
    cells = "".join(f"<td>{points}<i>{points}</i></td>" for points in row)
    assert f'<th scope="row">1</th>{cells}' in sheet
    assert "Game #617, hand 1." in sheet


# -- numbered games -----------------------------------------------------------------------------


@pytest.mark.parametrize("sent", ["0", "1000001", "-5", "abc", "", "6.5"])
def test_select_game_refuses_numbers_out_of_range(client, sent):
    before = named(client, 12)
    response = client.post("/select-game", {"number": sent}, **HX)
    assert response.status_code == 200  # htmx 2 swaps only 2xx
    assert response["HX-Retarget"] == "#dialogs"
    assert response["HX-Reswap"] == "innerHTML"
    assert "Choose a game number from 1 to 1,000,000." in text(response)
    assert 'id="dialog-select-game"' in text(response)
    plain = client.post("/select-game", {"number": sent})
    assert plain.status_code == 200
    assert "Choose a game number from 1 to 1,000,000." in text(plain)
    assert state_of(client).game == before.game


@pytest.mark.parametrize("sent", ["1", "617", "1,000,000", " #42 "])
def test_select_game_starts_that_game(client, sent):
    named(client, 12)
    response = client.post("/select-game", {"number": sent}, **HX)
    assert response.status_code == 200
    number = int(sent.replace(",", "").strip(" #"))
    assert table_number(response) == number
    assert '<div id="dialogs" hx-swap-oob="innerHTML"></div>' in text(response)
    assert state_of(client).game == Game.new(number)


def test_select_game_without_javascript_redirects_to_the_table(client):
    named(client, 12)
    response = client.post("/select-game", {"number": "617"})
    # the table right after the action, at the game's own address (issue 40)
    assert response.status_code == 303 and response["Location"] == "/#617"
    assert table_number(client.get("/")) == 617


def test_leaving_a_game_in_progress_counts_it_lost(client):
    playing(client, 12)
    assert "will count as played and lost" in text(client.get("/select-game", **HX))
    client.post("/select-game", {"number": "617"})
    stats = state_of(client).stats
    assert (stats.played, stats.won, stats.streak) == (1, 0, -1)


def test_open_game_link_asks_only_when_a_game_is_in_progress(client):
    before = named(client, 12)
    fresh = text(client.get("/game/617/", **HX))
    assert 'data-ask="no"' in fresh and "Start game #617?" in fresh
    playing(client, 12)
    asked = text(client.get("/game/617/", **HX))
    assert 'data-ask="yes"' in asked
    assert "Abandon game #12 and start game #617?" in asked
    assert 'action="/game/617/"' in asked and 'method="post"' in asked
    assert state_of(client).game.number == before.game.number  # a GET changes nothing


def test_open_game_post_starts_it(client):
    playing(client, 12)
    response = client.post("/game/617/", **HX)
    assert table_number(response) == 617
    assert 'hx-swap-oob="innerHTML"' in text(response)
    plain = client.post("/game/618/")
    assert plain.status_code == 303
    assert state_of(client).game == Game.new(618)


@pytest.mark.parametrize("number", ["0", "1000001", "abc"])
def test_open_game_refuses_bad_numbers(client, number):
    before = named(client, 12)
    for response in (client.get(f"/game/{number}/", **HX), client.post(f"/game/{number}/")):
        assert response.status_code == 200
        assert "Choose a game number from 1 to 1,000,000." in text(response)
    assert state_of(client).game == before.game


def test_new_game_picks_a_number_at_random(client):
    named(client, 12)
    numbers = {table_number(client.post("/new", **HX)) for _ in range(5)}
    assert len(numbers) > 1
    assert all(1 <= n <= 1_000_000 for n in numbers)


# -- options ------------------------------------------------------------------------------------


def test_options_dialog_shows_the_current_options(client):
    state = named(client)
    state.options.speed = "fast"
    state.options.message_boxes = True
    store(client, state)
    page = text(client.get("/options", **HX))
    assert 'value="Ann"' in page
    assert 'value="fast" checked' in page
    assert 'name="message_boxes" value="1" checked' in page
    assert 'name="sheet_after_hand" value="1" checked' in page
    assert re.search(r'name="moon_off_shooter" value="1" aria-describedby="moon-note">', page)
    assert "generic variant" in page and "applies from the next game" in page


def test_options_are_saved_and_the_moon_rule_waits_for_the_next_game(client):
    named(client, 12)
    form = {
        "name": "  Bea  ",
        "speed": "none",
        "message_boxes": "1",
        "moon_off_shooter": "1",
    }
    response = client.post("/options", form, **HX)
    assert response.status_code == 200 and response["HX-Refresh"] == "true"
    state = state_of(client)
    assert state.options.name == "Bea"
    assert state.options.speed == "none"
    assert state.options.message_boxes is True
    assert state.options.sheet_after_hand is False
    assert state.options.moon_off_shooter is True
    assert state.game.moon_off_shooter is False  # not in the game already dealt
    assert 'class="speed-none"' in text(client.get("/"))
    client.post("/new")
    assert state_of(client).game.moon_off_shooter is True


def test_options_without_javascript_redirect(client):
    named(client)
    response = client.post("/options", {"name": "Cy", "speed": "slow", "sheet_after_hand": "1"})
    assert response.status_code == 303 and response["Location"] == "/"
    assert state_of(client).options.speed == "slow"


@pytest.mark.parametrize(
    ("form", "sentence"),
    [
        ({"name": "   ", "speed": "fast"}, "Please type your name."),
        ({"name": "Bea", "speed": "warp"}, "Choose one of the animation speeds."),
        ({"name": "Bartholomew Jeremiah Smith", "speed": "fast"}, TOO_LONG),
    ],
)
def test_options_refusals_change_nothing(client, form, sentence):
    before = named(client)
    response = client.post("/options", form, **HX)
    assert response.status_code == 200
    assert response["HX-Retarget"] == "#dialogs"
    assert sentence in text(response) and 'id="dialog-options"' in text(response)
    plain = client.post("/options", form)
    assert plain.status_code == 200 and sentence in text(plain)
    assert state_of(client).options == before.options


def test_options_say_the_names_limit_and_give_a_name_too_long_back_as_typed(client):
    """The field says "At most 20 characters" and holds no more, as a network table's prompt;
    a longer name sent anyway is refused with the sentence, never cut, and shown as typed so
    that its owner can shorten it."""
    named(client)
    dialog = text(client.get("/options", **HX))
    assert re.search(r'<input id="option-name"[^>]* maxlength="20"', dialog)
    assert 'aria-describedby="option-name-limit"' in dialog
    assert 'id="option-name-limit" class="note">At most 20 characters.' in dialog
    typed = "Bartholomew Jeremiah Smith"
    refused = text(client.post("/options", {"name": typed, "speed": "fast"}, **HX))
    assert TOO_LONG in refused and f'value="{typed}"' in refused
    assert state_of(client).options.name == "Ann"
    exact = "Bartholomew Jeremiah"  # twenty characters: kept whole
    assert client.post("/options", {"name": exact, "speed": "fast"}).status_code == 303
    assert state_of(client).options.name == exact


# -- statistics ---------------------------------------------------------------------------------


def test_statistics_dialog_shows_every_figure(client):
    state = named(client)
    state.stats = Stats(played=8, won=3, streak=-2, longest_win=2, longest_loss=4, best=41, moons=1)
    store(client, state)
    page = text(client.get("/stats", **HX))
    for label, value in (
        ("Games played", "8"),
        ("Games won", "3"),
        ("Win percentage", "38%"),
        ("Current streak", "2 losses"),
        ("Longest winning streak", "2"),
        ("Longest losing streak", "4"),
        ("Best (lowest) final score", "41"),
        ("Moons shot by you", "1"),
    ):
        assert f'<th scope="row">{label}</th><td>{value}</td>' in page


def test_statistics_reset_asks_first(client):
    state = named(client)
    state.stats = Stats(played=2, won=1, streak=1, longest_win=1, longest_loss=1, best=50)
    store(client, state)
    question = text(client.get("/stats/reset", **HX))
    assert "Reset all your statistics" in question
    assert state_of(client).stats.played == 2
    response = client.post("/stats/reset", **HX)
    assert 'id="dialog-stats"' in text(response) and "Statistics reset." in text(response)
    assert state_of(client).stats == Stats()
    assert state_of(client).game == state.game  # the game goes on


def test_statistics_reset_without_javascript(client):
    state = named(client)
    state.stats = Stats(played=2)
    store(client, state)
    response = client.post("/stats/reset")
    assert response.status_code == 303 and response["Location"] == "/stats"
    assert state_of(client).stats == Stats()


def test_statistics_after_a_finished_game(client):
    state = playing(client)
    clock = actions.Clock()
    while state.game.phase != "game_over":
        if state.game.phase == "hand_over":
            actions.next_hand(state, clock)
        elif state.game.phase == "passing" and not state.awaiting_ok:
            state.selected = players.choose_pass(state.game, 0)
            actions.pass_selected(state, clock)
        elif state.awaiting_ok:
            actions.accept(state, clock)
        else:
            actions.play(state, players.choose_play(state.game, 0), clock)
    store(client, state)
    won = 0 in state.game.winners
    page = text(client.get("/stats", **HX))
    assert '<th scope="row">Games played</th><td>1</td>' in page
    assert f'<th scope="row">Games won</th><td>{int(won)}</td>' in page
    best = state.game.totals[0]
    assert f'<th scope="row">Best (lowest) final score</th><td>{best}</td>' in page


# -- undo ---------------------------------------------------------------------------------------


def about_to_take_a_trick(client, number: int = 617) -> tuple[PlayerState, str]:
    """Game ``number`` at the first moment you play last to a trick and can take it."""
    state = played_until(number, lambda state: winning_card(state) is not None)
    store(client, state)
    return state, winning_card(state)


def undo_item(page: str) -> str:
    return re.search(r'<button [^>]*id="menu-undo"[^>]*>', page).group(0)


def test_undo_takes_your_card_back_and_the_computers_replay_the_same(client):
    state, card = about_to_take_a_trick(client)
    before = state.game.to_dict()
    shown = text(client.post("/play", {"card": card}, **HX))
    after_play = state_of(client).game
    assert not after_play.trick and after_play.turn == 0  # you took it: nobody has led since
    assert 'data-undo="on"' in shown
    assert "aria-disabled" not in undo_item(text(client.get("/")))
    response = client.post("/undo", **HX)
    assert response.status_code == 200
    undone = state_of(client)
    assert undone.game.to_dict() == before
    assert undone.undo is None
    assert card in undone.game.hand(0)
    assert "Select a card to play." in text(response)
    assert 'data-undo="off"' in text(response)
    client.post("/play", {"card": card}, **HX)
    assert state_of(client).game == after_play  # same number, same card: same plays


def test_undo_refused_before_any_card_and_twice(client):
    before = playing(client)
    for response in (client.post("/undo", **HX),):
        assert response.status_code == 200
        assert "There is no card of yours on the table to take back." in text(response)
    assert state_of(client).game == before.game
    _, card = about_to_take_a_trick(client)
    client.post("/play", {"card": card})
    client.post("/undo")
    once = state_of(client).game
    assert card in once.hand(0)
    plain = client.post("/undo")
    assert plain.status_code == 303
    page = text(client.get("/"))
    assert "There is no card of yours on the table to take back." in page
    assert state_of(client).game == once


@pytest.fixture
def wall(monkeypatch) -> list[int]:
    """The wall clock Undo's window is measured by, in milliseconds, set by the test."""
    now = [1_700_000_000_000]
    monkeypatch.setattr(actions, "wall_clock", lambda: now[0] / 1000)
    return now


def before_a_computer_takes_your_card(client, speed: str = "normal") -> tuple[PlayerState, str]:
    """The first moment of game 617 at which a card you may play goes to a trick a computer
    takes, who then leads the next one before your turn comes back."""
    state = playing(client)
    state.options.speed = speed
    clock = actions.Clock()
    while (card := card_a_computer_takes(state)) is None:
        actions.play(state, state.game.legal_plays(0)[0], clock)
    store(client, state)
    return state, card


def gathering(html: str) -> int:
    """The tick at which the answer's page begins to gather the trick your card went to."""
    return int(re.search(r'class="played [^"]*\bgather g(\d+)', html).group(1))


def test_undo_accepted_while_your_cards_trick_is_drawn(client, wall):
    """Issue 40: the computers finish your trick, one takes it and leads the next, all in one
    answer; the page draws your card's trick, pauses, gathers it, then the lead. Until the
    gathering ends Undo takes your card back."""
    state, card = before_a_computer_takes_your_card(client)
    before = state.game.to_dict()
    shown = text(client.post("/play", {"card": card}, **HX))
    played = state_of(client)
    begins, ends = table.gathering_ms(played.game, played.fresh_from, "normal")
    assert begins == gathering(shown) * table.TICK_MS["normal"]  # the schedule the page draws
    assert ends == begins + table.GATHER * table.TICK_MS["normal"]
    assert 'data-undo="until-gathered"' in shown
    assert f'data-undo-late="{actions.NEXT_TRICK_BEGUN}"' in shown
    wall[0] += ends - 1
    response = client.post("/undo", **HX)
    assert response.status_code == 200
    assert actions.NEXT_TRICK_BEGUN not in text(response)
    assert state_of(client).game.to_dict() == before
    assert card in state_of(client).game.hand(0)


def test_undo_refused_once_your_cards_trick_is_gathered(client, wall):
    """From the gathering's end on the next lead is about to be drawn: Undo is refused with the
    reason, and the refusal changes nothing (game, snapshot, stamp), with htmx or without."""
    _, card = before_a_computer_takes_your_card(client)
    client.post("/play", {"card": card}, **HX)
    played = state_of(client)
    _, ends = table.gathering_ms(played.game, played.fresh_from, "normal")
    wall[0] += ends
    response = client.post("/undo", **HX)
    assert response.status_code == 200
    assert actions.NEXT_TRICK_BEGUN in text(response)
    assert 'data-undo="off"' in text(response)
    after = state_of(client)
    assert (after.game, after.undo, after.answered) == (played.game, played.undo, played.answered)
    plain = client.post("/undo")  # without JavaScript: the same refusal, as the notice
    assert plain.status_code == 303
    page = text(client.get("/"))
    assert actions.NEXT_TRICK_BEGUN in page
    assert 'aria-disabled="true"' in undo_item(page)
    assert state_of(client).game == played.game and state_of(client).undo == played.undo


def test_undo_has_no_window_at_speed_none(client, wall):
    """Animation None draws the next lead with your card: only a trick you took keeps Undo."""
    _, card = before_a_computer_takes_your_card(client, speed="none")
    shown = text(client.post("/play", {"card": card}, **HX))
    assert 'data-undo="off"' in shown and "data-undo-late" not in shown
    played = state_of(client)
    response = client.post("/undo", **HX)
    assert actions.NEXT_TRICK_BEGUN in text(response)
    assert state_of(client).game == played.game


def test_a_table_drawn_as_it_stands_ends_the_window(client, wall):
    """A reload (or the hint) draws the table as it stands, the next lead in view: from then on
    your card stays played, however soon after the answer."""
    _, card = before_a_computer_takes_your_card(client)
    assert client.post("/play", {"card": card}).status_code == 303  # without JavaScript
    answer = text(client.get("/"))  # the page the 303 leads to draws the answer
    assert 'data-undo="until-gathered"' in answer and "aria-disabled" not in undo_item(answer)
    page = text(client.get("/"))  # a reload
    assert 'data-undo="off"' in page and 'aria-disabled="true"' in undo_item(page)
    played = state_of(client)
    response = client.post("/undo", **HX)
    assert actions.NEXT_TRICK_BEGUN in text(response)
    assert state_of(client).game == played.game


def test_a_refusal_in_the_window_draws_undo_greyed_and_changes_nothing(client, wall):
    """A stale form refused while your card's trick is drawn: the table comes back as it stands
    (the lead in view), so the page draws Undo greyed with the sentence it says instead of
    posting; the saved table is exactly as it was."""
    _, card = before_a_computer_takes_your_card(client)
    client.post("/play", {"card": card}, **HX)
    played = client.session["t"]
    response = text(client.post("/play", {"card": card, "seq": 0}, **HX))
    assert "That was already done." in response
    assert 'data-undo="off"' in response
    assert f'data-undo-late="{actions.NEXT_TRICK_BEGUN}"' in response
    assert client.session["t"] == played


def test_undo_refused_once_the_trick_is_gathered_or_the_hand_is_over(client):
    state = playing(client)
    clock = actions.Clock()
    actions.play(state, state.game.legal_plays(0)[0], clock)
    kept = state.undo
    actions.play(state, state.game.legal_plays(0)[0], clock)
    state.undo = kept  # the card two tricks back is no longer on the table
    store(client, state)
    response = client.post("/undo", **HX)
    assert "There is no card of yours on the table to take back." in text(response)
    while state.game.phase == "playing":
        actions.play(state, players.choose_play(state.game, 0), clock)
    assert state.undo is not None
    store(client, state)
    response = client.post("/undo", **HX)
    assert "There is no card of yours on the table to take back." in text(response)
    assert state_of(client).game.phase in ("hand_over", "game_over")


# -- hint ---------------------------------------------------------------------------------------


def hinted(page: str) -> list[str]:
    return re.findall(r'value="(\w\w)" class="card face-\w\w[^"]* hinted', page)


def test_hint_while_passing_points_out_three_cards(client):
    state = named(client)
    response = client.post("/hint", **HX)
    want = set(players.choose_pass(state.game, 0))
    assert set(hinted(text(response))) == want and len(want) == 3
    said = html.unescape(hint_of(text(response)))  # the reason each card goes, from the rule
    hints.check_pass(said, state.game, 0, players.weigh_pass(state.game, 0))
    after = state_of(client)
    assert after.game == state.game and after.selected == [] and after.seq == state.seq


def test_hint_while_playing_points_out_one_card_and_plays_nothing(client):
    state = playing(client)
    response = client.post("/hint", **HX)
    want = players.choose_play(state.game, 0)
    assert hinted(text(response)) == [want]
    said = html.unescape(hint_of(text(response)))  # why, in the search's own figures
    names = ["You", "Pauline", "Michele", "Ben"]
    hints.check_play(said, state.game, 0, players.weigh_play(state.game, 0), names)
    assert state_of(client).game == state.game
    # without JavaScript: a redirect to the table, as every other action answers (issue 50:
    # /hint stayed in the address bar and a reload posted it again), which shows it once
    plain = client.post("/hint")
    assert plain.status_code == 303 and plain["Location"] == f"/#{state.game.number}"
    page = client.get("/")
    assert page.status_code == 200 and hinted(text(page)) == [want]
    assert html.unescape(hint_of(text(page))) == said
    assert text(page).startswith("<!doctype html>")
    again = client.get("/")  # a reload shows the table as it stands
    assert hinted(text(again)) == [] and "Hint:" not in text(again)
    assert state_of(client).tally.hints == 1


def test_hint_refused_when_there_is_nothing_to_choose(client):
    state = named(client)
    clock = actions.Clock()
    state.selected = players.choose_pass(state.game, 0)
    actions.pass_selected(state, clock)
    store(client, state)
    response = client.post("/hint", **HX)
    assert response.status_code == 200
    assert "Press OK to accept cards." in text(response) and not hinted(text(response))
    actions.accept(state, clock)
    while state.game.phase == "playing":
        actions.play(state, players.choose_play(state.game, 0), clock)
    store(client, state)
    response = client.post("/hint", **HX)
    assert "There is nothing to choose now, so there is no hint." in text(response)


# -- exit ---------------------------------------------------------------------------------------


def test_exit_page_shows_the_desktop_with_a_way_back(client):
    before = playing(client)
    response = client.get("/exit")
    assert response.status_code == 200
    page = text(response)
    assert 'href="/" class="desktop-icon"' in page
    assert "img/hearts-icon.svg" in page and "<span>Hearts</span>" in page
    assert "<script" not in page and "style=" not in page
    assert state_of(client).game == before.game  # the window reopens where you left it


def test_the_page_carries_a_hidden_desktop_icon_for_hearts_js(client):
    named(client)
    page = text(client.get("/"))
    assert re.search(r'id="desktop-icon" hidden', page)
    assert '<div id="dialogs"></div>' in page
