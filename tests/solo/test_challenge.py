"""Challenge a friend (our addition), through the Django test client: the link a finished game
offers, the friend's page and game, both results side by side, the result sent back, and every
bad link refused with our page while nothing changes. No figure of a game is written down here:
each is read from the game as it was played."""

from __future__ import annotations

import html
import re

import pytest
from django.conf import settings
from django.core import signing
from django.test import Client

from game.engine import Phase
from game.names import TOO_LONG
from game.solo import actions
from game.solo.challenge import LINK_MAX, SALT, link_of, read_link
from game.web.challenge import Challenge, Result, pack, summary
from game.web.player import PlayerState
from tests.support.web import HX, post, state_of, store, winning_card

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return html.unescape(response.content.decode())


def words(response) -> str:
    """What the page says, without its tags."""
    return " ".join(re.sub(r"<[^>]+>", "", text(response)).split())


def finish(state: PlayerState, until=lambda state: state.game.phase == Phase.GAME_OVER) -> None:
    """Play on by the site's own actions (your first three cards, your first legal card)."""
    clock = actions.Clock()
    while not until(state):
        game = state.game
        if game.phase == Phase.HAND_OVER:
            actions.next_hand(state, clock)
        elif game.phase == Phase.PASSING and not state.awaiting_ok:
            state.selected = game.hand(0)[:3]
            actions.pass_selected(state, clock)
        elif state.awaiting_ok:
            actions.accept(state, clock)
        else:
            actions.play(state, game.legal_plays(0)[0], clock)


def person(name: str, number: int = 617, moon_off_shooter: bool = False) -> PlayerState:
    state = PlayerState()
    state.options.name = name
    state.options.moon_off_shooter = moon_off_shooter
    actions.start_game(state, number, actions.Clock())
    return state


def client_of(state: PlayerState) -> Client:
    client = Client()
    store(client, state)
    return client


def link_in(response) -> str:
    """The challenge link the dialog offers, as a path."""
    field = r'id="challenge-link"[^>]*value="https?://[^/"]+(/challenge/[^"]+)"'
    found = re.search(field, text(response))
    assert found, "no challenge link offered"
    return found.group(1)


def anna_finished(**options) -> tuple[Client, PlayerState]:
    state = person("Anna", **options)
    finish(state)
    return client_of(state), state


# -- the offer ---------------------------------------------------------------------------------


def test_the_final_sheet_offers_a_link_carrying_each_hands_points_signed():
    client, state = anna_finished()
    page = text(client.get("/"))
    assert "Challenge a Friend" in page and 'href="/challenge"' in page
    path = link_in(client.get("/challenge"))
    assert len(f"https://hearts.skillsafe.ai{path}") < 300  # short enough for a chat
    assert path.startswith("/challenge/617.")
    challenge = read_link(path.removeprefix("/challenge/"))
    (anna,) = challenge.results
    game = state.game
    assert anna.name == "Anna"
    assert anna.points == tuple(row[0] for row in game.history)
    assert anna.won == (0 in game.winners)
    assert (anna.undos, anna.hints) == (0, 0)
    assert challenge.moon_off_shooter is False


def test_the_undo_cards_and_hints_of_the_game_are_counted_in_its_result():
    state = person("Anna")
    # a card that takes the trick: you lead the next, so Undo Card stays offered whatever the
    # clock says and whichever cards the computers chose (no window of ``still_drawn``)
    finish(state, lambda state: winning_card(state) is not None)
    client = client_of(state)
    post(client, "/hint")
    post(client, "/hint")  # the same moment again: one hint
    post(client, "/play", card=winning_card(state_of(client)))
    assert actions.undo_offer(state_of(client)) == actions.UNDO_ON
    assert post(client, "/undo").status_code == 200
    post(client, "/hint")
    state = state_of(client)
    finish(state)
    store(client, state)
    (anna,) = read_link(link_in(client.get("/challenge")).removeprefix("/challenge/")).results
    assert (anna.undos, anna.hints) == (1, 2)
    assert summary(anna).endswith("with Undo Card once and the hint twice.")


def test_no_link_for_a_game_not_over_or_not_played_through_here():
    state = person("Anna")
    client = client_of(state)
    assert "Challenge a Friend" not in text(client.get("/"))
    assert "Only a game played to its end in this browser" in text(client.get("/challenge"))
    finish(state)
    state.tally = None  # a finished game this browser did not see from its first deal
    client = client_of(state)
    assert "Challenge a Friend" not in text(client.get("/"))
    assert 'id="challenge-link"' not in text(client.get("/challenge", **HX))


