"""The one strict reading of a move sent by a browser, for the demo and the sandbox alike.

Both read a small JSON object that names an engine action. What the engine and the
wording code later index without looking (a play's card, a zone id) is checked here, so a
hand-made action is refused with a reason, never met as a KeyError deep in a view.
"""

from __future__ import annotations

import json

from rules_engine.cards import is_card

MAX_ACTION_BYTES = 600
#: keys naming a place on the table; the wording code reads them as strings.
ZONE_KEYS = ("from", "to", "onto", "pile")
#: keys the server fills in itself: whatever the browser sent for them is dropped.
SERVER_KEYS = ("t", "player")


class ActionShapeError(ValueError):
    """A move that cannot be read as an action: its args[0] says which check failed."""


def _is_card_code(value: object) -> bool:
    return value == "X" or is_card(value)


def _text(value: object) -> bool:
    # PostgreSQL's jsonb refuses "\u0000" (the escaped NUL survives the raw-text check)
    return isinstance(value, str) and "\x00" not in value


def _plain(value: object) -> bool:
    if isinstance(value, bool) or value is None:
        return True
    if isinstance(value, str):
        return _text(value)
    if isinstance(value, int):
        return abs(value) < 2**31
    return isinstance(value, list) and all(_text(v) for v in value)


def check_action(action: object) -> dict:
    """The action itself when its shape is one the site can handle; ActionShapeError else."""
    if not (isinstance(action, dict) and _text(action.get("type"))):
        raise ActionShapeError("shape")
    for key, value in action.items():
        if not _text(key) or not _plain(value):
            raise ActionShapeError("value")
    if "card" in action and not _is_card_code(action["card"]):
        raise ActionShapeError("card")
    if "cards" in action and not all(_is_card_code(c) for c in action["cards"] or [None]):
        raise ActionShapeError("card")
    if action["type"] == "play" and "card" not in action and "cards" not in action:
        raise ActionShapeError("card")
    for key in ZONE_KEYS:
        if key in action and not isinstance(action[key], str | None):
            raise ActionShapeError("zone")
    if "whole" in action and not isinstance(action["whole"], bool):
        raise ActionShapeError("value")
    for key in SERVER_KEYS:
        action.pop(key, None)
    return action


def read_action(raw: str) -> dict:
    """Parse and check a move's JSON text (see check_action)."""
    if len(raw.encode("utf-8", "surrogatepass")) > MAX_ACTION_BYTES:
        raise ActionShapeError("size")
    if "\x00" in raw:
        raise ActionShapeError("nul")  # PostgreSQL's jsonb cannot store it
    try:
        action = json.loads(raw)
    except (ValueError, RecursionError):
        raise ActionShapeError("json") from None
    return check_action(action)
