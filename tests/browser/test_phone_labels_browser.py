"""#26, the phone layout: at 390x844 no label on a table breaks inside a word ('Reserv e',
'Spelhö g 1'), in any language, and every step-through example fits the screen."""

from __future__ import annotations

import pytest

from examples.library import examples_for
from rules_engine.registry import VARIANTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
LANGS = ["sv", "nb", "de", "fi", "en"]

# Each word of each label, measured where it lies: a word split over two lines has boxes on
# two different lines.
BROKEN_WORDS = """() => {
    const broken = [];
    for (const label of document.querySelectorAll('.zone__label, .pile__caption')) {
        if (!label.getClientRects().length) continue;
        const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const m of node.textContent.matchAll(/\\S+/g)) {
                const range = document.createRange();
                range.setStart(node, m.index);
                range.setEnd(node, m.index + m[0].length);
                const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
                if (tops.size > 1) broken.push(m[0]);
            }
        }
    }
    return broken;
}"""


def start(page, site_url, variant: str, lang: str) -> None:
    page.goto(f"{site_url}/{lang}/{variant}/play/?players=2&level-2=expert")
    page.locator(".play-setup__start").click()
    page.wait_for_url("**/play/*/")
    page.locator("#game .table").wait_for()


@pytest.mark.parametrize("lang", LANGS)
def test_no_table_label_breaks_inside_a_word_on_a_phone(page, site_url, lang):
    page.set_viewport_size(PHONE)
    broken = {}
    for variant in VARIANTS:
        start(page, site_url, variant, lang)
        if words := page.evaluate(BROKEN_WORDS):
            broken[variant] = words
    assert broken == {}


@pytest.mark.parametrize("lang", LANGS)
def test_every_first_example_fits_a_phone_with_whole_words(page, site_url, lang):
    page.set_viewport_size(PHONE)
    broken, tall = {}, {}
    for variant in VARIANTS:
        for example in examples_for(variant)[:1]:
            page.goto(f"{site_url}/{lang}/{variant}/examples/{example.name}/")
            viewer = page.locator("[data-example-viewer]")
            height = viewer.bounding_box()["height"]
            if height > PHONE["height"]:
                tall[variant] = height
            if words := page.evaluate(BROKEN_WORDS):
                broken[variant] = words
    assert broken == {} and tall == {}, (broken, tall)


@pytest.mark.parametrize("lang", LANGS)
def test_every_example_fits_a_phone(page, site_url, lang):
    # Every example's starting position is measured, James Bond's five-player board and its
    # piles shown card by card included (German has the longest pile names).
    page.set_viewport_size(PHONE)
    tall, wide = {}, {}
    for variant in VARIANTS:
        for example in examples_for(variant):
            page.goto(f"{site_url}/{lang}/{variant}/examples/{example.name}/")
            height = page.locator("[data-example-viewer]").bounding_box()["height"]
            if height > PHONE["height"]:
                tall[f"{variant}/{example.name}"] = round(height)
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > PHONE["width"]:
                wide[f"{variant}/{example.name}"] = width
    assert tall == {} and wide == {}, (tall, wide)
