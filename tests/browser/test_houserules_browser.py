"""The house-rules configurator and sheet in real Chromium: preview, no-JS, print, PDF, QR."""

import os
import re
import shutil
import subprocess
from urllib.parse import urlencode

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.http import QueryDict
from playwright.sync_api import expect

from houserules.config import parse_config
from houserules.models import HouseRules
from houserules.views import row_config
from rules_engine.registry import VARIANTS
from tests.site.houserules_helpers import LANGS, longest_query

pytestmark = pytest.mark.browser

ZBARIMG = shutil.which("zbarimg")
#: points: what Chromium writes into the PDF's MediaBox for each paper.
PAPER_POINTS = {"a4": (595, 842), "letter": (612, 792)}
#: the language pairs the page-count test prints side by side (every language appears).
PAIRS = [("sv", "fi"), ("nb", "de"), ("de", "fi"), ("en", "sv"), ("fi", "nb")]
PAGE = re.compile(rb"/Type\s*/Page(?!s)")
MEDIA_BOX = re.compile(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]")


def pdf_pages(pdf: bytes) -> tuple[int, tuple[int, int]]:
    """The number of pages and the first page's size in whole points."""
    width, height = MEDIA_BOX.search(pdf).groups()
    return len(PAGE.findall(pdf)), (round(float(width)), round(float(height)))


def saved_row(variant: str, pairs: list[tuple[str, str]], page_lang: str) -> HouseRules:
    """A stored agreement, written as the save view writes it."""
    config = parse_config(variant, QueryDict(urlencode(pairs)), page_lang).config
    assert config is not None
    return HouseRules.objects.create(
        variant=variant, options=config.options, names=list(config.names), place=config.place,
        date=config.date, own_rules=list(config.own_rules), languages=list(config.languages),
        paper=config.paper,
    )


# The configurator ----------------------------------------------------------------------


def test_the_live_preview_follows_every_change(page, site_url, console_errors):
    page.goto(f"{site_url}/en/stress-se/house-rules/")
    sheet = page.locator("#preview .sheet")
    expect(sheet).to_contain_text("Cards of the same rank in your row go on top of each other")
    page.get_by_label("No stacking").check()
    expect(sheet).to_contain_text("Every card has a place of its own")
    expect(page).to_have_url(re.compile(r"/en/stress-se/house-rules/\?.*opt-stacking=false"))
    page.get_by_label("Player 1").fill("Astrid")
    expect(sheet.locator(".sheet__name").first).to_have_text("Astrid")
    page.get_by_label("Second language beside it").select_option("fi")
    finnish = sheet.locator('.sheet__lang[lang="fi"]')
    expect(finnish).to_contain_text("Jokainen kortti saa oman paikkansa")
    page.get_by_label("Your own rule 1").fill("x" * 140)
    expect(sheet.locator(".sheet__own li")).to_have_text("x" * 140)
    page.get_by_label("Date").fill("2025-06-21")
    expect(sheet.locator(".sheet__fill").nth(1)).to_have_text("21 June 2025")
    assert console_errors == []


def test_a_live_error_appears_at_its_field_and_goes_when_fixed(page, site_url, console_errors):
    page.goto(f"{site_url}/en/james-bond/house-rules/")
    for i in range(1, 6):
        page.get_by_label(f"Player {i}", exact=True).fill(f"P{i}")
    expect(page.locator("#err-names")).to_have_text("With these rules the game is for 2–4 players.")
    expect(page.locator("#preview .sheet")).to_have_count(0)
    page.get_by_label("Two decks, 5 to 8 players").check()
    expect(page.locator("#err-names")).to_have_text("")
    expect(page.locator("#preview .sheet__facts")).to_contain_text("5–8 players")
    assert console_errors == []


def test_the_form_works_without_javascript(browser, site_url, transactional_db):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{site_url}/sv/stressi-fi/house-rules/")
    page.get_by_label("Bara lågt").check()
    page.get_by_label("Spelare 1").fill("Aino")
    page.get_by_label("Spelare 2").fill("Ville")
    page.get_by_role("button", name="Visa bladet").click()
    page.wait_for_url(re.compile(r"/sv/stressi-fi/house-rules/\?.*opt-ace_low_only=true"))
    sheet = page.locator(".sheet")
    expect(sheet).to_contain_text("Esset är bara lågt")
    expect(sheet.locator(".sheet__name")).to_have_text(["Aino", "Ville"])

    page.get_by_label("Spelare 2").fill("x" * 40 + "y")  # maxlength stops the browser...
    assert page.get_by_label("Spelare 2").input_value() == "x" * 40
    page.goto(f"{site_url}/sv/stressi-fi/house-rules/?paper=a0")  # ...a URL does not
    assert page.locator("#err-paper").inner_text() == "Välj A4 eller US Letter."

    page.goto(f"{site_url}/sv/stressi-fi/house-rules/?opt-ace_low_only=true&name=Aino")
    page.get_by_role("button", name="Spara och få den korta länken").click()
    page.wait_for_url(re.compile(r"/h/[a-z0-9]{10}/$"))
    expect(page.locator(".sheet")).to_contain_text("Esset är bara lågt")
    expect(page.locator(".sheet__qr-image svg")).to_be_visible()
    context.close()


def test_printing_shows_the_sheet_and_nothing_else(page, site_url):
    page.goto(f"{site_url}/nb/james-bond/house-rules/?name=Kari")
    page.emulate_media(media="print")
    never = (".site-header", ".site-footer", ".hr-form", "#preview-heading", ".hr-save", "h1")
    for hidden in never:
        assert not page.locator(hidden).first.is_visible(), hidden
    assert page.locator(".sheet").is_visible()
    assert page.locator(".sheet__name").first.inner_text() == "Kari"


