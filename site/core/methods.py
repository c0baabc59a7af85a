"""Which HTTP methods a view answers, declared once and enforced before the CSRF check.

`allow("GET")` wraps a view in Django's `require_http_methods` (HEAD comes with GET) and
records the methods on it, so `MethodNotAllowedMiddleware` can answer any other method with
405 and an `Allow` header before CsrfViewMiddleware would turn a token-less POST into a 403.
Views decorated with Django's own `require_safe`, `require_POST` or `require_http_methods`
get the same treatment: their method list is read from the decorator.
"""

import inspect
from collections.abc import Callable
from functools import cache
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.utils.log import log_response
from django.views.decorators.http import require_http_methods

View = Callable[..., HttpResponse]


def allow(*methods: str) -> Callable[[View], View]:
    allowed = set(methods) | ({"HEAD"} if "GET" in methods else set())
    ordered = sorted(allowed)

    def decorate(view: View) -> View:
        wrapped = require_http_methods(ordered)(view)
        wrapped.allowed_methods = frozenset(allowed)  # type: ignore[attr-defined]
        return wrapped

    return decorate


@cache
def declared_methods(view: Callable) -> frozenset[str] | None:
    """The methods a view answers, if it says: `allow`'s record, or the list Django's
    `require_http_methods` closed over (tests/site/test_hardening.py checks that this still
    holds for the Django in use). None for a view that names no methods."""
    layer: Callable | None = view
    while layer is not None:
        recorded = getattr(layer, "allowed_methods", None)
        if recorded is not None:
            return frozenset(recorded)
        try:
            enclosed = inspect.getclosurevars(layer).nonlocals.get("request_method_list")
        except TypeError:
            enclosed = None
        if enclosed:
            return frozenset(enclosed)
        layer = getattr(layer, "__wrapped__", None)
    return None


class EmptyHeadMiddleware:
    """A HEAD response keeps the GET's headers (Content-Length included) and drops the body,
    which gunicorn would otherwise drop itself with a warning per request."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.method == "HEAD":
            if response.streaming:
                response.streaming_content = []
            else:
                response.content = b""
        return response


class MethodNotAllowedMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: View, args: Any, kwargs: Any
    ) -> HttpResponse | None:
        allowed = declared_methods(view)
        if allowed is None or request.method in allowed:
            return None
        response = HttpResponseNotAllowed(sorted(allowed))
        log_response(
            "Method Not Allowed (%s): %s", request.method, request.path,
            response=response, request=request,
        )
        return response
