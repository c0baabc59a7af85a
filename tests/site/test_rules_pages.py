import re

import pytest

from rules.rulebook import load_rulebook, required_anchors
from rules_engine.registry import VARIANTS

from .pages import LANGS

BOOKS = [(slug, lang) for slug in VARIANTS for lang in LANGS]


@pytest.mark.parametrize(("slug", "lang"), BOOKS)
def test_every_text_has_the_required_sections_in_order(slug, lang):
    book = load_rulebook(slug, lang)
    assert book is not None, f"content/{slug}/{lang}.md is missing"
    assert book.anchors == required_anchors(VARIANTS[slug].family)


@pytest.mark.parametrize("slug", list(VARIANTS))
def test_every_option_of_the_engine_has_its_section_in_every_language(slug):
    wanted = {f"opt-{spec.key}" for spec in VARIANTS[slug].options}
    for lang in LANGS:
        book = load_rulebook(slug, lang)
        missing = wanted - book.all_anchors()
        assert not missing, f"{slug}/{lang} lacks {sorted(missing)}"


@pytest.mark.parametrize(("slug", "lang"), BOOKS)
def test_rules_page_shows_toc_sections_and_cards(client, slug, lang):
    text = client.get(f"/{lang}/{slug}/").text
    for anchor in required_anchors(VARIANTS[slug].family):
        assert f'id="{anchor}" aria-labelledby="h-{anchor}"' in text
        assert f'href="#{anchor}"' in text
    assert "<code>7H</code>" not in text


def test_card_tokens_become_named_cards(client):
    text = client.get("/sv/stress-se/").text
    assert re.search(r'class="card card--\w+" role="img" aria-label="[^"]+"', text)


def test_the_source_language_is_marked_as_original(client):
    assert "original-badge" in client.get("/sv/stress-se/").text
    assert "original-badge" not in client.get("/de/stress-se/").text
    assert 'href="/sv/stress-se/" hreflang="sv">' in client.get("/de/stress-se/").text


def test_pair_shows_two_languages_section_by_section(client):
    text = client.get("/de/stressi-fi/?pair=fi").text
    de = load_rulebook("stressi-fi", "de")
    fi = load_rulebook("stressi-fi", "fi")
    assert 'lang="fi"' in text
    for de_section, fi_section in zip(de.sections, fi.sections, strict=True):
        assert de_section.title in text
        assert fi_section.title in text
        assert text.index(de_section.title) < text.index(fi_section.title)


@pytest.mark.parametrize("pair", ["xx", "de", "", "<script>"])
def test_unknown_or_same_pair_falls_back_to_one_language(client, pair):
    response = client.get(f"/de/stress-se/?pair={pair}")
    assert response.status_code == 200
    assert 'class="pair"' not in response.text
    assert "<script>" not in response.text.split("</head>")[1]


def test_rendering_is_cached_between_requests():
    assert load_rulebook("spit", "nb") is load_rulebook("spit", "nb")


# No source gives an age, and only the Swedish and Norwegian sources give a playing time
# (5–15 minutes; under a quarter of an hour): every other box fact is this site's estimate
# and must say so on the page, in every language.
SOURCED_DURATION = {"stress-se", "james-bond"}


@pytest.mark.parametrize("slug", VARIANTS)
@pytest.mark.parametrize("lang", LANGS)
def test_box_marks_the_facts_no_source_gives_as_our_estimate(client, slug, lang):
    from django.utils import translation

    from core.catalogue import variant_entry

    with translation.override(lang):
        label = translation.gettext("(our estimate, not from the source)")
    box = variant_entry(slug, lang).box
    facts = re.search(
        r'<dl class="rules-box__facts">(.*?)</dl>', client.get(f"/{lang}/{slug}/").text, re.S
    ).group(1)
    rows = dict(re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", facts))
    age, duration = list(rows.values())[3], list(rows.values())[2]
    assert age.startswith(box.age) and label in age
    assert duration.startswith(box.duration)
    assert (label in duration) == (slug not in SOURCED_DURATION)
