"""Every rule row and option of the spit and james-bond tables has a scenario; all replay clean."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules_engine.scenario import failures_of, replay

SCENARIOS = Path(__file__).parent / "scenarios"
FILES = sorted((SCENARIOS / "spit").glob("*.json")) + sorted(
    (SCENARIOS / "james-bond").glob("*.json"))

#: the rule rows of ../shared/variants.md (plus each option key) a scenario must cover.
RULE_ROWS = {
    "spit": {
        "players", "deck", "layout", "start", "moves", "not included", "committed",
        "equal centre tops", "stuck",
        "stuck, one reserve", "end of deal", "choosing piles", "choosing piles, tie",
        "next deal", "no reserve", "one centre pile", "one centre pile, locked", "win",
        "repeat_choice", "choosing piles, deadline", "stuck, one reserve, deadline",
    },
    "james-bond": {
        "players", "deck", "deal", "start", "hand", "swap", "taking back", "changing pile",
        "no cheating", "conflicts", "complete pile", "complete pile, dealt", "stuck", "win",
        "early call", "simultaneous calls", "more than four players",
        "several_per_grab", "grab_limit", "say_stikk", "call_word", "best_of_five",
        "five_second_rule", "second_deck",
    },
}


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_scenario_replays_with_every_expectation_met(path):
    assert failures_of(replay(path)) == []


@pytest.mark.parametrize("variant", sorted(RULE_ROWS))
def test_every_rule_row_and_option_has_a_scenario(variant):
    covered = set()
    for path in FILES:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data["variant"] == variant:
            covered.add(data["rule"])
            covered.update(data.get("also", []))
    assert RULE_ROWS[variant] - covered == set()


def test_cli_replay_runs_every_scenario_file_and_exits_zero():
    proc = subprocess.run(
        [sys.executable, "-m", "rules_engine", "replay", *map(str, FILES)],
        capture_output=True, text=True, cwd=Path(__file__).resolve().parents[2],
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
