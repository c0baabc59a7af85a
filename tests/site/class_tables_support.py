"""Class tables in tests (#23): a lesson, pupils who join it with their own browsers, and
tables played to their end by both pupils' moves."""

from __future__ import annotations

import random
from datetime import timedelta

from django.test import Client
from play import service
from play.models import Game
from teach.models import Lesson

from tests.play_human import sensible_action


def new_lesson(client: Client, variant: str = "stress-se", lang: str = "en") -> Lesson:
    data = {"mode": "watch", "players": "2", "level-1": "club", "level-2": "club", "seed": "7"}
    response = client.post(f"/{lang}/{variant}/teach/", data)
    assert response.status_code == 303, response.content[:800]
    game_id = response["Location"].rstrip("/").split("/")[-1]
    return Lesson.objects.select_related("game").get(pk=game_id)


def join(lesson: Lesson, nickname: str, lang: str = "en") -> Client:
    pupil = Client()
    response = pupil.post(f"/{lang}/class/", {"code": lesson.class_code, "nickname": nickname})
    assert response.status_code == 303, response.content[:600]
    return pupil


def control(client: Client, lesson: Lesson, command: str, lang: str = "en", **values):
    return client.post(
        f"/{lang}/teach/{lesson.pk}/tables/control/",
        {"command": command, **values},
        HTTP_HX_REQUEST="true",
    )


def play_table_to_the_end(
    row: Game, *, seed: int = 0, every_ms: int = 700, limit_ms: int = 3_600_000
) -> Game:
    """Every person at the table makes a legal move in turn, `every_ms` apart (game time on
    the row's own wall clock); the bots play on the same clock."""
    rng = random.Random(seed)
    now = 0
    people = row.human_seats
    start = row.clock_at
    turn = 0
    while not row.over and now < limit_ms:
        now += every_ms
        at = start + timedelta(milliseconds=now)
        seat = people[turn % len(people)]
        turn += 1
        action = sensible_action(service.driver_of(row).game, seat, rng)
        if action is None:
            row = service.play(row.pk, at).row
        else:
            row = service.play(row.pk, at, seat=seat, action=action, version=row.version).row
    return row
