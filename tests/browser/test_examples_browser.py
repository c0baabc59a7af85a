import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from examples.library import examples_for, load_example
from rules_engine.registry import VARIANTS

pytestmark = pytest.mark.browser

FIRST_EXAMPLES = [
    (slug, found[0].name) for slug in VARIANTS if (found := examples_for(slug))
]


@pytest.mark.parametrize(("slug", "name"), FIRST_EXAMPLES)
def test_step_through_with_the_keyboard(page, site_url, console_errors, slug, name):
    page.goto(f"{site_url}/en/{slug}/examples/{name}/")
    viewer = page.locator("[data-example-viewer]")
    before = viewer.locator(".narration").inner_text()
    first_board = viewer.locator(".board").inner_html()
    viewer.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_url(f"**/en/{slug}/examples/{name}/?step=1")
    assert "Step 1 of" in viewer.inner_text()
    assert viewer.locator(".narration").inner_text() != before
    page.keyboard.press("End")
    last = load_example(slug, name).last
    expect(viewer.locator(".example-viewer__counter")).to_have_text(f"Step {last} of {last}")
    page.wait_for_url(f"**/en/{slug}/examples/{name}/?step={last}")
    assert viewer.locator(".board").inner_html() != first_board
    page.keyboard.press("Home")
    page.wait_for_url(f"**/en/{slug}/examples/{name}/?step=0")
    expect(viewer.locator(".example-viewer__counter")).to_have_text(
        f"Starting position ({last} steps)")
    assert Axe().run(page).violations_count == 0
    assert console_errors == []


def test_a_key_pressed_before_htmx_settles_still_steps_in_place(page, site_url, console_errors):
    # htmx wires up swapped-in links when the swap settles; a long settle makes the window
    # in which a fast key used to follow the plain link (a full reload, focus lost) certain.
    slug, name = FIRST_EXAMPLES[0]
    last = load_example(slug, name).last
    page.goto(f"{site_url}/en/{slug}/examples/{name}/")
    page.evaluate("htmx.config.defaultSettleDelay = 2000")
    viewer = page.locator("[data-example-viewer]")
    viewer.focus()
    page.keyboard.press("ArrowRight")
    expect(viewer.locator(".example-viewer__counter")).to_have_text(f"Step 1 of {last}")
    page.keyboard.press("End")  # while the swap of step 1 is still settling
    expect(viewer.locator(".example-viewer__counter")).to_have_text(f"Step {last} of {last}")
    page.wait_for_url(f"**/en/{slug}/examples/{name}/?step={last}")
    assert page.evaluate("document.activeElement.hasAttribute('data-example-viewer')")
    assert page.evaluate("htmx.config.defaultSettleDelay") == 2000  # still the same page


def test_examples_work_without_javascript(browser, site_url):
    slug, name = FIRST_EXAMPLES[0]
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{site_url}/sv/{slug}/examples/{name}/")
    page.locator('[data-step-link="next"]').click()
    page.wait_for_url(f"**/sv/{slug}/examples/{name}/?step=1")
    context.close()


def test_sandbox_rejects_an_illegal_move_with_its_reason(page, site_url, console_errors):
    page.goto(f"{site_url}/en/stress-se/examples/illegal-plays/")
    page.get_by_role("link", name="Try it from here").click()
    page.wait_for_url("**/examples/illegal-plays/try/?step=0")
    buttons = page.locator(".sandbox__moves button")
    assert buttons.count() > 1
    buttons.last.click()  # the offers end with the calls: a false call while tops differ
    rejected = page.locator(".sandbox__status .rejected")
    rejected.wait_for()
    text = rejected.inner_text()
    # who tried what, said as a sentence (not a button label), then the engine's reason
    assert text == ("Player 1 cannot call and slap centre pile 2: the centre piles show "
                    "different ranks, so there is nothing to call.")
    assert Axe().run(page).violations_count == 0
    page.get_by_role("link", name="Start again from the example").click()
    page.wait_for_url("**/try/?step=0")
    assert console_errors == []
