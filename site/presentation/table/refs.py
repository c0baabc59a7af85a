"""A card or pile on the table as teacher mode's "explain this" names it: a paused table's
cards and piles are buttons that ask about themselves (teach.explain answers)."""

from __future__ import annotations

import json
from dataclasses import dataclass

from .model import Table


@dataclass(frozen=True)
class Ref:
    """A card or pile on the table: its zone, the seat it belongs to, the card (fanned)."""

    zone: str
    seat: int | None = None
    card: str | None = None

    def to_json(self) -> str:
        data: dict = {"z": self.zone}
        if self.seat is not None:
            data["s"] = self.seat
        if self.card:
            data["c"] = self.card
        return json.dumps(data, separators=(",", ":"))


def mark_explainable(table: Table) -> None:
    """A paused table's cards and piles ask to be explained when clicked."""
    for view in table.seats:
        for zone in view.zones:
            for item in zone.items:
                top = item.top
                card = top["card"] if zone.fanned and top and top["up"] else None
                item.explain = Ref(zone.id, view.seat, card).to_json()
    for zone in table.centre:
        for item in zone.items:
            top = item.top
            card = top["card"] if zone.fanned and top else None
            item.explain = Ref(zone.id, None, card).to_json()
