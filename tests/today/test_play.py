"""Today's Deal through the test client, as a page's forms send it: the day's game, its result
written once from the game the server played, the practice play, the sheet and the board."""

import datetime as dt
from html import unescape

import pytest
from django.test import Client

from game.engine import Game
from game.models import DayPass, DayResult
from game.today import day as days
from tests.support.web import HX, game_of, post, state_of

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 12, 4)  # conftest.py's: every test here is played on it


def start(client: Client, name: str = "Ada", htmx: bool = True):
    return client.post("/today/", {"name": name}, **(HX if htmx else {}))


def play_hand(client: Client, htmx: bool = True, passing: int = -3):
    """Pass three cards (the last three in the hand, or from ``passing``), accept, play the
    first legal card to the end of the hand."""
    game = game_of(client)
    if game.phase == "passing":
        for code in game.hand(0)[passing:][:3]:
            post(client, "/select", htmx, card=code)
        post(client, "/pass", htmx)
    if state_of(client).awaiting_ok:
        post(client, "/accept", htmx)
    while game_of(client).phase == "playing":
        post(client, "/play", htmx, card=game_of(client).legal_plays(0)[0])


def play_the_day(client: Client, htmx: bool = True, passing: int = -3):
    for hand in range(1, 5):
        play_hand(client, htmx, passing)
        if hand < 4:
            assert game_of(client).phase == "hand_over"
            post(client, "/next", htmx)
    assert game_of(client).phase == "game_over"


def test_the_day_is_four_hands_of_the_days_number_for_everyone():
    ada, bea = Client(), Client()
    start(ada, "Ada")
    start(bea, "Bea")
    for client in (ada, bea):
        game = game_of(client)
        assert game.number == days.number_of(DAY) and game.hands == 4
        assert state_of(client).daily.day == DAY.toordinal()
    assert game_of(ada).hand(0) == game_of(bea).hand(0)
    assert game_of(ada) == game_of(bea)  # the computers' passes too: the number fixes them


def test_the_fourth_hand_writes_one_result_from_the_game_played():
    ada = Client()
    start(ada, "Ada")
    play_the_day(ada)
    state = state_of(ada)
    game = state.game
    (result,) = DayResult.objects.all()
    assert result.day == DAY and result.name == "Ada"
    assert result.hand_points == tuple(row[0] for row in game.history)
    assert result.total == game.totals[0]
    assert DayPass.objects.filter(result=result).count() == 9
    assert state.daily.settled and not state.daily.practice
    assert state.streak.last == DAY.toordinal() and state.streak.days == 1
    assert state.stats.played == 0  # four hands are not a game of the statistics


def test_the_second_play_of_the_day_is_practice_and_the_board_is_unchanged():
    ada = Client()
    start(ada, "Ada")
    play_the_day(ada)
    page = ada.get("/today/").content.decode()
    assert "Playing it again is practice" in page
    start(ada, "Ada")
    assert state_of(ada).daily.practice
    play_the_day(ada, passing=0)
    assert DayResult.objects.count() == 1
    sheet = ada.get("/today/sheet").content.decode()
    assert "Practice: your first play today" in sheet


def test_a_replayed_cookie_writes_nothing_more():
    replay = Client()
    start(replay, "Cy")
    for _ in range(1, 4):
        play_hand(replay)
        post(replay, "/next")
    play_hand_but_last(replay)
    saved = replay.cookies.output()
    last = game_of(replay).legal_plays(0)[0]
    post(replay, "/play", card=last)
    assert DayResult.objects.count() == 1
    # the cookie from before the last card, sent again with the last card
    replay.cookies.load(saved.replace("Set-Cookie: ", ""))
    assert game_of(replay).phase == "playing"
    response = post(replay, "/play", card=last)
    assert response.status_code == 200
    assert DayResult.objects.count() == 1
    assert "already on today's board" in unescape(response.content.decode())


def play_hand_but_last(client: Client):
    game = game_of(client)
    assert game.pass_direction == "keep"
    while len(game_of(client).hand(0)) > 1:
        post(client, "/play", card=game_of(client).legal_plays(0)[0])
    assert game_of(client).phase == "playing" and game_of(client).turn == 0


def test_a_tampered_cookie_writes_nothing_and_says_so():
    ada = Client()
    start(ada, "Ada")
    play_the_day(ada)
    DayResult.objects.all().delete()
    from django.conf import settings

    value = ada.cookies[settings.SESSION_COOKIE_NAME].value
    ada.cookies[settings.SESSION_COOKIE_NAME] = value[:-3] + (
        "AAA" if value[-3:] != "AAA" else "BBB"
    )
    response = ada.get("/today/sheet")
    assert response.status_code == 200
    assert DayResult.objects.count() == 0
    assert "could not be read" in response.content.decode()


