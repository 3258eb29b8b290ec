"""What the tests share, one module per layer: engine, web (the test client), network,
browser, push (streamed tables under gunicorn), production (the site as the Procfile runs
it); the fixtures are in tests/conftest.py."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]  # the repository: tests/support/ is two below
