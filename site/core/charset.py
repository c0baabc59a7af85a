"""Form posts in a charset other than UTF-8 get a 400 before anything reads the form.

Django refuses to decode such a form (BadRequest) wherever it is first read: in the CSRF
check, and then again in the default 400 handler, which then fails with a 500 (#25).
Answering here, before CSRF, means the form is never read at all.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def declared_charset_is_utf8(request: HttpRequest) -> bool:
    charset = request.content_params.get("charset") if request.content_params else None
    if charset is None:
        return True
    return charset.lower() == "utf-8"  # Django's own test (HttpRequest._load_post_and_files)


class FormCharsetMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.content_type in FORM_TYPES and not declared_charset_is_utf8(request):
            return HttpResponse(
                _("The form was sent in a text encoding other than UTF-8, so it was not read."),
                status=400, content_type="text/plain; charset=utf-8")
        return self.get_response(request)