@pytest.mark.parametrize("name", ["<b>Ada</b>", "Ada>", "", "x" * 21])
def test_a_bad_name_is_refused_and_nothing_is_started_or_written(name):
    ada = Client()
    response = start(ada, name)
    assert response.status_code == 200
    assert 'role="alert"' in response.content.decode()
    assert state_of(ada).game is None
    assert DayResult.objects.count() == 0


@pytest.mark.parametrize("on", ["2026-12-05", "2027-01-01", "2026-02-30", "tomorrow", "0000-00-00"])
def test_a_board_of_a_day_not_yet_come_or_no_day_is_refused(on):
    response = Client().get(f"/today/board/{on}")
    assert response.status_code == 404
    assert "There is no board for that day" in response.content.decode()
    assert DayResult.objects.count() == 0


def test_the_board_of_a_past_day_stays_readable_and_shows_results_only():
    ada = Client()
    start(ada, "Ada")
    play_the_day(ada)
    result = DayResult.objects.get()
    board = Client().get("/today/board/2026-12-04").content.decode()
    assert "Ada" in board and f"<td>{result.total}</td>" in board
    assert "face-" not in board  # no cards on the board
    later = Client()
    later_day = DAY + dt.timedelta(days=3)
    import game.today.day as module

    module.clock = lambda: later_day
    try:
        assert "Ada" in later.get("/today/board/2026-12-04").content.decode()
        today_board = later.get("/today/board").content.decode()
        assert "Ada" not in today_board and "No results yet." in today_board
    finally:
        module.clock = lambda: DAY


def test_a_result_after_the_day_is_practice(monkeypatch):
    ada = Client()
    start(ada, "Ada")
    monkeypatch.setattr(days, "clock", lambda: DAY + dt.timedelta(days=2))
    play_the_day(ada)
    assert DayResult.objects.count() == 0
    assert state_of(ada).daily.practice


def test_the_streak_counts_days_in_a_row(monkeypatch):
    ada = Client()
    for offset, expected in ((0, 1), (1, 2), (2, 3), (4, 1)):
        monkeypatch.setattr(days, "clock", lambda offset=offset: DAY + dt.timedelta(days=offset))
        start(ada, "Ada")
        play_the_day(ada)
        assert state_of(ada).streak.days == expected
    sheet = ada.get("/today/sheet").content.decode()
    assert "Days in a row: 1." in sheet


def test_the_rate_limit_writes_nothing(settings):
    settings.HEARTS_TODAY_PER_ADDRESS = "1/h"
    from django.core.cache import caches

    caches["shared"].clear()
    first, second = Client(), Client()
    for client in (first, second):
        start(client, "Ada")
        play_the_day(client)
    assert DayResult.objects.count() == 1
    assert state_of(second).daily.practice
    assert "Practice: this play is not on the board." in second.get("/today/sheet").content.decode()


def test_the_sheet_and_board_count_both_players_and_their_passes():
    ada, bea = Client(), Client()
    start(ada, "Ada")
    play_the_day(ada, passing=0)  # the lowest three
    start(bea, "Bea")
    play_the_day(bea, passing=-3)  # the highest three
    sheet = bea.get("/today/sheet").content.decode()
    assert " of 2." in sheet
    assert "Pauline in your seat" in sheet
    assert "Hearts, Today&#x27;s Deal, 4 December 2026: " in sheet
    low = Game.at_hand(days.number_of(DAY), 1).hand(0)[0]
    assert "50% passed the" in sheet
    board = bea.get("/today/board").content.decode()
    assert "Ada" in board and "Bea" in board and "2 results" in board
    assert low  # the lowest card of hand 1 was Ada's pass, counted in the shares
    shares = DayPass.objects.filter(day=DAY, hand=1, card=low).count()
    assert shares == 1


def test_hint_and_undo_are_marked_on_the_board():
    ada = Client()
    start(ada, "Ada")
    post(ada, "/hint")
    play_the_day(ada)
    result = DayResult.objects.get()
    assert result.hints == 1 and result.undos == 0
    board = ada.get("/today/board").content.decode()
    assert "<td>Hint</td>" in board


def test_the_challenge_of_a_daily_game_is_refused_with_a_reason():
    ada = Client()
    start(ada, "Ada")
    play_the_day(ada)
    final = ada.get("/").content.decode()
    assert "Challenge a Friend" not in final and "Today's Sheet" in final
    page = ada.get("/challenge").content.decode()
    assert "Today's Deal is not sent as a challenge" in page


def test_the_review_and_the_hint_work_inside_a_daily_game():
    ada = Client()
    start(ada, "Ada")
    hinted = post(ada, "/hint")
    assert hinted.status_code == 200 and "status-hint" in hinted.content.decode()
    play_hand(ada)
    review = ada.get("/review", **HX)
    assert (
        review.status_code == 200 and "Pauline in your seat would have" in review.content.decode()
    )


