"""The engine's vocabulary: action types, event codes and reason codes, each declared once.

Codes are `StrEnum` members, so each one IS its string ("bad-zone" == Reason.BAD_ZONE, and
it hashes and serialises as the string): stored games, scenarios and JSON stay as they were.
This module declares the kinds of code and the codes more than one family uses; each family
module (speed.py, variants/spit.py, variants/james_bond.py) declares only its own and lists
its whole vocabulary in a `Vocabulary`, which `VariantInfo` exposes (`info.action_types`,
`info.event_codes`, `info.reason_codes`) so the site can word every code a variant can produce.
docs/scenarios.md says when each code happens.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType


@dataclass(frozen=True)
class Arg:
    """One argument of an action type: what it names and whether it may be left out.

    `kind` is a zone kind as boards name it ("row", "centre", "layout", "pile") where the
    argument names a zone, else the value's kind: "card" (a card code), "cards" (a list of
    them), "bool", "word"."""

    kind: str
    required: bool = True


class ActionType(StrEnum):
    """Base of every family's action types: `args` is the argument schema."""

    args: Mapping[str, Arg]

    def __new__(cls, value: str, args: Mapping[str, Arg] | None = None) -> ActionType:
        member = str.__new__(cls, value)
        member._value_ = value
        member.args = MappingProxyType(dict(args or {}))
        return member

    def zone_kinds(self) -> dict[str, str]:
        """The arguments that name a zone, with the zone kind each names."""
        return {k: a.kind for k, a in self.args.items() if a.kind in ZONE_KINDS}


#: the zone kinds an action argument can name (the rest of Arg.kind are value kinds).
ZONE_KINDS = frozenset({"row", "centre", "layout", "pile"})


class EventCode(StrEnum):
    """Base of every family's event codes: `fields` are the data keys an event carries
    (besides t, code and player)."""

    fields: frozenset[str]

    def __new__(cls, value: str, fields: Iterable[str] = ()) -> EventCode:
        member = str.__new__(cls, value)
        member._value_ = value
        member.fields = frozenset(fields)
        return member


class ReasonCode(StrEnum):
    """Base of every family's reason codes (why apply refused an action)."""


class Reason(ReasonCode):
    """Reason codes of more than one family (the first five: of every variant)."""

    # Game.apply's own checks, before any variant rule.
    BAD_ACTION = "bad-action"
    UNKNOWN_ACTION = "unknown-action"
    GAME_OVER = "game-over"
    OUT_OF_ORDER = "out-of-order"
    BAD_PLAYER = "bad-player"
    # Rules checks several families share.
    BAD_ZONE = "bad-zone"
    TOO_SLOW = "too-slow"
    NO_SUCH_CARD = "no-such-card"
    NOT_YOUR_CARD = "not-your-card"
    NOT_TOP = "not-top"
    NOT_ADJACENT = "not-adjacent"
    EQUAL_RANK = "equal-rank"
    ALREADY_CALLED = "already-called"
    NOT_NOW = "not-now"


#: the reason codes every variant can return (Game.apply's own checks).
ENGINE_REASONS = (
    Reason.BAD_ACTION,
    Reason.UNKNOWN_ACTION,
    Reason.GAME_OVER,
    Reason.OUT_OF_ORDER,
    Reason.BAD_PLAYER,
)


class SharedEvent(EventCode):
    """Event codes of more than one family, with the same fields everywhere."""

    WON = "won", ("reason",)
    DRAW = "draw", ("reason",)
    TURNED = "turned", ("card", "pile", "cause")
    TOOK = "took", ("piles", "count", "reason")


#: the event codes every variant can log (Game.finish_win, Game.finish_draw).
ENGINE_EVENTS = (SharedEvent.WON, SharedEvent.DRAW)


@dataclass(frozen=True)
class Vocabulary:
    """Everything a family's games can do, log and answer."""

    actions: tuple[ActionType, ...]
    events: tuple[EventCode, ...]
    reasons: tuple[ReasonCode, ...]

    def __post_init__(self) -> None:
        for name, codes in (
            ("actions", self.actions),
            ("events", self.events),
            ("reasons", self.reasons),
        ):
            if len(set(codes)) != len(codes):
                raise ValueError(f"vocabulary {name}: a code is listed twice")
        missing = set(ENGINE_REASONS) - set(self.reasons)
        if missing or not set(ENGINE_EVENTS) <= set(self.events):
            raise ValueError("a vocabulary includes the engine's own reasons and events")

    def action_args(self) -> dict[str, frozenset[str]]:
        """Each action type's argument keys (Game.action_args: any other key is bad-action)."""
        return {str(a): frozenset(a.args) for a in self.actions}

    def event(self, code: str) -> EventCode:
        """The declared event of that code (KeyError: none)."""
        for e in self.events:
            if e == code:
                return e
        raise KeyError(code)
