"""The table of James Bond: piles of four per player, one held in the hand, the cards in the
middle to swap with, and the win call."""

from __future__ import annotations

from collections import Counter

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from presentation.board import zone_label
from presentation.narration import CALL_WORDS, PlayerWord
from presentation.wording import RankWord, Words, sentence
from rules_engine.variants.james_bond import PILE_SIZE

from .model import Command, Hands, Hint, Item, Keys, Zone, action_json, keyed, nth
from .names import card_name
from .presenter import TablePresenter, place_keys


class JamesBondPresenter(TablePresenter):
    family = "swap"
    teach_keys = (
        Keys(
            places=tuple("123456"),
            middle=tuple("qwertg"),
            commands={"call": "a", "put-back": "s", "lay": "d"},
        ),
        Keys(
            places=tuple("7890ui"),
            middle=tuple("ophjnb"),
            commands={"call": "l", "put-back": "k", "lay": "m"},
        ),
    )

    def centre(self, board: dict, hands: Hands) -> list[Zone]:
        zones = []
        # Taking several cards at once (after laying several) picks them one by one first.
        laying = max((board["laying"][seat] for seat in hands.keys), default=0)
        for zone in board["centre"]:
            if zone["kind"] == "out" and not zone["count"]:
                continue
            label = zone_label(zone["id"], zone["kind"], self.variant)
            items = []
            for j, card in enumerate(zone["cards"]):
                item = Item(
                    dom_id=f"m-{zone['id']}-{j}",
                    label="",
                    name=card_name(card["card"]),
                    cards=[card],
                )
                if hands.keys and zone["kind"] == "middle":
                    action = {"type": "take", "card": card["card"]}
                    if laying > 1:
                        item.pick, item.multi, item.auto = action_json(action), laying, True
                    else:
                        item.send = action_json(action)
                    hands.shared_keys(item, lambda keys, j=j: nth(keys.middle, j))
                items.append(item)
            drop = action_json({"type": "lay"}) if hands.keys and zone["kind"] == "middle" else ""
            zones.append(Zone(zone["id"], zone["kind"], label, items, fanned=True, drop=drop))
        return zones

    def seat_zones(
        self, board: dict, data: dict, keys: Keys | None, owner: int | None, prefix: str
    ) -> list[Zone]:
        zones = []
        holding = data["held"] is not None
        for k, zone in enumerate(data["zones"]):
            if zone["kind"] == "hand" and not any(c["up"] for c in zone["cards"]):
                # Another player's held pile: four cards nobody else sees, shown as one pile.
                item = self.pile(zone, prefix)
                item.state = "held"
                zones.append(Zone(zone["id"], "held", item.label, [item]))
            elif zone["kind"] == "hand":
                zones.append(self._hand(zone, keys, owner, prefix))
            else:
                zones.append(self._pile_zone(zone, k, keys, owner, prefix, holding))
        return zones

    def _hand(self, zone: dict, keys: Keys | None, owner: int | None, prefix: str) -> Zone:
        grab = self.facts.grab_limit
        items = []
        for j, card in enumerate(zone["cards"]):
            item = Item(
                dom_id=f"{prefix}-hand-{j}", label="", name=card_name(card["card"]), cards=[card]
            )
            if keys is not None and card["card"]:
                item.seat = owner
                action = {"type": "lay", "card": card["card"]}
                item.pick = action_json(action)
                if grab > 1:
                    item.multi = grab
                else:
                    item.send = action_json(action)
                keyed(item, nth(keys.places, j), owner)
            items.append(item)
        label = zone_label(zone["id"], "hand", self.variant)
        return Zone(zone["id"], "hand", label, items, fanned=True)

    def _pile_zone(
        self, zone: dict, k: int, keys: Keys | None, owner: int | None, prefix: str, holding: bool
    ) -> Zone:
        item = self.pile(zone, prefix)
        if zone["kind"] == "complete":
            item.state = "complete"
            # the rank as a word with forms: Norwegian says "stikk med sjuere"
            item.name = _("%(place)s: four of a kind (%(rank)s)") % Words(
                {"place": item.label, "rank": RankWord(zone["cards"][-1]["card"][0])}
            )
        if keys is not None and zone["kind"] == "pile":
            item.seat = owner
            item.send = action_json({"type": "pick", "pile": zone["id"]})
            if not holding:
                keyed(item, nth(keys.places, k), owner)
        return Zone(zone["id"], zone["kind"], item.label, [item])

    def notes(self, board: dict, seat: int) -> list[str]:
        notes = []
        laying = board["laying"][seat]
        if laying:
            notes.append(
                ngettext(
                    "has laid %(n)s card and must take %(n)s from the middle",
                    "has laid %(n)s cards and must take %(n)s from the middle",
                    laying,
                )
                % {"n": laying}
            )
        match = board.get("match") or {}
        if match.get("best_of_five"):
            wins = match["wins"][seat]
            notes.append(ngettext("%(n)s deal won", "%(n)s deals won", wins) % {"n": wins})
        return notes

    def commands(self, board: dict, keys: Keys, owner: int | None) -> list[Command]:
        word = CALL_WORDS.get(board["call_word"], board["call_word"])
        commands = [
            self.command(
                "call",
                _("Call “%(word)s”") % {"word": word},
                keys,
                owner,
                send=action_json({"type": "call"}),
            ),
            self.command(
                "put-back",
                _("Put the pile back"),
                keys,
                owner,
                send=action_json({"type": "put-back"}),
            ),
        ]
        if self.facts.grab_limit > 1:
            commands.append(
                self.command(
                    "lay", _("Lay the chosen cards"), keys, owner, drop=action_json({"type": "lay"})
                )
            )
        return commands

    def hint(self, board: dict, seat: int | None) -> str | Hint:
        if board["phase"] == "called":
            return _(
                "A win call has been made: the game waits a moment in case a second one comes."
            )
        if seat is None:
            return ""
        if board["seats"][seat]["held"] is None:
            hint = Hint(
                _("Pick up one of your piles (tap it or press its number)."),
                _("Pick up one of your piles (tap it)."),
            )
        elif board["laying"][seat]:
            hint = Hint(
                _("Now take a card from the middle (tap it or press its letter)."),
                _("Now take a card from the middle (tap it)."),
            )
        else:
            text = _(
                "Lay a card from your hand in the middle, then take a different one from there."
            )
            hint = Hint(text, text)
        why = self._waiting(seat)
        return Hint(f"{why} {hint.keys}", f"{why} {hint.touch}") if why else hint

    def _waiting(self, seat: int) -> str:
        """Why the others hold their piles and do nothing (issue #26: a newcomer who never
        swaps sees the bot wait): every card in the middle is one they laid, which they may
        not take back until somebody else has swapped."""
        game = self.game
        middle = Counter(game.middle)  # type: ignore[attr-defined]
        stuck = [
            s
            for s in range(game.players)
            if s != seat
            and game.held[s] is not None  # type: ignore[attr-defined]
            and not game.laying[s]  # type: ignore[attr-defined]
            and middle
            and not middle - Counter(game.laid[s])  # type: ignore[attr-defined]
        ]
        if not stuck:
            return ""
        if len(stuck) > 1:
            return _(
                "Some players are waiting for a swap: every card in the middle is one they "
                "laid, and they may not take those back until somebody else swaps."
            )
        return sentence(
            _(
                "%(player)s is waiting for a swap: every card in the middle is one they laid, "
                "and they may not take those back until somebody else swaps."
            )
            % Words({"player": PlayerWord(stuck[0])})
        )

    def key_help(self) -> list[tuple[str, str]]:
        piles = len(self.game.board(None)["seats"][0]["zones"])
        keys = [
            (f"1–{piles}", _("pick up a pile")),
            (f"1–{PILE_SIZE}", _("lay a card from your hand")),
            ("A S D F …", _("take a card from the middle")),
        ]
        if self.facts.grab_limit > 1:
            keys.append(("L", _("lay the chosen cards in the middle")))
        return [
            *keys,
            ("B", _("put the pile back")),
            (_("Space"), _("call the win")),
            self.cancel_key(),
        ]

    def place_legend(self, keys: Keys) -> list[tuple[str, str]]:
        return [
            (place_keys(keys.places), _("pick up a pile, or lay a card from the hand")),
            (place_keys(keys.middle), _("take a card from the middle")),
        ]
