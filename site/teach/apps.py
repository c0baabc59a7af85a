from django.apps import AppConfig


class TeachConfig(AppConfig):
    name = "teach"
    verbose_name = "Teacher mode: games shown to a class, its pupils and their answers"

    def ready(self) -> None:
        from play import page, service

        from .clockrules import class_tables_clock, lesson_clock
        from .tables_board import table_language

        for rule in (lesson_clock, class_tables_clock):
            if rule not in service.CLOCK_RULES:
                service.CLOCK_RULES.append(rule)
        if table_language not in page.SECOND_LANGUAGE_HOOKS:
            page.SECOND_LANGUAGE_HOOKS.append(table_language)
