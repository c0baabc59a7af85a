from django.urls import path

import rules.converters  # noqa: F401  (registers the <variant:...> converter)

from . import views

urlpatterns = [
    path("compare/", views.compare, name="compare"),
    path("<variant:variant>/", views.rules_page, name="rules"),
]
