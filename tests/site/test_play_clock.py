"""The game clock: game time from the wall clock, stopped while paused, at any speed."""

from datetime import UTC, datetime, timedelta

import pytest
from play.clock import Clock

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def at(ms: int) -> datetime:
    return T0 + timedelta(milliseconds=ms)


def test_game_time_runs_with_the_wall_clock_from_the_start():
    clock = Clock(0, T0)
    assert clock.now_ms(at(0)) == 0 and clock.now_ms(at(1234)) == 1234
    assert clock.now_ms(at(-50)) == 0  # a wall clock that stepped back gives no earlier time


def test_paused_time_does_not_count():
    clock = Clock(0, T0).pause(at(1000))
    assert clock.paused and clock.now_ms(at(60_000)) == 1000
    clock = clock.resume(at(60_000))
    assert clock.now_ms(at(60_500)) == 1500
    assert clock.resume(at(70_000)) is clock  # resuming a running clock changes nothing


def test_a_pause_can_be_dated_back_to_an_earlier_game_time():
    clock = Clock(0, T0).pause(at(10_000), at_ms=7000)
    assert clock.now_ms(at(20_000)) == 7000


def test_a_speed_change_keeps_game_time_continuous():
    clock = Clock(0, T0, speed=2.0)
    assert clock.now_ms(at(1000)) == 2000
    slower = clock.with_speed(0.25, at(1000))
    assert slower.now_ms(at(1000)) == 2000 and slower.now_ms(at(5000)) == 3000
    with pytest.raises(ValueError):
        clock.with_speed(0, at(1000))


def test_real_time_until_a_game_moment():
    clock = Clock(0, T0, speed=4.0)
    assert clock.wall_ms_until(2000, at(0)) == 500
    assert clock.wall_ms_until(10, at(1000)) == 0
    assert clock.pause(at(0)).wall_ms_until(2000, at(0)) is None


def test_a_step_while_paused_moves_the_stopped_clock_to_the_steps_moment():
    clock = Clock(0, T0).pause(at(1000))
    stepped = clock.stepped_to(1800)
    assert stepped.paused and stepped.now_ms(at(9000)) == 1800
    assert stepped.stepped_to(1500).now_ms(at(9000)) == 1800  # never back
    resumed = stepped.resume(at(9000))
    assert resumed.now_ms(at(9500)) == 2300
    with pytest.raises(ValueError):
        Clock(0, T0).stepped_to(500)
