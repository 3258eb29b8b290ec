"""tools.netload's reading of gunicorn's access logs: a poll a busy process put off is told from a
quiet one, so that no figure of quiet 204s counts it."""

from __future__ import annotations

from tools.netload import access_entries, put_off_runs, server_times, time_by_kind

CODE = "A" * 22
LOG = f"""\
[2026-12-01 05:53:29 +0000] [101] [INFO] GET /t/{CODE}/poll 204 330 -
[2026-12-01 05:53:29 +0000] [101] [INFO] GET /t/{CODE}/poll 204 210 later
[2026-12-01 05:53:30 +0000] [102] [INFO] GET /t/{CODE}/poll 200 4100 -
[2026-12-01 05:53:30 +0000] [102] [INFO] POST /t/{CODE}/play 200 9000 -
[2026-12-01 05:53:31 +0000] [102] [INFO] Booting worker with pid: 103
"""


def test_a_poll_put_off_is_its_own_kind_and_no_quiet_figure_counts_it(tmp_path):
    log = tmp_path / "access.log"
    log.write_text(LOG)
    entries = access_entries([log])
    assert [status for _, _, status, _ in entries] == ["204", "204-later", "200", "200"]
    assert server_times(entries, "/poll", "204") == [0.33]
    assert server_times(entries, "", "200", method="POST") == [9.0]
    kinds = time_by_kind(entries)
    assert "poll 204 1 0.0" in kinds and "poll later 1 0.0" in kinds
    assert "poll drawn 1 0.0" in kinds and "play 1 0.0" in kinds


def test_runs_of_polls_put_off_are_counted_by_length():
    assert put_off_runs([1, 1, 2, 3, 5]) == (
        "  polls put off in a row: once 2, twice 1, three times or more 2 (longest 5)"
    )
    assert put_off_runs([]).endswith("once 0, twice 0, three times or more 0 (longest 0)")


def test_a_card_selected_for_the_pass_is_not_counted_as_reaching_the_others():
    """A selection changes only its own seat's pages (the others are not told): netload counts
    a move's arrival for the moves the other pages show, and the selections apart."""
    from tools.netload_stream import SEEN, Seat, arrivals
    from tools.netload_table import Stats

    mover, other = Seat("mover", [1], Stats()), Seat("other", [1], Stats())
    mover.moved = [(5, 10.0, 10.01, "select"), (6, 11.0, 11.01, "play")]
    other.drawn = [(11.02, 6)]  # the play reached the other page 20 ms after it was sent
    everything, _, _ = arrivals([[mover, other]], end=100.0)
    seen, _, _ = arrivals([[mover, other]], end=100.0, kinds=SEEN)
    assert [round(ms) for ms in everything] == [1020, 20]
    assert [round(ms) for ms in seen] == [20]
    _, _, missing = arrivals([[mover, Seat("late", [1], Stats())]], end=100.0, kinds=SEEN)
    assert missing == 1
