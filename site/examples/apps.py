from django.apps import AppConfig


class ExamplesConfig(AppConfig):
    name = "examples"
    verbose_name = "Step-through rule examples replayed by the engine"
