"""A seat changes hands mid-game (Driver.set_seat): a bot stands in for a person who left,
plays from then on, survives a snapshot, and the person takes the seat back."""

import json

import pytest

from rules_engine.driver import HUMAN, Driver, replay_record
from rules_engine.registry import new_game


def resumed(driver: Driver) -> Driver:
    return Driver.from_json(json.loads(json.dumps(driver.to_json())), record=driver.record)


def test_a_bot_takes_a_persons_seat_plays_it_and_hands_it_back():
    driver = Driver.new("stress-se", [HUMAN, HUMAN], seed=4, record=[])
    assert driver.next_due() is None  # two people: nothing happens by itself
    driver.set_seat(1, "expert")
    assert driver.seats == (HUMAN, "expert")
    due = driver.next_due()
    assert due is not None
    driver = resumed(driver)  # a server stores the change and another process goes on
    entries = driver.run_until(due + 20_000)
    moved = [e for e in entries if e.kind == "bot"]
    assert moved and all(e.action.player == 1 for e in moved)
    driver.set_seat(1, HUMAN)
    assert driver.plans[1] is None and driver.bots[1] is None
    assert driver.submit(1, driver.game.now + 100, {"type": "bogus"}).reason  # a person again
    assert all(e.kind == "clock" for e in driver.run_until(driver.game.now + 60_000))
    # The record (the stored log) still replays to the same game: a change of hands is no
    # engine call.
    fresh = new_game("stress-se", players=2, seed=4)
    replayed = replay_record(fresh, driver.record)
    assert replayed.to_json(log=False) == driver.game.to_json(log=False)


def test_the_same_snapshot_and_moment_give_the_same_stand_in():
    one, two = (Driver.new("spit", [HUMAN, "club"], seed=9) for _ in range(2))
    one.set_seat(0, "learner")
    two.set_seat(0, "learner")
    assert one.to_json() == two.to_json()


def test_a_seat_change_is_checked():
    driver = Driver.new("stress-se", [HUMAN, "club"], seed=1)
    with pytest.raises(ValueError):
        driver.set_seat(2, "club")
    with pytest.raises(ValueError):
        driver.set_seat(0, "grandmaster")
    assert driver.seats == (HUMAN, "club")


def test_a_stand_in_plans_from_the_moment_it_takes_the_seat():
    driver = Driver.new("stress-se", [HUMAN, HUMAN], seed=4)
    driver.set_seat(1, "expert", at=30_000)
    assert driver.next_due() > 30_000
