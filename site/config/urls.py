from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path
from tables import views as tables_views

import houserules.converters  # noqa: F401  (registers the <hcode:...> converter)
from core import views as core_views
from core.health import healthz
from houserules import views as houserules_views

urlpatterns = [
    path("prefs/", core_views.preferences, name="preferences"),
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    # Short links are printed on paper: no language prefix, the sheet knows its languages.
    path("h/<hcode:code>/", houserules_views.short_link, name="houserules_short"),
    path("h/<hcode:code>/play/", houserules_views.play, name="houserules_play"),
    path("h/<hcode:code>/friends/", tables_views.from_sheet, name="tables_from_sheet"),
    # A table's invite link names no language: each guest reads the site in their own.
    path("t/<str:code>/", tables_views.invite, name="tables_invite"),
]

urlpatterns += i18n_patterns(
    path("", core_views.home, name="home"),
    path("sources/", core_views.sources, name="sources"),
    path("cards/", core_views.cards, name="cards"),
    path("", include("rules.urls")),
    path("", include("examples.urls")),
    path("", include("houserules.urls")),
    path("", include("play.urls")),
    path("", include("teach.urls")),
    path("", include("tables.urls")),
    prefix_default_language=True,
)

handler403 = "core.views.permission_denied"
handler404 = "core.views.not_found"
handler500 = "core.views.server_error"
