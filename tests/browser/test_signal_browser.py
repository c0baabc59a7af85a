"""The start signal in Chromium (issue #26): a new game counts down big on the table and
reads the count out, a move before "go" is refused with its reason, and after "go" a move
counts; over the game's socket and over HTTP alike."""

from __future__ import annotations

import re
import time

import pytest
from axe_playwright_python.sync_playwright import Axe
from play.models import LogEntry
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}


@pytest.mark.parametrize("transport", ["socket", "http"])
def test_the_countdown_is_shown_and_read_out_then_a_move_counts(
    browser, site_url, settings, transport
):
    # longer than the site's 3 s: axe and a click must come before "go" on a busy machine
    settings.PLAY_SIGNAL_MS = 8000
    context = browser.new_context(viewport=PHONE)
    if transport == "http":
        context.route_web_socket(re.compile(r".*/ws/.*"), lambda ws: ws.close())
    page = context.new_page()
    page.goto(f"{site_url}/de/james-bond/play/?players=2&level-2=learner")
    page.locator(".play-setup__start").click()
    page.wait_for_url("**/play/*/")
    game_id = page.url.rstrip("/").split("/")[-1]

    signal = page.locator(".signal__box")
    expect(signal).to_be_visible()
    expect(page.locator(".signal__count")).to_have_text(re.compile(r"^[1-8]$"))
    expect(page.locator("#announce")).to_contain_text("Auf die Plätze, fertig …")
    count = page.locator(".signal__count").bounding_box()
    assert count and count["height"] > 40, "the count is big on the table"
    assert Axe().run(page).violations_count == 0

    page.locator("#o-pile-1").click()  # before "go"
    expect(page.locator(".game__message")).to_contain_text("des Startsignals spielt niemand")
    assert not LogEntry.objects.filter(game_id=game_id, kind="human").exists()

    expect(page.locator(".signal__count")).to_have_text("Los!", timeout=12_000)
    expect(page.locator("#announce")).to_contain_text("Los!")
    expect(signal).to_be_hidden(timeout=5000)

    page.locator("#o-pile-1").click()
    deadline = time.monotonic() + 10
    while not LogEntry.objects.filter(game_id=game_id, kind="human", reason="").exists():
        assert time.monotonic() < deadline, "the move after go was not played"
        time.sleep(0.1)
    context.close()