# -- the friend's side -----------------------------------------------------------------------------


def test_a_friend_without_a_name_sees_the_challenge_and_plays_the_same_deals():
    anna_client, anna = anna_finished(moon_off_shooter=True)
    path = link_in(anna_client.get("/challenge"))
    bea = Client()
    page = words(bea.get(path))
    total, hands = sum(r[0] for r in anna.game.history), len(anna.game.history)
    said = f"Anna took {total} point{'s' * (total != 1)} in {hands} hands and "
    assert "Anna challenges you to game #617" in page and said in page
    assert '"26 off the shooter" moon rule' in page and "Play the Same Deals" in page
    refused = bea.post(path, {"name": "  "}, **HX)
    assert "Please type your name." in words(refused)
    assert bea.post(path, {"name": "Bea"}).status_code == 303
    state = state_of(bea)
    assert state.options.name == "Bea" and state.game.number == 617
    assert state.game.moon_off_shooter is True  # the challenge's rule, for this game
    assert state.options.moon_off_shooter is False  # her own options untouched
    assert state.challenge.results[0].points == tuple(r[0] for r in anna.game.history)
    finish(state)
    actions.next_hand(state, actions.Clock())  # OK on the final sheet: a new game
    assert state.challenge is None and state.game.moon_off_shooter is False


def test_the_challenges_name_field_says_its_limit_and_refuses_a_longer_name():
    """As a network table's prompt: "At most 20 characters", no more typed, and a longer name
    sent anyway refused with the sentence and given back as typed, never cut."""
    anna_client, _ = anna_finished()
    path = link_in(anna_client.get("/challenge"))
    bea = Client()
    dialog = text(bea.get(path, **HX))
    assert re.search(r'<input id="challenge-name"[^>]* maxlength="20"', dialog)
    assert 'id="challenge-name-limit" class="note">At most 20 characters.' in dialog
    typed = "Beatrice Alexandra Smith"
    refused = text(bea.post(path, {"name": typed}, **HX))
    assert TOO_LONG in refused and f'value="{typed}"' in refused
    assert 'aria-describedby="challenge-name-limit challenge-refusal"' in refused
    assert "Play the Same Deals" in refused  # still asked, nothing played
    assert bea.post(path, {"name": "Beatrice Alexandra"}).status_code == 303
    assert state_of(bea).options.name == "Beatrice Alexandra"


def test_a_game_in_progress_is_asked_about_and_counts_as_lost():
    anna_client, _ = anna_finished()
    path = link_in(anna_client.get("/challenge"))
    bea = person("Bea", number=4242)
    finish(bea, lambda s: s.game.hand_number == 2)
    client = client_of(bea)
    page = words(client.get(path, **HX))
    assert "Abandon game #4242 and play these deals?" in page
    response = client.post(path, {}, **HX)
    assert response.status_code == 200 and 'id="dialogs" hx-swap-oob' in text(response)
    state = state_of(client)
    assert state.game.number == 617 and state.stats.played == 1 and state.stats.won == 0


