"""tools.why_moons: every moon conceded with the true deal is lost somewhere, and said where."""

from __future__ import annotations

from tools import why_moons

KINDS = ("blind", "no stop in the model", "traded")


def test_every_moon_is_unstoppable_or_lost_at_a_decision_of_one_kind(capsys):
    # deals 11-13 hold moons the hunters make against ours (the computers' choices decide it)
    results = [why_moons.run_deal(index) for index in range(11, 14)]
    assert sum(r.moons for r in results) >= 1
    for result in results:
        assert result.moons == result.unstoppable + len(result.losses)
        assert len(result.shooters) == result.moons
        for loss in result.losses:
            assert loss.kind.startswith(KINDS)
    why_moons.report(results, 0.0)
    out = capsys.readouterr().out
    assert "ours (true deal) vs 3 hunters, 12 hands" in out


def test_the_hunters_cards_are_set_beside_the_models_cards():
    pts, seen = why_moons.agreement(why_moons.FIRST_NUMBER, 1, 3)
    assert sum(pts) in (26, 78)  # every point taken, or a moon
    assert set(seen) == {0, 1, 2}
    assert all(len(rows) == 13 for rows in seen.values())
    assert {row[3] for rows in seen.values() for row in rows} <= {"lead", "follow", "discard"}
    assert all(rows[0][3] != "lead" or rows[0][0] == 0 for rows in seen.values())  # the 2C
    lines = why_moons.agreement_table(range(1))
    assert any("early" in line and "the ducker's" in line for line in lines)
    by_play = why_moons.agreement_table(range(1), by_play=True)
    assert any("first" in line and "follow" in line for line in by_play)


def test_versus_counts_every_hand_once_and_puts_the_settings_back():
    from game.players import brain

    before = brain.EARLY_SHARE
    counts = why_moons.versus(range(1), ["EARLY_SHARE=0.5"])
    assert sum(counts.values()) == 4
    assert set(counts) <= set(why_moons.OUTCOMES)
    assert before == brain.EARLY_SHARE
