from django.apps import AppConfig


class TeachConfig(AppConfig):
    name = "teach"
    verbose_name = "Teacher mode: games shown to a class, its pupils and their answers"

    def ready(self) -> None:
        from play import service

        from .clockrules import lesson_clock

        if lesson_clock not in service.CLOCK_RULES:
            service.CLOCK_RULES.append(lesson_clock)
