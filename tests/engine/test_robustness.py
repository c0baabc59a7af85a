"""Every input gets an answer, never a traceback (issue #10).

Hypothesis mutates valid positions, scenarios and actions of all five variants (wrong types,
missing and extra keys, out-of-range numbers, NaN, huge integers) and checks that each one
either loads and plays or fails with a documented error (PositionError, ScenarioError,
OptionError, UnknownVariant; for an action, a rejection with a reason code), and that no
rejected action changes the game.
"""

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_engine import (
    VARIANTS,
    Action,
    OptionError,
    PositionError,
    UnknownVariant,
    game_from_position,
    new_game,
)
from rules_engine.scenario import ScenarioError, replay

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "tests" / "engine" / "scenarios").rglob("*.json"))
LOAD_ERRORS = (PositionError, ScenarioError, OptionError, UnknownVariant)


def _dealt_positions() -> list[tuple[str, dict]]:
    out = []
    for slug in VARIANTS:
        counts = (2, 3, 4) if slug == "james-bond" else (None,)
        for players in counts:
            for seed in (1, 2):
                out.append((slug, new_game(slug, players=players, seed=seed).position()))
    return out


def _scenario_files() -> list[dict]:
    return [json.loads(path.read_text(encoding="utf-8")) for path in SCENARIOS]


SCENARIO_DATA = _scenario_files()
DEALT = _dealt_positions()
POSITIONS = DEALT + [
    (data["variant"], data["position"]) for data in SCENARIO_DATA if "position" in data]

ODD_VALUES = st.one_of(
    st.none(), st.booleans(),
    st.integers(-3, 60), st.integers(min_value=2**63, max_value=2**200), st.just(-(2**70)),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["", "x", "7H", "X", "AS", "row-0", "centre-1", "pile-2", "1:draw",
                     "play", "choose-pile", "reserve-pile", "james-bond"]),
    st.lists(st.sampled_from(["7H", "KD", "QQ", None, 3]), max_size=3),
    st.just([[]]), st.just({}), st.just({"pile": "centre-0", "t": 5}),
    st.dictionaries(st.sampled_from(["a", "card", "t"]), st.integers(-1, 3), max_size=2),
)


def _paths(obj, prefix=()):
    yield prefix
    if isinstance(obj, dict):
        for key, value in obj.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            yield from _paths(value, (*prefix, i))


@st.composite
def mutated(draw, base):
    """A deep copy of base with one to three edits: a value replaced by an odd one, a key or
    item removed, an extra key added, an item duplicated."""
    obj = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, 3))):
        # A depth first, then a path of that depth: the few top-level keys get as much
        # attention as the many cards deep inside.
        by_depth: dict[int, list] = {}
        for path in _paths(obj):
            by_depth.setdefault(len(path), []).append(path)
        paths = by_depth[draw(st.sampled_from(sorted(by_depth)))]
        path = paths[draw(st.integers(0, len(paths) - 1))]
        value = copy.deepcopy(draw(ODD_VALUES))  # never share a mutable example
        if not path:
            obj = value if draw(st.integers(0, 9)) == 0 else obj
            continue
        parent = obj
        for step in path[:-1]:
            parent = parent[step]
        key = path[-1]
        edit = draw(st.sampled_from(["replace", "replace", "remove", "extra", "duplicate"]))
        if edit == "remove":
            del parent[key]
        elif edit == "extra" and isinstance(parent, dict):
            parent[draw(st.sampled_from(["extra", "Seats", "ready", "options"]))] = value
        elif edit == "duplicate" and isinstance(parent, list):
            parent.append(copy.deepcopy(parent[key]))
        else:
            parent[key] = value
        if not isinstance(obj, (dict, list)):
            break
    return obj


def _state(game) -> str:
    return json.dumps(game.to_json(), sort_keys=True)


def _apply_checked(game, action) -> None:
    """Apply at a time when nothing is due, so a rejection must leave the game as it was."""
    t = action.get("t") if isinstance(action, dict) else None
    due = game.next_deadline()
    if type(t) is int and due is not None and due <= t:
        game.advance(t)
    before = _state(game)
    result = game.apply(action)
    assert isinstance(result.reason, str) or result.accepted
    if not result.accepted:
        assert result.events == []
        assert _state(game) == before, (action, result.reason)


def _play_a_little(game, actions) -> None:
    """Read every view, then try listed and mutated actions; nothing may raise."""
    for step, action in enumerate(actions):
        if game.is_over:
            break
        for seat in range(game.players):
            game.board(None)
            game.observation(seat)
            game.bot_candidates(seat)
        legal = game.legal_actions(step % game.players)
        if legal and step % 2 == 0:
            listed = legal[step % len(legal)].to_json()
            listed["t"] = game.now + 50 * step
            _apply_checked(game, listed)
        _apply_checked(game, action)
    game.check_invariants()
    json.dumps(game.to_json())


