import re
from dataclasses import replace

import pytest

from rules.comparison import build_rows
from rules.phrases import PHRASES
from rules.rulebook import load_rulebook
from rules_engine.registry import VARIANTS
from rules_engine.variant import METADATA_KEYS

from .pages import LANGS


def test_one_row_per_engine_dimension_and_one_column_per_variant(client):
    text = client.get("/en/compare/").text
    assert text.count("data-dimension=") == len(METADATA_KEYS)
    for slug in VARIANTS:
        assert f'<a href="/en/{slug}/">' in text


def test_every_code_the_engine_uses_has_a_sentence():
    for info in VARIANTS.values():
        for dimension, cell in info.metadata.items():
            if dimension in ("players", "options"):
                continue
            assert (dimension, cell["code"]) in PHRASES, (info.slug, dimension, cell["code"])


def test_the_table_follows_the_engine_metadata(monkeypatch):
    slug = "stress-se"
    info = VARIANTS[slug]
    scoring = {"code": "loser-cards-option", "params": {}, "section": "winning"}
    before = next(r for r in build_rows([slug]) if r.dimension == "scoring").cells[0]
    monkeypatch.setitem(
        VARIANTS, slug, replace(info, metadata={**info.metadata, "scoring": scoring})
    )
    after = next(r for r in build_rows([slug]) if r.dimension == "scoring").cells[0]
    assert after.code == "loser-cards-option" != before.code
    assert after.text != before.text
    assert after.url.endswith("#winning")


@pytest.mark.parametrize("lang", LANGS)
def test_every_cell_links_to_an_existing_section(client, lang):
    text = client.get(f"/{lang}/compare/").text
    links = re.findall(r'<td><a href="/' + lang + r'/([a-z-]+)/#([a-z0-9_-]+)"', text)
    assert len(links) == len(METADATA_KEYS) * len(VARIANTS)
    for slug, anchor in links:
        assert anchor in load_rulebook(slug, lang).all_anchors(), (slug, anchor)


def test_two_variants_side_by_side_mark_the_differences(client):
    text = client.get("/en/compare/?a=stress-se&b=stressi-fi").text
    assert text.count('<tr class="differs"') >= 3
    assert "in Swedish Stress" in text or "in Stress" in text
    assert 'class="differences"' in text


@pytest.mark.parametrize("query", ["a=stress-se&b=stress-se", "a=nope&b=spit", "a=stress-se"])
def test_bad_comparison_choice_shows_the_reason(client, query):
    response = client.get(f"/sv/compare/?{query}")
    assert response.status_code == 400
    assert 'role="alert"' in response.text
    assert "Choose two different variants" not in response.text
