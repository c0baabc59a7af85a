"""Which query, form and cookie names each view reads, recorded rather than registered.

RecordingMiddleware (first in the chain, test runs only) swaps request.GET, request.POST and
request.COOKIES for copies that note every name asked for, present or not. Replaying a route's
samples (plain, as htmx, as a POST) through it yields the names its view, its templates and
the middleware read. A view that iterates over all of them is marked, and gets made-up names.
"""

from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field

import hypothesis
from django.http import HttpRequest, HttpResponse, QueryDict
from django.test import override_settings
from hypothesis import strategies as st

from .crawl import Sample
from .routes import Route
from .transport import FuzzRequest, InProcess

RECORDER = "tests.fuzz.discovery.RecordingMiddleware"


@dataclass
class Reads:
    names: dict[str, set[str]] = field(
        default_factory=lambda: {"query": set(), "form": set(), "cookie": set()}
    )
    everything: set[str] = field(default_factory=set)


_reads: ContextVar[Reads | None] = ContextVar("fuzz_reads", default=None)


def _note(source: str, key: object) -> None:
    reads = _reads.get()
    if reads is not None and isinstance(key, str):
        reads.names[source].add(key)


def _note_all(source: str) -> None:
    reads = _reads.get()
    if reads is not None:
        reads.everything.add(source)


class RecordingQueryDict(QueryDict):
    source = "query"

    def __getitem__(self, key):
        _note(self.source, key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        _note(self.source, key)
        return super().get(key, default)

    def getlist(self, key, default=None):
        _note(self.source, key)
        return super().getlist(key, default)

    def __contains__(self, key):
        _note(self.source, key)
        return super().__contains__(key)

    def __iter__(self):
        _note_all(self.source)
        return super().__iter__()

    def items(self):
        _note_all(self.source)
        return super().items()

    def lists(self):
        _note_all(self.source)
        return super().lists()

    def keys(self):
        _note_all(self.source)
        return super().keys()

    def dict(self):
        _note_all(self.source)
        return super().dict()


class RecordingFormDict(RecordingQueryDict):
    source = "form"


class RecordingCookies(dict):
    def __getitem__(self, key):
        _note("cookie", key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        _note("cookie", key)
        return super().get(key, default)

    def __contains__(self, key):
        _note("cookie", key)
        return super().__contains__(key)

    def __iter__(self):
        _note_all("cookie")
        return super().__iter__()

    def items(self):
        _note_all("cookie")
        return super().items()


def _recording(original: QueryDict, cls: type[RecordingQueryDict]) -> RecordingQueryDict:
    copy = cls(mutable=True, encoding=original.encoding)
    for key, values in original.lists():
        copy.setlist(key, values)
    copy._mutable = False
    return copy


class RecordingMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.GET = _recording(request.GET, RecordingQueryDict)
        if request.method == "POST":
            request.POST = _recording(request.POST, RecordingFormDict)
        request.COOKIES = RecordingCookies(request.COOKIES)
        return self.get_response(request)


@dataclass
class RouteProfile:
    """A route, real requests for it and every name its view was seen to read."""

    route: Route
    samples: list[Sample]
    query: list[str]
    form: list[str]
    cookies: list[str]
    reads_everything: list[str]
    methods: list[str]  # GET and/or POST: the ones the view answered without a 405


def regex_examples(regex: str, count: int = 3) -> list[str]:
    """The simplest strings a converter accepts (hypothesis shrinks to them, repeatably)."""
    found: list[str] = []
    strategy = st.from_regex(regex, fullmatch=True)
    quiet = hypothesis.settings(database=None, max_examples=200, phases=list(hypothesis.Phase))
    for _ in range(count):
        try:
            found.append(hypothesis.find(strategy, lambda s: s not in found, settings=quiet))
        except (hypothesis.errors.NoSuchExample, hypothesis.errors.Unsatisfiable):
            break
    return found


def synthetic_sample(route: Route, lang: str) -> Sample:
    values = {p.name: (regex_examples(p.regex, 1) or ["a"])[0] for p in route.params}
    return Sample(route, lang, values, FuzzRequest("GET", route.path(lang, values)))


def _variants(sample: Sample) -> list[FuzzRequest]:
    request = sample.request
    form = request.form or request.query
    return [
        request,
        request.with_(headers=(("HX-Request", "true"),)),
        request.with_(method="POST", form=form),
        request.with_(method="GET", query=(), form=()),
    ]


def discover(routes: list[Route], crawled: list[Sample], lang: str = "en") -> list[RouteProfile]:
    """One profile per route: crawled samples (or one built from its converters) and the
    names the view reads, found by replaying the samples through RecordingMiddleware."""
    from django.conf import settings

    profiles = []
    with override_settings(MIDDLEWARE=[RECORDER, *settings.MIDDLEWARE]):
        # A new client loads the middleware chain on its first request: inside the override.
        transport = InProcess(secure=getattr(settings, "SECURE_SSL_REDIRECT", False))
        for route in routes:
            samples = [s for s in crawled if s.route == route] or [synthetic_sample(route, lang)]
            reads = Reads()
            answered = set()
            token = _reads.set(reads)
            try:
                for sample in samples:
                    for request in _variants(sample):
                        if transport.send(request).status != 405:
                            answered.add(request.method)
            finally:
                _reads.reset(token)
            seen_query = {k for s in samples for k, _ in s.request.query}
            seen_form = {k for s in samples for k, _ in s.request.form}
            profiles.append(
                RouteProfile(
                    route=route,
                    samples=samples,
                    query=sorted(reads.names["query"] | seen_query),
                    form=sorted(reads.names["form"] | seen_form),
                    cookies=sorted(reads.names["cookie"]),
                    reads_everything=sorted(reads.everything),
                    methods=sorted(answered) or ["GET"],
                )
            )
    return profiles


def profile_site(
    starts: tuple[str, ...] = ("/", "/en/"), host: str = "testserver"
) -> list[RouteProfile]:
    """Every route of the active URLconf, crawled from `starts` and then profiled."""
    from django.conf import settings

    from .crawl import crawl
    from .routes import all_routes

    routes = all_routes()
    transport = InProcess(secure=getattr(settings, "SECURE_SSL_REDIRECT", False))
    return discover(routes, crawl(transport.send, routes, starts, host))
