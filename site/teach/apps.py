from django.apps import AppConfig


class TeachConfig(AppConfig):
    name = "teach"
    verbose_name = "Teacher mode: games shown to a class, its pupils and their answers"
