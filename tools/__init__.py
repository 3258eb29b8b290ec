"""Measuring tools, outside the app: benchmarks, load tests, attacks and the server launcher
they share with tests/support/production.py. Run as python -m tools.NAME."""
