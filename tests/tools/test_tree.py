"""The tests keep their tree: every test module in the folder of the layer it tests, and what
several share in tests/support, never imported from another test module."""

import re

from tests.support import REPO

TESTS = REPO / "tests"
LAYERS = {"engine", "players", "web", "solo", "network", "today", "browser", "tools"}
FROM_A_TEST = re.compile(r"^\s*(?:from|import) tests\.\w+\.test_\w+", re.M)


def test_every_test_module_is_in_a_layer_folder():
    misplaced = [
        str(path.relative_to(TESTS))
        for path in TESTS.rglob("test_*.py")
        if path.parent.name not in LAYERS or path.parent.parent != TESTS
    ]
    assert not misplaced, f"move each into its layer's folder ({sorted(LAYERS)}): {misplaced}"


def test_no_test_module_imports_another():
    found = [
        str(path.relative_to(TESTS))
        for path in TESTS.rglob("*.py")
        if FROM_A_TEST.search(path.read_text(encoding="utf-8"))
    ]
    assert not found, f"what tests share belongs in tests/support: {found}"
