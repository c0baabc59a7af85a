"""Compressed responses: brotli where the client accepts it, gzip otherwise, BREACH-safe.

BREACH recovers a secret from the size of compressed pages that also reflect attacker-chosen
text. The only secret our pages can carry is a CSRF token, so a response that carries one
(Django then sets the CSRF cookie on it) is never sent as brotli: it gets gzip with the
random-length padding of Django's GZipMiddleware, or no compression. Pages without a token
have nothing to leak and get brotli.

A response may bring its own encodings (`response.precompressed`, set by the page cache), so
cached pages are compressed once, not per request: "br" and "gzip" for a page without
per-request parts; "padded-gzip" for one with a CSRF token, made by `gzip_from_segments` from
the page's fixed parts, deflated once when cached, and the request's own values deflated
apart (so the token shares no compression history with any other text), behind the same
random-length padding. Static files never get here: WhiteNoise serves them, with brotli and
gzip siblings made by collectstatic.
"""

import gzip
import secrets
import struct
import zlib
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


def deflate_segment(data: bytes) -> bytes:
    """`data` alone as raw deflate blocks ending on a byte boundary (a sync flush): segments
    made this way can follow one another in one stream, none referring into another."""
    compressor = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
    return compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH)


_LAST_BLOCK = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS).flush()


def gzip_from_segments(segments: list[bytes], content: bytes) -> bytes:
    """A gzip member of `content`, whose deflate segments are given in order, with the header
    padding of Django's GZipMiddleware (a file name of random length)."""
    name = b"a" * secrets.randbelow(PADDING_BYTES) + b"\0"
    header = b"\x1f\x8b\x08" + bytes([gzip.FNAME]) + b"\0\0\0\0\0\xff" + name
    trailer = struct.pack("<II", zlib.crc32(content), len(content) & 0xFFFFFFFF)
    return header + b"".join(segments) + _LAST_BLOCK + trailer


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
    precompressed: dict[str, bytes] = getattr(response, "precompressed", {})
    if "br" in accepted and not secret:
        encoding, body = "br", precompressed.get("br") or brotli_bytes(response.content)
    elif "gzip" in accepted and secret:
        encoding = "gzip"
        body = precompressed.get("padded-gzip") or compress_string(
            response.content, max_random_bytes=PADDING_BYTES
        )
    elif "gzip" in accepted:
        encoding, body = "gzip", precompressed.get("gzip") or compress_string(response.content)
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
