"""Test-only URLconf: the site's routes plus a view that always fails.

boom_settings uses it with production settings in test_production_logging's subprocess, so
production's logging is exercised as deployed without touching the test process's logging.
"""

from django.urls import path

from config.urls import handler404, handler500  # noqa: F401
from config.urls import urlpatterns as site_patterns


def boom(request):
    raise RuntimeError("forced failure for the logging test")


urlpatterns = [path("boom/", boom), *site_patterns]
