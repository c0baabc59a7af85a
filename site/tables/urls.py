"""Language-prefixed pages of a table (the invite link lives outside i18n_patterns)."""

from django.urls import path

import rules.converters  # noqa: F401  (registers the <variant:...> converter)

from . import views

urlpatterns = [
    path("friends/", views.index, name="tables_index"),
    path("<variant:variant>/play/friends/", views.new_table, name="tables_new"),
    path("table/<str:code>/", views.table_page, name="tables_table"),
    path("table/<str:code>/join/", views.join, name="tables_join"),
    path("table/<str:code>/ready/", views.ready, name="tables_ready"),
    path("table/<str:code>/remove/", views.remove, name="tables_remove"),
    path("table/<str:code>/give-back/", views.give_back, name="tables_give_back"),
    path("table/<str:code>/play/", views.play, name="tables_play"),
]
