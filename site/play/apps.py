from django.apps import AppConfig


class PlayConfig(AppConfig):
    name = "play"
    verbose_name = "Playable demo: games against the engine's bots"
