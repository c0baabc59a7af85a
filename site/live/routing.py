"""WebSocket routes: /ws/<lang>/play/<game id>/ beside the game's page /<lang>/play/<id>/,
a lesson's: /ws/<lang>/class/<id>/teacher/ for its projector, /ws/<lang>/class/<id>/ for
its follow page (a pupil's or a follower's), /ws/<lang>/class/<id>/tables/ for its class
tables' overview (#23), and /ws/<lang>/table/<code>/ beside a table's page (#22)."""

from django.urls import re_path

from .consumers import GameConsumer
from .lessons import LessonConsumer
from .lobby import LobbyConsumer
from .tables import TablesConsumer

websocket_urlpatterns = [
    re_path(r"^ws/(?P<lang>[a-z]{2})/play/(?P<game_id>[A-Za-z0-9_-]{10,32})/$",
            GameConsumer.as_asgi()),
    re_path(r"^ws/(?P<lang>[a-z]{2})/class/(?P<game_id>[A-Za-z0-9_-]{10,32})/"
            r"(?:(?P<teacher>teacher)/)?$", LessonConsumer.as_asgi()),
    re_path(r"^ws/(?P<lang>[a-z]{2})/table/(?P<code>[A-Za-z0-9_-]{10,32})/$",
            LobbyConsumer.as_asgi()),
    # class tables' overview on the projector (#23)
    re_path(r"^ws/(?P<lang>[a-z]{2})/class/(?P<game_id>[A-Za-z0-9_-]{10,32})/tables/$",
            TablesConsumer.as_asgi()),
]
