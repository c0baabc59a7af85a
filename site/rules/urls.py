from django.urls import path, register_converter

from . import views
from .converters import VariantConverter

register_converter(VariantConverter, "variant")

urlpatterns = [
    path("compare/", views.compare, name="compare"),
    path("<variant:variant>/", views.rules_page, name="rules"),
]
