"""How pages travel: compression, the page cache and its per-request parts, budgets, scripts."""

import gzip
import html
import re
from html.parser import HTMLParser
from unittest import mock

import brotli
import pytest
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.template import engines
from django.test import Client
from django.urls import path
from django.views.decorators.csrf import csrf_protect

from core.compression import accepted_encodings
from core.pagecache import cached_page
from examples.library import examples_for
from rules.views import EAGER_VIEWERS
from rules_engine.registry import VARIANTS

from .pages import LANGS, all_pages

BROWSER = {"Accept-Encoding": "gzip, deflate, br, zstd"}
DOM_BUDGET = 1500
TRANSFER_BUDGET = 40 * 1024
# Status line and headers of one response, generously (ours are about 600 bytes).
HEADER_ALLOWANCE = 1000

SHEET = "/sv/stress-se/house-rules/sheet/?opt-stacking=false&name=Ann&name=Bo&place=Kiruna"

# Pages beyond the walk of tests/site/pages.py: one of each other kind. (A demo game and a
# saved sheet exist only after a POST: tests of their own below.)
OTHER_PAGES = [
    "/de/stress-de/?pair=en",
    "/en/stress-se/examples/illegal-plays/?step=2",
    "/sv/stress-se/examples/illegal-plays/try/?step=1&try=2",
    "/fi/no-such-page/",
    "/nb/james-bond/house-rules/?name=Kari&name=Ola",
    SHEET,
    "/de/spit/play/?players=2&level-2=expert",
]


def every_page() -> list[str]:
    return [url for _lang, url in all_pages()] + OTHER_PAGES


# A page with a form and an inline script, the two per-request parts a cached page can have.
FORM_PAGE = engines["django"].from_string(
    '<!DOCTYPE html><html><head><script nonce="{{ csp_nonce }}">let a = 1;</script></head>'
    '<body><form method="post">{% csrf_token %}<button>Send</button></form>'
    + "<p>Filler that makes the page worth compressing.</p>" * 20
    + "</body></html>"
)
renders = []


@cached_page
def form_page(request: HttpRequest) -> HttpResponse:
    renders.append(request.path)
    return HttpResponse(FORM_PAGE.render({}, request))


@csrf_protect
def form_post(request: HttpRequest) -> HttpResponse:
    return HttpResponse("accepted")


urlpatterns = [path("form/", form_page), path("post/", form_post)]


@pytest.fixture
def form_site(settings, tmp_path):
    """The form page as the whole site; the figures file (one of the files the content
    version watches) lives in tmp_path."""
    settings.ROOT_URLCONF = __name__
    settings.VAR_DIR = tmp_path
    renders.clear()
    return tmp_path


def test_accept_encoding_is_read_with_its_weights():
    assert accepted_encodings("gzip, deflate, br, zstd") == {"gzip", "deflate", "br", "zstd"}
    assert accepted_encodings("br;q=0, gzip;q=0.5") == {"gzip"}
    assert accepted_encodings("BR ; Q=1.0") == {"br"}
    assert accepted_encodings("") == set()


@pytest.mark.parametrize(
    "url", ["/sv/stress-se/", "/en/", "/fi/compare/", "/en/spit/examples/the-deal/?step=2", SHEET]
)
def test_pages_go_as_brotli_else_gzip_else_plain(client, url):
    plain = client.get(url, headers={"Accept-Encoding": "identity"})
    assert plain.status_code == 200
    assert "Content-Encoding" not in plain
    assert "Accept-Encoding" in plain["Vary"]

    as_br = client.get(url, headers=BROWSER)
    assert as_br["Content-Encoding"] == "br"
    assert brotli.decompress(as_br.content) == plain.content
    assert int(as_br["Content-Length"]) == len(as_br.content) < len(plain.content) / 2

    as_gzip = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert as_gzip["Content-Encoding"] == "gzip"
    assert gzip.decompress(as_gzip.content) == plain.content

    refused = client.get(url, headers={"Accept-Encoding": "br;q=0, gzip;q=0"})
    assert "Content-Encoding" not in refused


