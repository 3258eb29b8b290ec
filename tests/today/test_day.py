"""Which deal is today's: drawn from the date and the site's secret key."""

import datetime as dt

import pytest
from django.test import override_settings

from game.engine import Game
from game.today.day import number_of, parse, readable

DAY = dt.date(2026, 12, 4)


def test_the_days_number_is_pinned_for_a_key_and_a_date():
    # tests/settings.py's SECRET_KEY: if these change, every day's deal has changed
    assert [number_of(DAY + dt.timedelta(days=d)) for d in range(3)] == PINNED


def test_another_secret_key_draws_other_deals():
    with override_settings(SECRET_KEY="another key, as another site has"):
        assert [number_of(DAY + dt.timedelta(days=d)) for d in range(3)] != PINNED


def test_a_days_own_secret_keeps_the_deals_across_a_rotation_of_the_key():
    with override_settings(HEARTS_TODAY_SECRET="the days' own"):
        kept = [number_of(DAY + dt.timedelta(days=d)) for d in range(3)]
        with override_settings(SECRET_KEY="the key after its rotation"):
            assert [number_of(DAY + dt.timedelta(days=d)) for d in range(3)] == kept
    assert kept != PINNED


def test_the_days_four_hands_are_one_of_each_pass():
    assert [Game.at_hand(number_of(DAY), k).pass_direction for k in range(1, 5)] == [
        "left",
        "right",
        "across",
        "keep",
    ]


def test_a_day_is_read_from_a_url_only_when_it_is_a_date():
    assert parse("2026-12-04") == DAY
    assert [parse(t) for t in ("2026-13-01", "2026-12-4", "today", "2026-12-04x", "")] == [None] * 5
    assert readable(DAY) == "4 December 2026"


PINNED = [766269, 460515, 979536]


def test_a_game_of_four_hands_round_trips_and_refuses_a_fifth_hand():
    from tests.support.engine import play_out_hand

    game = Game.new(number_of(DAY), hands=4)
    for _ in range(4):
        play_out_hand(game)
        if game.phase == "hand_over":
            game.next_hand()
    assert game.phase == "game_over" and game.hand_number == 4
    assert Game.from_json(game.to_json()) == game
    data = game.to_dict()
    assert max(game.totals) < 100  # so without its length it would not be over
    for bad in (0, 3, 41, -1, True, "4"):
        with pytest.raises(ValueError):
            Game.from_dict({**data, "e": bad})
