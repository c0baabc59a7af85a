"""WebSocket routes: /ws/<lang>/play/<game id>/ beside the game's page /<lang>/play/<id>/,
and a lesson's: /ws/<lang>/class/<id>/teacher/ for its projector, /ws/<lang>/class/<id>/ for
its follow page (a pupil's or a follower's)."""

from django.urls import re_path

from .consumers import GameConsumer
from .lessons import LessonConsumer
from .tables import TablesConsumer

websocket_urlpatterns = [
    re_path(r"^ws/(?P<lang>[a-z]{2})/play/(?P<game_id>[A-Za-z0-9_-]{10,32})/$",
            GameConsumer.as_asgi()),
    re_path(r"^ws/(?P<lang>[a-z]{2})/class/(?P<game_id>[A-Za-z0-9_-]{10,32})/"
            r"(?:(?P<teacher>teacher)/)?$", LessonConsumer.as_asgi()),
    # class tables' overview on the projector (#23)
    re_path(r"^ws/(?P<lang>[a-z]{2})/class/(?P<game_id>[A-Za-z0-9_-]{10,32})/tables/$",
            TablesConsumer.as_asgi()),
]
