"""WSGI entry point: `gunicorn --pythonpath site config.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

import config.paths  # noqa: F401  (puts the repo root on sys.path for rules_engine)

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")
application = get_wsgi_application()

from config.garbage import settle_for_serving  # noqa: E402

settle_for_serving()
