"""Production: everything secret or host-specific comes from the environment.

    DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS (comma-separated), optional DATABASE_URL,
    optional DJANGO_CSRF_TRUSTED_ORIGINS (comma-separated), optional DJANGO_REQUEST_ID_HEADER
    (the header a trusted proxy puts its request id in, e.g. X-Request-ID), optional
    DJANGO_CLIENT_IP_HEADER (the header it puts the client's address in, e.g. X-Real-IP).

Logs go to stderr, where gunicorn and any process manager keep them: one access line per
request and every error with its traceback, each line carrying the request's id.
"""

import os

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403

DEBUG = False
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    raise ImproperlyConfigured("Set DJANGO_SECRET_KEY for production.")
ALLOWED_HOSTS = [h.strip() for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "").split(",") if h]
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o
]

SECURE_SSL_REDIRECT = os.environ.get("DJANGO_SECURE_SSL_REDIRECT", "true") == "true"
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
LANGUAGE_COOKIE_SECURE = True
REQUEST_ID_HEADER = os.environ.get("DJANGO_REQUEST_ID_HEADER", "")
CLIENT_IP_HEADER = os.environ.get("DJANGO_CLIENT_IP_HEADER", "")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_id": {"()": "core.requestlog.RequestIdFilter"},
        "client_errors": {"()": "core.requestlog.ClientErrorFilter"},
    },
    "formatters": {
        "line": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "filters": ["request_id", "client_errors"],
            "formatter": "line",
        },
    },
    "root": {"handlers": ["stderr"], "level": "WARNING"},
    "loggers": {
        # Replaces Django's default handlers (mail to an empty ADMINS).
        "django": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
        # 4xx responses are in the access lines already; errors (5xx) keep their traceback.
        "django.request": {"level": "ERROR"},
        # Client errors Django reports as security events (a wrong Host, an oversized body
        # or form): one WARNING line each with the request id, no traceback
        # (core.requestlog.ClientErrorFilter). With no handler of their own they reached
        # logging's last resort, traceback and all.
        "django.security": {"handlers": ["stderr"], "level": "WARNING", "propagate": False},
        "stress.access": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
    },
}
