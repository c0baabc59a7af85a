"""Presence in Chromium (issue #22): two people at a table with an away limit; one closes
the page, the other sees the game paused with a notice naming them and the time left; after
the limit a bot moves for them; they open the page again and take their seat back."""

from __future__ import annotations

import re
import time

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.utils import timezone
from play import service
from play.models import HUMAN, Game
from playwright.sync_api import expect

from rules_engine import new_game

from .test_live_browser import holding

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_closed_page_pauses_the_table_a_bot_takes_the_seat_and_its_person_takes_it_back(
    browser, site_url, settings
):
    settings.PLAY_AWAY_GRACE_MS = 600
    settings.PLAY_PING_MS = 1000
    seed = next(s for s in range(100) if new_game("stress-se", players=2, seed=s).legal_actions(1))
    row = service.start_game(
        "stress-se",
        [HUMAN, HUMAN],
        seed=seed,
        wall=timezone.now(),
        away_limit_ms=60_000,
        takeover=["club", "expert"],
        names=["Anna", "Ben"],
    )
    errors: list[str] = []
    contexts = [holding(browser, site_url, row.pk, seat) for seat in (0, 1)]
    anna, ben = (context.new_page() for context in contexts)
    for page in (anna, ben):
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(f"{site_url}/en/play/{row.pk}/")
        expect(page.locator("#game[data-live]")).to_have_count(1)
    # Both are seated: from now on a short limit (a page may take seconds to load here).
    Game.objects.filter(pk=row.pk).update(away_limit_ms=4000)
    # Every seat's delay is on the table, measured over the socket.
    expect(anna.locator("#delays")).to_contain_text("Ben: ", timeout=5000)
    expect(anna.locator("#delays")).to_contain_text(" ms", timeout=5000)

    ben.close()
    notice = anna.locator("#presence-notice")
    expect(notice).to_contain_text("Ben is not connected", timeout=5000)
    expect(notice).to_contain_text("takes their seat in")
    left = int(notice.locator("[data-countdown-ms]").inner_text())
    time.sleep(1.2)
    assert int(notice.locator("[data-countdown-ms]").inner_text()) < left  # counted down
    expect(anna.locator("#announce")).to_contain_text("Ben is not connected")
    assert Game.objects.get(pk=row.pk).paused
    assert Axe().run(anna).violations_count == 0

    # The limit passes: the expert bot plays Ben's seat, with no request from any page.
    expect(anna.locator(".presence__standin")).to_contain_text(
        "A bot (expert) plays for Ben.", timeout=8000
    )
    deadline = time.monotonic() + 20
    while not Game.objects.get(pk=row.pk).entries.filter(kind="bot").exists():
        assert time.monotonic() < deadline, "the bot made no move for Ben"
        time.sleep(0.2)

    # Ben is back: his page offers his seat back; he takes it, and plays it again.
    ben = contexts[1].new_page()
    ben.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    ben.goto(f"{site_url}/en/play/{row.pk}/")
    expect(ben.locator("#game[data-live]")).to_have_count(1)
    ben.locator("#take-back").click()
    expect(ben.locator(".play__role")).to_have_text("you are playing", timeout=5000)
    expect(ben.locator("#game[data-holds][data-live]")).to_have_count(1)
    expect(anna.locator("#announce")).to_contain_text(
        "Ben plays their own seat again.", timeout=5000
    )
    assert Game.objects.get(pk=row.pk).seats == [HUMAN, HUMAN]
    expect(ben.locator(".presence__standin")).to_have_count(0)
    assert errors == []
    for context in contexts:
        context.close()


def test_when_the_missing_person_is_back_both_pages_count_down_again(browser, site_url, settings):
    """#22: a game that waited for a dropped person starts again on the start signal, on
    every page, so that nobody has a head start."""
    settings.PLAY_AWAY_GRACE_MS = 600
    settings.PLAY_PING_MS = 1000
    settings.PLAY_SIGNAL_MS = 2000
    row = service.start_game(
        "stress-se",
        [HUMAN, HUMAN],
        seed=3,
        wall=timezone.now(),
        away_limit_ms=60_000,
        takeover=["club", "club"],
        names=["Anna", "Ben"],
    )
    errors: list[str] = []
    contexts = [holding(browser, site_url, row.pk, seat) for seat in (0, 1)]
    anna, ben = (context.new_page() for context in contexts)
    for page in (anna, ben):
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(f"{site_url}/en/play/{row.pk}/")
        expect(page.locator("#game[data-live]")).to_have_count(1)
    # The first countdown ends and the signal goes away.
    expect(anna.locator(".signal")).to_be_hidden(timeout=8000)
    time.sleep(1.5)  # well past the "go" the pages showed
    ben.close()
    expect(anna.locator("#presence-notice")).to_contain_text("Ben is not connected", timeout=5000)
    assert Game.objects.get(pk=row.pk).paused
    ben = contexts[1].new_page()
    ben.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    ben.goto(f"{site_url}/en/play/{row.pk}/")
    for page in (anna, ben):
        expect(page.locator(".signal__box")).to_be_visible(timeout=5000)
        expect(page.locator(".signal__count")).to_have_text(re.compile(r"^[12]$"))
        expect(page.locator("#announce")).to_contain_text("Ready, steady", timeout=3000)
    back = Game.objects.get(pk=row.pk)
    assert not back.paused
    assert service.driver_of(back).waiting(back.clock.now_ms(timezone.now()))
    for page in (anna, ben):
        expect(page.locator("#announce")).to_contain_text("Go!", timeout=5000)
        expect(page.locator(".signal")).to_be_hidden(timeout=5000)
    assert errors == []
    for context in contexts:
        context.close()
