"""Playing the demo in a real browser: an engine action becomes the clicks or keys a person
would use on the board (the ids and data-key attributes site/play/table.py renders)."""

from __future__ import annotations

import json

from playwright.sync_api import Page


def _card_item(page: Page, scope: str, card: str):
    """The button in `scope` (the hand or the middle) whose action names `card`."""
    for el in page.locator(f"{scope} button.item").all():
        data = el.get_attribute("data-pick") or el.get_attribute("data-send") or "{}"
        if json.loads(data).get("card") == card:
            return el
    return None


def targets(page: Page, action: dict) -> list | None:
    """The elements to press, in order, for an engine action (None: not on the board now)."""
    kind = action["type"]
    by_id = page.locator
    if kind in ("play", "move", "combine"):
        whole = [by_id("#cmd-whole")] if action.get("whole") else []
        return [*whole, by_id(f"#o-{action['from']}"),
                by_id(f"#{'c' if kind == 'play' else 'o'}-{action['to']}")]
    if kind in ("turn", "pick"):
        return [by_id(f"#o-{action['pile']}")]
    if kind in ("choose",):
        return [by_id(f"#c-{action['pile']}")]
    if kind == "spit":
        return [by_id(f"#c-{action['to']}")]
    if kind == "lay":
        cards = action.get("cards") or [action["card"]]
        found = [_card_item(page, ".seat--own .zone--hand", c) for c in cards]
        if None in found:
            return None
        return found + ([by_id("#cmd-lay")] if len(cards) > 1 else [])
    if kind == "take":
        cards = action.get("cards") or [action["card"]]
        found = [_card_item(page, ".zone--middle", c) for c in cards]
        return None if None in found else found
    if kind == "call" and action.get("pile") and page.locator(
            f"#c-{action['pile']}[data-send]").count():
        return [by_id(f"#c-{action['pile']}")]
    return [by_id(f"#cmd-{kind}")]


def press(page: Page, action: dict, *, keyboard: bool) -> bool:
    """Do the action on the board by clicking or by its keys; False if it is not there."""
    elements = targets(page, action)
    if not elements:
        return False
    keys = []
    for el in elements:
        if el.count() == 0:
            return False
        keys.append(el.get_attribute("data-key"))
    if keyboard:
        if None in keys:
            return False
        for key in keys:
            page.keyboard.press({" ": "Space"}.get(key, key))
        return True
    for el in elements:
        try:
            el.click(timeout=500)
        except Exception:  # replaced by a board update between reading and clicking
            return False
    return True
