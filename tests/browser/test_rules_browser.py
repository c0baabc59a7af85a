import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang", ["nb", "de"])
def test_rules_page_reads_and_prints_without_navigation(page, site_url, console_errors, lang):
    page.goto(f"{site_url}/{lang}/stress-se/")
    assert page.locator("nav.toc a").count() == 12
    page.locator("nav.toc a[href='#moves']").click()
    assert page.url.endswith("#moves")
    assert Axe().run(page).violations_count == 0
    page.emulate_media(media="print")
    assert not page.locator(".site-header").is_visible()
    assert not page.locator("nav.toc").is_visible()
    assert page.locator("#moves h2").is_visible()
    assert console_errors == []


def test_parallel_reading_in_the_browser(page, site_url):
    page.goto(f"{site_url}/sv/stressi-fi/")
    page.select_option("#pair", "fi")
    page.get_by_role("button", name="Visa").click()
    page.wait_for_url("**/sv/stressi-fi/?pair=fi")
    assert page.locator(".pair [lang=fi] h2").count() == 12
    # the examples are there too, under both texts, and step like on the single page
    viewer = page.locator(".pair [data-example-viewer]").first
    viewer.scroll_into_view_if_needed()
    expect(viewer).to_be_visible()
    assert Axe().run(page).violations_count == 0


@pytest.mark.parametrize("lang", ["fi", "en"])
def test_comparison_of_two_variants(page, site_url, console_errors, lang):
    page.goto(f"{site_url}/{lang}/compare/?a=stress-se&b=stress-de")
    assert page.locator("tr.differs").count() >= 1
    assert page.locator(".differences li").count() == page.locator("tr.differs").count()
    assert Axe().run(page).violations_count == 0
    assert console_errors == []
