"""What a reader sees of the texts: whole chart labels on any screen, site notes off paper."""

import json

import pytest
from axe_playwright_python.sync_playwright import Axe

from rules_engine.registry import VARIANTS

pytestmark = pytest.mark.browser

# Every label box must lie inside its figure and touch neither its bar nor its value, and no
# label may be clipped (its text wider than its box).
CHART_LAYOUT = """
() => [...document.querySelectorAll('.chart__row')].map(row => {
  const fig = row.closest('figure').getBoundingClientRect();
  const label = row.querySelector('.chart__label');
  const l = label.getBoundingClientRect();
  const others = [row.querySelector('.chart__svg'), row.querySelector('.chart__value')]
    .map(el => el.getBoundingClientRect());
  const overlaps = others.some(o =>
    l.left < o.right - 0.5 && o.left < l.right - 0.5 &&
    l.top < o.bottom - 0.5 && o.top < l.bottom - 0.5);
  return {
    text: label.textContent,
    inside: l.left >= fig.left - 0.5 && l.right <= fig.right + 0.5,
    overlaps,
    clipped: label.scrollWidth > label.clientWidth + 1,
  };
})
"""


@pytest.fixture
def figures(settings, tmp_path):
    settings.VAR_DIR = tmp_path
    per_variant = {
        slug: {"plays": 180.0 + 40 * i, "equal_rank_rate": 2.5 + i, "stuck_rate": 55.0 - 7 * i}
        for i, slug in enumerate(VARIANTS)
    }
    (tmp_path / "figures.json").write_text(
        json.dumps({"games_per_variant": 40, "variants": per_variant}), encoding="utf-8"
    )


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("lang", ["sv", "nb", "de", "fi", "en"])
def test_chart_labels_show_whole_on_a_phone_and_a_desktop(page, site_url, figures, lang, width):
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{site_url}/{lang}/compare/")
    rows = page.evaluate(CHART_LAYOUT)
    assert len(rows) == 3 * len(VARIANTS)
    bad = [r for r in rows if not r["inside"] or r["overlaps"] or r["clipped"]]
    assert bad == []
    # nothing on the page is wider than the screen
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_site_notes_are_labelled_on_screen_and_left_off_paper(page, site_url, console_errors):
    page.goto(f"{site_url}/fi/stressi-fi/")
    note = page.locator("#equal-ranks .site-note").first
    assert note.is_visible()
    assert note.get_attribute("aria-label") == "Tällä sivustolla"
    assert page.locator(".rules-box").is_visible()
    assert Axe().run(page).violations_count == 0
    page.emulate_media(media="print")
    assert not note.is_visible()
    assert page.locator(".rules-box").is_visible()
    assert page.locator("#equal-ranks h2").is_visible()
    assert console_errors == []
