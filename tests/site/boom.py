"""Test-only settings and URLconf: production settings plus a view that always fails.

Used by test_production_logging in a subprocess, so production's logging configuration is
exercised exactly as deployed without touching the test process's own logging.
"""

from django.urls import path

from config.urls import handler404, handler500  # noqa: F401
from config.urls import urlpatterns as site_patterns


def boom(request):
    raise RuntimeError("forced failure for the logging test")


urlpatterns = [path("boom/", boom), *site_patterns]