def test_both_results_hand_by_hand_while_playing_and_the_verdict_at_the_end():
    anna_client, anna = anna_finished()
    path = link_in(anna_client.get("/challenge"))
    bea = Client()
    bea.post(path, {"name": "Bea"})
    state = state_of(bea)
    finish(state, lambda s: s.game.phase == Phase.HAND_OVER)
    store(bea, state)
    for page in (text(bea.get("/")), text(bea.get("/score", **HX))):
        table = page[page.index('class="score-sheet challenge-table"') :]
        first = re.search(r"<tbody>\s*<tr><th scope=\"row\">1</th>(.*?)</tr>", table).group(1)
        cells = re.findall(r"<td[^>]*>(.*?)</td>", first)
        assert cells[:2] == [str(state.game.history[0][0]), str(anna.game.history[0][0])]
        assert re.sub(r"<[^>]+>", "", cells[2]) in ("You", "Anna", "Even")
        assert table.count('<th scope="row">') == 1 + 3  # one hand so far, then the footer
    finish(state)
    store(bea, state)
    page = text(bea.get("/"))
    said = words(bea.get("/"))
    mine, hers = state.game.totals[0], sum(r[0] for r in anna.game.history)
    assert f"You took {mine} to Anna's {hers} on the same cards: " in said
    assert 'aria-describedby="challenge-verdict"' in page
    hands = max(len(state.game.history), len(anna.game.history))
    table = page[page.index('class="score-sheet challenge-table"') :]
    assert f'<th scope="row">{hands}</th>' in table
    assert "Send Your Result" in page
    back = link_in(bea.get("/challenge"))
    both = read_link(back.removeprefix("/challenge/"))
    assert [r.name for r in both.results] == ["Anna", "Bea"]
    assert both.results[1].points == tuple(r[0] for r in state.game.history)
    # Anna opens what Bea sent back: Bea's reply (issue 50: it read "Bea challenges you" and
    # offered the same deals again), both results side by side, the verdict from Anna's side
    reply = anna_client.get(back)
    seen, said = text(reply), words(reply)
    assert "challenges you" not in said, said
    assert "Bea has played game #617 too and sends back the result." in said
    assert f"You took {hers} to Bea's {mine} on the same cards: " in said
    assert summary(both.results[1]) in seen
    assert '<th scope="col"><bdi>You</bdi></th><th scope="col"><bdi>Bea</bdi></th>' in seen
    assert re.search(r'<button type="submit" class="push"[^>]*autofocus[^>]*>OK</button>', seen)
    assert "Play the Same Deals Again" in seen  # only if Anna asks
    assert state_of(anna_client).game.phase == Phase.GAME_OVER  # nothing changed


def test_the_comparison_has_a_view_of_its_own_that_only_reads():
    """/challenge/table, which a move's sheet fetches once shown (the move's answer stays
    small): the comparison table alone, by htmx or a plain GET, the cookie unchanged; without
    a challenge, a short notice."""
    anna_client, anna = anna_finished()
    bea = Client()
    bea.post(link_in(anna_client.get("/challenge")), {"name": "Bea"})
    state = state_of(bea)
    finish(state, lambda s: s.game.phase == Phase.HAND_OVER)
    store(bea, state)
    sheet = text(bea.get("/", **HX))
    assert 'hx-get="/challenge/table" hx-trigger="load"' in sheet  # htmx: the placeholder
    assert 'class="score-sheet challenge-table"' not in sheet
    assert 'class="score-sheet challenge-table"' in text(bea.get("/"))  # a page: inline
    cookie = bea.cookies[settings.SESSION_COOKIE_NAME].value
    for headers in (HX, {}):
        response = bea.get("/challenge/table", **headers)
        fragment = text(response)
        assert response.status_code == 200 and response["Cache-Control"] == "no-store"
        assert fragment.startswith('<table class="score-sheet challenge-table">')
        assert "<caption>" in fragment and "<html" not in fragment
        assert '<th scope="col"><bdi>Anna</bdi></th>' in fragment
        first = re.search(r'<tr><th scope="row">1</th>(.*?)</tr>', fragment).group(1)
        cells = re.findall(r"<td[^>]*>(.*?)</td>", first)
        assert cells[:2] == [str(state.game.history[0][0]), str(anna.game.history[0][0])]
        assert fragment.count('<th scope="row">') == 1 + 3  # one hand so far, then the footer
        assert settings.SESSION_COOKIE_NAME not in response.cookies  # nothing written
    assert bea.cookies[settings.SESSION_COOKIE_NAME].value == cookie
    assert state_of(bea).game.to_dict() == state.game.to_dict()
    assert bea.post("/challenge/table", **HX).status_code == 405  # reads only
    # no challenge: Anna's own game, a browser never seen, a damaged cookie (which the site
    # replaces on any page, as always)
    stranger = Client()
    stranger.cookies[settings.SESSION_COOKIE_NAME] = "not-ours"
    for client in (anna_client, Client(), stranger):
        for headers in (HX, {}):
            response = client.get("/challenge/table", **headers)
            assert response.status_code == 200
            assert words(response) == "No challenge is being played."
            if client is not stranger:
                assert settings.SESSION_COOKIE_NAME not in response.cookies


def test_a_chain_keeps_the_first_challenger_and_the_latest():
    anna_client, anna = anna_finished()
    path = link_in(anna_client.get("/challenge"))
    names = ["Anna"]
    for name in ("Bea", "Cleo", "Dan", "Eve"):
        client = Client()
        client.post(path, {"name": name})
        state = state_of(client)
        finish(state)
        store(client, state)
        path = link_in(client.get("/challenge"))
        names.append(name)
    carried = read_link(path.removeprefix("/challenge/")).results
    assert [r.name for r in carried] == ["Anna", "Cleo", "Dan", "Eve"]


