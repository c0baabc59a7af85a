"""Actions (what players do), events (what happened) and results (the engine's answer)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

_ACTION_KEYS = ("t", "player", "type")


@dataclass(frozen=True, slots=True)
class Action:
    """One timestamped thing a player does. `t` is milliseconds since the game's start."""

    t: int
    player: int
    type: str
    args: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        out: dict[str, Any] = {"t": self.t, "player": self.player, "type": self.type}
        out.update(self.args)
        return out

    @classmethod
    def from_json(cls, data: dict) -> Action:
        """Build from the flat form; raises ValueError when t, player or type is missing."""
        if not isinstance(data, dict):
            raise ValueError(f"action must be an object, got {type(data).__name__}")
        try:
            t, player, kind = data["t"], data["player"], data["type"]
        except KeyError as exc:
            raise ValueError(f"action lacks {exc.args[0]!r}") from None
        if not isinstance(t, int) or isinstance(t, bool):
            raise ValueError(f"action t must be an integer (ms), got {t!r}")
        if not isinstance(player, int) or isinstance(player, bool):
            raise ValueError(f"action player must be a seat number, got {player!r}")
        if not isinstance(kind, str):
            raise ValueError(f"action type must be a string, got {kind!r}")
        args = {k: v for k, v in data.items() if k not in _ACTION_KEYS}
        return cls(t, player, kind, args)


@dataclass(slots=True)
class Event:
    """Something that happened, for the log, narration and the demo."""

    code: str
    player: int | None
    data: dict
    t: int = 0

    def to_json(self) -> dict:
        out: dict[str, Any] = {"t": self.t, "code": self.code, "player": self.player}
        out.update(self.data)
        return out

    @classmethod
    def from_json(cls, data: dict) -> Event:
        rest = {k: v for k, v in data.items() if k not in ("t", "code", "player")}
        return cls(data["code"], data["player"], rest, data.get("t", 0))


@dataclass(slots=True)
class Result:
    """The engine's answer to apply(): accepted, or a stable reason code.

    `events` lists everything logged during the call, including what time itself caused
    before the action (the end of a tie window), so a rejected action may carry events too.
    """

    accepted: bool
    reason: str | None = None
    events: list[Event] = field(default_factory=list)

    def to_json(self) -> dict:
        return {
            "accepted": self.accepted,
            "reason": self.reason,
            "events": [e.to_json() for e in self.events],
        }
