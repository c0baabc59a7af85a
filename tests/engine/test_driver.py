"""The driver: one scheduler for bots, humans and deadlines; snapshots resume exactly; the
record replays to the identical game."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine import VARIANTS, Action, new_game
from rules_engine.driver import HUMAN, Driver, replay_record, seat_kinds
from rules_engine.scenario import replay

#: (variant, players, options) for every family and the James Bond extremes.
TABLES = [
    ("stress-se", 2, {}),
    ("stress-de", 2, {"jokers": 2}),
    ("stressi-fi", 2, {}),
    ("spit", 2, {}),
    ("james-bond", 2, {"five_second_rule": True}),
    ("james-bond", 4, {}),
    ("james-bond", 6, {"second_deck": True}),
]


def resumed(driver: Driver) -> Driver:
    """What a stateless server does between two requests: JSON text out, JSON text in."""
    return Driver.from_json(json.loads(json.dumps(driver.to_json())), record=driver.record)


def test_a_new_driver_has_planned_every_bot_and_says_when_the_next_is_due():
    driver = Driver.new("stress-se", ["expert", "learner"], seed=3)
    due = driver.next_due()
    assert due is not None and due == min(p[0] for p in driver.plans if p is not None)
    assert driver.run_until(due - 1) == []
    entries = driver.run_until(due)
    assert entries and all(e.t <= due for e in entries)
    assert entries[0].kind == "bot" and entries[0].action is not None


def test_queries_and_empty_catch_ups_change_nothing():
    driver = Driver.new("james-bond", [HUMAN, "club", "club"], seed=5)
    before = driver.to_json()
    driver.next_due()
    driver.run_until(0)
    assert driver.to_json() == before


def test_run_until_applies_everything_due_in_time_order():
    driver = Driver.new("spit", ["club", "expert"], seed=2, record=[])
    entries = driver.run_until(20000)
    times = [e.t for e in entries]
    assert times == sorted(times) and times[-1] <= 20000
    due = driver.next_due()
    assert due is None or due > 20000


def test_step_applies_exactly_the_next_due_thing_whatever_its_time():
    driver = Driver.new("stressi-fi", ["learner", "learner"], seed=8)
    due = driver.next_due()
    entry = driver.step()
    assert entry is not None and entry.t == due
    assert driver.game.now == due or not entry.accepted


def test_submit_catches_up_then_applies_the_human_action_and_the_bots_replan():
    driver = Driver.new("james-bond", [HUMAN, "learner"], seed=4, record=[])
    first_bot = driver.next_due()
    result = driver.submit(0, first_bot + 10, {"type": "pick", "pile": "pile-2"})
    assert result.accepted, result.reason
    assert [e.kind for e in driver.record] == ["bot", "human"]
    assert driver.record[0].t == first_bot and driver.game.now == first_bot + 10
    assert driver.game.held[0] == 1
    assert driver.plans[0] is None and driver.plans[1] is not None


def test_a_rejected_human_action_changes_nothing_and_says_why():
    driver = Driver.new("spit", [HUMAN, "expert"], seed=6)
    driver.run_until(1000)
    before = driver.to_json()
    t = driver.game.now
    result = driver.submit(0, t, {"type": "play", "from": "pile-9", "to": "centre-0"})
    assert result.reason == "bad-zone"
    assert driver.to_json() == before
    assert driver.submit(1, t, {"type": "turn", "pile": "pile-1"}).reason == "bad-player"
    assert driver.submit(0, t, ["garbage"]).reason == "bad-action"  # type: ignore[arg-type]
    assert driver.submit(0, t, {"type": 5}).reason == "bad-action"
    assert driver.to_json() == before


def test_seat_kinds_are_checked():
    with pytest.raises(ValueError):
        Driver.new("stress-se", ["club", "wizard"])
    with pytest.raises(ValueError):
        Driver(new_game("stress-se"), ["club"])
    with pytest.raises(ValueError):
        seat_kinds(",", 2)
    assert seat_kinds("expert,learner", 3) == ["expert", "learner", "expert"]


def test_a_learner_is_not_starved_by_an_expert_who_keeps_changing_piles():
    # The cause of the capped games (issue #10): every move of the expert made the learner
    # start its reaction over, so it never acted and the expert could not finish.
    driver = Driver.new("james-bond", ["expert", "learner"], seed=1, record=[])
    driver.run(max_actions=20000)
    assert driver.game.over and not driver.game.draw
    learner = [e for e in driver.record if e.action is not None and e.action.player == 1]
    assert sum(e.accepted for e in learner) > 20


@pytest.mark.parametrize(("slug", "players", "options"), TABLES,
                         ids=[f"{s}-{n}" for s, n, _ in TABLES])
def test_the_record_of_a_finished_game_replays_to_the_identical_state(slug, players, options):
    seats = [HUMAN, *seat_kinds("expert,learner,club", players - 1)]
    driver = Driver.new(slug, seats, options=options, seed=11, record=[])
    human = random.Random(11)
    clock = 0
    while not driver.game.over and len(driver.record) < 5000:
        clock = max(clock + human.choice((150, 400, 900)), driver.game.now)
        driver.run_until(clock)
        legal = driver.game.legal_actions(0)
        if legal and human.random() < 0.7:
            driver.submit(0, clock, human.choice(legal).to_json())
        elif not legal and driver.next_due() is None:
            break
    assert driver.game.over
    twin = replay_record(new_game(slug, players=players, seed=11, options=options),
                         driver.record)
    assert twin.to_json() == driver.game.to_json()
    # The record is a scenario: the step-through viewer replays it with the same verdicts.
    steps = replay({"variant": slug, "players": players, "seed": 11, "options": options,
                    "actions": [e.to_json() for e in driver.record]}, debug=False)
    assert [s.result.reason for s in steps[1:] if s.result] == [
        e.reason for e in driver.record if e.action is not None]


def test_the_snapshot_does_not_grow_with_the_game():
    driver = Driver.new("spit", ["club", "club"], seed=3)
    start = len(json.dumps(driver.to_json()))
    driver.run(max_actions=20000)
    assert driver.game.over and driver.actions > 200
    assert len(json.dumps(driver.to_json())) < start * 1.2


OPS = st.lists(st.one_of(
    st.tuples(st.just("run"), st.sampled_from((0, 50, 300, 1200, 4000))),
    st.tuples(st.just("step"), st.just(0)),
    st.tuples(st.just("act"), st.integers(0, 10**6)),
    st.tuples(st.just("resume"), st.just(0)),
), min_size=1, max_size=40)


@settings(max_examples=40, deadline=None)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 10**6), ops=OPS)
def test_resume_then_act_equals_never_stopped(table, seed, ops):
    slug, players, options = table
    seats = [HUMAN, *seat_kinds("club,expert,learner", players - 1)]
    steady = Driver.new(slug, seats, options=options, seed=seed, record=[])
    server = Driver.new(slug, seats, options=options, seed=seed, record=[])
    clock = 0
    for op, arg in ops:
        clock = max(clock, steady.game.now)
        if op == "resume":
            server = resumed(server)
        elif op == "run":
            clock += arg
            assert steady.run_until(clock) == server.run_until(clock)
        elif op == "step":
            assert steady.step() == server.step()
        else:
            clock += arg % 700
            legal = steady.game.legal_actions(0)
            action = (legal[arg % len(legal)].to_json() if legal and arg % 5
                      else {"type": "pick", "pile": "pile-1", "card": "7H"})
            assert steady.submit(0, clock, action) == server.submit(0, clock, action)
        assert steady.to_json() == server.to_json()
    assert [e.to_json() for e in steady.record] == [e.to_json() for e in server.record]
    twin = replay_record(new_game(slug, players=players, seed=seed, options=options),
                         server.record)
    assert twin.to_json() == steady.game.to_json()


def test_every_variant_can_be_driven():
    for slug in VARIANTS:
        driver = Driver.new(slug, ["club", "club"], seed=1)
        assert isinstance(driver.step().action, Action)
