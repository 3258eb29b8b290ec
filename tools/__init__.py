"""Measuring tools, outside the app: benchmarks, load tests, attacks and the server launcher
they share with tests/production.py. Run as python -m tools.NAME."""
