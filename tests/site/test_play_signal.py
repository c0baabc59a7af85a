"""The start signal on the game pages (issue #26): every game started through
play.service.start_game counts down ("3, 2, 1, go!" in the page's language) before anyone
may play; a move before "go" is refused with a translated reason and changes nothing; a
lesson, which starts paused, counts down once its clock runs."""

import json
from datetime import timedelta

import pytest
from django.db.models import F
from django.utils import timezone, translation
from django.utils.html import escape
from django.utils.translation import pgettext
from play import service
from play.models import Game, LogEntry

from presentation.reasons import reason_text

from .test_play_views import LANGS, start
from .test_teach import post_clock
from .test_teach import start as start_lesson

pytestmark = pytest.mark.django_db
SIGNAL_MS = 3000


@pytest.fixture(autouse=True)
def signal(settings):
    settings.PLAY_SIGNAL_MS = SIGNAL_MS


def words(lang: str) -> tuple[str, str, str]:
    with translation.override(lang):
        return (
            pgettext("start signal", "Ready, steady…"),
            pgettext("start signal", "Go!"),
            reason_text("wait-signal", "pick"),
        )


def move(client, game: Game, lang: str, action: dict):
    data = {"action": json.dumps(action), "version": str(game.version)}
    return client.post(f"/{lang}/play/{game.pk}/move/", data, HTTP_HX_REQUEST="true")


def after_the_signal(game: Game) -> Game:
    """The game's clock moved on past the countdown, as if its seconds had passed."""
    Game.objects.filter(pk=game.pk).update(clock_at=F("clock_at") - timedelta(seconds=4))
    return Game.objects.get(pk=game.pk)


@pytest.mark.parametrize("lang", LANGS)
def test_a_new_game_counts_down_and_a_move_before_go_is_refused(client, lang):
    ready, go, reason = words(lang)
    if lang != "en":  # translated, not the English left in place
        assert all(ours != en for ours, en in zip(words(lang), words("en"), strict=True))
    game = start(client, "james-bond", lang)
    page = client.get(f"/{lang}/play/{game.pk}/").text
    assert '<div class="signal" data-signal data-signal-in="' in page
    assert f'data-go="{escape(go)}"' in page and escape(ready) in page
    assert '<p class="signal__count">3</p>' in page

    refused = move(client, game, lang, {"type": "pick", "pile": "pile-3"})
    assert refused.status_code == 200
    assert escape(reason) in refused.text
    assert not LogEntry.objects.filter(game=game).exists()  # no engine call, nothing stored
    assert Game.objects.get(pk=game.pk).snapshot == game.snapshot

    game = after_the_signal(game)
    played = move(client, game, lang, {"type": "pick", "pile": "pile-3"})
    assert 'class="signal"' not in played.text and "game__message" not in played.text
    assert LogEntry.objects.get(game=game, kind="human").accepted


def test_the_bots_wait_for_the_signal_too(client):
    game = start(client, "stress-se", "en")
    driver = service.driver_of(game)
    assert driver.signal_at == SIGNAL_MS
    assert all(p is None or p[0] >= SIGNAL_MS for p in driver.plans)
    # the page asks again once "go" has been shown at the latest (to take it away)
    poll = service.next_poll_ms(game, driver, game.clock_at)
    assert poll is not None and poll <= SIGNAL_MS + service.GO_SHOWN_MS + service.POLL_MARGIN_MS


def test_every_way_of_starting_a_game_counts_down():
    """Friends' and class tables start their games through start_game too."""
    row = service.start_game("spit", ["human", "human"], seed=3, wall=timezone.now())
    assert service.driver_of(row).waiting(0)
    countdown = service.countdown(row, service.driver_of(row), row.clock_at)
    assert countdown is not None and countdown.seconds == 3


def test_a_lesson_counts_down_when_its_clock_starts(client):
    lesson = start_lesson(client, mode="watch")
    row = Game.objects.get(pk=lesson.pk)
    assert row.paused
    page = client.get(f"/en/teach/{lesson.pk}/").text
    # paused before the start: the countdown stands at 3 and does not run
    assert '<div class="signal" data-signal data-go="Go!">' in page
    assert '<p class="signal__count">3</p>' in page
    started = post_clock(client, lesson, "resume")
    assert '<div class="signal" data-signal data-signal-in="' in started.text
    row = Game.objects.get(pk=lesson.pk)
    assert not row.paused and service.driver_of(row).waiting(row.clock.now_ms(row.clock_at))
