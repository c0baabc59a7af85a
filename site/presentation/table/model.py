"""What a table is made of, as templates/table/table.html draws it: zones of items (cards and
piles) and the command buttons, each with the action fragments static/js/play.js combines
and posts, and the keys that use them."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from .cards import EMPTY_CARD, card_markup


@dataclass(frozen=True)
class Keys:
    """The keys of one player at the table (KeyboardEvent.key values): the places in front of
    them (a row, a layout, James Bond's piles and the cards in hand), the centre piles,
    James Bond's middle cards, and the commands by name (call, refill, ready, whole,
    put-back, lay)."""

    places: tuple[str, ...]
    centre: tuple[str, ...] = ()
    middle: tuple[str, ...] = ()
    commands: dict[str, str] = field(default_factory=dict)


#: the demo's keys: one player, the whole keyboard.
DEMO_KEYS = Keys(
    places=tuple("123456789"),
    centre=("ArrowLeft", "ArrowRight"),
    middle=tuple("asdfghjk"),
    commands={"call": " ", "refill": "r", "ready": "e", "whole": "w", "put-back": "b", "lay": "l"},
)
KEY_SIGNS = {"ArrowLeft": "←", "ArrowRight": "→", "ArrowUp": "↑", "ArrowDown": "↓"}


def key_label(key: str) -> str:
    """How a key is written on the table: ←, Space, Q."""
    if key == " ":
        return _("Space")
    return KEY_SIGNS.get(key, key.upper() if len(key) == 1 else key)


def key_shortcut(key: str) -> str:
    """The key as aria-keyshortcuts names it."""
    return {" ": "Space"}.get(key, key.upper() if len(key) == 1 else key)


def action_json(data: dict | None) -> str:
    """An action fragment as an item carries it (compact JSON; "" for none)."""
    return json.dumps(data, separators=(",", ":")) if data else ""


@dataclass
class Item:
    """One card or pile on the table."""

    dom_id: str
    label: str
    name: str
    cards: list[dict]
    count: int | None = None
    #: (key, seat) pairs: the keys that use it, and for whom (None: the page's one seat).
    keys: list[tuple[str, int | None]] = field(default_factory=list)
    #: the seat it belongs to, when the page acts for several seats.
    seat: int | None = None
    pick: str = ""
    drop: str = ""
    send: str = ""
    #: multi-pick: the number of picks that sends by itself (`auto`) or the most allowed.
    multi: int = 0
    auto: bool = False
    state: str = ""
    #: what teacher mode's "explain this" asks about it (a paused table's cards are buttons).
    explain: str = ""

    @property
    def interactive(self) -> bool:
        return bool(self.pick or self.drop or self.send)

    @property
    def pressable(self) -> bool:
        """Tapping it chooses it (it stays pressed until played or dropped)."""
        return bool(self.pick) and not self.send

    @property
    def top(self) -> dict | None:
        return self.cards[-1] if self.cards else None

    @property
    def picture(self) -> SafeString:
        """The top card's picture: the card component's markup, drawn once per card and
        language (cards.py), since a table is drawn again whenever a bot moves."""
        top = self.top
        return EMPTY_CARD if top is None else card_markup(top["card"] if top["up"] else None)

    @property
    def css(self) -> str:
        return "item" + (f" item--{self.state}" if self.state else "")

    @property
    def key_marks(self) -> Iterator[tuple[str, str]]:
        """The keys printed on it: (CSS class, label)."""
        for key, seat in self.keys:
            yield "item__key" + ("" if seat is None else f" item__key--s{seat}"), key_label(key)

    @property
    def one_key(self) -> str:
        """Its key when one key uses it (else "": `key_pairs` lists them)."""
        return self.keys[0][0] if len(self.keys) == 1 else ""

    @property
    def one_key_seat(self) -> int | None:
        """Whose that one key is, when the item itself belongs to no seat (a shared pile)."""
        if len(self.keys) == 1 and self.seat is None:
            return self.keys[0][1]
        return None

    @property
    def key_pairs(self) -> str:
        return " ".join(f"{key}:{seat}" for key, seat in self.keys)

    @property
    def shortcuts(self) -> str:
        return " ".join(key_shortcut(key) for key, _seat in self.keys)


@dataclass
class Zone:
    id: str
    kind: str
    label: str
    items: list[Item]
    fanned: bool = False
    #: a fan that also takes a dragged card (James Bond's middle)
    drop: str = ""
    #: the caption in a second language, and that language (teacher mode's bilingual table)
    label_alt: str = ""
    lang_alt: str = ""

    @property
    def pile(self) -> Item:
        """The one item of a zone that is not fanned (a pile)."""
        return self.items[0]

    @property
    def markup(self) -> SafeString:
        """The zone as the table template draws it (drawn once per language and content)."""
        from .render import zone_markup  # render draws this model: imported when drawn

        return zone_markup(self)


@dataclass
class SeatView:
    seat: int
    name: str
    you: bool
    zones: list[Zone]
    notes: list[str] = field(default_factory=list)
    #: the name in a second language, and that language (teacher mode's bilingual table)
    name_alt: str = ""
    lang_alt: str = ""
    #: the page acts for this seat
    acting: bool = False


@dataclass
class Command:
    label: str
    key: str
    send: str = ""
    drop: str = ""
    toggle: str = ""
    dom_id: str = ""
    #: the seat it acts for, when the page acts for several seats
    seat: int | None = None

    @property
    def key_label(self) -> str:
        return key_label(self.key)

    @property
    def shortcut(self) -> str:
        return key_shortcut(self.key)


@dataclass(frozen=True)
class Hint:
    """What to do now in two forms: naming the keys to press, and for a touch screen, where
    no key is named (the page shows the one that fits, static/css/play.css)."""

    keys: str
    touch: str


@dataclass
class Table:
    variant: str
    family: str
    players: int
    phase: str
    interactive: bool
    centre: list[Zone]
    opponents: list[SeatView]
    own: SeatView | None
    commands: list[Command]
    hint: str = ""
    #: the hint for a touch screen: the same words without any key
    touch_hint: str = ""
    key_help: list[tuple[str, str]] = field(default_factory=list)

    @property
    def seats(self) -> list[SeatView]:
        """Every seat's view: the others, then the own."""
        return [*self.opponents, *([self.own] if self.own else [])]


def keyed(item: Item, key: str | None, seat: int | None = None) -> Item:
    if key:
        item.keys.append((key, seat))
    return item


def nth(keys: tuple[str, ...], k: int) -> str | None:
    return keys[k] if 0 <= k < len(keys) else None


@dataclass(frozen=True)
class Hands:
    """The seats a page acts for and their keys; with more than one, every key and item
    says whose it is."""

    keys: dict[int, Keys]

    @property
    def multi(self) -> bool:
        return len(self.keys) > 1

    def owner(self, seat: int) -> int | None:
        """The seat as items and keys name it (None on a one-seat page)."""
        return seat if self.multi else None

    def shared_keys(self, item: Item, pick: Callable[[Keys], str | None]) -> Item:
        """Every acting seat's key for a shared item (a centre pile, a middle card)."""
        for seat, keys in self.keys.items():
            keyed(item, pick(keys), self.owner(seat))
        return item
