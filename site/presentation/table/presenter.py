"""The base of a family's table presenter: what every family's table does the same way.

A presenter turns the engine's board for a viewer (Game.board(viewer): what that seat may
see) into zones and items (model.py). An item the page's player can use carries up to three
action fragments as JSON, which static/js/play.js combines and posts; the engine judges the
result:
  * `pick`: tapping it selects it (a card to play), its fragment names the source;
  * `drop`: tapping it while something is selected sends pick + drop (a pile to play onto);
  * `send`: tapping it alone sends its action at once (a face-down pile to turn or pick up).
Which fragments an item gets depends only on the family, the phase and what lies there;
whether the action is legal is always the engine's answer, never decided here.

A page may act for more than one seat (teacher mode's hot seat: two players at one
keyboard): each acting seat has its own keys (`Keys`), its items say whose they are
(`data-seat`), and a shared pile carries every acting seat's key (`data-keys="q:0 o:1"`).

Adding a family's table is one subclass, registered in registry.py.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.utils.translation import gettext as _

from presentation.board import zone_label
from presentation.facts import UiFacts, ui_facts
from rules_engine.game import Game

from .model import Command, Hands, Hint, Item, Keys, Zone, key_label
from .names import pile_name


def top_card(zone: dict) -> str | None:
    """The face-up card on top of a zone, if any."""
    top = zone["cards"][-1] if zone["cards"] else None
    return top["card"] if top and top["up"] else None


def place_keys(keys: tuple[str, ...]) -> str:
    """A run of keys as the key list writes it: "1 2 3 4"."""
    return " ".join(key_label(k) for k in keys)


class TablePresenter:
    """One family's table. Subclasses say what the centre, a seat's zones, its notes, the
    command buttons, the hint and the key lists are; `build.build_table` puts them together."""

    #: the engine family (VariantInfo.family) this presenter draws
    family: ClassVar[str] = ""
    #: teacher mode's keys for two players at one keyboard: the left hand's, the right's.
    #: Never Space or the arrow keys, which control time on the projector (Space pauses,
    #: → steps); only keys in the same place on the Nordic, German and English keyboards.
    teach_keys: ClassVar[tuple[Keys, Keys]]

    def __init__(self, game: Game) -> None:
        self.game = game
        self.variant = game.variant.slug
        self.facts: UiFacts = ui_facts(game)

    # ---------------------------------------------------------------- parts of the table
    def centre(self, board: dict, hands: Hands) -> list[Zone]:
        raise NotImplementedError

    def own_zones(
        self, board: dict, zones: list[dict], keys: Keys, owner: int | None, prefix: str
    ) -> list[Zone]:
        """The zones of a seat the page acts for."""
        raise NotImplementedError

    def seat_zones(
        self, board: dict, data: dict, keys: Keys | None, owner: int | None, prefix: str
    ) -> list[Zone]:
        """A seat's zones: usable when the page acts for it (`keys`), else pictures."""
        if keys is not None:
            return self.own_zones(board, data["zones"], keys, owner, prefix)
        return [self.shown(zone, prefix) for zone in data["zones"]]

    def notes(self, board: dict, seat: int) -> list[str]:
        """Short notes beside a seat's name ("ready for new cards")."""
        return []

    def commands(self, board: dict, keys: Keys, owner: int | None) -> list[Command]:
        """The command buttons of one acting seat."""
        return []

    def hint(self, board: dict, seat: int | None) -> str | Hint:
        """What to do now; `seat`: the one player the page plays for (None: what all can
        see). A hint that names keys comes as a Hint with its touch-screen form."""
        return ""

    def key_help(self) -> list[tuple[str, str]]:
        """The demo's keys (DEMO_KEYS) as the page lists them: every key this game uses."""
        raise NotImplementedError

    def legend(self, keys: Keys, commands: dict[str, str]) -> list[tuple[str, str]]:
        """What each of a teacher-mode player's keys does, for the list beside the table;
        `commands` are the labels of the commands this game has (name: label)."""
        rows = self.place_legend(keys)
        rows += [
            (key_label(keys.commands[name]), label)
            for name, label in commands.items()
            if name in keys.commands
        ]
        return rows

    def place_legend(self, keys: Keys) -> list[tuple[str, str]]:
        raise NotImplementedError

    # ---------------------------------------------------------------- shared pieces
    def pile(self, zone: dict, prefix: str, **attrs: Any) -> Item:
        """A zone drawn as one pile: its top card, its caption and its accessible name."""
        label = zone_label(zone["id"], zone["kind"], self.variant)
        return Item(
            dom_id=f"{prefix}-{zone['id']}",
            label=label,
            name=pile_name(label, zone["cards"], zone["count"]),
            cards=zone["cards"][-1:],
            count=zone["count"],
            **attrs,
        )

    def shown(self, zone: dict, prefix: str) -> Zone:
        """A pile nobody at this page acts on: its picture and its name."""
        item = self.pile(zone, prefix)
        return Zone(zone["id"], zone["kind"], item.label, [item])

    @staticmethod
    def command(name: str, label: str, keys: Keys, owner: int | None, **action: str) -> Command:
        dom_id = f"cmd-{name}" if owner is None else f"cmd-{name}-{owner}"
        return Command(label, keys.commands.get(name, ""), dom_id=dom_id, seat=owner, **action)

    @staticmethod
    def cancel_key() -> tuple[str, str]:
        return ("Esc", _("cancel the selection"))
