"""The table as one seat sees it, with what each card and pile does when tapped.

The engine's board for a viewer (Game.board(viewer): what that seat may see) becomes zones
and items for the template. An item the player can use carries up to three action
fragments as JSON, which static/js/play.js combines and posts; the engine judges the result:
  * `pick`: tapping it selects it (a card to play), its fragment names the source;
  * `drop`: tapping it while something is selected sends pick + drop (a pile to play onto);
  * `send`: tapping it alone sends its action at once (a face-down pile to turn or pick up).
Which fragments an item gets depends only on the variant family, the phase and what lies
there; whether the action is legal is always the engine's answer, never decided here.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from typing import Any

from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.glossary import card_face, current_lang, glossary, term
from examples.board import Place, zone_label
from examples.narration import CALL_WORDS
from examples.wording import Words
from rules_engine.game import Game

from .cards import EMPTY_CARD, card_markup
from .models import HUMAN

SPEED_PLACE_KEYS = ("1", "2", "3", "4")
PILE_KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9")
CENTRE_KEYS = (("ArrowLeft", "←"), ("ArrowRight", "→"))
MIDDLE_KEYS = ("a", "s", "d", "f", "g", "h", "j", "k")


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
    key: str = ""
    key_label: str = ""
    pick: str = ""
    drop: str = ""
    send: str = ""
    #: multi-pick: the number of picks that sends by itself (`auto`) or the most allowed.
    multi: int = 0
    auto: bool = False
    state: str = ""

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
    def aria_key(self) -> str:
        return {" ": "Space"}.get(self.key, self.key.upper() if len(self.key) == 1 else self.key)

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
        if self.key_label:
            extras += f'<kbd class="item__key" aria-hidden="true">{_esc(self.key_label)}</kbd>'
        css = "item" + (f" item--{_esc(self.state)}" if self.state else "")
        if not self.interactive:
            return SafeString(f'<div class="{css}" id="{_esc(self.dom_id)}" role="img" '
                              f'aria-label="{_esc(self.name)}">{picture}{extras}</div>')
        attrs = f' aria-label="{_esc(self.name)}"'
        if self.key:
            attrs += f' data-key="{_esc(self.key)}" aria-keyshortcuts="{_esc(self.aria_key)}"'
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

    def markup(self) -> SafeString:
        """The zone as HTML: one pile with its caption, or a fan of cards (see Item.markup
        for why this is not a template)."""
        label = _esc(self.label)
        caption = f'<span class="zone__label" aria-hidden="true">{label}</span>'
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


@dataclass
class Command:
    label: str
    key: str
    key_label: str
    send: str = ""
    drop: str = ""
    toggle: str = ""
    dom_id: str = ""


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
    names = {"learner": _("learner"), "club": _("club player"), "expert": _("expert")}
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


def _keyed(item: Item, key: str, label: str | None = None) -> Item:
    item.key, item.key_label = key, label or key.upper()
    return item


# ---------------------------------------------------------------------------- speed family
def _speed_centre(board: dict, interactive: bool) -> list[Zone]:
    zones = []
    for i, zone in enumerate(board["centre"]):
        item = _pile(zone, "c", board["variant"])
        if interactive:
            if board["phase"] == "equal-ranks":
                # Plays are frozen until the call is settled: a tap on a pile slaps it.
                item.send = _json({"type": "call", "pile": zone["id"]})
            else:
                item.drop = _json({"type": "play", "to": zone["id"], "onto": _top(zone)})
            _keyed(item, *CENTRE_KEYS[i])
        zones.append(Zone(zone["id"], zone["kind"], item.label, [item]))
    return zones


def _speed_own(game: Game, zones: list[dict], interactive: bool) -> list[Zone]:
    out = []
    for zone in zones:
        item = _pile(zone, "o", game.variant.slug)
        if interactive and zone["kind"] == "row":
            k = int(zone["id"].rsplit("-", 1)[1])
            top = _top(zone)
            if top:
                item.pick = _json({"type": "play", "from": zone["id"], "card": top})
                if game.combine_allowed:  # type: ignore[attr-defined]
                    item.drop = _json({"type": "combine", "to": zone["id"]})
            elif not game.auto_refill:  # type: ignore[attr-defined]
                item.send = _json({"type": "refill", "to": zone["id"]})
            _keyed(item, SPEED_PLACE_KEYS[k])
        elif interactive and zone["kind"] == "draw" and not game.auto_refill:  # type: ignore[attr-defined]
            item.send = _json({"type": "refill"})
        out.append(Zone(zone["id"], zone["kind"], item.label, [item]))
    return out


def _speed_commands(game: Game) -> list[Command]:
    word = CALL_WORDS.get(game.call_word, game.call_word)  # type: ignore[attr-defined]
    commands = [Command(_("Call %(word)s") % {"word": word}, " ", _("Space"),
                        send=_json({"type": "call"}), dom_id="cmd-call")]
    if not game.auto_refill:  # type: ignore[attr-defined]
        commands.append(Command(_("Refill"), "r", "R", send=_json({"type": "refill"}),
                                dom_id="cmd-refill"))
    if game.ready_action:  # type: ignore[attr-defined]
        commands.append(Command(_("Ready for new cards"), "e", "E",
                                send=_json({"type": "ready"}), dom_id="cmd-ready"))
    if game.whole_stack_plays:  # type: ignore[attr-defined]
        commands.append(Command(_("Whole stack"), "w", "W", toggle=_json({"whole": True}),
                                dom_id="cmd-whole"))
    return commands


def _speed_hint(board: dict) -> str:
    if board["phase"] == "equal-ranks":
        return _("Equal tops: call now! Tap a centre pile to slap it, or press Space.")
    if board["phase"] == "waiting-ready":
        return _("A player is ready for new cards.")
    return ""


# ---------------------------------------------------------------------------- spit
def _spit_centre(board: dict, interactive: bool) -> list[Zone]:
    zones = []
    for i, zone in enumerate(board["centre"]):
        item = _pile(zone, "c", board["variant"])
        if not zone.get("in_use", True):
            item.state = "unused"
        if interactive:
            item.drop = _json({"type": "play", "to": zone["id"], "onto": _top(zone)})
            if board["phase"] == "reserve-pile":
                item.send = _json({"type": "spit", "to": zone["id"]})
            elif board["phase"] == "choose-pile":
                item.send = _json({"type": "choose", "pile": zone["id"]})
            _keyed(item, *CENTRE_KEYS[i])
        zones.append(Zone(zone["id"], zone["kind"], item.label, [item]))
    return zones


def _spit_own(zones: list[dict], interactive: bool, variant: str) -> list[Zone]:
    out = []
    for zone in zones:
        item = _pile(zone, "o", variant)
        if interactive and zone["kind"] == "layout":
            k = int(zone["id"].rsplit("-", 1)[1]) - 1
            top = zone["cards"][-1] if zone["cards"] else None
            if top is None:
                item.drop = _json({"type": "move", "to": zone["id"]})
            elif top["up"]:
                item.pick = _json({"type": "play", "from": zone["id"], "card": top["card"]})
            else:
                item.send = _json({"type": "turn", "pile": zone["id"]})
            _keyed(item, PILE_KEYS[k])
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
def _jb_middle(game: Game, board: dict, viewer: int | None, interactive: bool) -> list[Zone]:
    zones = []
    laying = board["laying"][viewer] if viewer is not None else 0
    for zone in board["centre"]:
        if zone["kind"] == "out" and not zone["count"]:
            continue
        label = zone_label(zone["id"], zone["kind"], board["variant"])
        items = []
        for j, card in enumerate(zone["cards"]):
            item = Item(dom_id=f"m-{zone['id']}-{j}", label="", name=card_name(card["card"]),
                        cards=[card])
            if interactive and zone["kind"] == "middle":
                action = {"type": "take", "card": card["card"]}
                if laying > 1:
                    item.pick, item.multi, item.auto = _json(action), laying, True
                else:
                    item.send = _json(action)
                if j < len(MIDDLE_KEYS):
                    _keyed(item, MIDDLE_KEYS[j])
            items.append(item)
        drop = _json({"type": "lay"}) if interactive and zone["kind"] == "middle" else ""
        zones.append(Zone(zone["id"], zone["kind"], label, items, fanned=True, drop=drop))
    return zones


def _jb_seat_zones(game: Game, seat: dict, interactive: bool, prefix: str) -> list[Zone]:
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
                if interactive and card["card"]:
                    action = {"type": "lay", "card": card["card"]}
                    item.pick = _json(action)
                    if grab > 1:
                        item.multi = grab
                    else:
                        item.send = _json(action)
                    _keyed(item, PILE_KEYS[j])
                items.append(item)
            zones.append(Zone(zone["id"], "hand", label, items, fanned=True))
            continue
        item = _pile(zone, prefix, game.variant.slug)
        if zone["kind"] == "complete":
            item.state = "complete"
            item.name = _("%(place)s: four of a kind, %(rank)s") % {
                "place": item.label, "rank": rank_name(zone["cards"][-1]["card"])}
        if interactive and zone["kind"] == "pile":
            item.send = _json({"type": "pick", "pile": zone["id"]})
            if not holding:
                _keyed(item, PILE_KEYS[k])
        zones.append(Zone(zone["id"], zone["kind"], item.label, [item]))
    return zones


def _jb_commands(game: Game, board: dict) -> list[Command]:
    word = CALL_WORDS.get(board["call_word"], board["call_word"])
    commands = [
        Command(_("Call %(word)s") % {"word": word}, " ", _("Space"),
                send=_json({"type": "call"}), dom_id="cmd-call"),
        Command(_("Put the pile back"), "b", "B", send=_json({"type": "put-back"}),
                dom_id="cmd-put-back"),
    ]
    if game.grab_max() > 1:  # type: ignore[attr-defined]
        commands.append(Command(_("Lay the chosen cards"), "l", "L",
                                drop=_json({"type": "lay"}), dom_id="cmd-lay"))
    return commands


def _jb_notes(board: dict, seat: int) -> list[str]:
    notes = []
    laying = board["laying"][seat]
    if laying:
        notes.append(ngettext("laid %(n)s card: takes one next",
                              "laid %(n)s cards: takes as many next", laying) % {"n": laying})
    match = board.get("match") or {}
    if match.get("best_of_five"):
        wins = match["wins"][seat]
        notes.append(ngettext("%(n)s deal won", "%(n)s deals won", wins) % {"n": wins})
    return notes


def _jb_hint(board: dict, viewer: int | None) -> str:
    if board["phase"] == "called":
        return _("A win call was made: wait a moment for a second one.")
    if viewer is None:
        return ""
    seat = board["seats"][viewer]
    if seat["held"] is None:
        return _("Pick up one of your piles (tap it or press its number).")
    if board["laying"][viewer]:
        return _("Now take a card from the middle (tap it or press its letter).")
    return _("Lay a card from your hand in the middle, then take one back.")


# ---------------------------------------------------------------------------- the table
def build_table(game: Game, seats: list[str], viewer: int | None, *,
                interactive: bool, reveal: bool = False) -> Table:
    """The table seen from `viewer`'s seat; `interactive` when the viewer holds that seat and
    may act. `reveal` shows what the teaching view shows (the examples' sandbox): every held
    pile face up, as the examples do, while the viewer still acts for one seat."""
    board = game.board(None if reveal else viewer)
    family = game.variant.family
    interactive = interactive and viewer is not None and not game.over
    n = game.players
    order = list(range(n)) if viewer is None else [(viewer + i) % n for i in range(1, n)]
    opponents, own = [], None
    if family == "speed":
        centre = _speed_centre(board, interactive)
        commands = _speed_commands(game) if interactive else []
        hint = _speed_hint(board)
    elif family == "spit":
        centre = _spit_centre(board, interactive)
        commands = []
        hint = _spit_hint(board, viewer)
    else:
        centre = _jb_middle(game, board, viewer, interactive)
        commands = _jb_commands(game, board) if interactive else []
        hint = _jb_hint(board, viewer) if interactive or game.over else _jb_hint(board, None)
    for s in order:
        if s == viewer:
            continue
        opponents.append(_seat_view(game, board, seats, s, viewer, interactive=False))
    if viewer is not None:
        own = _seat_view(game, board, seats, viewer, viewer, interactive=interactive)
    return Table(variant=game.variant.slug, family=family, players=n, phase=board["phase"],
                 interactive=interactive, centre=centre, opponents=opponents, own=own,
                 commands=commands, hint=hint if not game.over else "",
                 key_help=_key_help(family) if interactive else [])


def _seat_view(game: Game, board: dict, seats: list[str], seat: int, viewer: int | None, *,
               interactive: bool) -> SeatView:
    data = board["seats"][seat]
    family = game.variant.family
    variant = game.variant.slug
    prefix = "o" if seat == viewer else f"p{seat}"
    notes: list[str] = []
    if family == "speed":
        zones = (_speed_own(game, data["zones"], interactive) if interactive else
                 [_shown(z, prefix, variant) for z in data["zones"]])
        if board.get("ready") and board["ready"][seat]:
            notes.append(_("ready for new cards"))
    elif family == "spit":
        zones = (_spit_own(data["zones"], interactive, variant) if interactive else
                 [_shown(z, prefix, variant) for z in data["zones"]])
        choice = (board.get("choices") or [None] * game.players)[seat]
        if choice:
            notes.append(_("hand on %(pile)s") % Words({"pile": Place(choice, "centre", variant)}))
    else:
        zones = _jb_seat_zones(game, data, interactive, prefix)
        notes = _jb_notes(board, seat)
    return SeatView(seat=seat, name=seat_name(seat, seats, viewer), you=seat == viewer,
                    zones=zones, notes=notes)


def _key_help(family: str) -> list[tuple[str, str]]:
    if family == "speed":
        return [("1–4", _("choose a card in your row")),
                ("← →", _("play it onto the left or right centre pile")),
                (_("Space"), _("call")), ("Esc", _("drop the choice"))]
    if family == "spit":
        return [("1–5", _("choose or turn up a pile")),
                ("← →", _("play onto the left or right centre pile, or choose it")),
                ("Esc", _("drop the choice"))]
    return [("1–6", _("pick up a pile, or lay a card from your hand")),
            ("A S D F …", _("take a card from the middle")), ("B", _("put the pile back")),
            (_("Space"), _("make the win call")), ("Esc", _("drop the choice"))]
