"""Our addition: the last trick, seen again, through the view model and the test
client (as an htmx dialog and as a page of its own without JavaScript).

Game #7, passing the first three cards and playing the last card that may be played: the
first trick goes to you, the fourth to Pauline. The cards the computers play in those tricks
are theirs to choose, so the sentences expected are made from the engine's own replay of the
hand (tests/support/game_7.py); when this was written the first read "Last trick, won by you:
Michele the two of clubs, Ben the king of diamonds, you the eight of clubs, Pauline the three
of clubs."
"""

from __future__ import annotations

import re

from django.test import Client

from game.engine import Game
from game.web.last_trick import NOT_PLAYING, NOTHING_YET, last_trick_view, place_of
from tests.support import game_7 as replay
from tests.support.game_7 import NAMES, PLACES
from tests.support.web import HX, game_of, named_client, post

FIRST = replay.sentence(1)
FIRST_PLAYS = replay.trick(1).plays  # (seat, card) in the order played


def at_game_7(plays: int) -> Client:
    """Game #7 after the pass of the first three cards and ``plays`` of your last lit card."""
    client = named_client("Ada", 7)
    for code in game_of(client).hand(0)[:3]:
        post(client, "/select", card=code)
    post(client, "/pass")
    post(client, "/accept")
    for _ in range(plays):
        post(client, "/play", card=game_of(client).legal_plays(0)[-1])
    return client


def text(response) -> str:
    return response.content.decode()


# -- the view model: a function of the game and the viewer's seat -------------------------------


def test_the_sentence_and_the_places_as_you_see_the_table():
    game = game_of(at_game_7(1))
    seen = last_trick_view(game, 0, NAMES)
    assert seen.sentence == FIRST
    assert replay.trick(1).winner == 0 and FIRST_PLAYS[0] == (2, "2C")  # Michele leads
    assert [(c.player, c.code, c.place, c.won) for c in seen.cards] == [
        (replay.name(seat), code, PLACES[seat], seat == 0) for seat, code in FIRST_PLAYS
    ]
    assert (seen.winner, seen.winner_name, seen.winner_place) == (0, "you", "bottom")


def test_another_seat_sees_the_same_trick_from_its_own_chair():
    """What a network game needs: Michele (seat 2) at the bottom, "you" being Michele."""
    game = game_of(at_game_7(1))
    seen = last_trick_view(game, 2, NAMES)
    assert seen.sentence == replay.sentence(1, viewer=2)
    assert seen.sentence.startswith("Last trick, won by Ada: you the two of clubs, ")
    assert [c.place for c in seen.cards] == ["bottom", "left", "top", "right"]
    assert seen.winner_place == "top"
    assert [place_of(seat, 1) for seat in range(4)] == ["right", "bottom", "left", "top"]


def test_only_the_last_trick_and_only_while_playing():
    game = game_of(at_game_7(4))
    seen = last_trick_view(game, 0, NAMES)
    assert replay.trick(4).winner == 1
    assert seen.sentence == replay.sentence(4)
    assert seen.sentence.startswith("Last trick, won by Pauline: you the ")
    assert last_trick_view(Game.new(7), 0, NAMES) is None  # passing
    assert last_trick_view(game_of(at_game_7(0)), 0, NAMES) is None  # nothing taken yet


# -- the page: a dialog for htmx, a page of its own without -------------------------------------


def test_htmx_gets_the_dialog_with_the_sentence_as_its_description():
    html = text(at_game_7(1).get("/last-trick", **HX))
    assert html.startswith('<dialog class="msgbox modal-dialog dialog-last-trick"')
    assert 'aria-describedby="last-trick-sentence"' in html
    assert f'<p id="last-trick-sentence">{FIRST}</p>' in html
    cards = re.findall(r'class="seen seen-(\w+)( won)?"><span class="seen-card face-(\w\w)"', html)
    assert cards == [(PLACES[seat], " won" * (seat == 0), code) for seat, code in FIRST_PLAYS]
    assert "<main" not in html


def test_without_javascript_it_is_a_page_over_the_table_whose_ok_goes_back():
    client = at_game_7(1)
    before = game_of(client).to_json()
    response = client.get("/last-trick")
    html = text(response)
    assert response.status_code == 200
    assert '<main id="table"' in html
    assert re.search(r'<dialog [^>]*id="dialog-last-trick"[^>]* open', html)
    assert FIRST in html
    assert '<form method="get" action="/" class="dialog-close buttons">' in html
    assert game_of(client).to_json() == before  # looking changes nothing


def test_the_table_offers_the_winners_pile_only_while_a_trick_has_been_taken():
    client = at_game_7(0)
    assert 'id="trick-pile"' not in text(client.get("/"))
    post(client, "/play", card=game_of(client).legal_plays(0)[-1])
    html = text(client.get("/"))
    pile = re.search(r'<a href="/last-trick"[^>]*id="trick-pile"[^>]*>', html).group(0)
    assert "pile-bottom" in pile
    assert 'aria-label="Show the last trick, won by you"' in pile
    for _ in range(3):
        post(client, "/play", card=game_of(client).legal_plays(0)[-1])
    fourth = PLACES[replay.trick(4).winner]  # Pauline's, on the left
    assert f'class="trick-pile pile-{fourth}' in text(client.get("/"))


def test_before_any_trick_and_outside_play_the_dialog_says_why():
    assert NOTHING_YET in text(at_game_7(0).get("/last-trick", **HX))
    assert NOT_PLAYING in text(named_client("Ada", 7).get("/last-trick", **HX))


def test_the_game_menu_item_and_help_name_the_key_l():
    client = at_game_7(1)
    html = text(client.get("/"))
    item = re.search(r'<a role="menuitem"[^>]*data-key="l">Last Trick<', html)
    assert item and 'aria-keyshortcuts="L"' in item.group(0)
    help_html = text(client.get("/help", **HX))
    assert '<tr><th scope="row">L</th><td>Show the last trick again' in help_html
    additions = help_html[help_html.index("<h2>Our additions</h2>") :]
    assert "<li>Last Trick (L):" in additions
    assert "<li>Finish the hand when no points are left" in additions
