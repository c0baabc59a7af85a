import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.site.pages import LANGS, page_paths

pytestmark = pytest.mark.browser

HOME_HEADINGS = {
    "sv": "Stress och dess släktingar",
    "nb": "Stress og slektningene",
    "de": "Stress und seine Verwandten",
    "fi": "Stressi ja sen sukulaiset",
    "en": "Stress and its relatives",
}


@pytest.mark.parametrize("lang", LANGS)
def test_home_in_each_language(page, site_url, console_errors, lang):
    page.goto(f"{site_url}/{lang}/")
    assert page.locator("html").get_attribute("lang") == lang
    assert page.locator("h1").inner_text() == HOME_HEADINGS[lang]
    assert page.locator(".variant-card").count() == 5
    assert console_errors == []


def test_language_switcher_keeps_the_page(page, site_url, console_errors):
    page.goto(f"{site_url}/sv/stress-se/")
    page.locator(".language-switcher a[hreflang=de]").click()
    page.wait_for_url(f"{site_url}/de/stress-se/")
    assert page.locator("html").get_attribute("lang") == "de"
    page.locator(".language-switcher a[hreflang=fi]").click()
    page.wait_for_url(f"{site_url}/fi/stress-se/")
    assert console_errors == []


def test_large_type_toggle_persists_across_pages(page, site_url):
    page.goto(f"{site_url}/en/")
    page.get_by_role("button", name="Large type").click()
    page.wait_for_url(f"{site_url}/en/")
    assert "large-type" in page.locator("html").get_attribute("class")
    page.goto(f"{site_url}/en/sources/")
    assert "large-type" in page.locator("html").get_attribute("class")


@pytest.mark.parametrize("path", page_paths())
def test_no_accessibility_violations(page, site_url, console_errors, path):
    for lang in ("sv", "en"):
        page.goto(f"{site_url}/{lang}/{path}")
        results = Axe().run(page)
        assert results.violations_count == 0, results.generate_report()
    assert console_errors == [], "console errors or CSP violations: " + "; ".join(console_errors)


def test_phone_width_has_no_horizontal_scroll(page, site_url):
    page.set_viewport_size({"width": 360, "height": 740})
    for path in ("", "stress-se/", "compare/", "cards/"):
        page.goto(f"{site_url}/fi/{path}")
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, path


def test_cards_page_screenshot(page, site_url, tmp_path):
    page.goto(f"{site_url}/de/cards/")
    card = page.get_by_role("img", name="Herz-Sieben").first
    assert card.is_visible()
    shot = tmp_path / "cards.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000


def test_projector_mode_large_type_and_four_colours_stay_accessible(page, site_url):
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{site_url}/de/stress-se/")
    page.get_by_role("button", name="Große Schrift").click()
    page.wait_for_url(f"{site_url}/de/stress-se/")
    page.get_by_role("button", name="Vierfarbenblatt").click()
    page.wait_for_url(f"{site_url}/de/stress-se/")
    assert page.locator("html").get_attribute("class") == "large-type four-colour"
    diamonds = page.locator(".card--diamonds").first
    expect(diamonds).to_have_css("color", "rgb(29, 78, 216)")
    assert Axe().run(page).violations_count == 0