def test_htmx_fragments_are_compressed_too(client):
    response = client.get(
        "/fi/stressi-fi/examples/ace-low-only/?step=1", headers={**BROWSER, "HX-Request": "true"}
    )
    assert response["Content-Encoding"] == "br"
    html = brotli.decompress(response.content).decode()
    assert "<html" not in html and 'class="board"' in html


def test_a_page_with_a_csrf_token_is_never_brotli_and_its_gzip_is_padded(client, form_site):
    response = client.get("/form/", headers=BROWSER)
    assert response["Content-Encoding"] == "gzip"
    # Django's GZipMiddleware padding: a random file name of random length in the header.
    assert response.content[3] & gzip.FNAME
    assert b"csrfmiddlewaretoken" in gzip.decompress(response.content)
    only_br = client.get("/form/", headers={"Accept-Encoding": "br"})
    assert "Content-Encoding" not in only_br
    assert b"csrfmiddlewaretoken" in only_br.content


def test_a_cached_page_is_rendered_once_per_content_version(client, form_site):
    client.get("/form/")
    client.get("/form/")
    assert renders == ["/form/"]
    (form_site / "figures.json").write_text("{}", encoding="utf-8")
    client.get("/form/")
    assert renders == ["/form/", "/form/"]


def _token_and_nonce(response: HttpResponse) -> tuple[str, str]:
    text = response.content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', text).group(1)
    nonce = re.search(r'<script nonce="([^"]+)">', text).group(1)
    return token, nonce


def test_each_request_gets_its_own_nonce_and_a_working_csrf_token(form_site):
    client = Client(enforce_csrf_checks=True)
    first = client.get("/form/")
    second = client.get("/form/")
    assert renders == ["/form/"]
    token, nonce = _token_and_nonce(second)
    assert (token, nonce) != _token_and_nonce(first)
    assert "pagecache" not in second.content.decode()
    assert f"'nonce-{nonce}'" in second["Content-Security-Policy"]
    assert client.post("/post/", {"csrfmiddlewaretoken": token}).status_code == 200
    assert client.post("/post/", {"csrfmiddlewaretoken": "x" * 64}).status_code == 403


# Forms and htmx posts that need a token; the display preferences' form on every page is
# guarded by the browser's origin headers instead (core.views.preferences).
POSTS = re.compile(
    r"<form (?!class=\"display-preferences\")[^>]*method=\"post\""
    r"|\s(?:data-)?hx-post=|\sdata-move-url="
)


@pytest.mark.parametrize("url", every_page())
def test_a_page_carries_a_csrf_token_only_when_it_posts(client, url):
    response = client.get(url)
    if POSTS.search(response.text):
        assert "csrfmiddlewaretoken" in response.text or "x-csrftoken" in response.text
        return
    assert "csrfmiddlewaretoken" not in response.text
    assert "x-csrftoken" not in response.text
    assert "csrftoken" not in response.cookies
    assert "'nonce-" not in response["Content-Security-Policy"]


def _description(html: str) -> str:
    head = html.split("</head>")[0]
    found = re.search(r'<meta name="description" content="([^"]*)">', head)
    return found.group(1).strip() if found else ""


@pytest.mark.parametrize("url", every_page())
def test_every_page_has_a_meta_description(client, url):
    assert len(_description(client.get(url).text)) >= 40, url


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_every_linked_page_has_a_meta_description(client, lang):
    """Crawls the site from its home page, so pages added later are checked once linked."""
    queue, seen, lacking = [f"/{lang}/"], {f"/{lang}/"}, []
    while queue:
        url = queue.pop()
        response = client.get(url)
        assert response.status_code == 200, url
        if not _description(response.text):
            lacking.append(url)
        for href in re.findall(r'href="(/[^"#?]*)', response.text):
            if href.startswith(f"/{lang}/") and href not in seen:
                seen.add(href)
                queue.append(href)
    assert len(seen) > 50
    assert lacking == []