def _some_action(game) -> dict:
    for seat in range(game.players):
        for action in game.legal_actions(seat):
            return action.to_json()
    return {"t": game.now, "player": 0, "type": next(iter(game.handlers))}


# Each variant as often as any other, and a dealt position (which has every optional key) as
# often as a scenario's, however many scenario files a variant has.
BASES = [[pos for s, pos in group if s == slug] for slug in sorted(VARIANTS)
         for group in (DEALT, POSITIONS[len(DEALT):])]
position_cases = st.sampled_from(range(len(BASES))).flatmap(lambda i: st.tuples(
    st.just(sorted(VARIANTS)[i // 2]), st.sampled_from(BASES[i]).flatmap(mutated)))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position_cases, st.data())
def test_a_mutated_position_loads_and_plays_or_is_a_position_error(case, data):
    slug, position = case
    try:
        game = game_from_position(slug, position, debug=True)
    except (PositionError, OptionError):
        return
    actions = [data.draw(mutated(_some_action(game))) for _ in range(3)]
    _play_a_little(game, actions)


action_cases = st.sampled_from(POSITIONS).flatmap(lambda case: st.tuples(
    st.just(case[0]), st.just(case[1]), st.lists(st.integers(0, 10**6), min_size=1,
                                                 max_size=4)))


@settings(max_examples=200, deadline=None)
@given(action_cases, st.data())
def test_a_mutated_action_is_answered_and_a_rejection_changes_nothing(case, data):
    slug, position, picks = case
    game = game_from_position(slug, position, debug=True)
    for pick in picks:
        if game.is_over:
            break
        seat = pick % game.players
        legal = game.legal_actions(seat)
        base = (legal[pick % len(legal)].to_json() if legal else
                {"t": game.now, "player": seat, "type": next(iter(game.handlers))})
        base["t"] = game.now + pick % 700
        action = data.draw(mutated(base))
        _apply_checked(game, action)
    game.check_invariants()


@st.composite
def mutated_scenarios(draw):
    """A scenario mutated as a whole, or in one of its steps (where most of its keys are)."""
    scenario = draw(st.sampled_from(SCENARIO_DATA))
    steps = scenario.get("actions") or []
    if not steps or draw(st.booleans()):
        return draw(mutated(scenario))
    i = draw(st.integers(0, len(steps) - 1))
    return {**scenario, "actions": [*steps[:i], draw(mutated(steps[i])), *steps[i + 1:]]}


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_scenarios())
def test_a_mutated_scenario_replays_or_is_a_documented_error(scenario):
    try:
        steps = replay(scenario)
    except LOAD_ERRORS:
        return
    assert steps[0].index == 0
    json.dumps([step.to_json() for step in steps])


# The malformed scenarios issue #10 found, each as a file for the CLI.
MALFORMED = {
    "variant-list": '{"variant": ["spit"]}',
    "options-string": '{"variant": "spit", "options": "x"}',
    "advance-string": '{"variant": "stress-se", "actions": [{"advance": "x"}]}',
    "advance-nan": '{"variant": "stress-se", "actions": [{"advance": NaN}]}',
    "advance-infinity": '{"variant": "stress-se", "actions": [{"advance": Infinity}]}',
    "expect-number": '{"variant": "stress-se", "actions": '
                     '[{"t": 1, "player": 0, "type": "call", "expect": 5}]}',
    "check-string": '{"variant": "stress-se", "actions": [{"advance": 5, "check": "phase"}]}',
    "deep": "[" * 100000,
    "now-infinity": '{"variant": "stress-se", "position": {"now": Infinity, "centre": [["7H"],'
                    ' ["2S"]], "seats": [{"row": [["8S"], [], [], []]}, {"row": [["9S"], [],'
                    ' [], []]}]}}',
    "ready-too-short": '{"variant": "stress-de", "position": {"ready": [], "centre": [["7H"],'
                       ' ["2S"]], "seats": [{"row": [["8S"], [], [], []]}, {"row": [["9S"],'
                       ' [], [], []]}]}}',
    "no-seats": '{"variant": "spit", "position": {"centre": [[], []]}}',
    "players-string": '{"variant": "james-bond", "players": "4"}',
    "not-json": "{variant: spit",
    "not-utf8": b"\xff\xfe{}",
}


@pytest.mark.parametrize("name", MALFORMED)
def test_cli_replay_of_a_malformed_file_prints_one_json_error_line(tmp_path, name):
    path = tmp_path / f"{name}.json"
    text = MALFORMED[name]
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    proc = subprocess.run([sys.executable, "-m", "rules_engine", "replay", str(path)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 1
    assert proc.stderr == ""
    lines = proc.stdout.splitlines()
    assert len(lines) == 1
    assert set(json.loads(lines[0])) == {"file", "error"}


@pytest.mark.parametrize("position", [
    {"centre": [["7H"], ["2S"]], "seats": [{"row": [["8S"], [], [], []]},
                                            {"row": [["9S"], [], [], []]}], "ready": rd}
    for rd in ([False, False, False], [], [0, 1], "yes")
])
def test_stress_de_ready_must_list_a_boolean_per_seat(position):
    with pytest.raises(PositionError):
        game_from_position("stress-de", position)


def test_ready_belongs_to_stress_de_only():
    position = {"centre": [["7H"], ["2S"]], "ready": [True, False],
                "seats": [{"row": [["8S"], [], [], []]}, {"row": [["6S"], [], [], []]}]}
    assert game_from_position("stress-de", position).ready == [True, False]
    with pytest.raises(PositionError):
        game_from_position("stress-se", position)


@pytest.mark.parametrize("slug, args", [
    ("stressi-fi", {"whole": "XX"}),
    ("stressi-fi", {"whole": 1.5}),
    ("stressi-fi", {"whole": 1}),
    ("stress-se", {"onto": ["7H"]}),
    ("stress-se", {"card": ["7H"]}),
    ("stress-de", {"ontop": "7H"}),
])
def test_a_wrongly_typed_or_unknown_play_argument_is_bad_action(slug, args):
    game = new_game(slug, seed=3)
    play = next(a for seat in (0, 1) for a in game.legal_actions(seat) if a.type == "play")
    before = _state(game)
    result = game.apply(Action(game.now + 10, play.player, "play", {**play.args, **args}))
    assert result.reason == "bad-action"
    assert _state(game) == before


@pytest.mark.parametrize("slug, kind, args", [
    ("stress-se", "call", {"pile": 0}),
    ("stress-de", "refill", {"to": 2}),
    ("stressi-fi", "combine", {"from": "row-0"}),
    ("stressi-fi", "combine", {"from": None, "to": "row-1"}),
    ("james-bond", "pick", {"pile": 1}),
    ("james-bond", "pick", {}),
    ("james-bond", "call", {"word": 7}),
    ("spit", "play", {"card": 7, "from": "pile-1", "to": "centre-0"}),
    ("spit", "play", {"from": "pile-1", "to": "centre-0", "onto": ["KD"]}),
    ("spit", "move", {"card": ["KD"], "from": "pile-1", "to": "pile-2"}),
    ("spit", "turn", {"pile": "pile-1", "face": "up"}),
])
def test_wrongly_typed_missing_or_unknown_arguments_are_bad_action(slug, kind, args):
    game = new_game(slug, seed=3)
    before = _state(game)
    assert game.apply(Action(game.now + 10, 0, kind, args)).reason == "bad-action"
    assert _state(game) == before


def test_james_bond_lay_and_take_name_a_card_as_a_string_or_cards_as_a_list():
    game = new_game("james-bond", seed=3)
    assert game.apply({"t": 10, "player": 0, "type": "pick", "pile": "pile-1"}).accepted
    card = game.hand(0)[0]
    before = _state(game)
    for args in ({"card": [card]}, {"cards": card}, {"cards": []}, {"card": card, "cards": [card]}):
        assert game.apply({"t": 20, "player": 0, "type": "lay", **args}).reason == "bad-action"
        assert game.apply({"t": 20, "player": 0, "type": "take", **args}).reason == "bad-action"
    assert _state(game) == before
    assert game.apply({"t": 30, "player": 0, "type": "lay", "cards": [card]}).accepted


@pytest.mark.parametrize("slug", sorted(VARIANTS))
def test_every_action_type_lists_its_argument_keys(slug):
    # Game.apply reads an action type's handler from action_args: the two must agree.
    game_class = VARIANTS[slug].game_class
    assert set(game_class.action_args) == set(game_class.handlers)


@pytest.mark.parametrize("action", [
    Action(10, 0, ["call"], {}), Action(10, 0, "call", ["pile"]), Action(10.0, 0, "call", {}),
    Action(10, True, "call", {}), {"t": 10, "player": 0}, ["t", 10], None,
])
def test_a_malformed_action_object_is_bad_action(action):
    game = new_game("stress-se", seed=1)
    before = _state(game)
    assert game.apply(action).reason == "bad-action"
    assert _state(game) == before
