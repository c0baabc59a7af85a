"""Context every page needs: the language switcher, alternates, preferences, glossary."""

from django.conf import settings
from django.http import HttpRequest
from django.urls import translate_url
from django.utils.functional import SimpleLazyObject
from django.utils.translation import get_language, get_language_info

from .glossary import glossary
from .preferences import read_preferences


def _language_links(request: HttpRequest) -> list[dict]:
    current = get_language()
    path = request.get_full_path()
    links = []
    for code, _name in settings.LANGUAGES:
        url = translate_url(path, code)
        if url == path and code != current:
            # Not a page that exists in every language (a 404): offer each language's home.
            url = f"/{code}/"
        info = get_language_info(code)
        links.append(
            {
                "code": code,
                "name_local": info["name_local"],
                "url": url,
                "absolute_url": request.build_absolute_uri(url),
                "current": code == current,
            }
        )
    return links


def site(request: HttpRequest) -> dict:
    lang = (get_language() or settings.LANGUAGE_CODE).split("-")[0]
    return {
        # Lazy: fragments (htmx answers) never show the switcher and skip the URL work.
        "language_links": SimpleLazyObject(lambda: _language_links(request)),
        "canonical_url": request.build_absolute_uri(request.path),
        "prefs": read_preferences(request),
        "g": glossary(lang)["terms"],
        "lang": lang,
    }
