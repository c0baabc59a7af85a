"""Every rule row of the three Speed-type tables has a scenario file; each one replays clean."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules_engine.scenario import failures_of, load, replay

SCENARIOS = Path(__file__).parent / "scenarios"
FILES = sorted(SCENARIOS.glob("*.json"))
OURS = [f for f in FILES if f.name.startswith(("se-", "de-", "fi-"))]

#: the rule rows of docs/variants.md, per variant, that a scenario must cover ("rule" key).
RULE_ROWS = {
    "stress-se": {
        "start", "move", "stacking", "equal-ranks", "false call", "stuck",
        "stuck, one draw pile empty", "stuck, both draw piles empty", "draw pile empty",
        "win", "gentle",
    },
    "stress-de": {
        "start", "move", "refill", "stacking", "equal-ranks", "false call", "knocking",
        "turning new cards", "hand stack empty", "stuck, both hand stacks empty", "win",
        "scoring", "jokers",
    },
    "stressi-fi": {
        "start", "move", "ace wrap", "layout", "refill", "equal-ranks", "exactly equal speed",
        "after a slap", "nobody can play", "both draw piles empty", "false call", "win",
    },
}


@pytest.mark.parametrize("path", OURS, ids=[f.stem for f in OURS])
def test_scenario_replays_with_every_expectation_met(path):
    assert failures_of(replay(path)) == []


@pytest.mark.parametrize("variant", sorted(RULE_ROWS))
def test_every_rule_row_has_a_scenario(variant):
    covered = set()
    for path in OURS:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data["variant"] == variant:
            covered.add(data["rule"])
    assert RULE_ROWS[variant] - covered == set()


def test_a_wrong_expectation_is_reported_not_raised():
    steps = replay({
        "variant": "stress-se", "seed": 1,
        "actions": [{"advance": 5, "check": {"sizes": {"centre-0": 2}, "phase": "over"}}],
    })
    assert len(failures_of(steps)) == 2


def test_scenarios_keep_the_site_keys_the_engine_ignores():
    scenario = load({"variant": "stress-se", "seed": 3, "title": "T", "intro": "I",
                     "section": "moves", "actions": []})
    assert scenario.meta == {"title": "T", "intro": "I", "section": "moves"}


def test_cli_replay_runs_every_scenario_file_and_exits_zero():
    proc = subprocess.run(
        [sys.executable, "-m", "rules_engine", "replay", *map(str, OURS)],
        capture_output=True, text=True, cwd=Path(__file__).resolve().parents[2],
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert all(line["failures"] == [] for line in lines)


def test_cli_replay_exits_non_zero_on_a_failed_expectation(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({
        "variant": "stress-se", "seed": 1,
        "actions": [{"t": 10, "player": 0, "type": "call", "expect": {"accepted": True}}],
    }))
    proc = subprocess.run([sys.executable, "-m", "rules_engine", "replay", str(bad)],
                          capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2])
    assert proc.returncode == 1
