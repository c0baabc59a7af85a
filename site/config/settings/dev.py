"""Local development: debug on, a fixed throwaway key, plain static storage."""

from .base import *  # noqa: F403
from .base import STORAGES

DEBUG = True
SECRET_KEY = "dev-only-not-secret-" + "x" * 40
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]"]
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Edited content shows on the next request.
PAGE_CACHE_RECHECK_SECONDS = 0.0
