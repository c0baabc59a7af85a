"""ASGI entry point: pages over HTTP, live games over WebSockets (Django Channels)."""

import os

import config.paths  # noqa: F401

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

import django

# Django is set up before the consumers import models.
django.setup(set_prefix=False)

from config.handler import PageHandler  # noqa: E402

django_application = PageHandler()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402
from live.routing import websocket_urlpatterns  # noqa: E402

from config.garbage import settle_for_serving  # noqa: E402

application = ProtocolTypeRouter({
    "http": django_application,
    # The socket carries the page's signed session (the seat it holds) and must come from
    # a page of this site (Origin checked against ALLOWED_HOSTS).
    "websocket": AllowedHostsOriginValidator(
        SessionMiddlewareStack(URLRouter(websocket_urlpatterns))
    ),
})
# Last: what the routing imported is loaded for good.
settle_for_serving()
