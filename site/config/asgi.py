"""ASGI entry point."""

import os

from django.core.asgi import get_asgi_application

import config.paths  # noqa: F401

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")
application = get_asgi_application()
