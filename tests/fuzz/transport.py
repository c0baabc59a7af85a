"""Requests as data, sent in-process (Django's test client) or over HTTP (gunicorn)."""

import contextlib
import http.client
import re
import traceback
from dataclasses import dataclass, field, replace
from urllib.parse import quote, urlencode

from django.test import Client

FORM_TYPE = "application/x-www-form-urlencoded"
CSRF_FIELD = "csrfmiddlewaretoken"
_TOKEN = re.compile(r"[A-Za-z0-9]{32,64}")


def encode_pairs(pairs: tuple[tuple[str, str], ...]) -> str:
    return urlencode(pairs, quote_via=quote, errors="surrogateescape")


@dataclass(frozen=True)
class FuzzRequest:
    method: str
    path: str  # percent-encoded
    query: tuple[tuple[str, str], ...] = ()
    form: tuple[tuple[str, str], ...] = ()
    headers: tuple[tuple[str, str], ...] = ()
    cookies: tuple[tuple[str, str], ...] = ()
    extra_query: str = ""  # appended verbatim (e.g. a thousand fields)
    content_type: str = ""  # a form's own Content-Type (e.g. with a charset); FORM_TYPE else
    raw_body: bytes = b""  # sent as the body instead of the form (e.g. 3 MB)

    @property
    def url(self) -> str:
        query = "&".join(q for q in (encode_pairs(self.query), self.extra_query) if q)
        return f"{self.path}?{query}" if query else self.path

    @property
    def body(self) -> bytes:
        return self.raw_body or encode_pairs(self.form).encode("ascii")

    @property
    def form_type(self) -> str:
        return self.content_type or FORM_TYPE

    def with_(self, **changes) -> "FuzzRequest":
        return replace(self, **changes)

    def describe(self, limit: int = 300) -> str:
        text = f"{self.method} {self.url}"
        if self.form:
            text += f" form={self.form!r}"
        if self.headers:
            text += f" headers={self.headers!r}"
        if self.cookies:
            text += f" cookies={self.cookies!r}"
        if self.content_type:
            text += f" content-type={self.content_type!r}"
        if self.raw_body:
            text += f" body of {len(self.raw_body)} bytes"
        return text if len(text) <= limit else text[:limit] + f"… ({len(text)} chars)"


@dataclass
class FuzzResponse:
    status: int
    headers: dict[str, str] = field(default_factory=dict)
    body: str = ""
    error: str = ""  # the traceback when the view raised (in-process only)
    # "server" when the HTTP server refused the request before Django saw it (e.g. 414).
    origin: str = "django"

    @property
    def html(self) -> bool:
        return self.headers.get("content-type", "").startswith("text/html")


def _cookie_header(cookies: tuple[tuple[str, str], ...]) -> str:
    return "; ".join(f"{k}={v}" for k, v in cookies).replace("\r", "").replace("\n", "")


def _as_wsgi(value: str) -> str:
    """A header as a WSGI server hands it over: the UTF-8 bytes, read as latin-1."""
    return value.encode("utf-8", "surrogateescape").decode("latin-1")


class InProcess:
    """Django's test client; `secure` sends every request as HTTPS (production redirects)."""

    def __init__(self, *, secure: bool = False) -> None:
        self.client = Client(raise_request_exception=True)
        self.secure = secure

    def send(self, request: FuzzRequest) -> FuzzResponse:
        self.client.cookies.clear()
        headers = {name: _as_wsgi(value) for name, value in request.headers}
        if request.cookies:
            headers["cookie"] = _as_wsgi(_cookie_header(request.cookies))
        try:
            response = self.client.generic(
                request.method, request.url, data=request.body,
                content_type=request.form_type if request.form or request.raw_body
                else "application/octet-stream",
                secure=self.secure, headers=headers,
            )
        except Exception:
            return FuzzResponse(500, error=traceback.format_exc())
        streamed = response.streaming
        content = b"".join(response.streaming_content) if streamed else response.content
        found = {k.lower(): v for k, v in response.headers.items()}
        if response.cookies:
            found["set-cookie"] = response.cookies.output()
        return FuzzResponse(response.status_code, found, content.decode("utf-8", "replace"))


class OverHttp:
    """Raw HTTP to a running server (one connection per request, as gunicorn's sync workers
    close them). Requests go as HTTPS behind a proxy (X-Forwarded-Proto) with a CSRF token,
    so POSTs reach the views; hostile cookies or headers override either."""

    def __init__(self, host: str, port: int, server_name: str) -> None:
        self.host, self.port, self.server_name = host, port, server_name
        self.csrf_cookie = ""
        self.csrf_token = ""

    def prime_csrf(self, page_path: str) -> None:
        response = self.send(FuzzRequest("GET", page_path))
        cookie = response.headers.get("set-cookie", "")
        if "csrftoken=" in cookie:
            self.csrf_cookie = cookie.split("csrftoken=", 1)[1].split(";", 1)[0]
        # Only pages that post carry a token: in htmx's headers or in a form's hidden field.
        for marker in ('"x-csrftoken": "', 'name="csrfmiddlewaretoken" value="'):
            if marker in response.body:
                self.csrf_token = response.body.split(marker, 1)[1].split('"', 1)[0]
                break

    def send(self, request: FuzzRequest) -> FuzzResponse:
        headers = {
            "Host": self.server_name,
            "X-Forwarded-Proto": "https",
            "Origin": f"https://{self.server_name}",
        }
        if self.csrf_token:
            headers["X-CSRFToken"] = self.csrf_token
        cookies = dict(request.cookies)
        if self.csrf_cookie:
            cookies.setdefault("csrftoken", self.csrf_cookie)
        if cookies:
            headers["Cookie"] = _cookie_header(tuple(cookies.items()))
        for name, value in request.headers:
            headers[name] = value
        if self.csrf_token and any(k == CSRF_FIELD for k, _ in request.form):
            # A crawled form's token belongs to another session; a bent one stays bent.
            request = request.with_(form=tuple(
                (k, self.csrf_token if k == CSRF_FIELD and _TOKEN.fullmatch(v) else v)
                for k, v in request.form
            ))
        body = request.body if request.form or request.raw_body else b""
        if request.form or request.raw_body:
            headers["Content-Type"] = request.form_type
        connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            connection.putrequest(request.method, request.url, skip_host=True,
                                  skip_accept_encoding=True)
            for name, value in headers.items():
                # Bytes as a browser would send them; a bare CR or LF is refused by
                # http.client itself, so those are folded out.
                raw = value.encode("utf-8", "surrogateescape").replace(b"\r", b"").replace(
                    b"\n", b"")
                connection.putheader(name, raw)
            connection.putheader("Content-Length", str(len(body)))
            # The server may answer a body over its limit before reading all of it and close:
            # its answer may still be there to read.
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                connection.endheaders(body)
            try:
                response = connection.getresponse()
            except (ConnectionError, http.client.HTTPException):
                return FuzzResponse(0, error="closed before answering", origin="server")
            content = response.read()
            found: dict[str, str] = {}
            for name, value in response.getheaders():
                key = name.lower()
                found[key] = f"{found[key]}\n{value}" if key in found else value
            origin = "django" if "x-request-id" in found else "server"
            return FuzzResponse(
                response.status, found, content.decode("utf-8", "replace"), origin=origin
            )
        finally:
            connection.close()
