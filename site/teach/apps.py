from django.apps import AppConfig


class TeachConfig(AppConfig):
    name = "teach"
    verbose_name = "Teacher mode: games shown to a class, its pupils and their answers"

    def ready(self) -> None:
        from play import service

        from .clockrules import class_tables_clock, lesson_clock

        for rule in (lesson_clock, class_tables_clock):
            if rule not in service.CLOCK_RULES:
                service.CLOCK_RULES.append(rule)
