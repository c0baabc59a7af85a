"""Two requests for one game never lose an update: 2 x 200 conflicting moves from threads.

Both threads play the same seat of one game (two tabs of one browser), each alternating
"pick up pile 1" and "put it back", so half their moves collide with the other's; the bot's
moves are caught up inside the same requests. Afterwards every accepted move is in the log
exactly once, nothing else the players sent is, and the log replays to the stored state.

Runs on SQLite (version-checked UPDATE and retry) and on PostgreSQL (SELECT ... FOR
UPDATE): the "postgres" database alias exists when TEST_POSTGRES_URL is set (.ci/run starts
a server for it). With REQUIRE_POSTGRES=1 a missing server fails the run instead of skipping.
"""

from __future__ import annotations

import os
import threading
from collections import Counter

import pytest
from django.conf import settings
from django.db import connections
from django.utils import timezone
from play import service
from play.models import HUMAN, Game, LogEntry

MOVES_PER_THREAD = 200
THREADS = 2


def _databases() -> list:
    found = [pytest.param("default", id="sqlite")]
    if "postgres" in settings.DATABASES:
        found.append(pytest.param("postgres", id="postgresql"))
    elif os.environ.get("REQUIRE_POSTGRES"):
        raise pytest.UsageError("REQUIRE_POSTGRES is set but TEST_POSTGRES_URL is not")
    else:
        found.append(pytest.param("postgres", id="postgresql", marks=pytest.mark.skip(
            reason="no PostgreSQL server: set TEST_POSTGRES_URL (.ci/run starts one)")))
    return found


def _player(game_id: str, using: str, accepted: list, judged: list, refused: list,
            errors: list, start: threading.Barrier) -> None:
    pick = {"type": "pick", "pile": "pile-1"}
    back = {"type": "put-back"}
    try:
        start.wait()
        for i in range(MOVES_PER_THREAD):
            version = Game.objects.using(using).values_list("version", flat=True).get(
                pk=game_id)
            change = service.play(game_id, timezone.now(), seat=0, version=version,
                                  action=pick if i % 2 == 0 else back, using=using)
            turn = change.value
            if turn.repeated:  # the other tab's last move, sent again: the same move
                refused.append("repeated")
                continue
            if turn.refusal:
                refused.append(turn.refusal)
                continue
            humans = [e for e in change.entries if e.kind == "human"]
            assert len(humans) == 1, humans
            judged.append(humans[0].seq)
            if turn.result.accepted:
                accepted.append(humans[0].seq)
    except Exception as exc:  # reported by the test, not lost in the thread
        errors.append(exc)
    finally:
        connections.close_all()


@pytest.mark.parametrize("using", _databases())
@pytest.mark.django_db(transaction=True, databases=["default", "postgres"]
                       if "postgres" in settings.DATABASES else ["default"])
def test_two_threads_of_conflicting_moves_lose_no_update(using):
    if using == "postgres":
        assert connections[using].vendor == "postgresql"
        assert connections[using].features.has_select_for_update
    row = service.start_game("james-bond", [HUMAN, "learner"], seed=9, wall=timezone.now(),
                             using=using)
    accepted: list[int] = []
    judged: list[int] = []
    refused: list[str] = []
    errors: list[Exception] = []
    start = threading.Barrier(THREADS)
    threads = [threading.Thread(target=_player, args=(row.pk, using, accepted, judged, refused,
                                                      errors, start))
               for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert len(judged) + len(refused) == THREADS * MOVES_PER_THREAD
    assert set(refused) <= {service.STALE, "repeated"}
    assert accepted, "no move was accepted at all"

    stored = Game.objects.using(using).get(pk=row.pk)
    log = list(LogEntry.objects.using(using).filter(game=stored))
    assert [e.seq for e in log] == list(range(stored.log_length))
    human = [e for e in log if e.kind == "human"]
    # Every move the engine judged is in the log once, and the log holds no other move.
    assert sorted(e.seq for e in human) == sorted(judged)
    assert Counter(judged).most_common(1)[0][1] == 1
    assert sorted(e.seq for e in human if e.accepted) == sorted(accepted)
    # Applied one after the other, the accepted moves alternate: a pick, then a put-back.
    kinds = [e.action["type"] for e in human if e.accepted]
    assert kinds == ["pick", "put-back"] * (len(kinds) // 2) + ["pick"] * (len(kinds) % 2)
    assert service.replay_log(stored, using=using).to_json(log=False) == \
        service.driver_of(stored).game.to_json(log=False)
