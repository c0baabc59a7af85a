"""Language-prefixed pages of the configurator (the short links live outside i18n_patterns)."""

from django.urls import path

import rules.converters  # noqa: F401  (registers the <variant:...> converter)

from . import views

urlpatterns = [
    path("house-rules/", views.index, name="houserules_index"),
    path("<variant:variant>/house-rules/", views.configurator, name="houserules_form"),
    path("<variant:variant>/house-rules/sheet/", views.sheet_page, name="houserules_sheet"),
    path("<variant:variant>/house-rules/save/", views.save, name="houserules_save"),
]
