from django.apps import AppConfig


class RulesConfig(AppConfig):
    name = "rules"
    verbose_name = "Rules pages and the variant comparison"

    def ready(self) -> None:
        # The layers below the apps learn of this app's files here (docs/site.md): the
        # health check loads every rules text, and the page cache watches the figures file.
        from core import health, pagecache

        from .figures import figures_path
        from .rulebook import rulebooks_load

        health.register_content_check(rulebooks_load)
        pagecache.watch(figures_path)
