import html
import re

import pytest
from django.utils import translation

from .pages import LANGS, all_pages, page_paths

HTML_LANG = re.compile(r'<html lang="([a-z]+)"')


@pytest.mark.parametrize(("lang", "url"), all_pages())
def test_every_page_renders_in_every_language(client, lang, url):
    response = client.get(url)
    assert response.status_code == 200
    assert HTML_LANG.search(response.text).group(1) == lang


@pytest.mark.parametrize("url", ["/sv/no-such-game/", "/de/stress-xx/", "/fi/sources/x/"])
def test_unknown_variant_is_a_translated_404(client, url):
    response = client.get(url)
    assert response.status_code == 404
    lang = url.split("/")[1]
    assert HTML_LANG.search(response.text).group(1) == lang
    assert "Page not found" not in response.text


@pytest.mark.parametrize("url", ["/xx/", "/xx/stress-se/", "/english/compare/"])
def test_unknown_language_is_404(client, url):
    assert client.get(url).status_code == 404


@pytest.mark.parametrize(
    ("header", "target"),
    [
        ("sv-SE,sv;q=0.9,en;q=0.5", "/sv/"),
        ("no", "/nb/"),
        ("no-NO,no;q=0.9", "/nb/"),
        ("nn-NO", "/nb/"),
        ("nb", "/nb/"),
        ("de-DE,de;q=0.8", "/de/"),
        ("fi", "/fi/"),
        ("fr-FR", "/en/"),
    ],
)
def test_root_redirects_by_accept_language(client, header, target):
    response = client.get("/", headers={"accept-language": header})
    assert response.status_code == 302
    assert response["Location"] == target


def test_language_switcher_keeps_the_page(client):
    text = client.get("/sv/stress-se/").text
    for lang in LANGS:
        assert f'href="/{lang}/stress-se/" hreflang="{lang}"' in text


def test_alternates_and_canonical(client):
    text = client.get("/de/compare/").text
    assert '<link rel="canonical" href="http://testserver/de/compare/">' in text
    for lang in LANGS:
        href = f"http://testserver/{lang}/compare/"
        assert f'<link rel="alternate" hreflang="{lang}" href="{href}">' in text


def test_large_type_preference_persists(client):
    response = client.post("/prefs/", {"large": "1", "next": "/fi/"})
    assert response.status_code == 302
    assert response["Location"] == "/fi/"
    assert '<html lang="fi" class="large-type">' in client.get("/fi/").text
    client.post("/prefs/", {"large": "0", "next": "/fi/"})
    assert '<html lang="fi" class="">' in client.get("/fi/").text


def test_preferences_refuse_offsite_redirect(client):
    response = client.post("/prefs/", {"fourcolour": "1", "next": "https://evil.example/"})
    assert response["Location"] == "/"


def test_csp_header_forbids_inline_code(client):
    policy = client.get("/en/").headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "script-src 'self'" in policy
    assert "style-src 'self'" in policy
    assert "unsafe-inline" not in policy


def test_htmx_is_served_with_its_config_where_a_page_uses_it(client):
    text = client.get("/nb/stress-se/examples/illegal-plays/").text
    head = text.split("</head>")[0]
    assert '"includeIndicatorStyles": false' in head
    assert '"allowEval": false' in head
    assert "/static/django_htmx/htmx-2.min.js" in head


def test_home_lists_every_variant_with_the_players_its_rules_page_states(client):
    # The home page once said 2–8 for James Bond where its rules said "2–4 (5–8 with a
    # second deck)"; both now say the latter, and it spans the registry's range.
    from core.catalogue import variant_entry
    from rules_engine.registry import VARIANTS

    text = client.get("/en/").text
    for slug, info in VARIANTS.items():
        assert f'href="/en/{slug}/"' in text
        with translation.override("en"):
            players = variant_entry(slug, "en").box.players
        assert f"<dd>{html.escape(players)}</dd>" in text
        counts = [int(n) for n in re.findall(r"\d+", players)]
        assert (min(counts), max(counts)) == (info.players_min, info.players_max)


def test_page_paths_cover_every_variant():
    from rules_engine.registry import VARIANTS

    assert {p.rstrip("/") for p in page_paths()} >= set(VARIANTS)
