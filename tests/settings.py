import contextlib
import os
import tempfile
from urllib.parse import urlsplit, urlunsplit


def own_database(url: str, worker: str) -> str:
    """``url`` with the database named after this pytest-xdist worker (``hearts_gw0``), made on
    the same PostgreSQL cluster if it is not there yet: the production-like servers a worker
    starts (which read DATABASE_URL) migrate it and listen on it without meeting another
    worker's."""
    import psycopg
    from psycopg import errors, sql

    parts = urlsplit(url)
    name = f"{parts.path.lstrip('/')}_{worker}"
    with (
        psycopg.connect(url, autocommit=True) as conn,
        contextlib.suppress(errors.DuplicateDatabase),
    ):
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return urlunsplit(parts._replace(path=f"/{name}"))


# Each pytest-xdist worker has a PostgreSQL database of its own; read before the site's settings.
if os.environ.get("PYTEST_XDIST_WORKER") and os.environ.get("DATABASE_URL", "").startswith(
    ("postgres://", "postgresql://")
):
    os.environ["DATABASE_URL"] = own_database(
        os.environ["DATABASE_URL"], os.environ["PYTEST_XDIST_WORKER"]
    )

from hearts_site.settings import *  # noqa: E402, F403

# The network tables' database: PostgreSQL when DATABASE_URL is set (bin/with-postgres does),
# else SQLite in a file of its own, so that threads in the concurrency tests really contend for it
# (an in-memory SQLite database is shared through a cache whose locks fail instead of waiting).
# The file is named after the process: each pytest-xdist worker has its own.
if not os.environ.get("DATABASE_URL"):
    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": os.path.join(tempfile.gettempdir(), f"hearts-test-{os.getpid()}.sqlite3")
    }

# The whole suite deals far more tables from 127.0.0.1 than a person could; the limits are
# tested on real servers with their own (tests/web/test_two_instances.py).
HEARTS_TABLES_PER_BROWSER = HEARTS_TABLES_PER_ADDRESS = HEARTS_TABLES_IN_ALL = "100000/h"
HEARTS_TODAY_PER_ADDRESS = HEARTS_TODAY_IN_ALL = "100000/h"
