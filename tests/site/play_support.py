"""Playing stored games in tests: a wall clock the test moves, and a human who picks legal
moves (the engine's legal actions for the seat) at a steady pace."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from play import service
from play.models import Game

from tests.play_human import sensible_action

T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


def wall(ms: int) -> datetime:
    return T0 + timedelta(milliseconds=ms)


def human_action(row: Game, seat: int, rng: random.Random) -> dict | None:
    return sensible_action(service.driver_of(row).game, seat, rng)


def play_to_the_end(row: Game, *, every_ms: int = 900, limit_ms: int = 3_600_000,
                    seed: int = 0, using: str = "default") -> Game:
    """Seat 0 moves every `every_ms` of game time (a legal move at random), the bots play on
    the same clock; returns the finished row."""
    rng = random.Random(seed)
    now = 0
    while not row.over and now < limit_ms:
        now += every_ms
        # The move is chosen on the table as the page last showed it; its request catches
        # the bots up first, so the move may come too late, as a person's would.
        action = human_action(row, 0, rng)
        if action is None:
            row = service.play(row.pk, wall(now), using=using).row
        else:
            row = service.play(row.pk, wall(now), seat=0, action=action, version=row.version,
                               using=using).row
    return row
