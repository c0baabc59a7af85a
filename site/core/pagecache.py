"""Whole pages cached once per content version, so a page costs about what a static file does.

A page depends on its URL (path and query, which carry the language), the host (absolute
links), the visitor's display preferences, whether htmx asked for a fragment, and the files
it was made from: content texts and examples, templates, compiled catalogues and the figures
file. `content_version()` folds the newest modification time of those files into the key,
rechecked at most every PAGE_CACHE_RECHECK_SECONDS (content only changes on deploy).

Per-request parts stay out of the cached bytes: the page is rendered with placeholders for
the CSP nonce and the CSRF token (`render_placeholders`, a context processor), and each
request gets its own values put in. A page with neither is stored with its brotli and gzip
encodings made once; `core.compression` sends the one the client accepts. A page with a token
goes only as padded gzip (BREACH): its fixed parts are stored deflated, and each request
deflates only its own values between them.

Views opt in with `@cached_page`: only views whose output is a function of the key above may
(a page that shows a game in progress may not).
"""

from __future__ import annotations

import hashlib
import os
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import wraps
from pathlib import Path

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.middleware.csrf import get_token
from django.utils.cache import patch_vary_headers

from .compression import brotli_bytes, deflate_segment, gzip_bytes, gzip_from_segments
from .preferences import read_preferences

CACHE_ALIAS = "pages"
# Placeholders rendered in place of per-request values: letters and digits, so escaping keeps
# them, and random per process, so no visitor can write one into a page through a reflected
# query parameter and have a token put there.
NONCE_PLACEHOLDER = "pagecacheNonce" + secrets.token_hex(16)
CSRF_PLACEHOLDER = "pagecacheCsrfToken" + secrets.token_hex(16)
_RENDERING = "_page_cache_rendering"


#: further files or folders whose change changes pages (the rules app's figures file),
#: registered from the apps' AppConfig.ready, so that this bottom layer knows no app.
WATCHED: list[Callable[[], Path]] = []


def watch(path: Callable[[], Path]) -> None:
    if path not in WATCHED:
        WATCHED.append(path)


def _version_roots() -> list[Path]:
    return [
        Path(settings.CONTENT_DIR),
        *(Path(d) for t in settings.TEMPLATES for d in t.get("DIRS", [])),
        *(Path(p) for p in settings.LOCALE_PATHS),
        *(path() for path in WATCHED),
    ]


def _newest_change(path: Path) -> tuple[int, int]:
    """(newest mtime, number of entries) under path; a directory's own mtime counts too, so
    an added or removed file changes it."""
    try:
        top = path.stat()
    except FileNotFoundError:
        return 0, 0
    newest, count = top.st_mtime_ns, 1
    if path.is_dir():
        for entry in os.scandir(path):
            if entry.is_dir(follow_symlinks=False):
                sub_newest, sub_count = _newest_change(Path(entry.path))
                newest, count = max(newest, sub_newest), count + sub_count
            else:
                newest, count = max(newest, entry.stat().st_mtime_ns), count + 1
    return newest, count


_version_lock = threading.Lock()
_version: dict[str, object] = {"checked": float("-inf"), "value": ""}


def content_version() -> str:
    """A short fingerprint of every file pages are made from."""
    recheck = getattr(settings, "PAGE_CACHE_RECHECK_SECONDS", 5.0)
    now = time.monotonic()
    with _version_lock:
        if now - _version["checked"] >= recheck:  # type: ignore[operator]
            roots = _version_roots()
            marks = [str(root) + ":" + "/".join(map(str, _newest_change(root))) for root in roots]
            _version["value"] = hashlib.blake2b("|".join(marks).encode(), digest_size=8).hexdigest()
            _version["checked"] = now
        return str(_version["value"])


def clear() -> None:
    """Forget every cached page and the content version (tests start from nothing)."""
    caches[CACHE_ALIAS].clear()
    with _version_lock:
        _version["checked"] = float("-inf")


def render_placeholders(request: HttpRequest) -> dict:
    """Context processor: while a page is rendered for the cache, its nonce and CSRF token are
    placeholders. Listed after Django's csrf and csp processors, so it overrides them."""
    if getattr(request, _RENDERING, False):
        return {"csp_nonce": NONCE_PLACEHOLDER, "csrf_token": CSRF_PLACEHOLDER}
    return {}