def test_preferences_posted_from_another_site_are_refused(client):
    for headers in ({"Sec-Fetch-Site": "cross-site"}, {"Origin": "https://evil.example"}):
        response = client.post("/prefs/", {"large": "1", "next": "/en/"}, headers=headers)
        assert response.status_code == 403
        assert "pref-large" not in response.cookies
    same = client.post(
        "/prefs/",
        {"large": "1", "next": "/en/"},
        headers={"Sec-Fetch-Site": "same-origin", "Origin": "http://testserver"},
    )
    assert same.status_code == 302
    assert same.cookies["pref-large"].value == "1"


def _scripts(html: str) -> list[str]:
    return re.findall(r'<script[^>]*src="([^"]+)"', html)


@pytest.mark.parametrize(
    "url",
    [
        "/en/",
        "/sv/compare/",
        "/de/sources/",
        "/fi/cards/",
        "/nb/no-such-page/",
        "/fi/house-rules/",
    ],
)
def test_pages_that_use_no_javascript_load_none(client, url):
    text = client.get(url).text
    assert "<script" not in text
    assert "htmx-config" not in text


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("/sv/stress-se/", ["htmx-2.min.js", "site.js"]),
        # side by side, the examples are there too (#26)
        ("/de/stress-de/?pair=en", ["htmx-2.min.js", "site.js"]),
        ("/en/spit/examples/the-deal/", ["htmx-2.min.js", "site.js"]),
        ("/en/spit/examples/the-deal/try/", ["htmx-2.min.js", "play.js"]),
        ("/sv/stress-se/house-rules/", ["htmx-2.min.js", "houserules.js"]),
        (SHEET, ["houserules.js"]),
        ("/nb/james-bond/play/", ["play.js"]),
    ],
)
def test_pages_that_use_javascript_load_what_they_use(client, url, expected):
    scripts = _scripts(client.get(url).text)
    assert [s.rsplit("/", 1)[-1] for s in scripts] == expected


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.count = 0
        self.assets: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        self.count += 1
        attrs = dict(attrs)
        if tag == "link" and attrs.get("rel") in ("stylesheet", "icon"):
            self.assets.append(attrs["href"])
        if tag == "script" and attrs.get("src"):
            self.assets.append(attrs["src"])

    handle_startendtag = handle_starttag


def _static_brotli_size(url: str) -> int:
    """The size WhiteNoise sends: collectstatic's brotli sibling (default quality)."""
    found = finders.find(url.removeprefix("/static/"))
    assert found, url
    with open(found, "rb") as fh:
        return len(brotli.compress(fh.read()))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("slug", list(VARIANTS))
def test_rules_page_stays_under_the_dom_and_transfer_budgets(client, slug, lang):
    sent = client.get(f"/{lang}/{slug}/", headers=BROWSER)
    html = brotli.decompress(sent.content).decode()
    page = _Elements()
    page.feed(html)
    assert page.count <= DOM_BUDGET
    assert set(page.assets) >= {"/static/css/site.css", "/static/js/site.js"}
    transfer = len(sent.content) + sum(_static_brotli_size(a) for a in page.assets)
    transfer += HEADER_ALLOWANCE * (1 + len(page.assets))
    assert transfer <= TRANSFER_BUDGET, transfer


@pytest.mark.parametrize("slug", list(VARIANTS))
def test_every_example_beside_the_rules_is_a_viewer_or_a_link_to_its_page(client, slug):
    text = client.get(f"/en/{slug}/").text
    shown = [e for e in examples_for(slug) if f'id="ex-{e.name}"' in text]
    assert len(shown) >= EAGER_VIEWERS
    drawn = [e for e in shown if f'id="ex-{e.name}-next"' in text]
    assert len(drawn) == EAGER_VIEWERS
    for example in shown:
        if example not in drawn:
            assert f'<a href="/en/{slug}/examples/{example.name}/">' in text
            assert f'data-deferred-viewer="/en/{slug}/examples/{example.name}/?step=0' in text


