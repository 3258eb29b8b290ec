"""A freshly started instance compiles its templates and freezes its objects once, in gunicorn's
master (``hearts_site.warm``, run by ``hearts_site.asgi``), so that no worker's first requests
pay for it (docs/measurements.md: a fresh worker's first hand cost about 130 ms more CPU than
its later ones, its first fetch 69 ms; with the warm-up about 20 ms and 15 ms)."""

from __future__ import annotations

import json

from tests.support.production import clean_env, run

# What the master holds once it has imported the application gunicorn serves.
PROBE = """
import gc, json
import hearts_site.asgi
from django.template import engines
from hearts_site.warm import template_names
engine = engines["django"].engine
cached = engine.template_loaders[0]
print(json.dumps({
    "frozen": gc.get_freeze_count(),
    "names": template_names(),
    "compiled": sorted(cached.get_template_cache),
}))
"""


def test_the_application_compiles_every_template_and_freezes_before_any_request():
    result = run(["-c", PROBE], clean_env(HEARTS_PYTHON_PLAYERS="1"))
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout.strip().splitlines()[-1])
    assert found["frozen"] > 10_000  # the imported code and more, out of the collector's reach
    assert "game/table.html" in found["names"] and "game/partials/hand.html" in found["names"]
    assert set(found["names"]) <= set(found["compiled"])  # compiled, not one left to a worker
