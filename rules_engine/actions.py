"""Actions (what players do), events (what happened) and results (the engine's answer)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

_ACTION_KEYS = ("t", "player", "type")


class Action:
    """One timestamped thing a player does. `t` is milliseconds since the game's start.

    Immutable, like the frozen dataclass it used to be (same fields, equality, repr), but
    built with plain slot stores: bots create one per plan, so construction is a hot path
    (a frozen dataclass's ``__init__`` costs several times more)."""

    __slots__ = ("args", "player", "t", "type")
    __match_args__ = ("t", "player", "type", "args")

    t: int
    player: int
    type: str
    args: dict

    def __init__(self, t: int, player: int, type: str, args: dict | None = None) -> None:
        _set_t(self, t)
        _set_player(self, player)
        _set_type(self, type)
        _set_args(self, {} if args is None else args)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r} (Action is immutable)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r} (Action is immutable)")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.t == other.t and self.player == other.player  # type: ignore[attr-defined]
                and self.type == other.type and self.args == other.args)  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        # Equal actions hash equal: the args are hashed by value (lists as tuples, mappings as
        # sorted items), so an Action can key a dict or sit in a set. The args are never
        # changed after construction (Action is immutable; the engine only reads them).
        return hash((self.t, self.player, self.type, _frozen(self.args)))

    def __repr__(self) -> str:
        return (f"Action(t={self.t!r}, player={self.player!r}, type={self.type!r}, "
                f"args={self.args!r})")

    def __reduce__(self):
        return (Action, (self.t, self.player, self.type, self.args))

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


def _frozen(value: Any) -> Any:
    """A hashable stand-in for an action argument, equal exactly when the values are equal."""
    if isinstance(value, dict):
        return ("{}", tuple(sorted((k, _frozen(v)) for k, v in value.items())))
    if isinstance(value, (list, tuple)):
        return ("[]", tuple(_frozen(v) for v in value))
    return value


# Slot stores that bypass Action.__setattr__ (which refuses every assignment).
_set_t = Action.t.__set__  # type: ignore[attr-defined]
_set_player = Action.player.__set__  # type: ignore[attr-defined]
_set_type = Action.type.__set__  # type: ignore[attr-defined]
_set_args = Action.args.__set__  # type: ignore[attr-defined]


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
