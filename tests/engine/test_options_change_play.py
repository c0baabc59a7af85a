"""Every value of every option changes play: the house-rules sheet promises nothing idle.

For each option a scenario (an existing one where it already shows the option at work) is
replayed once per value of that option; the outcomes (every step's verdict and events, and
the position after it) must all differ. The house-rules sheet's matrix test checks the same
values change the printed text (tests/site/test_houserules_matrix.py).
"""

import copy
import json
from pathlib import Path

import pytest

from rules_engine import VARIANTS, new_game
from rules_engine.scenario import load, replay

SCENARIOS = Path(__file__).parent / "scenarios"

#: the grab limit: four cards laid in one grab, then three, then two (the middle offers four).
GRAB_LADDER = {
    "variant": "james-bond",
    "options": {"several_per_grab": True},
    "position": {
        "middle": ["4S", "6H", "3C", "JD"],
        "seats": [
            {"piles": [["4D", "4C", "7H", "KS"], ["9S", "9H", "9D", "2C"]], "complete": []},
            {"piles": [["KH", "KD", "KC", "2D"], ["3S", "3H", "3D", "5C"]], "complete": []},
        ],
    },
    "actions": [
        {"t": 1000, "player": 0, "type": "pick", "pile": "pile-1"},
        {"t": 1200, "player": 0, "type": "lay", "cards": ["4D", "4C", "7H", "KS"]},
        {"t": 1300, "player": 0, "type": "lay", "cards": ["4D", "4C", "7H"]},
        {"t": 1400, "player": 0, "type": "lay", "cards": ["4D", "4C"]},
    ],
}

#: jokers only change the deal: a dealt game, not a position that already holds them.
JOKER_DEAL = {"variant": "stress-de", "seed": 5, "actions": []}

#: (variant, option) → the scenario that shows the option at work.
CASES: dict[tuple[str, str], str | dict] = {
    ("stress-se", "stacking"): "se-no-stacking.json",
    ("stress-se", "slap_penalty"): "se-stress-slowest-takes-both.json",
    ("stress-se", "one_empty_stuck"): "se-stuck-give-a-card.json",
    ("stress-se", "both_empty_stuck"): "se-both-empty-fewer-cards-wins.json",
    ("stress-se", "gentle"): "se-gentle.json",
    ("james-bond", "several_per_grab"): "james-bond/jb-several-per-grab.json",
    ("james-bond", "grab_limit"): GRAB_LADDER,
    ("james-bond", "say_stikk"): "james-bond/jb-say-stikk.json",
    ("james-bond", "call_word"): "james-bond/jb-call-word.json",
    ("james-bond", "best_of_five"): "james-bond/jb-best-of-five.json",
    ("james-bond", "five_second_rule"): "james-bond/jb-five-second-rule.json",
    ("james-bond", "second_deck"): "james-bond/jb-second-deck-5.json",
    ("spit", "repeat_choice"): "spit/spit-option-repeat-choice.json",
    ("stress-de", "jokers"): JOKER_DEAL,
    ("stress-de", "knocking"): "de-knocking.json",
    ("stress-de", "false_call_penalty"): "de-false-call-penalty.json",
    ("stress-de", "scoring"): "de-scoring.json",
    ("stress-de", "both_empty_stuck"): "de-both-empty-fewer-cards.json",
    ("stressi-fi", "after_slap_house_rule"): "fi-after-slap-off.json",
    ("stressi-fi", "both_empty_house_rule"): "fi-both-empty-off.json",
    ("stressi-fi", "ace_low_only"): "fi-ace-low-only.json",
}


def option_values(spec) -> list:
    return [True, False] if spec.type == "bool" else list(spec.choices)


def scenario_data(case: str | dict) -> dict:
    if isinstance(case, dict):
        return copy.deepcopy(case)
    return json.loads((SCENARIOS / case).read_text(encoding="utf-8"))


def outcome(data: dict, key: str, value) -> tuple:
    """What happens with `key` set to `value`: each step's verdict, events and position."""
    data = {**data, "options": {**(data.get("options") or {}), key: value}}
    try:
        steps = replay(load(data), debug=True)
    except ValueError as exc:  # the engine refuses the game itself (e.g. 5 players, 1 deck)
        return ("refused", type(exc).__name__)
    return tuple(
        (
            step.result.accepted if step.result else None,
            step.result.reason if step.result else None,
            json.dumps([event.to_json() for event in step.events], sort_keys=True),
            json.dumps(step.board, sort_keys=True),
        )
        for step in steps
    )


def test_every_option_of_every_variant_has_a_case():
    wanted = {(slug, spec.key) for slug, info in VARIANTS.items() for spec in info.options}
    assert wanted == set(CASES)


@pytest.mark.parametrize(("variant", "key"), list(CASES), ids=[f"{v}:{k}" for v, k in CASES])
def test_each_value_of_the_option_plays_differently(variant, key):
    data = scenario_data(CASES[(variant, key)])
    assert data["variant"] == variant
    values = option_values(VARIANTS[variant].option(key))
    outcomes = {repr(value): outcome(data, key, value) for value in values}
    assert len(set(outcomes.values())) == len(values), sorted(outcomes)


def test_the_grab_limit_ladder_accepts_exactly_the_allowed_grab():
    for limit, accepted_step in ((4, 2), (3, 3), (2, 4)):
        data = {**GRAB_LADDER, "options": {"several_per_grab": True, "grab_limit": limit}}
        verdicts = [s.result.accepted for s in replay(load(data)) if s.result is not None]
        assert verdicts.index(True, 1) + 1 == accepted_step


@pytest.mark.parametrize(
    ("jokers", "per_deck"), [(0, [0, 0]), (2, [1, 1]), (3, [2, 1]), (4, [2, 2])]
)
def test_jokers_are_dealt_into_the_decks(jokers, per_deck):
    board = new_game("stress-de", seed=5, options={"jokers": jokers}).board(None)
    centre = {zone["id"]: zone["cards"] for zone in board["centre"]}
    held = []
    for seat, cards in enumerate(board["seats"]):
        # each player's deck: what lies before them plus the centre card they turned
        own = [c["card"] for zone in cards["zones"] for c in zone["cards"]]
        own += [c["card"] for c in centre[f"centre-{seat}"]]
        held.append(own)
    assert sorted((len(cards) for cards in held), reverse=True) == [52 + n for n in per_deck]
    assert sum(cards.count("X") for cards in held) == jokers
