"""Compressed responses: brotli where the client accepts it, gzip otherwise, BREACH-safe.

BREACH recovers a secret from the size of compressed pages that also reflect attacker-chosen
text. The only secret our pages can carry is a CSRF token, so a response that carries one
(Django then sets the CSRF cookie on it) is never sent as brotli: it gets gzip with the
random-length padding of Django's GZipMiddleware, or no compression. Pages without a token
have nothing to leak and get brotli.

A response may bring its own encodings (`response.precompressed`, set by the page cache), so
cached pages are compressed once, not per request. Static files never get here: WhiteNoise
serves them, with brotli and gzip siblings made by collectstatic.
"""

from collections.abc import Callable

import brotli
from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.cache import patch_vary_headers
from django.utils.text import compress_string

# Django's GZipMiddleware pads with up to this many random bytes.
PADDING_BYTES = 100
# Below this size compression does not pay for its framing.
MIN_SIZE = 200
# A fast quality: responses compressed per request must not cost more than they save.
BROTLI_QUALITY = 5
COMPRESSIBLE = (
    "text/",
    "application/json",
    "application/javascript",
    "application/xml",
    "image/svg+xml",
)


def accepted_encodings(header: str) -> set[str]:
    """Codings named in an Accept-Encoding header with a non-zero q (RFC 9110 12.5.3)."""
    accepted = set()
    for item in header.split(","):
        coding, _, params = item.strip().partition(";")
        coding = coding.strip().lower()
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if coding and q > 0:
            accepted.add(coding)
    return accepted


def carries_csrf_token(request: HttpRequest, response: HttpResponseBase) -> bool:
    """True when the page was rendered with a CSRF token (get_token was called for it)."""
    return settings.CSRF_COOKIE_NAME in response.cookies or bool(
        request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
    )


def brotli_bytes(content: bytes) -> bytes:
    return brotli.compress(content, quality=BROTLI_QUALITY, mode=brotli.MODE_TEXT)


def gzip_bytes(content: bytes) -> bytes:
    return compress_string(content, max_random_bytes=None)


def _compressible(response: HttpResponseBase) -> bool:
    if response.streaming or response.has_header("Content-Encoding"):
        return False
    content_type = response.get("Content-Type", "").lower()
    return content_type.startswith(COMPRESSIBLE) and len(response.content) >= MIN_SIZE


def compress_response(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    if not _compressible(response):
        return response
    assert isinstance(response, HttpResponse)
    patch_vary_headers(response, ("Accept-Encoding",))
    accepted = accepted_encodings(request.META.get("HTTP_ACCEPT_ENCODING", ""))
    secret = carries_csrf_token(request, response)
    precompressed: dict[str, bytes] = {} if secret else getattr(response, "precompressed", {})
    if "br" in accepted and not secret:
        encoding, body = "br", precompressed.get("br") or brotli_bytes(response.content)
    elif "gzip" in accepted:
        encoding = "gzip"
        body = precompressed.get("gzip") or compress_string(
            response.content, max_random_bytes=PADDING_BYTES if secret else None
        )
    else:
        return response
    if len(body) >= len(response.content):
        return response
    response.content = body
    response.headers["Content-Length"] = str(len(body))
    response.headers["Content-Encoding"] = encoding
    etag = response.get("ETag")
    if etag and etag.startswith('"'):
        response.headers["ETag"] = "W/" + etag
    return response


class CompressionMiddleware:
    """Place it right after WhiteNoise: it must see the body every other middleware wrote."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return compress_response(request, self.get_response(request))
