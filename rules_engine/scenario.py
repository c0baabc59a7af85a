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
    path = None
    if isinstance(path_or_dict, dict):
        data = path_or_dict
    else:
        path = str(path_or_dict)
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise ScenarioError(f"{path}: {exc}") from exc
    if not isinstance(data, dict) or "variant" not in data:
        raise ScenarioError(f"{path or 'scenario'}: needs a 'variant'")
    info = get_variant(data["variant"])
    options = validate_options(info.options, data.get("options") or {})
    if "seed" in data and "position" in data:
        raise ScenarioError(f"{path or 'scenario'}: give either a seed or a position, not both")
    steps = data.get("actions", [])
    if not isinstance(steps, list):
        raise ScenarioError(f"{path or 'scenario'}: 'actions' must be a list")
    meta = {k: v for k, v in data.items()
            if k not in ("variant", "options", "players", "seed", "position", "actions")}
    return Scenario(
        variant=info.slug, options=options, players=data.get("players"),
        seed=data.get("seed"), position=data.get("position"), steps=steps, meta=meta,
        path=path,
    )


def replay(scenario: Scenario | str | Path | dict, *, debug: bool = True) -> list[Step]:
    """Run every step; failed expectations are collected, never raised."""
    if not isinstance(scenario, Scenario):
        scenario = load(scenario)
    game = scenario.new_game(debug=debug)
    steps = [Step(0, None, None, [], game.board(None), list(game.log))]
    for index, raw in enumerate(scenario.steps, start=1):
        if not isinstance(raw, dict):
            raise ScenarioError(f"step {index}: must be an object")
        failures: list[str] = []
        if "advance" in raw:
            t = raw["advance"]
            events = game.advance(t)
            step = Step(index, None, None, failures, {}, events, advance=t, say=raw.get("say"))
        else:
            data = {k: v for k, v in raw.items() if k not in STEP_KEYS}
            try:
                action = Action.from_json(data)
            except ValueError as exc:
                raise ScenarioError(f"step {index}: {exc}") from exc
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
        try:
            seat = board["seats"][int(seat_text)]
        except (ValueError, IndexError):
            return None
        zones = seat["zones"]
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
