"""The table's view model, its animation schedule and its narration, through the test client:
only the answer to an action animates and tells what is new; any other page shows the table
as it stands."""

import re

import pytest

from game.engine import CompletedTrick
from game.web import table
from tests.support import REPO
from tests.support.web import (
    HX,
    game_of,
    named_client,
    pass_three,
    post,
    seq_of,
    state_of,
    status_of,
)

TICKS_CSS = REPO / "static" / "css" / "ticks.css"


def spoken(html: str) -> str:
    """What the live region's hidden narration holds."""
    found = re.search(r'<span class="vh">([^<]*)</span>', html)
    return found.group(1).strip() if found else ""


def test_the_tick_classes_are_written_from_max_tick():
    css = TICKS_CSS.read_text()
    assert css == table.tick_css()
    for prefix in ("t", "g", "e"):
        assert f".{prefix}{table.MAX_TICK}{{" in css
        assert f".{prefix}{table.MAX_TICK + 1}{{" not in css


def test_the_servers_tick_lengths_are_the_pages():
    """Undo's window (game.solo.actions.still_drawn) counts ticks of the length hearts.css
    gives --tick at each animation speed; the two must say the same."""
    css = (REPO / "static" / "css" / "hearts.css").read_text()
    default = re.search(r":root \{[^}]*--tick: ([\d.]+)s;", css).group(1)
    found = {
        speed: float(length) * 1000
        for speed, length in re.findall(r"body\.speed-(\w+) \{ --tick: ([\d.]+)s;", css)
    }
    assert found == {s: ms for s, ms in table.TICK_MS.items() if s != "normal"}
    assert float(default) * 1000 == table.TICK_MS["normal"]
    assert re.search(r"prefers-reduced-motion: reduce\)[^}]*--tick: 0s", css)


def test_every_tick_a_page_uses_has_its_class():
    css = TICKS_CSS.read_text()
    client = named_client(number=617)
    pass_three(client)
    post(client, "/accept")
    html = post(client, "/play", card=game_of(client).legal_plays(0)[0]).content.decode()
    used = set(re.findall(r"\b([tge]\d+)\b", html))
    assert used and all(f".{name}{{" in css for name in used)


def test_passing_tells_which_cards_went_and_which_came_and_from_whom():
    client = named_client(number=617)
    game = game_of(client)
    chosen = game.hand(0)[-3:]
    html = pass_three(client).content.decode()
    got = game_of(client).received(0)
    names = [table.Card.parse(c).name for c in got]
    assert spoken(html) == (
        f"You pass the {table.Card.parse(chosen[0]).name}, the "
        f"{table.Card.parse(chosen[1]).name} and the {table.Card.parse(chosen[2]).name}"
        f" to Pauline. Ben passes you the {names[0]}, the {names[1]} and the {names[2]}."
    )
    # a reload shows the received cards raised, and says nothing again
    assert spoken(client.get("/", **HX).content.decode()) == ""


def test_a_play_is_told_once_and_a_reload_hint_or_refusal_shows_the_table_as_it_stands():
    client = named_client(number=617)
    pass_three(client)
    post(client, "/accept")
    game = game_of(client)
    card = game.legal_plays(0)[0]
    html = post(client, "/play", card=card).content.decode()
    said = spoken(html)
    assert f"You play the {table.Card.parse(card).name}." in said
    assert "arrive" in html
    game = game_of(client)
    refused = [c for c in game.hand(0) if c not in game.legal_plays(0)]
    assert refused, "game 617 has a card you may not play here"
    for again in (
        client.get("/", **HX),
        client.post("/hint", **HX),
        post(client, "/play", card=refused[0]),
    ):
        page = again.content.decode()
        assert spoken(page) == ""
        assert "arrive" not in page and " gather " not in page


def test_a_plain_form_post_shows_its_action_once_after_the_redirect():
    client = named_client(number=617)
    pass_three(client)
    post(client, "/accept")
    card = game_of(client).legal_plays(0)[0]
    response = post(client, "/play", htmx=False, card=card)
    assert response["Location"] == "/#617"  # the game's own address, as a link names it
    shown = client.get(response["Location"]).content.decode()
    assert "You play the" in spoken(shown)
    assert spoken(client.get("/").content.decode()) == ""  # a reload: the table as it stands
    assert spoken(client.get(f"/?seq={seq_of(client)}").content.decode()) == ""  # an old address
    refused = post(client, "/play", htmx=False, card=card, seq="1")  # a stale page's form
    assert refused["Location"] == "/#617"
    page = client.get("/#617").content.decode()
    assert status_of(page).startswith("That was already done.")
    assert spoken(page) == ""


