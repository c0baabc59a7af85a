"""Scenarios: a game set-up plus timestamped actions with expectations (docs/scenarios.md).

The same files drive the engine's tests, the CLI's `replay`, and the site's step-through
examples (which read the extra keys the engine ignores: title, section, intro, say).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules_engine.actions import Action, Event, Result
from rules_engine.game import Game
from rules_engine.options import validate_options
from rules_engine.registry import game_from_position, get_variant, new_game

#: per-step keys that belong to the scenario, not to the action.
STEP_KEYS = ("expect", "check", "say", "comment")
CHECK_KEYS = (
    "centre_tops", "sizes", "tops", "piles", "winner", "draw", "phase", "events", "scores",
    "over",
)


class ScenarioError(ValueError):
    """A scenario file that cannot be run (not a failed expectation: that is a Step failure)."""


@dataclass
class Scenario:
    variant: str
    options: dict
    players: int | None
    seed: int | None
    position: dict | None
    steps: list[dict]
    meta: dict = field(default_factory=dict)
    path: str | None = None

    def new_game(self, *, debug: bool = True) -> Game:
        if self.position is not None:
            return game_from_position(self.variant, self.position, options=self.options,
                                      debug=debug)
        return new_game(self.variant, players=self.players, seed=self.seed or 0,
                        options=self.options, debug=debug)


@dataclass
class Step:
    """One replayed step. Step 0 is the initial position (action and result None)."""

    index: int
    action: Action | None
    result: Result | None
    failures: list[str]
    board: dict
    events: list[Event]
    advance: int | None = None
    say: dict | None = None

    def to_json(self) -> dict:
        out: dict[str, Any] = {"index": self.index}
        if self.action is not None:
            out["action"] = self.action.to_json()
        if self.advance is not None:
            out["advance"] = self.advance
        if self.result is not None:
            out["accepted"] = self.result.accepted
            out["reason"] = self.result.reason
        out["events"] = [e.to_json() for e in self.events]
        out["failures"] = self.failures
        return out


def load(path_or_dict: str | Path | dict) -> Scenario:
    """Read and check a scenario. A file that cannot run raises ScenarioError (OptionError for
    a bad option, UnknownVariant for a bad slug); a position is checked when the game is set
    up (PositionError)."""
    path = None
    if isinstance(path_or_dict, dict):
        data = path_or_dict
    else:
        path = str(path_or_dict)
        data = _read_json(path)
    name = path or "scenario"
    if not isinstance(data, dict):
        raise ScenarioError(f"{name}: a scenario is a JSON object")
    variant = data.get("variant")
    if not isinstance(variant, str):
        raise ScenarioError(f"{name}: needs a 'variant' (a registry slug), got {variant!r}")
    info = get_variant(variant)
    given = data.get("options")
    if given is not None and not isinstance(given, dict):
        raise ScenarioError(f"{name}: 'options' must be an object, got {given!r}")
    options = validate_options(info.options, given, name=info.slug)
    if "seed" in data and "position" in data:
        raise ScenarioError(f"{name}: give either a seed or a position, not both")
    players, seed, position = data.get("players"), data.get("seed"), data.get("position")
    # Without a position the game is dealt for `players` (the variant's smallest count when
    # absent), which some options rule out (James Bond's second deck): say so in one line.
    if players is not None or position is None:
        try:
            info.game_class._check_players(players, options)
        except ValueError as exc:
            raise ScenarioError(f"{name}: players: {exc}") from None
    if seed is not None and type(seed) is not int:
        raise ScenarioError(f"{name}: 'seed' must be a whole number, got {seed!r}")
    if position is not None and not isinstance(position, dict):
        raise ScenarioError(f"{name}: 'position' must be an object, got {position!r}")
    steps = data.get("actions", [])
    if not isinstance(steps, list):
        raise ScenarioError(f"{name}: 'actions' must be a list")
    for index, raw in enumerate(steps, start=1):
        try:
            _check_step(raw)
        except ValueError as exc:
            raise ScenarioError(f"{name}: step {index}: {exc}") from None
    meta = {k: v for k, v in data.items()
            if k not in ("variant", "options", "players", "seed", "position", "actions")}
    return Scenario(
        variant=info.slug, options=options, players=players, seed=seed, position=position,
        steps=steps, meta=meta, path=path,
    )


def _read_json(path: str) -> Any:
    """The file's JSON; strict: NaN and Infinity are not JSON (Python would read them)."""

    def no_constant(word: str) -> Any:
        raise ValueError(f"{word} is not a JSON number")

    try:
        return json.loads(Path(path).read_text(encoding="utf-8"), parse_constant=no_constant)
    except RecursionError:
        raise ScenarioError(f"{path}: nested too deeply to read") from None
    except (OSError, ValueError) as exc:  # ValueError: bad JSON or not UTF-8
        raise ScenarioError(f"{path}: {exc}") from None


_CHECK_OBJECTS = ("sizes", "tops", "piles")
_CLOCK_KEYS = ("advance", "check", "say", "comment")


