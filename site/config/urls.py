from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path

from core import views as core_views

urlpatterns = [
    path("prefs/", core_views.preferences, name="preferences"),
    path("admin/", admin.site.urls),
]

urlpatterns += i18n_patterns(
    path("", core_views.home, name="home"),
    path("sources/", core_views.sources, name="sources"),
    path("cards/", core_views.cards, name="cards"),
    path("", include("rules.urls")),
    path("", include("examples.urls")),
    path("", include("play.urls")),
    prefix_default_language=True,
)

handler404 = "core.views.not_found"
handler500 = "core.views.server_error"
