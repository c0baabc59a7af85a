"""manage.py prune_games: finished and abandoned games go after a configurable age."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone
from play import service
from play.models import HUMAN, Game, LogEntry

from .play_support import play_to_the_end, wall

pytestmark = pytest.mark.django_db


def aged(row: Game, days: float, **fields) -> None:
    when = timezone.now() - timedelta(days=days)
    Game.objects.filter(pk=row.pk).update(updated=when, **fields)


def test_old_finished_and_abandoned_games_go_with_their_logs_and_the_rest_stay():
    done = play_to_the_end(service.start_game("stress-se", [HUMAN, "expert"], seed=2,
                                              wall=wall(0), speed=1.0))
    assert LogEntry.objects.filter(game=done).exists()
    aged(done, 40, finished=timezone.now() - timedelta(days=40))
    recent_done = play_to_the_end(service.start_game("stress-se", [HUMAN, "expert"], seed=3,
                                                     wall=wall(0), speed=1.0))
    aged(recent_done, 1, finished=timezone.now() - timedelta(days=1))
    abandoned = service.start_game("spit", [HUMAN, "club"], wall=wall(0))
    aged(abandoned, 3)
    running = service.start_game("spit", [HUMAN, "club"], wall=timezone.now())
    out = StringIO()
    call_command("prune_games", "--finished-days", "30", "--abandoned-days", "2", stdout=out)
    assert "deleted 1 finished and 1 abandoned games" in out.getvalue()
    assert set(Game.objects.values_list("pk", flat=True)) == {recent_done.pk, running.pk}
    assert not LogEntry.objects.filter(game_id=done.pk).exists()


def test_a_dry_run_deletes_nothing_and_ages_are_checked():
    row = service.start_game("spit", [HUMAN, "club"], wall=wall(0))
    aged(row, 10)
    out = StringIO()
    call_command("prune_games", "--dry-run", stdout=out)
    assert "would delete 0 finished and 1 abandoned games" in out.getvalue()
    assert Game.objects.filter(pk=row.pk).exists()
    with pytest.raises(CommandError):
        call_command("prune_games", "--finished-days", "-1")
