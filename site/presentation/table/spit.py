"""The table of Spit: a layout of five piles per player, two centre piles, and the phases in
which a player claims a centre pile (one reserve left, the end of a deal)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from presentation.board import Place
from presentation.wording import Words

from .model import Hands, Hint, Keys, Zone, action_json, keyed, nth
from .presenter import TablePresenter, place_keys, top_card


class SpitPresenter(TablePresenter):
    family = "spit"
    teach_keys = (
        Keys(places=tuple("12345"), centre=("q", "w")),
        Keys(places=tuple("67890"), centre=("o", "p")),
    )

    def centre(self, board: dict, hands: Hands) -> list[Zone]:
        zones = []
        for i, zone in enumerate(board["centre"]):
            item = self.pile(zone, "c")
            if not zone.get("in_use", True):
                item.state = "unused"
            if hands.keys:
                item.drop = action_json({"type": "play", "to": zone["id"], "onto": top_card(zone)})
                if board["phase"] == "reserve-pile":
                    item.send = action_json({"type": "spit", "to": zone["id"]})
                elif board["phase"] == "choose-pile":
                    item.send = action_json({"type": "choose", "pile": zone["id"]})
                hands.shared_keys(item, lambda keys, i=i: nth(keys.centre, i))
            zones.append(Zone(zone["id"], zone["kind"], item.label, [item]))
        return zones

    def own_zones(
        self, board: dict, zones: list[dict], keys: Keys, owner: int | None, prefix: str
    ) -> list[Zone]:
        out = []
        for zone in zones:
            item = self.pile(zone, prefix)
            if zone["kind"] == "layout":
                item.seat = owner
                k = int(zone["id"].rsplit("-", 1)[1]) - 1
                top = zone["cards"][-1] if zone["cards"] else None
                if top is None:
                    item.drop = action_json({"type": "move", "to": zone["id"]})
                elif top["up"]:
                    item.pick = action_json(
                        {"type": "play", "from": zone["id"], "card": top["card"]}
                    )
                else:
                    item.send = action_json({"type": "turn", "pile": zone["id"]})
                keyed(item, nth(keys.places, k), owner)
            out.append(Zone(zone["id"], zone["kind"], item.label, [item]))
        return out

    def notes(self, board: dict, seat: int) -> list[str]:
        choice = (board.get("choices") or [None] * self.game.players)[seat]
        if choice:
            return [_("hand on %(pile)s") % Words({"pile": Place(choice, "centre", self.variant)})]
        return []

    def hint(self, board: dict, seat: int | None) -> str | Hint:
        phase = board["phase"]
        if phase == "reserve-pile":
            return Hint(
                _(
                    "Only one player has reserve cards left: that player picks the centre "
                    "pile for the rest of the deal (tap it, or press ← or →)."
                ),
                _(
                    "Only one player has reserve cards left: that player picks the centre "
                    "pile for the rest of the deal (tap it)."
                ),
            )
        if phase == "choose-pile":
            return Hint(
                _(
                    "The deal is over: put your hand on a centre pile, the smaller one if "
                    "you can (tap it, or press ← or →)."
                ),
                _(
                    "The deal is over: put your hand on a centre pile, the smaller one if "
                    "you can (tap it)."
                ),
            )
        return ""

    def key_help(self) -> list[tuple[str, str]]:
        return [
            ("1–5", _("choose or turn up a pile")),
            ("← →", _("play onto the left or right centre pile, or choose it")),
            self.cancel_key(),
        ]

    def place_legend(self, keys: Keys) -> list[tuple[str, str]]:
        return [
            (place_keys(keys.places), _("a pile: choose its card or turn it up")),
            (place_keys(keys.centre), _("the left or right centre pile")),
        ]
