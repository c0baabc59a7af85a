"""Regression tests for the findings of issue #15 (each one answered a request with a 500 or
with the wrong thing), and the headers every response carries."""

import re

import pytest
from django.test import Client
from django.urls import resolve
from django.utils import translation
from django.utils.translation import ngettext

from core.methods import declared_methods
from examples import sandbox
from examples.library import EXAMPLE_NAME, examples_dir, is_example_name, load_example
from examples.sandbox import SandboxError, attempts, game_at_step, parse_moves
from rules_engine.registry import VARIANTS

from .pages import all_pages

pytestmark = pytest.mark.django_db  # /healthz asks the database

TRY = "/en/stress-se/examples/illegal-plays/try/"
HTML_LANG = re.compile(r'<html lang="([a-z]+)"')
MOVES = re.compile(r'moves=([0-9:,]*)&amp;seat=')
COUNT = re.compile(r'<span class="sandbox__count">([^<]*)</span>')


@pytest.mark.parametrize(
    "raw", ["²:0", "0:²", "٣:0", "0:٠", "𝟗:1", "0:" + "9" * 5000, "0: 1", "0:1_0", "-1:0", "0",
            "0:", ":0", "0:0:0", "0:0,"],
)
def test_parse_moves_takes_ascii_digits_only(raw):
    with pytest.raises(SandboxError):
        parse_moves(raw)


def test_parse_moves_reads_seat_index_pairs():
    assert parse_moves("") == []
    assert parse_moves("0:3,1:0,0:12") == [(0, 3), (1, 0), (0, 12)]


@pytest.mark.parametrize(
    "query", ["moves=%C2%B2:0", "moves=0:%D9%A3", "moves=0:" + "9" * 5000, "try=%C2%B2",
              "try=" + "9" * 5000, "seat=%C2%B2&try=0"],
)
def test_unicode_and_huge_numbers_in_the_sandbox_are_a_clean_answer(client, query):
    response = client.get(f"{TRY}?{query}")
    assert response.status_code in (200, 400)
    if response.status_code == 400:
        assert 'role="alert"' in response.text


@pytest.mark.parametrize("query", ["step=%C2%B2", "step=%D9%A3", "step=" + "9" * 5000])
def test_a_step_that_is_no_ascii_number_means_the_first_step(client, query):
    response = client.get(f"/en/stress-se/examples/illegal-plays/?{query}")
    assert response.status_code == 200
    assert re.search(r'example-viewer__counter"[^>]*>Starting position \(\d+ steps\)<',
                     response.text)


@pytest.mark.parametrize("length", [81, 251, 300, 5000])
@pytest.mark.parametrize("suffix", ["", "try/"])
def test_an_over_long_example_name_is_a_translated_404(client, length, suffix):
    response = client.get(f"/de/stress-se/examples/{'a' * length}/{suffix}")
    assert response.status_code == 404
    assert HTML_LANG.search(response.text).group(1) == "de"


def test_every_example_file_has_a_name_the_site_accepts():
    for slug in VARIANTS:
        for path in examples_dir(slug).glob("*.json"):
            assert is_example_name(path.stem), path
    assert EXAMPLE_NAME.fullmatch("up-down-wrap")
    assert not is_example_name("Up_Down") and not is_example_name("a" * 81)


def _get_only(url: str) -> bool:
    with translation.override("sv"):  # i18n_patterns resolve the active language's prefix
        declared = declared_methods(resolve(url).func)
    return declared is not None and "POST" not in declared


GET_ONLY = [url for lang, url in all_pages() if lang == "sv" and _get_only(url)] + [
    "/sv/stress-se/examples/illegal-plays/", TRY, "/healthz",
]


@pytest.mark.parametrize("url", GET_ONLY)
@pytest.mark.parametrize("method", ["post", "put", "patch", "delete", "options", "trace"])
def test_get_only_pages_answer_other_methods_405_with_allow(url, method):
    # A browser-like client with CSRF checks: the method is refused before the token is.
    client = Client(enforce_csrf_checks=True)
    response = getattr(client, method)(url)
    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD"
    assert b"<html" not in response.content


@pytest.mark.parametrize("url", GET_ONLY)
def test_head_keeps_working(client, url):
    assert client.head(url).status_code == 200


def test_preferences_take_post_only(client):
    response = client.get("/prefs/")
    assert response.status_code == 405
    assert response["Allow"] == "POST"


@pytest.mark.parametrize(
    ("method", "url", "status"),
    [("get", "/en/", 200), ("get", "/", 302), ("get", "/en/nothing-here/", 404),
     ("post", "/en/", 405), ("get", "/static/css/site.css", 200), ("get", "/healthz", 200),
     ("get", "/prefs/", 405)],
)
def test_every_response_carries_the_security_headers(client, method, url, status):
    response = getattr(client, method)(url)
    assert response.status_code == status
    policy = response["Permissions-Policy"]
    for feature in ("camera=()", "microphone=()", "geolocation=()", "payment=()", "usb=()"):
        assert feature in policy
    assert re.fullmatch(r"[0-9a-f]{32}", response["X-Request-ID"])
    assert response["X-Content-Type-Options"] == "nosniff"


def test_each_request_gets_its_own_id(client):
    assert client.get("/en/")["X-Request-ID"] != client.get("/en/")["X-Request-ID"]


