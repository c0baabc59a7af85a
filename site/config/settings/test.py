"""Test runs: no manifest (collectstatic does not run), fast hashing, in-memory cache.

The SQLite test database is a file, not Django's shared in-memory one: the concurrency tests
fire requests from threads, and only a file gives each thread a connection that waits for
the write lock (busy timeout) instead of failing with "table is locked".

TEST_POSTGRES_URL (e.g. postgres://postgres@/stress?host=/tmp/pg, which `.ci/run` sets)
adds a second database alias, "postgres", for the tests that must also run on PostgreSQL.
"""

import os

import dj_database_url

from .base import *  # noqa: F403
from .base import BASE_DIR, DATABASES, PLAY_AWAY_GRACE_MS, PLAY_PING_MS, STORAGES

DEBUG = False
SECRET_KEY = "test-only-not-secret-" + "x" * 40
ALLOWED_HOSTS = ["testserver", "localhost", "127.0.0.1"]
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True  # static files straight from static/, no collectstatic

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    (BASE_DIR / "var").mkdir(exist_ok=True)
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "var" / f"test-{os.getpid()}.sqlite3")}
else:
    # A database of its own per test process: a run on PostgreSQL beside another (the
    # read-only tests start one) must not drop the other's test database.
    DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}_{os.getpid()}"}
if os.environ.get("TEST_POSTGRES_URL"):
    DATABASES["postgres"] = dj_database_url.parse(os.environ["TEST_POSTGRES_URL"])

# Edited content shows on the next request.
PAGE_CACHE_RECHECK_SECONDS = 0.0
# The test process imports config.asgi for the browser tests: it keeps Python's own collector.
SETTLE_GC = False

# Server processes a test starts (tests/site/test_live_fanout.py) take presence's timing from
# the test.
PLAY_PING_MS = int(os.environ.get("TEST_PLAY_PING_MS", PLAY_PING_MS))
PLAY_AWAY_GRACE_MS = int(os.environ.get("TEST_PLAY_AWAY_GRACE_MS", PLAY_AWAY_GRACE_MS))

# The tests of the game pages play from the deal on; those of the start signal set
# PLAY_SIGNAL_MS themselves (tests/site/test_play_signal.py).
PLAY_SIGNAL_MS = 0
