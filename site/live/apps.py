from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "live"
    verbose_name = "Live games over WebSockets"

    def ready(self) -> None:
        from play.signals import game_changed
        from tables.signals import table_changed

        from . import lobby, publish

        game_changed.connect(publish.announce_change, dispatch_uid="live.announce_change")
        table_changed.connect(lobby.announce_table, dispatch_uid="live.announce_table")