def _check_step(raw: Any) -> None:
    """A step's shape (ValueError): an object; a clock step's time or an action's t, player
    and type; `expect` and `check` objects whose zone maps are objects."""
    if not isinstance(raw, dict):
        raise ValueError("must be an object")
    if "advance" in raw:
        t = raw["advance"]
        if type(t) is not int or t < 0:
            raise ValueError(f"'advance' must be a whole number of ms, got {t!r}")
        extra = [k for k in raw if k not in _CLOCK_KEYS]
        if extra:
            raise ValueError(f"a clock step has no {extra[0]!r} (it has only "
                             f"{', '.join(_CLOCK_KEYS)})")
    else:
        Action.from_json({k: v for k, v in raw.items() if k not in STEP_KEYS})
        expect = raw.get("expect")
        if expect is not None:
            if not isinstance(expect, dict) or not set(expect) <= {"accepted", "reason"}:
                raise ValueError(f"'expect' must be an object with accepted or reason, "
                                 f"got {expect!r}")
            if "accepted" in expect and type(expect["accepted"]) is not bool:
                raise ValueError("'expect': accepted must be true or false")
    check = raw.get("check")
    if check is not None:
        if not isinstance(check, dict):
            raise ValueError(f"'check' must be an object, got {check!r}")
        for key in _CHECK_OBJECTS:
            zones = check.get(key)
            if zones is not None and not (
                    isinstance(zones, dict) and all(isinstance(z, str) for z in zones)):
                raise ValueError(f"check {key!r} must be an object of zone: value")


def replay(scenario: Scenario | str | Path | dict, *, debug: bool = True) -> list[Step]:
    """Run every step; failed expectations are collected, never raised."""
    if not isinstance(scenario, Scenario):
        scenario = load(scenario)
    game = scenario.new_game(debug=debug)
    steps = [Step(0, None, None, [], game.board(None), list(game.log))]
    for index, raw in enumerate(scenario.steps, start=1):
        failures: list[str] = []
        if "advance" in raw:
            t = raw["advance"]
            events = game.advance(t)
            step = Step(index, None, None, failures, {}, events, advance=t, say=raw.get("say"))
        else:
            action = Action.from_json({k: v for k, v in raw.items() if k not in STEP_KEYS})
            result = game.apply(action)
            step = Step(index, action, result, failures, {}, result.events, say=raw.get("say"))
            failures.extend(_check_expect(raw.get("expect"), result))
        failures.extend(_check_position(raw.get("check"), game, step.events))
        step.board = game.board(None)
        steps.append(step)
    return steps


def _check_expect(expect: dict | None, result: Result) -> list[str]:
    if not expect:
        return []
    out = []
    if "accepted" in expect and expect["accepted"] != result.accepted:
        out.append(f"expected accepted={expect['accepted']}, got reason {result.reason!r}"
                   if not result.accepted else "expected rejection, was accepted")
    if "reason" in expect and expect["reason"] != result.reason:
        out.append(f"expected reason {expect['reason']!r}, got {result.reason!r}")
    return out


def _zone_cards(game: Game, zone: str) -> list[str] | None:
    """Cards of 'centre-1' or '<seat>:<zone id>' (e.g. '0:draw', '1:row-2'), bottom to top."""
    board = game.board(None)
    if ":" in zone:
        seat_text, zid = zone.split(":", 1)
        if not (seat_text.isdecimal() and int(seat_text) < len(board["seats"])):
            return None
        zones = board["seats"][int(seat_text)]["zones"]
    else:
        zid, zones = zone, board["centre"]
    for z in zones:
        if z["id"] == zid:
            return [c["card"] for c in z["cards"]]
    return None


def _check_position(check: dict | None, game: Game, events: list[Event]) -> list[str]:
    if not check:
        return []
    out = []
    for key in check:
        if key not in CHECK_KEYS:
            out.append(f"unknown check {key!r} (known: {', '.join(CHECK_KEYS)})")
    board = game.board(None)
    if "centre_tops" in check:
        tops = [z["cards"][-1]["card"] if z["cards"] else None for z in board["centre"]]
        if tops != check["centre_tops"]:
            out.append(f"centre_tops: expected {check['centre_tops']}, got {tops}")
    for key, want in (check.get("sizes") or {}).items():
        cards = _zone_cards(game, key)
        got = None if cards is None else len(cards)
        if got != want:
            out.append(f"size of {key}: expected {want}, got {got}")
    for key, want in (check.get("tops") or {}).items():
        cards = _zone_cards(game, key)
        got = cards[-1] if cards else None
        if got != want:
            out.append(f"top of {key}: expected {want}, got {got}")
    for key, want in (check.get("piles") or {}).items():
        got = _zone_cards(game, key)
        if got != want:
            out.append(f"cards of {key}: expected {want}, got {got}")
    for key in ("winner", "draw", "phase", "scores", "over"):
        if key in check:
            got = board["phase"] == "over" if key == "over" else board[key]
            if got != check[key]:
                out.append(f"{key}: expected {check[key]!r}, got {got!r}")
    if "events" in check:
        codes = [e.code for e in events]
        if codes != check["events"]:
            out.append(f"events: expected {check['events']}, got {codes}")
    return out


def failures_of(steps: list[Step]) -> list[str]:
    return [f"step {s.index}: {f}" for s in steps for f in s.failures]