def test_purge_today_removes_the_days_older_than_the_setting(settings):
    from io import StringIO

    from django.core.management import call_command

    from game.today.store import write

    for back in (0, 90, 91, 400):
        passes = ["2C3C4C", "5C6C7C", "8C9CTC"]
        write(DAY - dt.timedelta(days=back), f"{back:016d}", "Ada", (1, 2, 3, 4), passes, 0, 0)
    said = StringIO()
    call_command("purge_today", stdout=said)
    assert "Removed 2 results" in said.getvalue()  # 91 and 400 days ago; DayPass rows with them
    kept = sorted((DAY - r.day).days for r in DayResult.objects.all())
    assert kept == [0, 90] and DayPass.objects.count() == 2 * 9
    settings.HEARTS_TODAY_KEEP_DAYS = 0  # at least a day is kept whatever the setting
    call_command("purge_today", stdout=StringIO())
    assert DayResult.objects.filter(day=DAY).exists()


@pytest.mark.parametrize("people", [3, 60])
def test_the_board_and_the_sheets_figures_take_the_same_few_queries_whatever_the_size(
    people, django_assert_num_queries
):
    from game.today import store

    for i in range(people):
        points = (i % 27, 0, 13, 1)
        store.write(DAY, f"{i:016d}", f"P{i}", points, ["2C3C4C", "5D6D7D", "QSKSAS"], 0, 0)
    with django_assert_num_queries(2):
        board = store.board(DAY)
    assert board.count == people and len(board.rows) == people
    with django_assert_num_queries(3):
        standing = store.standing(DAY, 14)
    assert standing.count == people and sum(c for _, c in standing.totals) == people
    with django_assert_num_queries(1):
        shares = store.pass_shares(DAY)
    assert shares[3] == [("AS", people), ("KS", people), ("QS", people)]


def test_nothing_is_written_by_a_posted_score():
    ada = Client()
    for path in ("/today/sheet", "/today/board", "/today/board/2026-12-04"):
        response = ada.post(path, {"points": "0,0,0,0", "total": 0, "name": "Ada"})
        assert response.status_code == 405
    response = ada.post("/today/", {"name": "Ada", "points": "0,0,0,0", "total": "0"})
    assert response.status_code == 303  # only a game begins: its result comes from its play
    assert DayResult.objects.count() == 0 and game_of(ada).tricks_played == 0


def test_a_day_without_results_has_no_place_nor_median():
    from game.today import store

    standing = store.standing(DAY, 30)
    assert (standing.count, standing.place, standing.median, standing.totals) == (0, 1, None, ())
    assert store.board(DAY).rows == () and store.pass_shares(DAY) == {}


def test_undo_card_is_counted_and_marked_on_the_board():
    ada = Client()
    start(ada, "Ada")
    play_hand(ada)
    post(ada, "/next")
    game = game_of(ada)
    for code in game.hand(0)[-3:]:
        post(ada, "/select", card=code)
    post(ada, "/pass")
    post(ada, "/accept")
    held = len(game_of(ada).hand(0))
    post(ada, "/play", card=game_of(ada).legal_plays(0)[0])
    post(ada, "/undo")
    assert len(game_of(ada).hand(0)) == held and state_of(ada).tally.undos == 1
    play_hand(ada)
    for _ in range(2):
        post(ada, "/next")
        play_hand(ada)
    result = DayResult.objects.get()
    assert (result.hints, result.undos) == (0, 1)
    assert "<td>Undo</td>" in ada.get("/today/board").content.decode()
    sheet = ada.get("/today/sheet").content.decode()
    assert "Played with 1 Undo Card: the board marks it so." in sheet


def test_a_games_final_sheet_and_the_name_prompt_lead_to_todays_deal():
    from tests.support.web import last_card_of_a_long_game, named_client, state_of, store

    assert 'href="/today/"' in Client().get("/").content.decode()  # beside the name prompt
    client = named_client("Ada", 999_999)
    state = state_of(client)
    state.game = last_card_of_a_long_game()
    store(client, state)
    post(client, "/play", card="AC")
    assert game_of(client).phase == "game_over"
    final = client.get("/").content.decode()
    assert """href="/today/" data-dialog>Today's Deal</a>""" in final
    assert "Today's Sheet" not in final


def test_leaving_a_daily_game_is_said_not_to_count():
    ada = Client()
    start(ada, "Ada")
    play_hand(ada)
    page = ada.get("/new").content.decode()
    assert "Today's deal you leave is not counted: you may start it again." in unescape(page)
    assert "counts as played and lost" not in page
    ada.post("/new", {})
    assert state_of(ada).stats.played == 0  # not counted as a game lost
    page = ada.get("/new").content.decode()
    assert "Start a new game?" in page  # the new game has not begun: nothing to lose
