"""A network table's code, stated once: ``secrets.token_urlsafe(16)``, 22 URL-safe characters
(128 random bits), the table's address /t/<code>/. Plain Python, for the views, the front's
forks and the measuring tools alike."""

from __future__ import annotations

import re
import secrets

CODE = r"[A-Za-z0-9_-]{22}"
CODE_PATTERN = re.compile(CODE)
LINK_PATTERN = re.compile(rf"(?:^|/t/)({CODE})/?$")  # a table's link as pasted, or its code


def new_code() -> str:
    return secrets.token_urlsafe(16)


def path_pattern(tail: str) -> re.Pattern[str]:
    """/t/<code>/``tail``, the code captured: a table's address for the front's forks."""
    return re.compile(rf"/t/({CODE})/{tail}")
