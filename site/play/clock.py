"""The game clock: milliseconds of game time, derived from the server's wall clock.

Game time runs from 0 at the start, stops while the game is paused and may run faster or
slower than real time (`speed`: tests speed it up; teacher mode offers 0.25x-2x). It is
stored as a base point, the game time `base_ms` at the wall time `base_at`, so that pausing,
resuming and changing speed never make game time jump. While paused, the game may be moved
on one step at a time (`stepped_to`): the clock then shows the moment of that step.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

#: the paces a game may be set to, as factors of the site's clock speed (teacher mode's
#: 0.25x-2x), by the value a request names them with.
PACES = (0.25, 0.5, 1.0, 2.0)
PACE_VALUES = {f"{pace:g}": pace for pace in PACES}


@dataclass(frozen=True)
class Clock:
    base_ms: int
    base_at: datetime
    speed: float = 1.0
    paused: bool = False

    def now_ms(self, wall: datetime) -> int:
        """Game time at `wall` (a wall time before the base point counts as the base)."""
        if self.paused or wall <= self.base_at:
            return self.base_ms
        return self.base_ms + int((wall - self.base_at).total_seconds() * 1000 * self.speed)

    def pause(self, wall: datetime, at_ms: int | None = None) -> Clock:
        """Stopped at `wall` (or at the earlier game time `at_ms`, e.g. an idle limit)."""
        if self.paused:
            return self
        now = self.now_ms(wall) if at_ms is None else min(at_ms, self.now_ms(wall))
        return replace(self, base_ms=now, base_at=wall, paused=True)

    def resume(self, wall: datetime) -> Clock:
        if not self.paused:
            return self
        return replace(self, base_at=wall, paused=False)

    def stepped_to(self, game_ms: int) -> Clock:
        """A paused clock moved on to `game_ms`, the moment of a step made while paused (a
        step never moves it back)."""
        if not self.paused:
            raise ValueError("only a paused clock is moved on step by step")
        return replace(self, base_ms=max(self.base_ms, game_ms))

    def with_speed(self, speed: float, wall: datetime) -> Clock:
        if speed <= 0:
            raise ValueError(f"a clock speed must be positive, got {speed!r}")
        return replace(self, base_ms=self.now_ms(wall), base_at=wall, speed=speed)

    def wall_ms_until(self, game_ms: int, wall: datetime) -> int | None:
        """Real milliseconds from `wall` until the clock shows `game_ms` (None: paused)."""
        if self.paused:
            return None
        ahead = game_ms - self.now_ms(wall)
        return max(0, int(-(-ahead // self.speed)))