@dataclass
class CachedPage:
    status: int
    headers: list[tuple[str, str]]
    parts: list[bytes]  # the body split at its placeholders; one part when it has none
    placeholders: list[str] = field(default_factory=list)
    precompressed: dict[str, bytes] = field(default_factory=dict)
    deflated_parts: list[bytes] = field(default_factory=list)

    @classmethod
    def from_response(cls, response: HttpResponse) -> CachedPage:
        parts, placeholders = split_at_placeholders(response.content)
        return cls(response.status_code, list(response.items()), parts, placeholders)

    def compress(self) -> None:
        """Make what can be made once: both encodings of a page without per-request parts,
        the fixed parts deflated for a page with a CSRF token."""
        if not self.placeholders:
            body = self.parts[0]
            self.precompressed = {"br": brotli_bytes(body), "gzip": gzip_bytes(body)}
        elif CSRF_PLACEHOLDER in self.placeholders:
            self.deflated_parts = [deflate_segment(part) for part in self.parts]

    def _values(self, request: HttpRequest) -> list[bytes]:
        """The request's own value for each placeholder, in order."""
        values = {}
        if NONCE_PLACEHOLDER in self.placeholders:
            # Reading the lazy nonce generates it, so the CSP header will name it too.
            values[NONCE_PLACEHOLDER] = str(request._csp_nonce).encode()  # type: ignore[attr-defined]
        if CSRF_PLACEHOLDER in self.placeholders:
            values[CSRF_PLACEHOLDER] = get_token(request).encode()
        return [values[mark] for mark in self.placeholders]

    def body_for(self, request: HttpRequest) -> bytes:
        return b"".join(_interleave(self.parts, self._values(request)))

    def respond(self, request: HttpRequest) -> HttpResponse:
        values = self._values(request)
        body = b"".join(_interleave(self.parts, values))
        response = HttpResponse(body, status=self.status)
        for name, value in self.headers:
            response.headers[name] = value
        precompressed = self.precompressed
        if self.deflated_parts:
            segments = _interleave(self.deflated_parts, [deflate_segment(v) for v in values])
            precompressed = {"padded-gzip": gzip_from_segments(segments, body)}
        response.precompressed = precompressed  # type: ignore[attr-defined]
        return response


def _interleave(parts: list[bytes], values: list[bytes]) -> list[bytes]:
    """[parts[0], values[0], parts[1], values[1], ..., parts[-1]]"""
    pieces = [parts[0]]
    for value, part in zip(values, parts[1:], strict=True):
        pieces += [value, part]
    return pieces


def split_at_placeholders(body: bytes) -> tuple[list[bytes], list[str]]:
    marks = [m for m in (NONCE_PLACEHOLDER, CSRF_PLACEHOLDER) if m.encode() in body]
    parts: list[bytes] = []
    placeholders: list[str] = []
    rest = body
    while marks:
        index, mark = min((rest.find(m.encode()), m) for m in marks)
        parts.append(rest[:index])
        placeholders.append(mark)
        rest = rest[index + len(mark) :]
        marks = [m for m in marks if m.encode() in rest]
    parts.append(rest)
    return parts, placeholders


def page_key(request: HttpRequest) -> str:
    prefs = read_preferences(request)
    parts = [
        content_version(),
        request.scheme,
        request.get_host(),
        request.get_full_path(),
        "htmx" if request.headers.get("HX-Request") == "true" else "page",
        prefs.html_classes,
    ]
    return hashlib.blake2b("\n".join(parts).encode(), digest_size=16).hexdigest()


def _cacheable(response: HttpResponseBase) -> bool:
    return (
        isinstance(response, HttpResponse)
        and not response.streaming
        and response.status_code == 200
        and not response.cookies
        and not response.has_header("Content-Encoding")
    )


def cached_page(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """Serve the view's page from the cache; render it (with placeholders) on a miss."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponseBase:
        if request.method not in ("GET", "HEAD"):
            return view(request, *args, **kwargs)
        cache = caches[CACHE_ALIAS]
        key = page_key(request)
        page = cache.get(key)
        if page is None:
            setattr(request, _RENDERING, True)
            try:
                response = view(request, *args, **kwargs)
            finally:
                setattr(request, _RENDERING, False)
            if not _cacheable(response):
                # Rendered with placeholders, so it must not be sent as it is.
                return _without_placeholders(request, response)
            page = CachedPage.from_response(response)  # type: ignore[arg-type]
            page.compress()
            cache.set(key, page, timeout=None)
        response = page.respond(request)
        patch_vary_headers(response, ("Cookie",))
        return response

    return wrapper


def _without_placeholders(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    if isinstance(response, HttpResponse) and not response.streaming:
        response.content = CachedPage.from_response(response).body_for(request)
    return response
