"""The learner bot in James Bond keeps swapping beside a newcomer (issue #26: 203 s of
picking up and putting back with no swap)."""

import random
from itertools import pairwise

from rules_engine.driver import HUMAN, Driver, Entry
from tests.play_human import sensible_action

MINUTE = 60_000


def _bot_moves(record: list[Entry], kind: str) -> list[int]:
    return [
        e.t
        for e in record
        if e.kind == "bot" and e.accepted and e.action is not None and e.action.type == kind
    ]


def test_a_learner_beside_an_idle_newcomer_swaps_then_holds_a_pile_and_waits():
    # Once every middle card is one the learner laid, no swap is possible until somebody else
    # swaps (no taking back). It used to pick up and put back piles for minutes meanwhile.
    for seed in range(1, 6):
        driver = Driver.new("james-bond", [HUMAN, "learner"], seed=seed)
        record = driver.run_until(5 * MINUTE)
        game = driver.game
        assert len(_bot_moves(record, "take")) == 4
        assert sorted(game.middle) == sorted(game.laid[1])
        last_swap = _bot_moves(record, "take")[-1]
        changes = [
            t for t in _bot_moves(record, "pick") + _bot_moves(record, "put-back") if t > last_swap
        ]
        assert len(changes) <= 5, (seed, len(changes))
        assert game.held[1] is not None  # waiting with a pile in hand, ready to swap


def test_the_learner_swaps_again_soon_after_the_newcomer_swaps():
    driver = Driver.new("james-bond", [HUMAN, "learner"], seed=3)
    driver.run_until(2 * MINUTE)
    game = driver.game
    now = 2 * MINUTE
    assert driver.submit(0, now, {"type": "pick", "pile": "pile-1"}).accepted
    assert driver.submit(0, now + 1000, {"type": "lay", "card": game.hand(0)[0]}).accepted
    assert driver.submit(0, now + 2000, {"type": "take", "card": game.middle[0]}).accepted
    record = driver.run_until(now + 12_000)
    assert [t for t in _bot_moves(record, "take") if t > now + 2000]


def test_a_learner_swaps_at_a_steady_rate_against_a_steady_newcomer():
    # The newcomer makes a sensible move every 1.2 s, as in benchmarks/bot_levels.py.
    for seed in range(1, 9):
        driver = Driver.new("james-bond", [HUMAN, "learner"], seed=seed)
        driver.record = record = []
        rng, now = random.Random(seed), 0
        while not driver.game.over and now < 30 * MINUTE:
            action = sensible_action(driver.game, 0, rng)
            now += 1200
            if action is None:
                driver.run_until(now)
            else:
                driver.submit(0, now, action)
        assert driver.game.over
        swaps = [0, *_bot_moves(record, "take")]
        assert len(swaps) > 5
        assert max(b - a for a, b in pairwise(swaps)) < MINUTE, seed
