"""WebSocket routes: /ws/<lang>/play/<game id>/ beside the game's page /<lang>/play/<id>/."""

from django.urls import re_path

from .consumers import GameConsumer

websocket_urlpatterns = [
    re_path(r"^ws/(?P<lang>[a-z]{2})/play/(?P<game_id>[A-Za-z0-9_-]{10,32})/$",
            GameConsumer.as_asgi()),
]
