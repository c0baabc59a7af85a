"""The page's move retry in Chromium (static/js/play.js, #25): a move whose answer never
came (the worker that played it was restarted, the network dropped) is sent once more with
the same version, and the server answers the repeat as the same move: it counts once."""

from __future__ import annotations

import random
import re
from urllib.parse import parse_qs

import pytest
from django.utils import timezone
from play import service
from play.models import Game, LogEntry
from playwright.sync_api import Route, expect

from rules_engine import new_game
from tests.play_human import sensible_action

from .play_helpers import press
from .test_live_browser import holding, shows_version

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_move_whose_answer_was_lost_is_sent_again_and_counts_once(browser, site_url):
    seed = next(s for s in range(100) if new_game("stress-se", players=2, seed=s).legal_actions(0))
    row = service.start_game("stress-se", ["human", "human"], seed=seed, wall=timezone.now())
    context = holding(browser, site_url, row.pk, 0)
    # No socket: moves go over HTTP, where an answer can be lost.
    context.route_web_socket(re.compile(r".*/ws/.*"), lambda ws: ws.close())
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sent: list[dict] = []

    def lose_the_first_answer(route: Route) -> None:
        sent.append(parse_qs(route.request.post_data or ""))
        if len(sent) == 1:
            route.fetch()  # the server plays the move ...
            route.abort("connectionreset")  # ... and its answer never reaches the page
        else:
            route.continue_()

    page.route(re.compile(rf"/play/{row.pk}/move/$"), lose_the_first_answer)
    page.goto(f"{site_url}/en/play/{row.pk}/")
    expect(page.locator("#game > .game__state")).to_have_attribute("data-version", str(row.version))
    action = sensible_action(service.driver_of(row).game, 0, random.Random(2))
    assert action is not None and press(page, action, keyboard=False)
    shows_version(page, row.version + 1, timeout=15_000)
    assert len(sent) == 2
    assert sent[0]["version"] == sent[1]["version"] == [str(row.version)]
    assert sent[0]["action"] == sent[1]["action"]
    moves = list(LogEntry.objects.filter(game_id=row.pk, kind="human"))
    assert len(moves) == 1
    assert Game.objects.get(pk=row.pk).version == row.version + 1
    # The repeat is answered as the move it repeats: no "older view" refusal on the page.
    expect(page.locator("#game-message")).to_have_count(0)
    assert errors == []
    context.close()
