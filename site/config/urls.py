from django.conf.urls.i18n import i18n_patterns
from django.urls import include, path

from core import views as core_views
from core.health import healthz

urlpatterns = [
    path("prefs/", core_views.preferences, name="preferences"),
    path("healthz", healthz, name="healthz"),
]

urlpatterns += i18n_patterns(
    path("", core_views.home, name="home"),
    path("sources/", core_views.sources, name="sources"),
    path("cards/", core_views.cards, name="cards"),
    path("", include("rules.urls")),
    path("", include("examples.urls")),
    prefix_default_language=True,
)

handler404 = "core.views.not_found"
handler500 = "core.views.server_error"
