"""Real requests for each route, found the way a visitor finds them: links and forms.

Starting from the home pages, the crawler follows every same-site link (href, hx-get, ...)
and submits every form once with its own values (the first named submit button pressed),
following redirects. What it keeps per route are samples: real path values and real query
or form values to bend. A route no page leads to gets a sample built from its converters.
"""

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from html.parser import HTMLParser
from urllib.parse import parse_qsl, unquote, urljoin, urlsplit

from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.translation import get_language_from_path

from .routes import Route, route_of
from .transport import FuzzRequest

LINK_ATTRIBUTES = ("href", "hx-get", "hx-post", "hx-put", "hx-patch", "hx-delete", "action")


@dataclass(frozen=True)
class Sample:
    route: Route
    lang: str
    values: dict  # path parameter -> raw value
    request: FuzzRequest


@dataclass
class _Form:
    method: str
    action: str
    fields: list
    button: tuple[str, str] | None = None


class PageParser(HTMLParser):
    """Links (with the method an hx-* attribute implies) and forms of one page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[tuple[str, str]] = []
        self.forms: list[_Form] = []
        self._form: _Form | None = None
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = {k: v or "" for k, v in attrs}
        for name in LINK_ATTRIBUTES[:-1]:
            if a.get(name) and (name != "href" or tag in ("a", "link")):
                method = "GET" if name in ("href", "hx-get") else name[3:].upper()
                self.links.append((method, a[name]))
        if tag == "form":
            self._form = _Form((a.get("method") or "get").upper(), a.get("action", ""), [])
            self.forms.append(self._form)
        elif self._form is not None and a.get("name"):
            if tag == "input" and a.get("type") not in ("submit", "image", "button", "file"):
                self._form.fields.append((a["name"], a.get("value", "")))
            elif tag in ("button", "input") and self._form.button is None:
                self._form.button = (a["name"], a.get("value", ""))
            elif tag == "textarea":
                self._form.fields.append((a["name"], ""))
            elif tag == "select":
                self._select = a["name"]
        if tag == "option" and self._select and self._form is not None:
            self._form.fields.append((self._select, a.get("value", "")))
            self._select = None

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None


def requests_on_page(page_url: str, html: str, host: str) -> list[FuzzRequest]:
    parser = PageParser()
    parser.feed(html)
    found = []
    for method, link in parser.links:
        request = _request(method, urljoin(page_url, link), (), host)
        if request:
            found.append(request)
    for form in parser.forms:
        fields = tuple(form.fields) + ((form.button,) if form.button else ())
        action = urljoin(page_url, form.action or page_url)
        if form.method == "GET":
            request = _request("GET", urlsplit(action)._replace(query="").geturl(), (), host)
            request = request and request.with_(query=fields)
        else:
            request = _request(form.method, action, fields, host)
        if request:
            found.append(request)
    return found


def _request(method: str, url: str, form: tuple, host: str) -> FuzzRequest | None:
    parts = urlsplit(url)
    if parts.scheme not in ("", "http", "https") or parts.netloc not in ("", host):
        return None
    query = tuple(parse_qsl(parts.query, keep_blank_values=True))
    return FuzzRequest(method, parts.path or "/", query=query, form=form)


def match(routes: list[Route], path: str) -> tuple[Route, str, dict] | None:
    """The route a path resolves to, its language and its path values as URL text."""
    lang = get_language_from_path(path) or "en"
    with translation.override(lang):
        try:
            found = resolve(path)
        except Resolver404:
            return None
    route = route_of(routes, found.route, lang)
    if route is None:
        return None
    converters = {}
    for part in route.parts:
        converters.update(getattr(part, "converters", {}))
    values = {
        name: converters[name].to_url(value) if name in converters else str(value)
        for name, value in found.kwargs.items()
    }
    return route, lang, values


def crawl(
    send, routes: list[Route], starts: Iterable[str], host: str, *,
    max_requests: int = 150, per_shape: int = 2,
) -> list[Sample]:
    """Samples for the routes the site's pages lead to (at most per_shape of each shape)."""
    queue = deque(FuzzRequest("GET", start) for start in starts)
    seen: set = set()
    shapes: dict = {}
    samples: list[Sample] = []
    sent = 0
    while queue and sent < max_requests:
        request = queue.popleft()
        key = (request.method, request.url, request.form)
        if key in seen:
            continue
        seen.add(key)
        found = match(routes, unquote(request.path))
        if found:
            route, lang, values = found
            names = frozenset(k for k, _ in request.query + request.form)
            shape = (route.label, request.method, names)
            if shapes.get(shape, 0) >= per_shape:
                continue
            shapes[shape] = shapes.get(shape, 0) + 1
            samples.append(Sample(route, lang, values, request))
        response = send(request)
        sent += 1
        location = response.headers.get("location")
        if location and 300 <= response.status < 400:
            follow = _request("GET", urljoin(request.path, location), (), host)
            if follow:
                queue.append(follow)
        if response.html and response.status < 400:
            queue.extend(requests_on_page(request.path, response.body, host))
    return samples
