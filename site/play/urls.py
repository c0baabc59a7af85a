from django.urls import path

import rules.converters  # noqa: F401  (registers the <variant:...> converter)

from . import views

urlpatterns = [
    path("<variant:variant>/play/", views.setup_page, name="play_setup"),
    path("play/<str:game_id>/", views.game_page, name="play_game"),
    path("play/<str:game_id>/move/", views.move, name="play_move"),
    path("play/<str:game_id>/clock/", views.clock, name="play_clock"),
    path("play/<str:game_id>/seat/", views.take_seat_back, name="play_seat"),
    path("play/<str:game_id>/replay/", views.replay_page, name="play_replay"),
]
