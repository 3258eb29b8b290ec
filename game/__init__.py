"""Hearts, the classic card game, as a web site."""

__version__ = "1.0.0"
