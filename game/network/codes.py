"""A network table's code, stated once: ``secrets.token_urlsafe(16)``, 22 URL-safe characters
(128 random bits), the table's address /t/<code>/. Plain Python, for the views, the front's
forks and the measuring tools alike."""

from __future__ import annotations

import re
import secrets

CODE = r"[A-Za-z0-9_-]{22}"
CODE_PATTERN = re.compile(CODE)
LINK_PATTERN = re.compile(rf"(?:^|/t/)({CODE})/?$")  # a table's link as pasted, or its code

# In a poll's ASGI scope, then its WSGI environ (the Bridge copies it): a newer version of the
# polled table was heard (game.network.quiet sets it, its middleware reads it).
BEHIND = "hearts.behind"


def new_code() -> str:
    return secrets.token_urlsafe(16)


def path_pattern(tail: str) -> re.Pattern[str]:
    """/t/<code>/``tail``, the code captured: a table's address for the front's forks."""
    return re.compile(rf"/t/({CODE})/{tail}")


TABLE_PATH = path_pattern("")  # /t/<code>/ at the start of a table's address (a Location)
