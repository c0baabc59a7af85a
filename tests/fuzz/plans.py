"""From route profiles to hostile requests: a fixed matrix (the suite's quick profile) and a
hypothesis strategy (the long campaign). Both bend one route's real requests."""

from dataclasses import dataclass
from urllib.parse import quote

from hypothesis import strategies as st

from .crawl import Sample
from .discovery import RouteProfile
from .payloads import (
    BAD_HOSTS,
    CHARSETS,
    CORE,
    DEALT,
    MARKER,
    PAYLOADS,
    QUICK,
    Payload,
    core_splices,
    json_shapes,
    path_payloads,
    splices,
)
from .transport import FORM_TYPE, FuzzRequest

OTHER_METHODS = ("POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "HEAD")
HTMX = ("HX-Request", "true")
HEADER_TARGETS = (
    "HX-Target", "HX-Current-URL", "HX-Trigger", "Accept-Language", "X-Request-ID", "Referer",
    "User-Agent", "X-Forwarded-For",
)
TOO_MANY_FIELDS = "&".join(f"f{i}=1" for i in range(1100))


@dataclass(frozen=True)
class Planned:
    label: str  # the route and what was bent
    request: FuzzRequest
    payloads: tuple[str, ...] = ()  # markup that must not come back verbatim
    declared: frozenset[str] = frozenset()  # methods the route's view says it answers

    @staticmethod
    def of(
        label: str, request: FuzzRequest, values: list[str],
        declared: frozenset[str] = frozenset(),
    ) -> "Planned":
        markup = tuple(v for v in values if Payload("", v).markup)
        return Planned(label, request, markup, declared)


def _path(sample: Sample, lang: str, overrides: dict[str, str] | None = None) -> str:
    values = {**sample.values, **(overrides or {})}
    if all(p.name in values for p in sample.route.params):
        return sample.route.path(lang, values)
    return sample.request.path


def _set(pairs: tuple, name: str, value: str) -> tuple:
    kept = tuple((k, v) for k, v in pairs if k != name)
    return (*kept, (name, value))


def _valid(profile: RouteProfile, name: str) -> str:
    for sample in profile.samples:
        for key, value in (*sample.request.query, *sample.request.form):
            if key == name and value:
                return value
    return ""


def _richest(profile: RouteProfile, method: str | None = None) -> Sample:
    pool = [s for s in profile.samples if method is None or s.request.method == method]
    pool = pool or profile.samples
    return max(pool, key=lambda s: len(s.request.query) + len(s.request.form))


def dealt(names: list[str], profile: RouteProfile) -> dict[str, list[Payload]]:
    """Each name's quick values: the core ones and core splices of its real value, every
    shape of each field when the value is a JSON object, plus its share of the others (all
    of them go to some name), plus its share of the other splices."""
    schedule = {}
    for i, name in enumerate(names):
        valid = _valid(profile, name)
        extra = [p for j, p in enumerate(DEALT) if j % len(names) == i]
        shapes = json_shapes(valid)
        rest = [p for p in splices(valid) if p not in core_splices(valid) and p not in shapes]
        mine = [p for j, p in enumerate(rest) if j % len(names) == i]
        schedule[name] = [*CORE, *core_splices(valid), *shapes, *extra, *mine]
    return schedule


def quick_plan(profile: RouteProfile, langs: list[str]) -> list[Planned]:
    """Every discovered parameter with every quick payload, one at a time, plus wrong
    methods, repeated parameters, hostile cookies and headers, and too many fields."""
    route = profile.route.label
    base = _richest(profile)
    plan: list[Planned] = []

    def add(label: str, request: FuzzRequest, values: list[str]) -> None:
        plan.append(Planned.of(label, request, values, profile.route.declared_methods))

    def lang() -> str:
        return langs[len(plan) % len(langs)]

    def headers() -> tuple:
        return (HTMX,) if len(plan) % 2 else ()

    for param in profile.route.params:
        valid = base.values.get(param.name, "")
        refused = 0
        for payload in path_payloads(valid, quick=True):
            if not param.reaches_view(payload.value):
                refused += 1
                if refused > 2:
                    continue
            request = base.request.with_(
                path=_path(base, lang(), {param.name: payload.value}), headers=headers())
            add(f"{route} path {param.name}: {payload.kind}", request, [payload.value])

    get_base = base.request.with_(method="GET", form=())
    for name, payloads in dealt(profile.query, profile).items():
        for payload in payloads:
            request = get_base.with_(
                path=_path(base, lang()), query=_set(get_base.query, name, payload.value),
                headers=headers())
            add(f"{route} query {name}: {payload.kind}", request, [payload.value])

    if profile.form:
        post = _richest(profile, "POST")
        post_base = post.request.with_(method="POST", form=post.request.form or post.request.query)
        for name, payloads in dealt(profile.form, profile).items():
            for payload in payloads:
                request = post_base.with_(
                    path=_path(post, lang()), form=_set(post_base.form, name, payload.value),
                    headers=headers())
                add(f"{route} form {name}: {payload.kind}", request, [payload.value])
        for charset in CHARSETS:
            add(f"{route} form charset {charset}", post_base.with_(
                path=_path(post, lang()), content_type=f"{FORM_TYPE}; charset={charset}"), [])

    for hostile in (f"<script>{MARKER}()</script>", "²", "9" * 5000):
        repeated = tuple((n, v) for n in profile.query for v in (_valid(profile, n), hostile))
        add(f"{route} repeated parameters", get_base.with_(
            path=_path(base, lang()), query=(*get_base.query, *repeated)), [hostile])
    for method in OTHER_METHODS:
        add(f"{route} method {method}", base.request.with_(
            method=method, path=_path(base, lang()), form=base.request.form), [])
    for name in profile.cookies:
        for value in (f'"><b>{MARKER}</b>', "\x00" * 8, "A" * 4000):
            add(f"{route} cookie {name}", base.request.with_(
                path=_path(base, lang()), cookies=((name, value),)), [value])
    for header in HEADER_TARGETS:
        value = f'"><svg onload={MARKER}()>'
        add(f"{route} header {header}", base.request.with_(
            path=_path(base, lang()), headers=(HTMX, (header, value))), [value])
    add(f"{route} too many fields", get_base.with_(
        path=_path(base, lang()), extra_query=TOO_MANY_FIELDS), [])
    add(f"{route} too many form fields", base.request.with_(
        method="POST", path=_path(base, lang()),
        form=tuple((f"f{i}", "1") for i in range(1100))), [])
    if profile.reads_everything:
        value = f"<i>{MARKER}</i>"
        add(f"{route} unknown names", get_base.with_(
            path=_path(base, lang()), query=(*get_base.query, (value, value), ("", "x"))),
            [value])
    return plan


def stray_plan(langs: list[str]) -> list[Planned]:
    """Paths that match no route: the 404 page and the language redirect see them."""
    plan = []

    for i, payload in enumerate(QUICK):
        lang = langs[i % len(langs)]
        for path in (f"/{lang}/{_quote(payload.value)}/", f"/{_quote(payload.value)}"):
            plan.append(Planned.of(f"(no-route) {payload.kind}", FuzzRequest(
                "GET", path, query=(("q", payload.value),)), [payload.value]))
    return plan


def _quote(value: str) -> str:
    return quote(value, safe="", errors="surrogateescape")


# The long campaign: hypothesis draws everything above at random for one route at a time
# (so every route gets its share), with the methods the campaign names for that round.
WRONG_METHODS = ("PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "HEAD")


def bad_host_plan() -> list[Planned]:
    """Host headers no site serves (every scanner's first probe): a 400 wherever the host
    is read, with the headers of every page and one log line (the campaign reads the log)."""
    return [Planned.of("(bad host)", FuzzRequest(method, path, headers=(("Host", host),)), [])
            for host in BAD_HOSTS for method, path in (("GET", "/en/"), ("POST", "/en/class/"))]


def plain_http_plan() -> list[Planned]:
    """Requests the proxy says came over plain HTTP: production answers them with its HTTPS
    redirect, which must carry the same headers (the campaign sends them)."""
    return [Planned.of("(plain http)", FuzzRequest("GET", path, headers=(
        ("X-Forwarded-Proto", "http"),)), []) for path in ("/", "/en/", "/static/css/site.css")]


def edge_plan(profile: RouteProfile, langs: list[str]) -> list[Planned]:
    """What the long campaign sends every route once before its random share: forms in
    other charsets, every shape of each field of a JSON value, too many fields, a body over
    Django's limit."""
    route, base = profile.route.label, _richest(profile)
    post = base.request.with_(method="POST", path=_path(base, langs[0]),
                              form=base.request.form or base.request.query)
    plan = [Planned.of(f"{route} form charset {charset}", post.with_(
        content_type=f"{FORM_TYPE}; charset={charset}"), [], profile.route.declared_methods)
        for charset in CHARSETS]
    declared = profile.route.declared_methods
    get = base.request.with_(method="GET", path=_path(base, langs[0]), form=())
    for name in profile.form:  # every shape of every field of a JSON value, once (a move)
        for payload in json_shapes(_valid(profile, name)):
            plan.append(Planned.of(f"{route} form {name}: json", post.with_(
                form=_set(post.form, name, payload.value)), [payload.value], declared))
    for name in profile.query:  # the same for a query (the sandbox's act)
        for payload in json_shapes(_valid(profile, name)):
            plan.append(Planned.of(f"{route} query {name}: json", get.with_(
                query=_set(get.query, name, payload.value)), [payload.value], declared))
    plan.append(Planned.of(f"{route} too many form fields", post.with_(
        form=tuple((f"f{i}", "1") for i in range(1100))), [], profile.route.declared_methods))
    plan.append(Planned.of(f"{route} body over the limit", post.with_(
        raw_body=b"x=" + b"a" * 3_000_000), [], profile.route.declared_methods))
    return plan


def method_rounds(profile: RouteProfile) -> list[tuple[tuple[str, ...], float]]:
    """How a route's budget is shared: mostly the methods its view answers, some of the rest."""
    usual = tuple(profile.methods)
    other = tuple(m for m in ("GET", "POST", *WRONG_METHODS) if m not in usual)
    return [(usual, 0.8), (other, 0.2)]


def _hostile(draw, valid: str) -> str:
    return draw(st.one_of(
        st.sampled_from(PAYLOADS).map(lambda p: p.value),
        st.sampled_from(splices(valid) or [Payload("", valid)]).map(lambda p: p.value),
        st.text(max_size=40),
        st.integers(min_value=-(10**30), max_value=10**30).map(str),
        st.just(valid),
    ))


def _pairs(draw, profile: RouteProfile, names: list[str], base: tuple, planted: list) -> tuple:
    pairs = list(base)
    for name in names:
        action = draw(st.sampled_from(["keep"] * 3 + ["drop", "bend", "bend", "repeat"]))
        if action == "keep":
            continue
        pairs = [(k, v) for k, v in pairs if k != name]
        if action == "drop":
            continue
        valid = _valid(profile, name)
        count = 1 if action == "bend" else draw(st.integers(min_value=2, max_value=4))
        for _ in range(count):
            value = _hostile(draw, valid)
            planted.append(value)
            pairs.append((name, value))
    if draw(st.integers(min_value=0, max_value=9)) == 0:
        extra = _hostile(draw, "")
        planted.append(extra)
        pairs.append((draw(st.sampled_from(["x", extra, "", "a[]"])), extra))
    return tuple(pairs)


@st.composite
def planned_requests(
    draw, profile: RouteProfile, langs: list[str], methods: tuple[str, ...]
) -> Planned:
    sample = draw(st.sampled_from(profile.samples))
    lang = draw(st.sampled_from(langs))
    planted: list[str] = []
    overrides = {}
    for param in profile.route.params:
        valid = sample.values.get(param.name, "")
        choice = draw(st.sampled_from(["keep"] * 4 + ["regex", "hostile"]))
        if choice == "regex":
            overrides[param.name] = draw(st.from_regex(param.regex, fullmatch=True))
        elif choice == "hostile":
            overrides[param.name] = _hostile(draw, valid)
        if param.name in overrides:
            planted.append(overrides[param.name])
    method = draw(st.sampled_from(methods))
    query = _pairs(draw, profile, profile.query, sample.request.query, planted)
    form: tuple = ()
    if method == "POST":
        form = _pairs(draw, profile, profile.form, sample.request.form or sample.request.query,
                      planted)
    content_type = ""
    if method == "POST" and draw(st.integers(min_value=0, max_value=9)) == 0:
        content_type = f"{FORM_TYPE}; charset={draw(st.sampled_from(CHARSETS))}"
    headers = [HTMX] if draw(st.booleans()) else []
    if draw(st.integers(min_value=0, max_value=7)) == 0:
        value = _hostile(draw, "")
        planted.append(value)
        headers.append((draw(st.sampled_from(HEADER_TARGETS)), value))
    cookies: tuple = ()
    if profile.cookies and draw(st.integers(min_value=0, max_value=7)) == 0:
        value = _hostile(draw, "")
        planted.append(value)
        cookies = ((draw(st.sampled_from(profile.cookies)), value),)
    request = sample.request.with_(
        method=method, path=_path(sample, lang, overrides), query=query, form=form,
        headers=tuple(headers), cookies=cookies, content_type=content_type,
    )
    return Planned.of(profile.route.label, request, planted, profile.route.declared_methods)
