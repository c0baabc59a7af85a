"""Production settings with the failing test view (see tests/site/boom.py)."""

from config.settings.production import *  # noqa: F403
from config.settings.production import STORAGES

ROOT_URLCONF = "tests.site.boom"
# The test runs no collectstatic; the manifest storage would refuse every {% static %}.
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
