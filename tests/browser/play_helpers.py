"""Playing the demo in a real browser: an engine action becomes the clicks or keys a person
would use on the board (the ids and data-key attributes site/presentation/table/ renders).

The board is replaced whenever a bot moves, so the elements are looked up in one go in the
page (never one attribute after another), and a move whose card is gone by then is simply
not made, as a person would not make it."""

from __future__ import annotations

from playwright.sync_api import Error, Page

FIND = """(specs) => specs.map(([scope, card, selector]) => {
    let el = null;
    if (card) {
        el = [...document.querySelectorAll(scope + " button.item")].find((b) => {
            const data = JSON.parse(b.dataset.pick || b.dataset.send || "{}");
            return data.card === card;
        }) || null;
    } else {
        el = document.querySelector(selector);
    }
    return el && el.id ? {id: el.id, key: el.dataset.key || null} : null;
})"""


def specs(action: dict) -> list[tuple[str, str | None, str | None]]:
    """What to press, in order: (scope, card, None) for a card, (None, None, selector)."""
    kind = action["type"]
    if kind in ("play", "move", "combine"):
        target = f"#{'c' if kind == 'play' else 'o'}-{action['to']}"
        whole = [(None, None, "#cmd-whole")] if action.get("whole") else []
        return [*whole, (None, None, f"#o-{action['from']}"), (None, None, target)]
    if kind in ("turn", "pick"):
        return [(None, None, f"#o-{action['pile']}")]
    if kind == "choose":
        return [(None, None, f"#c-{action['pile']}")]
    if kind == "spit":
        return [(None, None, f"#c-{action['to']}")]
    if kind in ("lay", "take"):
        scope = ".seat--own .zone--hand" if kind == "lay" else ".zone--middle"
        cards = action.get("cards") or [action["card"]]
        found = [(scope, card, None) for card in cards]
        return found + ([(None, None, "#cmd-lay")] if kind == "lay" and len(cards) > 1 else [])
    if kind == "call" and action.get("pile"):
        return [(None, None, f"#c-{action['pile']}[data-send]")]
    return [(None, None, f"#cmd-{kind}")]


def press(page: Page, action: dict, *, keyboard: bool) -> bool:
    """Do the action on the board by clicking or by its keys; False if it is not there."""
    wanted = specs(action)
    found = page.evaluate(FIND, [list(spec) for spec in wanted])
    if action["type"] == "call" and action.get("pile") and found == [None]:
        found = page.evaluate(FIND, [[None, None, "#cmd-call"]])  # no pile to slap: Space
    if None in found:
        return False
    if keyboard:
        if any(f["key"] is None for f in found):
            return False
        for f in found:
            page.keyboard.press({" ": "Space"}.get(f["key"], f["key"]))
        return True
    for f in found:
        try:
            page.locator(f"#{f['id']}").click(timeout=500)
        except Error:  # replaced by a board update between finding and clicking
            return False
    return True
