"""Test runs: no manifest (collectstatic does not run), fast hashing, in-memory cache."""

from .base import *  # noqa: F403
from .base import STORAGES

DEBUG = False
SECRET_KEY = "test-only-not-secret-" + "x" * 40
ALLOWED_HOSTS = ["testserver", "localhost", "127.0.0.1"]
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_AUTOREFRESH = True
# Edited content shows on the next request.
PAGE_CACHE_RECHECK_SECONDS = 0.0
