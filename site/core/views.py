"""Pages that belong to no single variant: home, sources, the card gallery, preferences."""

import logging

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseForbidden,
    HttpResponseRedirect,
    HttpResponseServerError,
)
from django.shortcuts import render
from django.urls import get_callable
from django.utils.html import escape
from django.utils.http import url_has_allowed_host_and_scheme
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt

from .catalogue import all_variants
from .glossary import current_lang
from .methods import allow
from .pagecache import cached_page
from .preferences import COOKIE_MAX_AGE, PREFERENCES
from .requestlog import current_request_id

logger = logging.getLogger(__name__)

LANGUAGE_NAMES = dict(settings.LANGUAGES)


@allow("GET")
@cached_page
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "core/home.html", {"variants": all_variants(current_lang())})


@allow("GET")
@cached_page
def sources(request: HttpRequest) -> HttpResponse:
    lang = current_lang()
    rows = [
        {
            "entry": entry,
            "file": entry.info.source_file,
            "language": LANGUAGE_NAMES[entry.info.source_language],
        }
        for entry in all_variants(lang)
    ]
    return render(request, "core/sources.html", {"rows": rows})


@allow("GET")
@cached_page
def cards(request: HttpRequest) -> HttpResponse:
    suits = "SHDC"
    ranks = "A23456789TJQK"
    return render(
        request,
        "core/cards.html",
        {
            "suit_rows": [[r + s for r in ranks] for s in suits],
            "face_down_pile": [{"card": None, "up": False}] * 3,
            "sample_centre": [{"card": c, "up": True} for c in ("4C", "5H", "6D", "7H")],
            "empty": [],
        },
    )


def posted_from_this_site(request: HttpRequest) -> bool:
    """Fetch metadata or Origin, one of which every current browser sends with a form post.
    A client that sends neither is let through: at worst a forged post from a very old
    browser switches a visitor's display settings."""
    fetch_site = request.headers.get("Sec-Fetch-Site")
    if fetch_site is not None:
        return fetch_site in ("same-origin", "none")
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    return origin == f"{request.scheme}://{request.get_host()}" or (
        origin in settings.CSRF_TRUSTED_ORIGINS
    )


# Display preferences are the only form on every page. Guarding them with a CSRF token would
# put a token (a secret, see core.compression) into every page and make every page
# per-request; they only set two display cookies, so the browser's origin headers guard them.
@csrf_exempt
@allow("POST")
def preferences(request: HttpRequest) -> HttpResponse:
    if not posted_from_this_site(request):
        return get_callable(settings.CSRF_FAILURE_VIEW)(request, reason="cross-site post")
    target = request.POST.get("next", "/")
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        target = "/"
    response = HttpResponseRedirect(target)
    for name in PREFERENCES:
        if name in request.POST:
            on = request.POST[name] == "1"
            response.set_cookie(
                f"pref-{name}",
                "1" if on else "0",
                max_age=COOKIE_MAX_AGE,
                samesite="Lax",
                secure=request.is_secure(),
                httponly=True,
            )
    return response


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """A refused request: the reason a view gave (`PermissionDenied(reason)`), as it stands, so
    that a game page shows it in place of the board (static/js/play.js swaps 403s in); without
    one (the admin's), Django's own page."""
    if exception is not None and str(exception):
        return HttpResponseForbidden(escape(str(exception)))
    return defaults.permission_denied(request, exception or PermissionDenied())


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return render(request, "404.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    """The translated page with the request id to quote; plain text if even that fails."""
    request_id = current_request_id()
    try:
        return render(request, "500.html", {"request_id": request_id}, status=500)
    except Exception:
        logger.exception("the 500 page could not be rendered")
        return HttpResponseServerError(
            f"Server error. Request id: {request_id}", content_type="text/plain; charset=utf-8"
        )
