import io
import json
import re
from dataclasses import replace

import pytest
from django.utils import translation

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
    assert 'class="differences"' in text
    # each variant keeps its own whole sentence under its name
    assert "<dt>Swedish Stress</dt><dd>One card at a time" in text
    assert "<dt>Stressi (Finnish Stress)</dt><dd>The top card of a place" in text


@pytest.mark.parametrize("lang", LANGS)
def test_difference_parts_are_the_cells_themselves(client, lang):
    from django.utils import translation

    from rules.comparison import differences

    with translation.override(lang):
        rows = build_rows(["stress-de", "stressi-fi"])
        found = differences(rows, {"stress-de": "A", "stressi-fi": "B"})
    assert found, "German Stress and Stressi differ on several rows"
    for difference in found:
        row = next(r for r in rows if r.label == difference.label)
        assert difference.parts == (("A", row.cells[0].text), ("B", row.cells[1].text))
        assert all(text[:1].isupper() or text[:1].isdigit() for _, text in difference.parts)


def test_german_and_finnish_stress_differ_when_a_draw_pile_runs_out():
    row = next(r for r in build_rows(["stress-de", "stressi-fi"]) if r.dimension == "running_out")
    assert row.differs
    assert "take a face-down card from the opponent's stock" in row.cells[0].text
    assert "hands you a face-down card" in row.cells[1].text
    assert "to keep" not in row.cells[1].text


@pytest.mark.parametrize("query", ["a=stress-se&b=stress-se", "a=nope&b=spit", "a=stress-se"])
def test_bad_comparison_choice_shows_the_reason(client, query):
    response = client.get(f"/sv/compare/?{query}")
    assert response.status_code == 400
    assert 'role="alert"' in response.text
    assert "Choose two different variants" not in response.text


def test_simulated_figures_are_drawn_as_bar_rows(client, settings, tmp_path):
    settings.VAR_DIR = tmp_path
    figures = {slug: {"plays": 100.0 + i, "equal_rank_rate": 1.5, "stuck_rate": 40.0}
               for i, slug in enumerate(VARIANTS)}
    (tmp_path / "figures.json").write_text(
        json.dumps({"games_per_variant": 12, "variants": figures}), encoding="utf-8"
    )
    text = client.get("/de/compare/").text
    assert text.count('class="chart"') == 3
    assert text.count('class="chart__bar"') == 3 * len(VARIANTS)
    # the largest value fills its bar; the names are text, not SVG, so they can wrap
    assert 'width="100.0"' in text or 'width="100"' in text
    assert '<dt class="chart__label">Stressi (finnisches Stress)</dt>' in text


def test_figures_command_writes_the_cached_file(settings, tmp_path):
    from django.core.management import call_command

    settings.VAR_DIR = tmp_path
    out = io.StringIO()
    call_command("simulate_figures", games=2, seed=3, stdout=out)
    assert "wrote" in out.getvalue()
    data = json.loads((tmp_path / "figures.json").read_text(encoding="utf-8"))
    assert data["games_per_variant"] == 2
    assert set(data["variants"]) == set(VARIANTS)
    assert all(v["plays"] > 0 for v in data["variants"].values())


def test_spit_pile_choice_tie_is_stated_as_the_sites_house_default():
    # The source settles a pile race by the hand underneath; a true tie is the site's
    # own default (fewer cards gets the pile), and the comparison must say it is one.
    with translation.override("en"):
        end = next(r for r in build_rows(["spit"]) if r.dimension == "end").cells[0]
    assert end.code == "deals-until-out-of-cards"
    assert VARIANTS["spit"].metadata["end"]["params"]["tie"] == "fewer-cards-house-default"
    assert "house rule" in end.text and "fewer cards" in end.text
    assert "Option: choose again" in end.text


def test_the_options_cell_opens_no_sentence_with_a_numeral():
    # "5 options. 1 of them is this site's own addition." read as a log line.
    with translation.override("en"):
        cell = next(r for r in build_rows(["stress-se"]) if r.dimension == "options").cells[0]
    assert cell.text == "5 options. Of these, 1 is this site's own addition."
    assert not re.search(r"\. \d", cell.text)


@pytest.mark.parametrize(("lang", "written"), [("en", "40%"), ("sv", "40\u00a0%"),
                                               ("nb", "40\u00a0%"), ("de", "40\u00a0%"),
                                               ("fi", "40\u00a0%")])
def test_percentages_are_written_as_each_language_writes_them(client, settings, tmp_path,
                                                              lang, written):
    settings.VAR_DIR = tmp_path
    figures = {slug: {"plays": 100.0, "equal_rank_rate": 1.5, "stuck_rate": 40.0}
               for slug in VARIANTS}
    (tmp_path / "figures.json").write_text(
        json.dumps({"games_per_variant": 12, "variants": figures}), encoding="utf-8"
    )
    values = re.findall(r'<span class="chart__value">([^<]*)</span>',
                        client.get(f"/{lang}/compare/").text)
    assert values.count(written) == len(VARIANTS)