# -- bad links -------------------------------------------------------------------------------------


def anna_link() -> str:
    anna = Result("Anna", (0, 13, 5, 26, 2, 0), won=True, undos=2, hints=0)
    return link_of(Challenge(617, False, (anna,)))


def changed_digit(link: str) -> str:
    number, rest = link.split(".", 1)
    payload, signature = rest.split(":")
    # a figure of the payload: the first hand's points are its 8th byte (after 'Anna')
    raw = bytearray(signing.b64_decode(payload.encode()))
    raw[8] += 1
    return f"{number}.{signing.b64_encode(bytes(raw)).decode()}:{signature}"


def bad_links() -> dict[str, tuple[str, int | None]]:
    good = anna_link()
    ours = signing.Signer(salt=SALT)
    other_key = signing.Signer(key="another-site-s-key-" * 3, salt=SALT).sign(good.split(":")[0])
    return {
        "a changed digit in the number": ("618" + good[3:], 618),
        "a changed figure in the payload": (changed_digit(good), 617),
        "cut short": (good[: len(good) // 2], 617),
        "the signature cut": (good[:-1], 617),
        "signed with another key": (other_key, 617),
        "too long": (good + "A" * LINK_MAX, 617),
        "number out of range": (ours.sign("0." + good[4:].split(":")[0]), None),
        "number beyond the last": ("1000001." + good[4:], None),
        "no number": ("hello", None),
        "slashes": ("617.abc/def/ghi", 617),
    }


def test_the_links_figures_cannot_be_edited():
    good = anna_link()
    assert read_link(good).results[0].points[0] == 0
    with pytest.raises(ValueError):
        read_link(changed_digit(good))


@pytest.mark.parametrize("kind", list(bad_links()))
def test_a_bad_link_gets_its_page_and_changes_nothing(kind):
    link, number = bad_links()[kind]
    state = person("Bea", number=4242)
    finish(state, lambda s: s.game.hand_number == 2)
    state.stats.played = 7
    client = client_of(state)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    for response in (
        client.get(f"/challenge/{link}"),
        client.get(f"/challenge/{link}", **HX),
        client.post(f"/challenge/{link}", {"name": "Bea"}, **HX),
        client.post(f"/challenge/{link}", {"name": "Bea"}),
    ):
        assert response.status_code == 200, kind
        page = text(response)
        assert "This challenge link is damaged" in page
        assert (f"Play Game #{number}" in page) == (number is not None)
        assert client.cookies[settings.SESSION_COOKIE_NAME].value == cookie
    after = state_of(client)
    assert after.game.to_dict() == state.game.to_dict() and after.stats.played == 7


def test_the_payload_alone_says_nothing_without_its_number():
    anna = Result("Anna", (3,), won=False)
    challenge = Challenge(617, False, (anna,))
    assert "617" not in pack(challenge)


def test_your_own_link_opened_again_says_it_is_yours_and_offers_no_challenge():
    """Anna copies her link and opens it herself (to try it, or later from her chat): it read
    "Anna challenges you to game #617" and offered her the same deals as a challenge to herself.
    It says the link is hers, to send to a friend, with her result, and OK; nothing changes. So
    for Bea's own "Send Your Result" link, after Anna's result."""
    anna_client, anna = anna_finished()
    path = link_in(anna_client.get("/challenge"))
    opened = anna_client.get(path)
    said, seen = words(opened), text(opened)
    assert opened.status_code == 200
    assert "Anna challenges you" not in said, said
    assert "This is your challenge to game #617: send this link to a friend." in said, said
    assert summary(read_link(path.removeprefix("/challenge/")).results[0]) in seen
    assert (
        "Play the Same Deals" not in seen
        and 'method="post"' not in seen.split("dialog-challenge")[-1]
    )
    assert re.search(r'<button type="submit" class="push"[^>]*autofocus[^>]*>OK</button>', seen)
    assert state_of(anna_client).game.phase == Phase.GAME_OVER  # nothing changed
    bea = Client()
    bea.post(path, {"name": "Bea"})
    state = state_of(bea)
    finish(state)
    store(bea, state)
    back = link_in(bea.get("/challenge"))
    said = words(bea.get(back))
    assert "Bea challenges you" not in said, said
    assert "This is your challenge to game #617: send this link to a friend." in said, said
