"""Bot games of every variant, player count and mix of levels end with a winner, never at the
action cap. A sample that runs in seconds; benchmarks/bots_finish.py runs 1,000 games of
each combination (figures in docs/engine-spit-james-bond.md)."""

import ast
from pathlib import Path

import pytest

from rules_engine import simulate

MIXES = ["learner", "expert,learner", "learner,expert", "club,learner"]
CASES = (
    [(slug, 2, {}, mix) for slug in ("stress-se", "stress-de", "stressi-fi", "spit")
     for mix in MIXES]
    + [("james-bond", n, {}, mix) for n in (2, 3, 4)
       for mix in [*MIXES, "expert,learner,club", "learner,learner,expert"]]
    + [("james-bond", n, {"second_deck": True}, mix) for n in (5, 6, 7, 8)
       for mix in ("club", "expert,learner", "learner,club,expert")]
    + [("james-bond", 3, {"five_second_rule": True}, "expert,learner,learner"),
       ("james-bond", 4, {"several_per_grab": True, "grab_limit": 3}, "learner,expert"),
       ("james-bond", 2, {"best_of_five": True}, "expert,learner")]
)


@pytest.mark.parametrize(("slug", "players", "options", "mix"), CASES,
                         ids=[f"{s}-{n}-{m}{'-' + '-'.join(o) if o else ''}"
                              for s, n, o, m in CASES])
def test_bot_games_finish_below_the_cap(slug, players, options, mix):
    summary = simulate(slug, games=3, seed=7, players=players, options=options, levels=mix,
                       max_actions=20000, check=False)
    assert summary["capped"] == 0 and summary["draws"] == 0, summary
    assert summary["invariant_violations"] == 0


RULES = Path(__file__).resolve().parents[2] / "rules_engine" / "variants"


@pytest.mark.parametrize("rules", ["james_bond", "spit"])
def test_the_rules_never_import_their_bot_module(rules):
    tree = ast.parse((RULES / f"{rules}.py").read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {a.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                 for a in node.names}
    assert not any(name and name.endswith("_bot") for name in imported), imported
    assert "rules_engine.bots" not in imported


@pytest.mark.parametrize(("levels", "games"), [(",", 1), ("club", -1)])
def test_simulate_refuses_no_levels_and_negative_game_counts(levels, games):
    with pytest.raises(ValueError):
        simulate("spit", games=games, levels=levels)
