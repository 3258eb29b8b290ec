"""The benchmark's reference opponents and deals, which anyone must be able to reproduce."""

from __future__ import annotations

import re

from game.engine import PASS_CYCLE, Card, Game
from tools.bench import deal_game, ducker_pass, ducker_play, random_pass, random_play


def test_bench_deals_cycle_the_pass_directions():
    for hand_number, direction in enumerate(PASS_CYCLE, start=1):
        game = deal_game(40_001, hand_number)
        assert game.pass_direction == direction
        assert game.phase == ("playing" if direction == "keep" else "passing")


def test_reference_opponents_play_whole_hands_legally():
    for players in ((ducker_pass, ducker_play), (random_pass, random_play)):
        for number in range(1, 6):
            game = Game.new(number)
            for seat in range(4):
                cards = players[0](game, seat)
                assert len(set(cards)) == 3 and set(cards) <= set(game.hand(seat))
                game.pass_cards(seat, cards)
            while game.phase == "playing":
                card = players[1](game, game.turn)
                assert card in game.legal_plays(game.turn)
                game.play(game.turn, card)


def test_ducker_passes_its_highest_cards_and_ducks():
    game = Game.new(617)
    assert sorted(ducker_pass(game, 3)) == ["AC", "AH", "JH"]
    for seat in range(4):
        game.pass_cards(seat, ducker_pass(game, seat))
    game.play(game.turn, "2C")
    seat = game.turn
    clubs = [c for c in game.hand(seat) if c[1] == "C"]
    # nothing loses to the two, so a ducker that is not last plays its lowest club
    assert clubs and ducker_play(game, seat) == clubs[0]
    game.play(seat, clubs[0])
    winning = max(Card.parse(code).index for _, code in game.trick)
    seat = game.turn
    clubs = [c for c in game.hand(seat) if c[1] == "C"]
    under = [c for c in clubs if Card.parse(c).index < winning]
    if under:
        assert ducker_play(game, seat) == under[-1]


def test_the_moon_hunter_keeps_its_winners_and_plays_legally():
    from game.players import choose_pass
    from tools.hunter import Hunter

    game = Game.from_dict(
        {
            "v": 1,
            "n": 7,
            "m": 0,
            "k": 1,
            "p": "passing",
            "h": [
                "AHKHQHJHTHASKSQSACKCAD2D3C",
                "2C4C5C6C7C8C9CTCJC4D5D6D7D",
                "2H3H4H5H6H7H8H9H2S3S4S5S6S",
                "QCKDQDJDTD9D8D3D7S8S9STSJS",
            ],
            "x": ["", "", "", ""],
            "r": ["", "", "", ""],
            "t": "",
            "s": [],
        }
    )
    hunter = Hunter()
    # a hand worth shooting sends away its losers (the 2 and 3 under eleven and nine higher
    # cards out), then its lowest sure winner that is not a heart
    assert sorted(hunter.pass_cards(game, 0)) == ["2D", "3C", "QS"]
    # a hand with no moon in it passes as ours do
    assert hunter.pass_cards(game, 1) == choose_pass(game, 1)
    for seat in range(4):
        game.pass_cards(seat, hunter.pass_cards(game, seat))
    while game.phase == "playing":
        card = hunter.play(game, game.turn)
        assert card in game.legal_plays(game.turn)
        game.play(game.turn, card)


def test_the_bench_runs_its_moon_hunter_match_up(capsys):
    from tools.bench import main

    main(["--hands", "4", "--only", "hunters", "--workers", "1", "--think", "0"])
    out = capsys.readouterr().out
    assert "ours vs 3 hunters" in out
    assert "hunters' moon attempts per hand: made" in out
    assert "ours vs 3 duckers" not in out


def test_the_bench_times_both_forms_of_the_search_core_on_the_same_positions(capsys):
    from tools.bench import main

    main(["--think-only", "--think", "4"])  # the figures are for people: no verdict on speed here
    out = capsys.readouterr().out
    assert "4 positions, both forms on each" in out
    for row in ("compiled", "python", "ratio"):
        assert f"\n  {row} " in out
    assert "same card in every position: 4/4" in out


def test_todays_players_against_themselves_differ_by_nothing(capsys):
    # duplicate deals: each seat of a deal is played by the same players in turn, so seating
    # today's players as ours against today's makes every hand's differential exactly zero
    from tools.bench import main

    main(["--hands", "8", "--only", "todays", "--workers", "1", "--think", "0", "--ours", "today"])
    out = capsys.readouterr().out
    assert "ours vs 3 today's" in out
    assert "differential  +0.00 +- 0.00 (paired)" in out
    assert "ours vs 3 duckers" not in out


def test_a_paired_run_plays_the_base_on_the_same_deals(capsys):
    # the change is the base here: on the same deals every hand comes out the same, so the
    # paired difference is exactly zero; a different change moves it
    from tools.bench import main

    main(["--hands", "8", "--only", "duckers", "--workers", "1", "--think", "0", "--pair"])
    out = capsys.readouterr().out
    assert "ours vs 3 duckers (8 hands" in out
    assert "change minus base: differential  +0.00 +- 0.00, ducker moons  +0.0% +- 0.0%" in out
    # ours' own moons too, the base's beside the change's
    assert "ours' moons  +0.0% +- 0.0% (paired by deal)" in out
    assert re.search(
        r"base: differential +[+-]\d+\.\d\d \+- \d+\.\d\d, "
        r"ducker moons +\d+\.\d%, ours' moons +\d+\.\d%",
        out,
    )
    main(
        ["--hands", "8", "--only", "duckers", "--workers", "1", "--think", "0", "--pair"]
        + ["--set", "CARD_BUDGET=600"]
    )
    out = capsys.readouterr().out
    assert "set: CARD_BUDGET=600" in out
    assert "change minus base: differential  +0.00 +- 0.00" not in out


def test_the_bench_prints_each_match_up_as_it_ends(capsys):
    from tools.bench import main

    main(
        ["--hands", "8", "--only", "random", "--only", "duckers", "--workers", "1", "--think", "0"]
    )
    out = capsys.readouterr().out
    # each match-up's block, with its moons and their interval, comes before the timings
    assert out.index("ours vs 3 duckers (8 hands") < out.index("ours vs 3 random (8 hands")
    assert out.index("ours vs 3 random (8 hands") < out.index("decision time in CPU")
    assert "moons: ours  0.0% +- 0.0%, random" in out
