"""A seconds-long smoke run of ``python -m tools.loadtest``: it starts, plays, and prints every
figure with no error. The real measurement (50 players, a minute) is run by hand, never here;
no figure is asserted but the error count."""

import re

import pytest

from tests.support.production import clean_env, run


@pytest.mark.serial  # a load run: with the machine to itself
def test_a_short_load_test_prints_every_figure_and_no_errors():
    result = run(
        ["-m", "tools.loadtest", "--players", "2", "--seconds", "3", "--single-seconds", "2"],
        clean_env(),
    )
    out = result.stdout
    assert result.returncode in (0, 1), result.stderr  # 1: a timing target missed on a busy box
    for figure in (
        "First visit (page and assets, Accept-Encoding: br, gzip):",
        "Under load: 2 players",
        "/healthz, 2 clients",
        "Server-Timing of a move: think median",
        "One player alone:",
        "a move less its thinking, as the client sees it",
        "a move's response (/play, htmx)",
        "Targets:",
    ):
        assert figure in out, out
    assert re.search(r"moves \(POST\) +[1-9]\d* requests", out), out
    assert re.findall(r"errors (\d+)", out) and set(re.findall(r"errors (\d+)", out)) == {"0"}
    assert "PASS  zero errors at 2 concurrent players" in out
    assert re.search(r"(PASS|FAIL)  first visit < 300 KB compressed", out)
    assert "127.0.0.1" in out