@pytest.mark.parametrize(
    ("incoming", "kept"),
    [("lb-7f3a9c21-0001", True), ("short", False), ("bad id\nINFO forged", False),
     ("x" * 200, False)],
)
def test_a_proxy_request_id_is_kept_only_when_trusted_and_well_formed(
    settings, incoming, kept
):
    settings.REQUEST_ID_HEADER = "X-Request-ID"
    response = Client().get("/en/", headers={"x-request-id": incoming})
    assert (response["X-Request-ID"] == incoming) is kept
    settings.REQUEST_ID_HEADER = ""
    assert Client().get("/en/", headers={"x-request-id": "lb-7f3a9c21-0001"})[
        "X-Request-ID"] != "lb-7f3a9c21-0001"


def test_every_request_writes_one_access_line(client, caplog):
    caplog.set_level("INFO", logger="stress.access")
    client.get("/en/compare/?a=spit&b=stress-se")
    client.get("/en/forged%0AINFO stress.access GET / 200/?q=%0A")
    lines = [r.getMessage() for r in caplog.records if r.name == "stress.access"]
    assert len(lines) == 2
    assert re.fullmatch(r"GET /en/compare/\?a=spit&b=stress-se 200 [0-9.]+ms", lines[0])
    assert lines[1].startswith("GET /en/forged%0AINFO") and " 404 " in lines[1]
    assert "\n" not in lines[1]


def _three_accepted_moves():
    """A position and three moves the engine accepts in a row (the first legal each time)."""
    for slug in VARIANTS:
        for path in sorted(examples_dir(slug).glob("*.json")):
            example = load_example(slug, path.stem)
            for seat in (0, 1):
                game = game_at_step(example, 0)
                chosen = []
                while len(chosen) < 3 and not game.is_over and game.legal_actions(seat):
                    legal = game.legal_actions(seat)[0].to_json()
                    legal.pop("t")
                    legal.pop("onto", None)
                    index = attempts(game, seat).index(legal)
                    _action, result = sandbox.attempt(game, seat, index)
                    if not result.accepted:
                        break
                    chosen.append(index)
                if len(chosen) == 3:
                    return f"/en/{slug}/examples/{path.stem}/try/?step=0&seat={seat}", seat, chosen
    pytest.skip("no example allows three moves in a row")


def made(n: int) -> str:
    return f"You have made {n} moves here (this sandbox keeps up to 3)."


def test_the_move_limit_is_stated_and_reaching_it_keeps_the_moves(client, monkeypatch):
    monkeypatch.setattr(sandbox, "MAX_MOVES", 3)
    start, seat, chosen = _three_accepted_moves()
    page = client.get(start)
    assert COUNT.search(page.text) is None  # nothing to count before the first move
    moves = ""
    for index in chosen:
        page = client.get(f"{start}&moves={moves}&try={index}")
        assert page.status_code == 200
        moves = MOVES.search(page.text).group(1)
    assert moves == ",".join(f"{seat}:{i}" for i in chosen)
    assert COUNT.search(page.text).group(1) == made(3)
    assert "as many as this sandbox keeps" in page.text
    assert 'name="try"' not in page.text  # no further move is offered

    # Every link the sandbox shows still works and keeps the moves.
    sandbox_html = page.text.split('id="sandbox"', 1)[1]
    for href in set(re.findall(r'href="([^"#]+)"', sandbox_html)):
        response = client.get(href.replace("&amp;", "&"))
        assert response.status_code == 200, href
        if "moves=" in href:
            assert COUNT.search(response.text).group(1) == made(3)

    # A move asked for anyway (an old tab) is not made, and nothing is lost.
    more = client.get(f"{start}&moves={moves}&try=0")
    assert more.status_code == 200
    assert MOVES.search(more.text).group(1) == moves
    # Only a URL no page ever offers, beyond the limit, is refused.
    assert client.get(f"{start}&moves={moves},{seat}:0").status_code == 400


@pytest.mark.parametrize("lang", ["sv", "nb", "de", "fi"])
def test_the_count_of_own_moves_is_shown_in_every_language(client, lang):
    start, _seat, chosen = _three_accepted_moves()
    page = client.get(start.replace("/en/", f"/{lang}/", 1) + f"&try={chosen[0]}")
    with translation.override(lang):
        text = ngettext("You have made %(n)s move here (this sandbox keeps up to %(max)s).",
                        "You have made %(n)s moves here (this sandbox keeps up to %(max)s).",
                        1) % {"n": 1, "max": sandbox.MAX_MOVES}
    assert not text.startswith("You have")  # a translation, not the English
    assert COUNT.search(page.text).group(1) == text


def test_head_through_the_real_handler_has_the_get_headers_and_no_body():
    from django.core.handlers.wsgi import WSGIHandler
    from django.test import RequestFactory

    handler = WSGIHandler()
    answers = {}

    def run(method):
        environ = RequestFactory().generic(method, "/en/sources/").environ
        body = b"".join(handler(environ, lambda status, headers: answers.update({method: headers})))
        return body, dict(answers[method])

    get_body, get_headers = run("GET")
    head_body, head_headers = run("HEAD")
    assert get_body and head_body == b""
    assert head_headers["Content-Length"] == get_headers["Content-Length"] == str(len(get_body))


def test_django_method_decorators_are_read_like_allow():
    from django.http import HttpResponse
    from django.views.decorators.cache import never_cache
    from django.views.decorators.http import require_GET, require_POST, require_safe

    from core.methods import allow, declared_methods

    def view(request):
        return HttpResponse()

    assert declared_methods(allow("GET")(view)) == {"GET", "HEAD"}
    assert declared_methods(never_cache(require_safe(view))) == {"GET", "HEAD"}
    assert declared_methods(require_POST(view)) == {"POST"}
    assert declared_methods(require_GET(view)) == {"GET"}
    assert declared_methods(view) is None
