"""The start signal (issue #26): with a countdown, nobody plays before the signal, at the
deal and after every restart (new cards turned, a new deal), in every variant; without one
the driver runs exactly as before."""

from __future__ import annotations

import json
import random

import pytest

from rules_engine.driver import WAIT_SIGNAL, Driver, replay_record
from rules_engine.registry import new_game
from tests.play_human import sensible_action

SIGNAL = 3000
VARIANTS = ["stress-se", "james-bond", "spit", "stress-de", "stressi-fi"]
#: James Bond starts again only at a new deal: best of five has several in one game.
OPTIONS = {"james-bond": {"best_of_five": True}}


def _restart_times(record, game) -> list[int]:
    return [e.t for e in record if any(ev.code in game.signal_events for ev in e.events)]


@pytest.mark.parametrize("variant", VARIANTS)
def test_nothing_is_played_before_the_first_signal(variant: str) -> None:
    for seed in range(1, 100):  # a deal where both the person and the bot can move
        driver = Driver.new(
            variant,
            ["human", "expert"],
            options=OPTIONS.get(variant),
            seed=seed,
            signal_ms=SIGNAL,
            record=[],
        )
        legal = sensible_action(driver.game, 0, random.Random(1))
        if legal is not None and driver.plans[1] is not None:
            break
    assert driver.signal_at == SIGNAL
    before = json.dumps(driver.to_json(), sort_keys=True)
    # the human's legal move a moment before the signal is refused, and changes nothing
    result = driver.submit(0, SIGNAL - 1, legal)
    assert (result.accepted, result.reason) == (False, WAIT_SIGNAL)
    assert driver.record == []
    assert json.dumps(driver.to_json(), sort_keys=True) == before
    # the bot waits for the signal too: nothing at all happens before it
    assert driver.run_until(SIGNAL - 1) == []
    assert all(p is None or p[0] >= SIGNAL for p in driver.plans)
    # at the signal the same move counts
    assert driver.submit(0, SIGNAL, legal).accepted


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_restart_waits_for_its_signal(variant: str) -> None:
    """A person (a sensible move every 700 ms) against a club bot: after each restart no
    action is accepted before its signal, the person's is refused, and the game replays."""
    record: list = []
    driver = Driver.new(
        variant,
        ["human", "club"],
        options=OPTIONS.get(variant),
        seed=11,
        signal_ms=SIGNAL,
        record=record,
    )
    rng = random.Random(2)
    t, refused_after_restart = 0, 0
    while not driver.game.over and t < 900_000:
        t += 700
        driver.run_until(t)
        held = driver.signal_at
        if driver.waiting(t) and held != SIGNAL:
            action = sensible_action(driver.game, 0, rng)
            if action is not None:
                result = driver.submit(0, t, action)
                assert result.reason == WAIT_SIGNAL
                refused_after_restart += 1
            continue
        action = sensible_action(driver.game, 0, rng)
        if action is not None:
            driver.submit(0, max(t, driver.game.now), action)
    assert driver.game.over
    restarts = _restart_times(record, driver.game)
    assert restarts, "the game started again at least once after the deal"
    assert refused_after_restart >= 1
    for start in [0, *restarts]:
        early = [e for e in record if e.accepted and start < e.t < start + SIGNAL]
        assert early == [], f"played {early[0].to_json()} before the signal of {start}"
    game = new_game(variant, players=2, seed=11, options=OPTIONS.get(variant))
    assert replay_record(game, record).to_json(log=False) == driver.game.to_json(log=False)


@pytest.mark.parametrize("variant", VARIANTS)
def test_bots_hold_after_every_restart(variant: str) -> None:
    record: list = []
    driver = Driver.new(
        variant,
        ["club", "learner"],
        options=OPTIONS.get(variant),
        seed=4,
        signal_ms=SIGNAL,
        record=record,
    )
    driver.run(max_actions=5000)
    assert driver.game.over
    restarts = _restart_times(record, driver.game)
    assert restarts
    for start in [0, *restarts]:
        assert not [e for e in record if e.accepted and start < e.t < start + SIGNAL]
    # a deadline due during a countdown (the end of a tie window) waits for the signal too
    for e in record:
        if e.kind == "clock":
            assert not any(s < e.t < s + SIGNAL for s in [0, *restarts] if s != e.t)


def test_without_a_signal_nothing_changes() -> None:
    """signal_ms=0 (simulate, benchmarks, stored scenarios): the snapshot has no new key
    and the game is the one it always was."""
    plain = Driver.new("stress-se", ["club", "club"], seed=9)
    assert "signal" not in plain.to_json()
    assert plain.signal_at is None and not plain.waiting(0)
    plain.run(max_actions=5000)
    again = Driver.new("stress-se", ["club", "club"], seed=9, signal_ms=0)
    again.run(max_actions=5000)
    assert again.to_json() == plain.to_json()


def test_an_old_snapshot_without_signal_loads_as_before() -> None:
    driver = Driver.new("spit", ["human", "club"], seed=2)
    snapshot = json.loads(json.dumps(driver.to_json()))
    resumed = Driver.from_json(snapshot)
    assert resumed.signal_ms == 0 and resumed.signal_at is None
    assert resumed.to_json() == snapshot


def test_the_countdown_survives_a_snapshot() -> None:
    driver = Driver.new("stressi-fi", ["human", "club"], seed=2, signal_ms=SIGNAL)
    resumed = Driver.from_json(json.loads(json.dumps(driver.to_json())))
    assert (resumed.signal_ms, resumed.signal_at) == (SIGNAL, SIGNAL)
    assert resumed.waiting(SIGNAL - 1) and not resumed.waiting(SIGNAL)
    assert resumed.to_json() == driver.to_json()
