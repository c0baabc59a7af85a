"""`/healthz` for a load balancer: can this instance serve pages right now?

It answers 200 when the database answers a query and takes a write (rolled back), every
variant's rules text loads in every site language, and every catalogue translates; 503 with
the failing checks otherwise. It sits outside i18n_patterns (no language redirect) and is
exempt from the HTTPS redirect, so a probe over plain HTTP inside the network gets the
answer itself.
"""

from collections.abc import Callable

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.http import HttpRequest, JsonResponse
from django.utils import translation
from django.views.decorators.cache import never_cache

from .dbwrite import forget_connection, is_read_only
from .methods import allow

# A msgid every catalogue translates (the site's name in the page title).
CATALOGUE_PROBE = "Stress card games"


def database_answers() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except DatabaseError:
        return False


#: the apps' own content checks (the rules app's: every rules text loads), registered from
#: their AppConfig.ready, so that this bottom layer knows no app.
CONTENT_CHECKS: list[Callable[[], bool]] = []


def register_content_check(check: Callable[[], bool]) -> None:
    if check not in CONTENT_CHECKS:
        CONTENT_CHECKS.append(check)


def database_writes() -> bool:
    """A real write, rolled back: a read-only database answers SELECT 1 but serves no game
    (each game request writes its catch-up). Refused, it is tried once more on a fresh
    connection: the refused one may date from before the database became writable again."""
    for _attempt in range(2):
        try:
            with transaction.atomic():
                with connection.cursor() as cursor:
                    cursor.execute("UPDATE django_migrations SET applied = applied WHERE id = "
                                   "(SELECT MIN(id) FROM django_migrations)")
                transaction.set_rollback(True)
            return True
        except DatabaseError as error:
            if not is_read_only(error):
                return False
            forget_connection()
    return False


def content_loaded() -> bool:
    languages = [code for code, _name in settings.LANGUAGES]
    glossaries = settings.CONTENT_DIR / "glossary"
    try:
        return all((glossaries / f"{lang}.toml").is_file() for lang in languages) and all(
            check() for check in CONTENT_CHECKS
        )
    except (OSError, ValueError):
        return False


def catalogues_loaded() -> bool:
    for code, _name in settings.LANGUAGES:
        if code == settings.LANGUAGE_CODE:
            continue  # English is the msgid itself
        with translation.override(code):
            if translation.gettext(CATALOGUE_PROBE) == CATALOGUE_PROBE:
                return False
    return True


CHECKS: dict[str, Callable[[], bool]] = {
    "database": database_answers,
    "writes": database_writes,
    "content": content_loaded,
    "catalogues": catalogues_loaded,
}


@never_cache
@allow("GET")
def healthz(request: HttpRequest) -> JsonResponse:
    failing: list[str] = []
    for name, check in CHECKS.items():
        if name == "writes" and "database" in failing:
            continue  # no write is tried on a database that does not answer at all
        if not check():
            failing.append(name)
    if failing:
        return JsonResponse({"status": "unavailable", "failing": failing}, status=503)
    return JsonResponse({"status": "ok"})
