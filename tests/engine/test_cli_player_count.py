"""A scenario with a missing or wrong player count is a one-line error, under every option
combination (issue #25: James Bond's second deck with no count printed a traceback)."""

import itertools
import json

import pytest

from rules_engine import VARIANTS, game_class
from rules_engine.cli import main


def _combinations(info):
    values = [(False, True) if spec.type == "bool" else spec.choices for spec in info.options]
    keys = [spec.key for spec in info.options]
    for combo in itertools.product(*values):
        yield dict(zip(keys, combo, strict=True))


def _bad_counts(cls, options):
    low, high = cls._players_range(options)
    counts = [low - 1, high + 1, 0, 99, "2", True, 2.0]
    if not low <= cls.variant.players_min <= high:
        counts.append(None)  # absent: the game would be dealt for too few players
    return counts


@pytest.mark.parametrize("slug", list(VARIANTS))
def test_every_option_combination_gets_the_one_line_error(slug, tmp_path, capsys):
    cls = game_class(slug)
    path = tmp_path / "s.json"
    checked = 0
    for options in _combinations(VARIANTS[slug]):
        for players in _bad_counts(cls, options):
            scenario = {"variant": slug, "options": options, "seed": 1, "actions": []}
            if players is not None:
                scenario["players"] = players
            path.write_text(json.dumps(scenario))
            assert main(["replay", str(path)]) == 1
            lines = capsys.readouterr().out.splitlines()
            assert len(lines) == 1, lines
            error = json.loads(lines[0])["error"]
            assert "players" in error, error
            checked += 1
    assert checked >= 7


def test_james_bond_second_deck_without_a_count_names_the_range(tmp_path, capsys):
    path = tmp_path / "jb.json"
    path.write_text(json.dumps({"variant": "james-bond", "options": {"second_deck": True},
                                "seed": 1, "actions": []}))
    assert main(["replay", str(path)]) == 1
    assert "5-8 players" in json.loads(capsys.readouterr().out)["error"]