def test_a_whole_hand_is_told_in_order_with_the_points_and_totals():
    client = named_client(number=617)
    pass_three(client)
    post(client, "/accept")
    story = []
    while game_of(client).phase == "playing":
        html = post(client, "/play", card=game_of(client).legal_plays(0)[0]).content.decode()
        story.append(spoken(html))
    told = " ".join(story)
    game = game_of(client)
    for trick in game.completed_tricks:
        for seat, code in trick.plays:
            who = "You play" if seat == 0 else f"{table.COMPUTER_NAMES[seat - 1]} plays"
            assert told.count(f"{who} the {table.Card.parse(code).name}.") == 1
    assert told.count(" the trick with the ") == 13
    assert told.count("Hearts has been broken.") == 1
    assert told.count("the queen of spades, ") + told.count("the queen of spades: ") >= 1
    row = game.history[-1]
    assert told.endswith(
        f"Points this hand: Ada {row[0]}, Pauline {row[1]}, Michele {row[2]}, Ben {row[3]}."
        f" Totals: Ada {row[0]}, Pauline {row[1]}, Michele {row[2]}, Ben {row[3]}."
    )


def test_the_trick_sentence_names_the_taker_the_card_and_the_points():
    trick = CompletedTrick(((1, "2S"), (2, "QS"), (3, "AS"), (0, "5H")), 3)
    names = ["Ada", *table.COMPUTER_NAMES]
    assert table.trick_sentence(trick, names, 0) == (
        "Ben takes the trick with the ace of spades: 1 heart and the queen of spades, 14 points."
    )
    clean = CompletedTrick(((0, "2C"), (1, "3C"), (2, "KC"), (3, "4C")), 2)
    assert table.trick_sentence(clean, names, 0) == (
        "Michele takes the trick with the king of clubs: no points."
    )
    assert table.trick_sentence(clean, names, 2).startswith("You take the trick")


@pytest.mark.parametrize("htmx", [True, False])
def test_the_name_prompt_starts_the_game_a_link_named(htmx):
    from django.test import Client

    client = Client()
    client.post("/name", {"name": "Ada", "number": "617", "seq": "0"}, **(HX if htmx else {}))
    assert game_of(client).number == 617
    assert state_of(client).options.name == "Ada"
    assert status_of(client.get("/").content.decode()) == "Select three cards to pass to Pauline."


def test_new_game_asks_only_when_a_game_in_progress_would_be_lost():
    client = named_client(number=617)
    html = client.get("/new", **HX).content.decode()
    assert 'data-ask="no"' in html and "Start a new game?" in html
    pass_three(client)
    html = client.get("/new", **HX).content.decode()
    assert 'data-ask="yes"' in html
    assert "Abandon game #617 and start a new game?" in html
    assert game_of(client).number == 617  # asking changed nothing


class FinishedHand:
    """The few facts the hand's end is told from, as the engine gives them."""

    def __init__(self, phase, shooter, history, winners=()):
        self.phase, self.moon_shooter, self.history = phase, shooter, history
        self.totals = tuple(sum(row[s] for row in history) for s in range(4))
        self.winners = winners


def test_a_shot_moon_the_points_the_totals_and_the_winner_are_told():
    names = ["Ada", *table.COMPUTER_NAMES]
    hand = FinishedHand("hand_over", 3, [(26, 26, 26, 0)])
    assert table.hand_end_sentences(hand, names, 0) == [
        "Ben shot the moon!",
        "Points this hand: Ada 26, Pauline 26, Michele 26, Ben 0.",
        "Totals: Ada 26, Pauline 26, Michele 26, Ben 0.",
    ]
    over = FinishedHand("game_over", 0, [(90, 10, 20, 30), (0, 26, 26, 26)], winners=(1,))
    assert table.hand_end_sentences(over, names, 0) == [
        "You shot the moon!",
        "Points this hand: Ada 0, Pauline 26, Michele 26, Ben 26.",
        "Totals: Ada 90, Pauline 36, Michele 46, Ben 56.",
        "Pauline won.",
    ]