def test_page_assets_follow_what_the_body_uses():
    from core.templatetags.page_assets import page_scripts, posts_with_htmx, uses_htmx

    plain = '<p class="lead">hx-get is only a word here</p>'
    assert page_scripts(plain) == "" and not uses_htmx(plain)
    getting = '<a href="/x/" hx-get="/x/?step=1" hx-target="#v">Next</a>'
    assert "htmx-2.min.js" in page_scripts(getting) and "site.js" not in page_scripts(getting)
    assert not posts_with_htmx(getting)
    posting = '<button hx-post="/en/demo/move/">Play</button>'
    assert posts_with_htmx(posting) and posts_with_htmx('<form data-hx-delete="/x/">')
    viewer = '<div class="example-viewer" data-deferred-viewer="/x/?step=0&amp;embedded=1">'
    assert "htmx-2.min.js" in page_scripts(viewer) and "site.js" in page_scripts(viewer)


TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def _padded_gzip_text(response: HttpResponse) -> str:
    """A page with a CSRF token: never brotli, gzip padded like Django's GZipMiddleware."""
    assert response["Content-Encoding"] == "gzip"
    assert response.content[3] & gzip.FNAME
    return gzip.decompress(response.content).decode()


def test_the_demo_set_up_form_comes_from_the_page_cache_and_its_token_starts_a_game(db):
    from play import views

    client = Client(enforce_csrf_checks=True)
    with mock.patch.object(views, "parse_setup", wraps=views.parse_setup) as renders:
        first = _padded_gzip_text(client.get("/en/spit/play/", headers=BROWSER))
        second = _padded_gzip_text(client.get("/en/spit/play/", headers=BROWSER))
    assert renders.call_count == 1
    token = TOKEN.search(second).group(1)
    assert token != TOKEN.search(first).group(1)
    form = {"players": "2", "level-2": "club"}
    assert client.post("/en/spit/play/", form).status_code == 403
    started = client.post("/en/spit/play/", {**form, "csrfmiddlewaretoken": token})
    assert started.status_code == 303
    assert started["Location"].startswith("/en/play/")


def test_the_house_rules_form_comes_from_the_page_cache_and_its_token_saves_a_sheet(db):
    from houserules import views

    client = Client(enforce_csrf_checks=True)
    url = "/en/stress-se/house-rules/?name=Ann&name=Bo"
    with mock.patch.object(views, "parse_config", wraps=views.parse_config) as renders:
        _padded_gzip_text(client.get(url, headers=BROWSER))
        page = _padded_gzip_text(client.get(url, headers=BROWSER))
    assert renders.call_count == 1
    query = re.search(r'<input type="hidden" name="q" value="([^"]*)"', page).group(1)
    saved = client.post(
        "/en/stress-se/house-rules/save/",
        {"q": html.unescape(query), "csrfmiddlewaretoken": TOKEN.search(page).group(1)},
    )
    assert saved.status_code == 303 and saved["Location"].startswith("/h/")


def test_a_saved_sheet_is_compressed_described_and_kept_out_of_search_engines(client, db):
    saved = client.post("/en/stress-se/house-rules/save/", {"q": "name=Ann&name=Bo"})
    sheet = client.get(saved["Location"], headers=BROWSER)
    assert sheet.status_code == 200
    assert sheet["Content-Encoding"] == "br"  # no form, no token
    text = brotli.decompress(sheet.content).decode()
    assert len(_description(text)) >= 40
    assert '<meta name="robots" content="noindex">' in text
    assert "Ann" in text


def test_a_demo_game_page_is_compressed_described_and_rendered_per_request(db):
    player = Client()
    started = player.post("/en/stress-se/play/", {"players": "2", "level-2": "club"})
    game = started["Location"]
    first = player.get(game, headers=BROWSER)
    assert "no-store" in first["Cache-Control"]
    text = _padded_gzip_text(first)  # it posts moves with a CSRF header
    assert len(_description(text)) >= 40
    assert "The game is paused." not in text
    # What the page shows is the game as it is at this request, and whose view it is.
    assert player.post(game + "clock/", {"command": "pause", "version": "0"}).status_code == 200
    paused = _padded_gzip_text(player.get(game, headers=BROWSER))
    assert "The game is paused." in paused and "you are playing" in paused
    watcher = Client().get(game, headers=BROWSER)
    assert "you are watching" in gzip.decompress(watcher.content).decode()
