"""A request id for every request, carried by every log line written while it is served.

The id goes back to the client in `X-Request-ID` and onto the 500 page, so a visitor's report
finds the traceback. Each request also writes one access line (method, path, status, time),
which works the same under gunicorn, runserver or any other server.
"""

import logging
import re
import time
import uuid
from collections.abc import Callable
from contextvars import ContextVar

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.log import log_message

RESPONSE_HEADER = "X-Request-ID"
NO_REQUEST = "-"
# An id handed over by a trusted proxy is kept only if it cannot forge or break a log line.
_TRUSTED_ID = re.compile(r"[A-Za-z0-9._:-]{8,128}")

_current: ContextVar[str] = ContextVar("request_id", default=NO_REQUEST)
access_logger = logging.getLogger("stress.access")


def current_request_id() -> str:
    return _current.get()


def new_request_id(request: HttpRequest) -> str:
    """The proxy's id when settings name its header and it looks like one; a fresh one else."""
    header = getattr(settings, "REQUEST_ID_HEADER", "")
    incoming = request.headers.get(header, "") if header else ""
    return incoming if _TRUSTED_ID.fullmatch(incoming) else uuid.uuid4().hex


class RequestIdFilter(logging.Filter):
    """Gives every record a `request_id` attribute for the formatter ("-" outside requests)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = _current.get()
        return True


class RequestIdMiddleware:
    """Outermost middleware: the id is set before anything can log and cleared afterwards."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = new_request_id(request)
        request.request_id = request_id
        token = _current.set(request_id)
        started = time.perf_counter()
        try:
            response = self.get_response(request)
            response[RESPONSE_HEADER] = request_id
            elapsed_ms = (time.perf_counter() - started) * 1000
            # log_message escapes its arguments: a crafted path cannot forge a second line.
            log_message(
                access_logger,
                "%s %s %s %.1fms",
                request.method or "",
                request.get_full_path(),
                response.status_code,
                elapsed_ms,
                level="info",
                request=request,
            )
            return response
        finally:
            _current.reset(token)


class ClientErrorFilter(logging.Filter):
    """A client's mistake is one warning line, never a traceback (#25).

    Django logs a wrong Host header, an oversized form or body, too many fields and other
    SuspiciousOperations through `django.security.*` at ERROR with the exception attached,
    and 4xx responses through `django.request`: for the operator each is one line
    (WARNING, the request id, the reason) beside the request's access line. Control
    characters in the reason (it quotes what the client sent) are escaped, so no second
    line can be forged."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        client_error = record.name.startswith("django.security") or (
            isinstance(status, int) and 400 <= status < 500)
        if client_error:
            message = record.getMessage()
            record.msg = message.encode("unicode_escape").decode("ascii") if any(
                ch < " " for ch in message) else message
            record.args = ()
            record.exc_info = record.exc_text = record.stack_info = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True
