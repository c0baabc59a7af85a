from django.apps import AppConfig


class HouseRulesConfig(AppConfig):
    name = "houserules"
    verbose_name = "House-rules agreements"
    default_auto_field = "django.db.models.BigAutoField"
