"""The new-game form in Chromium: what it shows is what applies."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_only_the_bots_of_the_chosen_player_count_are_shown(page, site_url):
    page.goto(f"{site_url}/en/james-bond/play/?players=2")
    expect(page.locator('[data-opponent="2"]')).to_be_visible()
    # A field the page marks hidden is hidden, whatever display its class gives it.
    for seat in (3, 4):
        expect(page.locator(f'[data-opponent="{seat}"]')).to_be_hidden()
    page.locator("#players").select_option("4")
    for seat in (2, 3, 4):
        expect(page.locator(f'[data-opponent="{seat}"]')).to_be_visible()
