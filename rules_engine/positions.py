"""Reading explicit positions: the checks every variant's position loader shares.

A position is untrusted JSON (a scenario file, a site request). Each reader here either
returns a clean Python value or raises PositionError naming the field, so a loader never
trips over a wrong type later (docs/scenarios.md lists the position forms).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from rules_engine.cards import JOKER, RANK_VALUE


class PositionError(ValueError):
    """An explicit position that does not describe a legal layout for the variant."""


def check_keys(obj: dict, allowed: Collection[str], where: str) -> None:
    unknown = [k for k in obj if k not in allowed]
    if unknown:
        raise PositionError(f"{where}: unknown key {unknown[0]!r}; valid keys: "
                            f"{', '.join(sorted(allowed))}")


def an_object(value: Any, where: str) -> dict:
    if not isinstance(value, dict):
        raise PositionError(f"{where} must be an object, got {value!r}"[:200])
    return value


def a_list(value: Any, where: str, *, length: int | None = None) -> list:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        size = "a list" if length is None else f"a list of {length}"
        raise PositionError(f"{where} must be {size}, got {value!r}"[:200])
    return value


def whole_number(value: Any, where: str, *, minimum: int = 0,
                 maximum: int | None = None) -> int:
    """A JSON integer (never a boolean, a float, NaN or a string) in range."""
    if (type(value) is not int or value < minimum
            or (maximum is not None and value > maximum)):
        upper = "" if maximum is None else f" and at most {maximum}"
        raise PositionError(f"{where} must be a whole number, at least {minimum}{upper}; "
                            f"got {value!r}"[:200])
    return value


def a_seed(value: Any, where: str = "seed") -> int:
    if type(value) is not int:
        raise PositionError(f"{where} must be a whole number, got {value!r}"[:200])
    return value


def flags(value: Any, length: int, where: str) -> list[bool]:
    """A list of exactly `length` booleans (true/false, not 0/1 or strings)."""
    a_list(value, where, length=length)
    if not all(type(v) is bool for v in value):
        raise PositionError(f"{where} must list {length} booleans, got {value!r}"[:200])
    return list(value)


def one_of(value: Any, choices: Collection[Any], where: str) -> Any:
    # type() first: True == 1 and 1.0 == 1 must not pass for a seat number.
    if not any(type(value) is type(c) and value == c for c in choices):
        raise PositionError(f"{where} must be one of {', '.join(map(repr, choices))}; "
                            f"got {value!r}"[:200])
    return value


def cards(value: Any, where: str, *, jokers: bool) -> list[str]:
    """A list of cards in the engine's notation ("7H", "TS", "X" where jokers are used)."""
    a_list(value, where)
    for card in value:
        if not isinstance(card, str) or card not in RANK_VALUE:
            raise PositionError(f"{where}: not a card: {card!r}"[:200])
        if card == JOKER and not jokers:
            raise PositionError(f"{where}: this variant has no jokers")
    return list(value)
