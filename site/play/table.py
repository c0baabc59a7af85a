"""The table as one seat sees it, with what each card and pile does when tapped.

The engine's board for a viewer (Game.board(viewer): what that seat may see) becomes zones
and items for the template. An item the player can use carries up to three action
fragments as JSON, which static/js/play.js combines and posts; the engine judges the result:
  * `pick`: tapping it selects it (a card to play), its fragment names the source;
  * `drop`: tapping it while something is selected sends pick + drop (a pile to play onto);
  * `send`: tapping it alone sends its action at once (a face-down pile to turn or pick up).
Which fragments an item gets depends only on the variant family, the phase and what lies
there; whether the action is legal is always the engine's answer, never decided here.

A page may act for more than one seat (teacher mode's hot seat: two players at one
keyboard): each acting seat has its own keys (`Keys`), its items say whose they are
(`data-seat`), and a shared pile carries every acting seat's key (`data-keys="q:0 o:1"`).
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.glossary import card_face, current_lang, glossary, term
from presentation.board import Place, zone_label
from presentation.moves import Calling
from presentation.narration import CALL_WORDS, PlayerWord
from presentation.wording import Words, sentence
from rules_engine.game import SPECTATOR, Game
from rules_engine.variants.james_bond import PILE_SIZE

from .cards import EMPTY_CARD, card_markup
from .models import HUMAN


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
DEMO_KEYS = Keys(places=tuple("123456789"), centre=("ArrowLeft", "ArrowRight"),
                 middle=tuple("asdfghjk"),
                 commands={"call": " ", "refill": "r", "ready": "e", "whole": "w",
                           "put-back": "b", "lay": "l"})
KEY_SIGNS = {"ArrowLeft": "←", "ArrowRight": "→", "ArrowUp": "↑", "ArrowDown": "↓"}


def key_label(key: str) -> str:
    """How a key is written on the table: ←, Space, Q."""
    if key == " ":
        return _("Space")
    return KEY_SIGNS.get(key, key.upper() if len(key) == 1 else key)


def key_shortcut(key: str) -> str:
    """The key as aria-keyshortcuts names it."""
    return {" ": "Space"}.get(key, key.upper() if len(key) == 1 else key)


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _json(data: dict | None) -> str:
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

    def _key_attrs(self) -> str:
        if not self.keys:
            return ""
        shortcuts = " ".join(key_shortcut(key) for key, _seat in self.keys)
        if len(self.keys) == 1:
            key, seat = self.keys[0]
            attrs = f' data-key="{_esc(key)}"'
            if seat is not None and self.seat is None:
                attrs += f' data-key-seat="{seat}"'
        else:
            pairs = " ".join(f"{_esc(key)}:{seat}" for key, seat in self.keys)
            attrs = f' data-keys="{pairs}"'
        return attrs + f' aria-keyshortcuts="{_esc(shortcuts)}"'

    def markup(self) -> SafeString:
        """The item as HTML: a button when it does something, else a picture of the pile.

        Built here rather than in a template: a table holds dozens of items and is drawn
        again whenever a bot moves, and plain string building is several times faster (the
        page's latency budget is in docs/demo.md). Every value is escaped; the card
        pictures are the card component's own markup."""
        top = self.top
        picture = EMPTY_CARD if top is None else card_markup(top["card"] if top["up"] else None)
        extras = ""
        if self.count is not None:
            extras += f'<span class="item__count" aria-hidden="true">{self.count}</span>'
        for key, seat in self.keys:
            css_key = "item__key" + ("" if seat is None else f" item__key--s{seat}")
            extras += f'<kbd class="{css_key}" aria-hidden="true">{_esc(key_label(key))}</kbd>'
        css = "item" + (f" item--{_esc(self.state)}" if self.state else "")
        if not self.interactive and self.explain:
            return SafeString(f'<button type="button" class="{css} item--explain" '
                              f'id="{_esc(self.dom_id)}" aria-label="{_esc(self.name)}" '
                              f'data-explain="{_esc(self.explain)}">{picture}{extras}</button>')
        if not self.interactive:
            return SafeString(f'<div class="{css}" id="{_esc(self.dom_id)}" role="img" '
                              f'aria-label="{_esc(self.name)}">{picture}{extras}</div>')
        attrs = f' aria-label="{_esc(self.name)}"' + self._key_attrs()
        if self.seat is not None:
            attrs += f' data-seat="{self.seat}"'
        for name, value in (("data-pick", self.pick), ("data-drop", self.drop),
                            ("data-send", self.send)):
            if value:
                attrs += f' {name}="{_esc(value)}"'
        if self.pressable:
            attrs += ' aria-pressed="false"'
        if self.multi:
            attrs += f' data-multi="{self.multi}"' + (" data-auto" if self.auto else "")
        return SafeString(f'<button type="button" class="{css}" id="{_esc(self.dom_id)}"'
                          f'{attrs}>{picture}{extras}</button>')


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

    def markup(self) -> SafeString:
        """The zone as HTML: one pile with its caption, or a fan of cards (see Item.markup
        for why this is not a template)."""
        label = _esc(self.label)
        alt = (f'<span class="zone__label-alt" lang="{_esc(self.lang_alt)}">'
               f"{_esc(self.label_alt)}</span>") if self.label_alt else ""
        caption = f'<span class="zone__label" aria-hidden="true">{label}{alt}</span>'
        if not self.fanned:
            return SafeString(f'<div class="zone zone--{_esc(self.kind)}">'
                              f"{self.items[0].markup()}{caption}</div>")
        cards = "".join(item.markup() for item in self.items) or (
            f'<span class="card card--empty" role="img" aria-label="{_esc(_("empty place"))}">'
            "</span>")
        drop = f' data-drop="{_esc(self.drop)}"' if self.drop else ""
        return SafeString(f'<div class="zone zone--fan zone--{_esc(self.kind)}" role="group" '
                          f'aria-label="{label}"{drop}><div class="fan">{cards}</div>'
                          f"{caption}</div>")


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
    key_help: list[tuple[str, str]] = field(default_factory=list)


def seat_name(seat: int, seats: list[str], viewer: int | None) -> str:
    number = seat + 1
    kind = seats[seat] if seat < len(seats) else HUMAN
    if seat == viewer:
        return _("Player %(n)s (you)") % {"n": number}
    if kind == HUMAN:
        return _("Player %(n)s") % {"n": number}
    return _("Player %(n)s (bot, %(level)s)") % {"n": number, "level": level_name(kind)}


def level_name(level: str) -> str:
    """A bot's level inside a seat's label: "Player 2 (bot, club player)"."""
    names = {"learner": _("learner"), "club": _("club player"), "expert": _("expert")}
    return names.get(level, level)


def level_choice(level: str) -> str:
    """A bot's level as an option of a select, capitalised like the other options."""
    names = {"learner": _("Learner"), "club": _("Club player"), "expert": _("Expert")}
    return names.get(level, level)


def rank_name(code: str | None) -> str:
    ranks = glossary(current_lang())["ranks"]
    return ranks.get(code[0], code[0]) if code else ""


def card_name(code: str | None) -> str:
    return card_face(code, current_lang()).name if code else term("face_down")


def _pile_name(label: str, cards: list[dict], count: int) -> str:
    """The accessible name of a pile: where it is, what lies on top, how many cards."""
    if not count:
        return _("%(place)s: empty") % {"place": label}
    top = cards[-1]
    shown = card_name(top["card"]) if top["up"] and top["card"] else term("face_down")
    return ngettext("%(place)s: %(top)s, %(n)s card", "%(place)s: %(top)s, %(n)s cards",
                    count) % {"place": label, "top": shown, "n": count}


def _pile(zone: dict, prefix: str, variant: str, **attrs: Any) -> Item:
    label = zone_label(zone["id"], zone["kind"], variant)
    cards = zone["cards"][-1:]
    return Item(dom_id=f"{prefix}-{zone['id']}", label=label,
                name=_pile_name(label, zone["cards"], zone["count"]), cards=cards,
                count=zone["count"], **attrs)


def _shown(zone: dict, prefix: str, variant: str) -> Zone:
    """A pile nobody at this page acts on: its picture and its name."""
    item = _pile(zone, prefix, variant)
    return Zone(zone["id"], zone["kind"], item.label, [item])


def _top(zone: dict) -> str | None:
    top = zone["cards"][-1] if zone["cards"] else None
    return top["card"] if top and top["up"] else None


def _keyed(item: Item, key: str | None, seat: int | None = None) -> Item:
    if key:
        item.keys.append((key, seat))
    return item


def _nth(keys: tuple[str, ...], k: int) -> str | None:
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
            _keyed(item, pick(keys), self.owner(seat))
        return item


NO_HANDS = Hands({})


# ---------------------------------------------------------------------------- speed family
def _speed_centre(board: dict, hands: Hands) -> list[Zone]:
    zones = []
    for i, zone in enumerate(board["centre"]):
        item = _pile(zone, "c", board["variant"])
        if hands.keys:
            if board["phase"] == "equal-ranks":
                # Plays are frozen until the call is settled: a tap on a pile slaps it.
                item.send = _json({"type": "call", "pile": zone["id"]})
            else:
                item.drop = _json({"type": "play", "to": zone["id"], "onto": _top(zone)})
            hands.shared_keys(item, lambda keys, i=i: _nth(keys.centre, i))
        zones.append(Zone(zone["id"], zone["kind"], item.label, [item]))
    return zones


def _speed_own(game: Game, zones: list[dict], keys: Keys, owner: int | None,
               prefix: str) -> list[Zone]:
    out = []
    for zone in zones:
        item = _pile(zone, prefix, game.variant.slug)
        if zone["kind"] == "row":
            item.seat = owner
            k = int(zone["id"].rsplit("-", 1)[1])
            top = _top(zone)
            if top:
                item.pick = _json({"type": "play", "from": zone["id"], "card": top})
                if game.combine_allowed:  # type: ignore[attr-defined]
                    item.drop = _json({"type": "combine", "to": zone["id"]})
            elif not game.auto_refill:  # type: ignore[attr-defined]
                item.send = _json({"type": "refill", "to": zone["id"]})
            _keyed(item, _nth(keys.places, k), owner)
        elif zone["kind"] == "draw" and not game.auto_refill:  # type: ignore[attr-defined]
            item.seat = owner
            item.send = _json({"type": "refill"})
        out.append(Zone(zone["id"], zone["kind"], item.label, [item]))
    return out


def _command(name: str, label: str, keys: Keys, owner: int | None, **action: str) -> Command:
    dom_id = f"cmd-{name}" if owner is None else f"cmd-{name}-{owner}"
    return Command(label, keys.commands.get(name, ""), dom_id=dom_id, seat=owner, **action)


def _speed_commands(game: Game, keys: Keys, owner: int | None) -> list[Command]:
    word = CALL_WORDS.get(game.call_word, game.call_word)  # type: ignore[attr-defined]
    commands = [_command("call", _("Call “%(word)s”") % {"word": word}, keys, owner,
                         send=_json({"type": "call"}))]
    if not game.auto_refill:  # type: ignore[attr-defined]
        commands.append(_command("refill", _("Refill"), keys, owner,
                                 send=_json({"type": "refill"})))
    if game.ready_action:  # type: ignore[attr-defined]
        commands.append(_command("ready", _("Ready for new cards"), keys, owner,
                                 send=_json({"type": "ready"})))
    if game.whole_stack_plays:  # type: ignore[attr-defined]
        commands.append(_command("whole", _("Whole stack"), keys, owner,
                                 toggle=_json({"whole": True})))
    return commands


def _equal_tops_hint(calling: Calling) -> str:
    """The call, with the gesture the game's rules give it."""
    if calling.gesture == "shout":
        return _("Equal tops: call “%(word)s” now! Press Space or tap a centre pile.") % {
            "word": CALL_WORDS.get(calling.word, calling.word)}
    if calling.gesture == "point":
        return _("Equal tops: call now! Tap a centre pile to point at it, or press Space.")
    if calling.gesture == "knock":
        return _("Equal tops: call now! Tap a centre pile to knock on it, or press Space.")
    if calling.own_pile_only:
        return _("Equal tops: call now! Tap the centre pile on your right to slap it, or press "
                 "Space.")
    return _("Equal tops: call now! Tap a centre pile to slap it, or press Space.")


def _speed_hint(game: Game, board: dict, seat: int | None) -> str:
    """What to do now; `seat`: the one player the page plays for, if any."""
    if board["phase"] == "equal-ranks":
        return _equal_tops_hint(Calling.of(game))
    if board["phase"] == "waiting-ready":
        return _ready_hint(board, seat)
    if seat is not None and not game.auto_refill:  # type: ignore[attr-defined]
        zones = board["seats"][seat]["zones"]
        row_gap = any(z["kind"] == "row" and not z["count"] for z in zones)
        if row_gap and any(z["kind"] == "draw" and z["count"] for z in zones):
            return _("A place in your row is empty. In this game you refill it yourself: "
                     "tap the empty place or your draw pile.")
    return ""


def _ready_hint(board: dict, seat: int | None) -> str:
    """Who is ready for new cards, told to the player the page plays for (`seat`) or to
    everyone watching."""
    ready = [s for s, flag in enumerate(board.get("ready") or []) if flag]
    if not ready:
        return ""
    if seat in ready:
        return _("You are ready for new cards; they are turned when the other player is too.")
    who = Words({"player": PlayerWord(ready[0])})
    if seat is not None:
        return sentence(_("%(player)s is ready for new cards; they are turned when you are "
                          "too.") % who)
    return sentence(_("%(player)s is ready for new cards; they are turned when both are.") % who)


# ---------------------------------------------------------------------------- spit
def _spit_centre(board: dict, hands: Hands) -> list[Zone]:
    zones = []
    for i, zone in enumerate(board["centre"]):
        item = _pile(zone, "c", board["variant"])
        if not zone.get("in_use", True):
            item.state = "unused"
        if hands.keys:
            item.drop = _json({"type": "play", "to": zone["id"], "onto": _top(zone)})
            if board["phase"] == "reserve-pile":
                item.send = _json({"type": "spit", "to": zone["id"]})
            elif board["phase"] == "choose-pile":
                item.send = _json({"type": "choose", "pile": zone["id"]})
            hands.shared_keys(item, lambda keys, i=i: _nth(keys.centre, i))
        zones.append(Zone(zone["id"], zone["kind"], item.label, [item]))
    return zones


def _spit_own(zones: list[dict], keys: Keys, owner: int | None, prefix: str,
              variant: str) -> list[Zone]:
    out = []
    for zone in zones:
        item = _pile(zone, prefix, variant)
        if zone["kind"] == "layout":
            item.seat = owner
            k = int(zone["id"].rsplit("-", 1)[1]) - 1
            top = zone["cards"][-1] if zone["cards"] else None
            if top is None:
                item.drop = _json({"type": "move", "to": zone["id"]})
            elif top["up"]:
                item.pick = _json({"type": "play", "from": zone["id"], "card": top["card"]})
            else:
                item.send = _json({"type": "turn", "pile": zone["id"]})
            _keyed(item, _nth(keys.places, k), owner)
        out.append(Zone(zone["id"], zone["kind"], item.label, [item]))
    return out


def _spit_hint(board: dict, viewer: int | None) -> str:
    phase = board["phase"]
    if phase == "reserve-pile":
        return _("Only one player has reserve cards left: that player picks the centre pile "
                 "for the rest of the deal (tap it, or press ← or →).")
    if phase == "choose-pile":
        return _("The deal is over: put your hand on a centre pile, the smaller one if you "
                 "can (tap it, or press ← or →).")
    return ""


# ---------------------------------------------------------------------------- james-bond
def _jb_middle(board: dict, hands: Hands) -> list[Zone]:
    zones = []
    # Taking several cards at once (after laying several) picks them one by one first.
    laying = max((board["laying"][seat] for seat in hands.keys), default=0)
    for zone in board["centre"]:
        if zone["kind"] == "out" and not zone["count"]:
            continue
        label = zone_label(zone["id"], zone["kind"], board["variant"])
        items = []
        for j, card in enumerate(zone["cards"]):
            item = Item(dom_id=f"m-{zone['id']}-{j}", label="", name=card_name(card["card"]),
                        cards=[card])
            if hands.keys and zone["kind"] == "middle":
                action = {"type": "take", "card": card["card"]}
                if laying > 1:
                    item.pick, item.multi, item.auto = _json(action), laying, True
                else:
                    item.send = _json(action)
                hands.shared_keys(item, lambda keys, j=j: _nth(keys.middle, j))
            items.append(item)
        drop = _json({"type": "lay"}) if hands.keys and zone["kind"] == "middle" else ""
        zones.append(Zone(zone["id"], zone["kind"], label, items, fanned=True, drop=drop))
    return zones


def _jb_seat_zones(game: Game, seat: dict, keys: Keys | None, owner: int | None,
                   prefix: str) -> list[Zone]:
    zones = []
    holding = seat["held"] is not None
    grab = game.grab_max()  # type: ignore[attr-defined]
    for k, zone in enumerate(seat["zones"]):
        if zone["kind"] == "hand" and not any(c["up"] for c in zone["cards"]):
            # Another player's held pile: four cards nobody else sees, shown as one pile.
            item = _pile(zone, prefix, game.variant.slug)
            item.state = "held"
            zones.append(Zone(zone["id"], "held", item.label, [item]))
            continue
        if zone["kind"] == "hand":
            label = zone_label(zone["id"], "hand", game.variant.slug)
            items = []
            for j, card in enumerate(zone["cards"]):
                item = Item(dom_id=f"{prefix}-hand-{j}", label="", name=card_name(card["card"]),
                            cards=[card])
                if keys is not None and card["card"]:
                    item.seat = owner
                    action = {"type": "lay", "card": card["card"]}
                    item.pick = _json(action)
                    if grab > 1:
                        item.multi = grab
                    else:
                        item.send = _json(action)
                    _keyed(item, _nth(keys.places, j), owner)
                items.append(item)
            zones.append(Zone(zone["id"], "hand", label, items, fanned=True))
            continue
        item = _pile(zone, prefix, game.variant.slug)
        if zone["kind"] == "complete":
            item.state = "complete"
            item.name = _("%(place)s: four of a kind (%(rank)s)") % {
                "place": item.label, "rank": rank_name(zone["cards"][-1]["card"])}
        if keys is not None and zone["kind"] == "pile":
            item.seat = owner
            item.send = _json({"type": "pick", "pile": zone["id"]})
            if not holding:
                _keyed(item, _nth(keys.places, k), owner)
        zones.append(Zone(zone["id"], zone["kind"], item.label, [item]))
    return zones


def _jb_commands(game: Game, board: dict, keys: Keys, owner: int | None) -> list[Command]:
    word = CALL_WORDS.get(board["call_word"], board["call_word"])
    commands = [
        _command("call", _("Call “%(word)s”") % {"word": word}, keys, owner,
                 send=_json({"type": "call"})),
        _command("put-back", _("Put the pile back"), keys, owner,
                 send=_json({"type": "put-back"})),
    ]
    if game.grab_max() > 1:  # type: ignore[attr-defined]
        commands.append(_command("lay", _("Lay the chosen cards"), keys, owner,
                                 drop=_json({"type": "lay"})))
    return commands


def _jb_notes(board: dict, seat: int) -> list[str]:
    notes = []
    laying = board["laying"][seat]
    if laying:
        notes.append(ngettext("has laid %(n)s card and must take %(n)s from the middle",
                              "has laid %(n)s cards and must take %(n)s from the middle",
                              laying) % {"n": laying})
    match = board.get("match") or {}
    if match.get("best_of_five"):
        wins = match["wins"][seat]
        notes.append(ngettext("%(n)s deal won", "%(n)s deals won", wins) % {"n": wins})
    return notes


def _jb_hint(board: dict, viewer: int | None) -> str:
    if board["phase"] == "called":
        return _("A win call has been made: the game waits a moment in case a second one "
                 "comes.")
    if viewer is None:
        return ""
    seat = board["seats"][viewer]
    if seat["held"] is None:
        return _("Pick up one of your piles (tap it or press its number).")
    if board["laying"][viewer]:
        return _("Now take a card from the middle (tap it or press its letter).")
    return _("Lay a card from your hand in the middle, then take a different one from there.")


# ---------------------------------------------------------------------------- the table
def build_table(game: Game, seats: list[str], viewer: int | None, *,
                interactive: bool, reveal: bool = False, hands: dict[int, Keys] | None = None,
                names: Sequence[str] | None = None, watcher: bool = False) -> Table:
    """The table seen from `viewer`'s seat; `interactive` when the viewer holds that seat and
    may act. `reveal` shows what the teaching view shows (the examples' sandbox): every held
    pile face up, as the examples do, while the viewer still acts for one seat. A `watcher`
    sees the table turned to `viewer`'s seat without being that player: no seat is "you".

    `hands` names the seats the page acts for and their keys (default: the viewer's seat
    with the demo's keys); `names` replaces the seats' names (teacher mode names its own)."""
    # A watcher sees what anyone at the table sees: no seat's hidden cards.
    board = game.board(None if reveal else SPECTATOR if watcher else viewer)
    family = game.variant.family
    interactive = interactive and not game.over
    you = None if watcher else viewer
    if hands is None:
        hands = {viewer: DEMO_KEYS} if viewer is not None else {}
    acting = Hands(dict(hands) if interactive else {})
    lead = next(iter(acting.keys), None)
    n = game.players
    order = list(range(n)) if viewer is None else [(viewer + i) % n for i in range(1, n)]
    opponents, own = [], None
    commands: list[Command] = []
    if family == "speed":
        centre = _speed_centre(board, acting)
        for seat, keys in acting.keys.items():
            commands += _speed_commands(game, keys, acting.owner(seat))
        hint = _speed_hint(game, board, None if acting.multi else lead)
    elif family == "spit":
        centre = _spit_centre(board, acting)
        hint = _spit_hint(board, viewer)
    else:
        centre = _jb_middle(board, acting)
        for seat, keys in acting.keys.items():
            commands += _jb_commands(game, board, keys, acting.owner(seat))
        # The hint speaks to the one player the page plays for (none: what all can see).
        hint = _jb_hint(board, None if acting.multi else lead)
    for s in order:
        if s == viewer:
            continue
        opponents.append(_seat_view(game, board, seats, s, viewer, acting, names, you))
    if viewer is not None:
        own = _seat_view(game, board, seats, viewer, viewer, acting, names, you)
    key_help = _key_help(game) if acting.keys and not acting.multi and (
        acting.keys.get(lead) is DEMO_KEYS) else []
    return Table(variant=game.variant.slug, family=family, players=n, phase=board["phase"],
                 interactive=bool(acting.keys), centre=centre, opponents=opponents, own=own,
                 commands=commands, hint=hint if not game.over else "", key_help=key_help)


def _seat_view(game: Game, board: dict, seats: list[str], seat: int, viewer: int | None,
               acting: Hands, names: Sequence[str] | None, you: int | None) -> SeatView:
    data = board["seats"][seat]
    family = game.variant.family
    variant = game.variant.slug
    prefix = "o" if seat == viewer else f"p{seat}"
    keys = acting.keys.get(seat)
    owner = acting.owner(seat)
    notes: list[str] = []
    if family == "speed":
        zones = (_speed_own(game, data["zones"], keys, owner, prefix) if keys else
                 [_shown(z, prefix, variant) for z in data["zones"]])
        if board.get("ready") and board["ready"][seat]:
            notes.append(_("ready for new cards"))
    elif family == "spit":
        zones = (_spit_own(data["zones"], keys, owner, prefix, variant) if keys else
                 [_shown(z, prefix, variant) for z in data["zones"]])
        choice = (board.get("choices") or [None] * game.players)[seat]
        if choice:
            notes.append(_("hand on %(pile)s") % Words({"pile": Place(choice, "centre", variant)}))
    else:
        zones = _jb_seat_zones(game, data, keys, owner, prefix)
        notes = _jb_notes(board, seat)
    name = names[seat] if names is not None else seat_name(seat, seats, you)
    return SeatView(seat=seat, name=name, you=seat == you, zones=zones, notes=notes,
                    acting=keys is not None)


def _key_help(game: Game) -> list[tuple[str, str]]:
    """The demo's keys (DEMO_KEYS) as the page lists them: every key this variant uses."""
    family = game.variant.family
    cancel = ("Esc", _("cancel the selection"))
    if family == "speed":
        row = len([z for z in game.board(None)["seats"][0]["zones"] if z["kind"] == "row"])
        keys = [(f"1–{row}", _("choose a card in your row")),
                ("← →", _("play it onto the left or right centre pile")),
                (_("Space"), _("call"))]
        if not game.auto_refill:  # type: ignore[attr-defined]
            keys.append(("R", _("refill your row")))
        if game.ready_action:  # type: ignore[attr-defined]
            keys.append(("E", _("ready for new cards")))
        if game.whole_stack_plays:  # type: ignore[attr-defined]
            keys.append(("W", _("play the whole stack: press W before the stack's number")))
        return [*keys, cancel]
    if family == "spit":
        return [("1–5", _("choose or turn up a pile")),
                ("← →", _("play onto the left or right centre pile, or choose it")), cancel]
    piles = len(game.board(None)["seats"][0]["zones"])
    keys = [(f"1–{piles}", _("pick up a pile")),
            (f"1–{PILE_SIZE}", _("lay a card from your hand")),
            ("A S D F …", _("take a card from the middle"))]
    if game.grab_max() > 1:  # type: ignore[attr-defined]
        keys.append(("L", _("lay the chosen cards in the middle")))
    return [*keys, ("B", _("put the pile back")), (_("Space"), _("make the win call")), cancel]
