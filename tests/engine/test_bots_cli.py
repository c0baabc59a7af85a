"""Bots react like people at three levels; the CLI wraps simulate and the registry."""

import json
import random
import subprocess
import sys
from pathlib import Path

from rules_engine import new_game, simulate
from rules_engine.bots import LEVELS, next_bot_action

ROOT = Path(__file__).resolve().parents[2]


def test_reaction_times_are_human_and_ordered_by_level():
    # A learner is a little slower than a steady newcomer's 1.2 s a move (issue #26: the
    # easiest bot must be beatable by a first-time player), but never sluggish.
    learner = LEVELS["learner"]
    assert sum(learner.move_ms) / 2 > 1200 and learner.move_ms[1] <= 2000
    assert sum(learner.call_ms) / 2 > 1200 >= learner.call_ms[0]
    assert LEVELS["club"].move_ms == (500, 900)
    assert LEVELS["expert"].move_ms[0] >= 250 and LEVELS["expert"].move_ms[1] <= 450
    assert LEVELS["learner"].slow_call_chance > LEVELS["club"].slow_call_chance > 0
    assert LEVELS["expert"].slow_call_chance == 0


def test_next_bot_action_is_timestamped_after_now_and_deterministic():
    game = new_game("stress-se", seed=3)
    a = next_bot_action(game, 0, "expert", random.Random(1))
    b = next_bot_action(game, 0, "expert", random.Random(1))
    assert a == b
    if a is not None:
        assert game.now + 200 <= a.t <= game.now + 450
        assert game.copy().apply(a).accepted


def test_bots_make_the_call_when_the_tops_match():
    summary = simulate("stress-se", games=5, seed=1, levels="expert")
    assert summary["calls"] > 0 and summary["invariant_violations"] == 0


def test_simulate_summary_has_the_documented_fields():
    summary = simulate("stressi-fi", games=3, seed=2, levels="learner,expert")
    for key in ("games", "actions", "seconds", "games_per_second", "actions_per_second",
                "wins", "draws", "calls", "invariant_violations"):
        assert key in summary
    assert sum(summary["wins"]) + summary["draws"] == 3


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "rules_engine", *args], capture_output=True,
                          text=True, cwd=ROOT)


def test_cli_simulate_prints_one_json_object():
    proc = run_cli("simulate", "--variant", "stress-de", "--games", "3", "--seed", "4",
                   "--option", "jokers=2", "--option", "knocking=true", "--bots", "club")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["games"] == 3 and out["invariant_violations"] == 0
    assert out["options"]["jokers"] == 2


def test_cli_simulate_rejects_a_bad_option_with_the_valid_ones():
    proc = run_cli("simulate", "--variant", "stress-se", "--games", "1", "--option", "x=1")
    assert proc.returncode == 2 and "stacking" in proc.stderr


def test_cli_variants_prints_the_registry():
    proc = run_cli("variants")
    data = json.loads(proc.stdout)
    assert data["variants"][0]["slug"] == "stress-se"
