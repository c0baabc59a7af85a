from django.apps import AppConfig


class LiveConfig(AppConfig):
    name = "live"
    verbose_name = "Live games over WebSockets"

    def ready(self) -> None:
        from play.signals import game_changed
        from teach.signals import lesson_changed

        from . import lesson_publish, publish

        game_changed.connect(publish.announce_change, dispatch_uid="live.announce_change")
        lesson_changed.connect(lesson_publish.announce_lesson_change,
                               dispatch_uid="live.announce_lesson_change")
