import os
import tempfile

from hearts_site.settings import *  # noqa: F403

# The network tables' database: PostgreSQL when DATABASE_URL is set (bin/with-postgres does),
# else SQLite in a file of its own, so that threads in the concurrency tests really contend for it
# (an in-memory SQLite database is shared through a cache whose locks fail instead of waiting).
if not os.environ.get("DATABASE_URL"):
    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": os.path.join(tempfile.gettempdir(), f"hearts-test-{os.getpid()}.sqlite3")
    }

# The whole suite deals far more tables from 127.0.0.1 than a person could; the limits are
# tested on real servers with their own (tests/web/test_two_instances.py).
HEARTS_TABLES_PER_BROWSER = HEARTS_TABLES_PER_ADDRESS = HEARTS_TABLES_IN_ALL = "100000/h"