def test_the_configurator_fits_a_phone(page, site_url):
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{site_url}/fi/james-bond/house-rules/")
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0


# Accessibility -------------------------------------------------------------------------


# The configurator in sv and en is also in the page walk of test_site_browser.py.
@pytest.mark.parametrize("lang", ["de", "fi"])
def test_form_with_errors_sheet_and_rules_box_have_no_axe_violations(
    page, site_url, console_errors, transactional_db, lang
):
    page.goto(f"{site_url}/{lang}/stress-de/house-rules/?opt-jokers=7&paper=a0&own=" + "x" * 150)
    assert page.locator(".field-error p").count() == 3
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()

    pair = (lang, "en" if lang != "en" else "sv")
    row = saved_row("stress-de", longest_query("stress-de", pair, "a4"), lang)
    page.goto(f"{site_url}/h/{row.code}/")
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()

    chosen = [p for p in row_config(row).config.query_pairs() if p[0].startswith("opt-")]
    page.goto(f"{site_url}/{lang}/stress-de/?{urlencode(chosen)}#house-rules")
    expect(page.locator(".house-rules-box")).to_be_visible()
    results = Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    # the form with errors answers 400 on purpose; Chromium reports that as a console error
    assert [e for e in console_errors if "status of 400" not in e] == []


# One printed page ----------------------------------------------------------------------


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_sheet_prints_on_one_page(page, site_url, transactional_db, variant, paper):
    """Default and fullest sheets, every language and the tested pairs, each on one page."""
    cases = [(f"default {lang}", f"/{lang}/{variant}/house-rules/sheet/?lang={lang}&paper={paper}")
             for lang in LANGS]
    for langs in [(lang,) for lang in LANGS] + PAIRS:
        row = saved_row(variant, longest_query(variant, langs, paper), langs[0])
        cases.append((f"fullest {'|'.join(langs)}", f"/h/{row.code}/"))
    for name, url in cases:
        page.goto(site_url + url)
        page.emulate_media(media="print")
        pages, size = pdf_pages(page.pdf(prefer_css_page_size=True))
        assert (pages, size) == (1, PAPER_POINTS[paper]), f"{variant} {paper} {name}"


# The QR code ---------------------------------------------------------------------------


def test_the_qr_code_leads_to_exactly_these_rules(browser, site_url, transactional_db, tmp_path):
    if ZBARIMG is None:
        message = "zbarimg (Debian's zbar-tools, installed by .ci/run) is missing"
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail(message)
        pytest.skip(message)
    context = browser.new_context(device_scale_factor=3)
    page = context.new_page()
    page.goto(f"{site_url}/en/james-bond/house-rules/")
    page.get_by_label("Atlantis").check()
    page.get_by_label("Best of five", exact=True).check()
    preview = page.locator("#preview .sheet")
    expect(preview).to_contain_text("At this table the call is “Atlantis!”")
    page.get_by_role("button", name="Save and get the short link").click()
    page.wait_for_url(re.compile(r"/h/[a-z0-9]{10}/$"))
    code = page.url.rstrip("/").rsplit("/", 1)[1]

    shot = tmp_path / "qr.png"
    page.locator(".sheet__qr-image").screenshot(path=str(shot))
    decoded = subprocess.run(
        [ZBARIMG, "--raw", "-q", str(shot)], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert decoded == f"{site_url}/h/{code}/play/"
    assert page.locator(".sheet__link").inner_text() == decoded  # the printed link is the same

    # The code opens a new game against the bots with exactly these rules filled in.
    page.goto(decoded)
    page.wait_for_url(re.compile(r"/en/james-bond/play/\?.*opt-call_word=atlantis"))
    expect(page.locator("#opt-call_word")).to_have_value("atlantis")
    expect(page.locator("#opt-best_of_five")).to_have_value("true")
    expect(page.locator("#opt-say_stikk")).to_have_value("false")
    # the form calls the chosen values what the sheet called them
    expect(page.locator("#opt-best_of_five option:checked")).to_have_text("Best of five")
    context.close()


def test_a_printed_sheet_uses_the_page_and_its_cards_and_link_can_be_read(
    page, site_url, transactional_db
):
    """On paper a short sheet gets larger type, a card in the text is as tall as the line
    (rank and suit readable), and the printed link wraps only after a slash."""
    page.goto(f"{site_url}/en/stress-se/house-rules/sheet/?lang=en&paper=a4")
    page.emulate_media(media="print")
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.sheet')).fontSize)")
    assert size >= 13  # 10 pt or more (the fullest sheets print at 8.6 pt)
    card = page.evaluate("""() => {
        const c = document.querySelector('.sheet__rules .card');
        const r = c.getBoundingClientRect();
        return {h: r.height, font: parseFloat(getComputedStyle(c, '::before').fontSize)};
    }""")
    assert card["font"] >= size * 0.95 and card["h"] >= size, card
    row = saved_row("stress-se", longest_query("stress-se", ("en",), "a4"), "en")
    page.goto(f"{site_url}/h/{row.code}/")
    page.emulate_media(media="print")
    breaks = page.evaluate("""() => {
        const link = document.querySelector('.sheet__link');
        const text = link.textContent;
        const range = document.createRange();
        const found = [];
        let top = null, at = 0;
        for (const node of link.childNodes) {
            if (node.nodeType !== Node.TEXT_NODE) continue;
            for (let i = 0; i < node.length; i++, at++) {
                range.setStart(node, i); range.setEnd(node, i + 1);
                const y = range.getBoundingClientRect().top;
                if (top !== null && y > top + 2) found.push(text[at - 1]);
                top = y;
            }
        }
        return found;
    }""")
    assert all(before == "/" for before in breaks), breaks
