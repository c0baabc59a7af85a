"""A person at the demo's table, for tests: picks one of the engine's legal actions for the
seat the way a sensible player would (the engine still judges every move)."""

from __future__ import annotations

import random
from collections import Counter

from rules_engine.game import Game


def _rank(card: str) -> str:
    return card[0]


def _james_bond(game: Game, seat: int, legal: list[dict], rng: random.Random) -> dict:
    by_type: dict[str, list[dict]] = {}
    for action in legal:
        by_type.setdefault(action["type"], []).append(action)
    if "call" in by_type:
        return by_type["call"][0]
    hand = game.hand(seat)  # type: ignore[attr-defined]
    counts = Counter(_rank(c) for c in hand)
    target = max(counts, key=lambda r: (counts[r], r)) if counts else None
    if "take" in by_type:
        wanted = [a for a in by_type["take"]
                  if all(_rank(c) == target for c in a.get("cards") or [a.get("card")])]
        return rng.choice(wanted or by_type["take"])
    if "lay" in by_type:
        middle = Counter(_rank(c) for c in game.middle)  # type: ignore[attr-defined]
        if middle[target] or rng.random() < 0.6 or "put-back" not in by_type:
            return min(by_type["lay"], key=lambda a: (counts[_rank(a["card"])], rng.random()))
        return by_type["put-back"][0]
    return rng.choice(legal)


def sensible_action(game: Game, seat: int, rng: random.Random) -> dict | None:
    """A legal action for `seat` as flat JSON without t and player, or None."""
    legal = []
    for action in game.legal_actions(seat):
        data = action.to_json()
        data.pop("t")
        data.pop("player")
        legal.append(data)
    if not legal:
        return None
    if game.variant.family == "swap":
        return _james_bond(game, seat, legal, rng)
    calls = [a for a in legal if a["type"] in ("call", "choose", "spit")]
    return rng.choice(calls or legal)
