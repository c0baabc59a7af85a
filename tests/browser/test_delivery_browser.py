"""Deferred example viewers in Chromium: drawn before they are seen, nothing on screen moves,
usable from the keyboard once loaded and reachable without JavaScript."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from examples.library import examples_for
from rules.views import EAGER_VIEWERS

pytestmark = pytest.mark.browser

# Sums layout shifts the way CLS does (shifts right after input do not count).
LAYOUT_SHIFTS = """
window.layoutShift = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (!entry.hadRecentInput) window.layoutShift += entry.value;
  }
}).observe({ type: "layout-shift", buffered: true });
"""
NEXT_FRAME = "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
# Resolves once no viewer has a request started and not yet swapped in. (wait_for_function
# would evaluate a string, which the pages' CSP forbids.)
LOADS_DONE = """new Promise((done) => {
  const check = () => document.querySelector(
    ".example-viewer--deferred:not([data-deferred-viewer])") ? setTimeout(check, 20) : done();
  check();
})"""


def settle(page) -> None:
    """Let the observer see the new scroll position, then let the loads it started finish."""
    page.evaluate(NEXT_FRAME)
    page.evaluate(LOADS_DONE)


@pytest.mark.parametrize(
    "viewport", [{"width": 412, "height": 823}, {"width": 1350, "height": 940}]
)
def test_deferred_viewers_arrive_before_they_are_seen(page, site_url, console_errors, viewport):
    page.set_viewport_size(viewport)
    page.add_init_script(LAYOUT_SHIFTS)
    page.goto(f"{site_url}/en/james-bond/")
    examples = len(examples_for("james-bond"))
    assert page.locator(".board").count() == EAGER_VIEWERS
    settle(page)
    while page.evaluate("scrollY + innerHeight < document.documentElement.scrollHeight"):
        page.mouse.wheel(0, viewport["height"] // 2)
        settle(page)
    assert page.locator("[data-deferred-viewer]").count() == 0
    assert page.locator(".example-viewer .board").count() == examples
    assert page.evaluate("window.layoutShift") == 0
    assert Axe().run(page).violations_count == 0
    assert console_errors == []


def test_a_deferred_viewer_steps_with_the_keyboard_once_loaded(page, site_url, console_errors):
    page.goto(f"{site_url}/en/james-bond/")
    viewer = page.locator(".example-viewer--deferred").last
    name = viewer.get_attribute("id")
    viewer.scroll_into_view_if_needed()
    loaded = page.locator(f"#{name}")
    expect(loaded.locator(".board")).to_be_visible()
    loaded.focus()
    page.keyboard.press("ArrowRight")
    expect(loaded.locator(".example-viewer__counter")).to_contain_text("Step 1 of")
    assert page.url == f"{site_url}/en/james-bond/"
    assert console_errors == []


def test_deferred_viewers_link_to_their_page_without_javascript(browser, site_url):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{site_url}/de/spit/")
    viewer = page.locator(".example-viewer--deferred").first
    name = viewer.get_attribute("id").removeprefix("ex-")
    viewer.get_by_role("link").click()
    page.wait_for_url(f"**/de/spit/examples/{name}/")
    assert page.locator(".board").count() == 1
    context.close()
