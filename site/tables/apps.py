from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables of friends"

    def ready(self) -> None:
        from play import page
        from play.signals import game_changed

        from . import ingame

        game_changed.connect(ingame.game_over, dispatch_uid="tables.game_over")
        page.PAGE_HOOKS.append(ingame.page_extras)
