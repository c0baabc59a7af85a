from django.urls import path

import rules.converters  # noqa: F401  (registers the <variant:...> converter)

from . import views

urlpatterns = [
    path("<variant:variant>/examples/<slug:name>/", views.example_page, name="example"),
    path("<variant:variant>/examples/<slug:name>/try/", views.try_page, name="example_try"),
]
