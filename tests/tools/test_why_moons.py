"""tools.why_moons: every moon conceded with the true deal is lost somewhere, and said where."""

from __future__ import annotations

from tools import why_moons

KINDS = ("blind", "no stop in the model", "traded")


def test_every_moon_is_unstoppable_or_lost_at_a_decision_of_one_kind(capsys):
    results = [why_moons.run_deal(index) for index in range(3)]
    assert sum(r.moons for r in results) >= 1
    for result in results:
        assert result.moons == result.unstoppable + len(result.losses)
        assert len(result.shooters) == result.moons
        for loss in result.losses:
            assert loss.kind.startswith(KINDS)
    why_moons.report(results, 0.0)
    out = capsys.readouterr().out
    assert "ours (true deal) vs 3 hunters, 12 hands" in out
