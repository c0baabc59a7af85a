"""Request middleware that Django's own locale handling needs around it."""

import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

# Browsers in Norway announce `no`, `no-NO`, `nn` or `nn-NO`; Django knows none of them as
# Bokmål and would fall back to English. `nn` readers get Bokmål too: the closest we have.
_NORWEGIAN = re.compile(r"(?<![\w-])(?:no|nn)(?:-[A-Za-z]{2})?(?=\s*(?:;|,|$))", re.IGNORECASE)


def normalise_accept_language(header: str) -> str:
    return _NORWEGIAN.sub("nb", header)


class NorwegianLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        header = request.META.get("HTTP_ACCEPT_LANGUAGE")
        if header:
            request.META["HTTP_ACCEPT_LANGUAGE"] = normalise_accept_language(header)
        return self.get_response(request)
