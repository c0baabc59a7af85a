"""A position as one line of text, as FEN is for chess: `Game.notation()` prints it and
`rules_engine.registry.position_from_notation` reads it back (docs/scenarios.md, "Position
notation", has the grammar and an example per variant).

    stress-se 3C7H/9D8S TC6C5C:8D/2C/JC/4H -:QS/3D/KH/5H now=0 seed=0

The line is the variant (with the options that differ from the defaults in brackets), the
family's piles, then key=value fields. It says exactly what the position form
(`Game.position()`) says, so text and form convert both ways without loss. Bad text is a
PositionError naming the part that is wrong. This module knows the three families' shapes,
never a variant: the registry looks the variant up.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rules_engine.cards import JOKER, RANK_VALUE
from rules_engine.options import OptionError, validate_options
from rules_engine.positions import PositionError
from rules_engine.variant import VariantInfo

EMPTY = "-"
CENTRE_IDS = ("centre-0", "centre-1")
#: a james-bond seat's swap parts after its piles, in the order they are written.
SWAP_PARTS = ("laying", "laid", "gone")


@dataclass(frozen=True)
class Notated:
    """What a notation line says: the variant, its full options and the position form."""

    variant: str
    options: dict
    position: dict


# ---------------------------------------------------------------------- shared pieces
def _pile(cards: list[str]) -> str:
    return "".join(cards) or EMPTY


def _read_pile(text: str, where: str) -> list[str]:
    """Cards written one after another ("3C7H", a joker "X"); "-" is an empty pile."""
    if text == EMPTY:
        return []
    out, k = [], 0
    while k < len(text):
        size = 1 if text[k] == JOKER else 2
        card = text[k : k + size]
        if card not in RANK_VALUE:
            raise PositionError(f"{where}: not a card: {card!r} in {text!r}")
        out.append(card)
        k += size
    if not out:
        raise PositionError(f"{where}: no cards in {text!r} (write {EMPTY} for none)")
    return out


def _piles(text: str, count: int | None, where: str) -> list[str]:
    parts = text.split("/")
    if count is not None and len(parts) != count:
        raise PositionError(f"{where}: {count} piles separated by '/', got {text!r}")
    return parts


def _number(text: str, where: str) -> int:
    if not (text.isascii() and text.lstrip("-").isdigit()) or text in ("-", ""):
        raise PositionError(f"{where}: a whole number, got {text!r}")
    return int(text)


def _option_text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _head(info: VariantInfo, options: Mapping[str, Any]) -> str:
    changed = [
        f"{s.key}={_option_text(options[s.key])}"
        for s in info.options
        if options.get(s.key, s.default) != s.default
    ]
    return f"{info.slug}[{','.join(changed)}]" if changed else info.slug


def split_head(text: str) -> tuple[str, dict[str, str], list[str]]:
    """The variant slug, its options as written, and the rest of the line's fields."""
    if not isinstance(text, str):
        raise PositionError(f"a notation is a line of text, got {type(text).__name__}")
    fields = text.split()
    if not fields:
        raise PositionError("empty notation: it starts with the variant, e.g. stress-se")
    head = fields[0]
    slug, bracket, rest = head.partition("[")
    given: dict[str, str] = {}
    if bracket:
        if not rest.endswith("]"):
            raise PositionError(f"options: close the bracket: {head!r}")
        for pair in filter(None, rest[:-1].split(",")):
            key, sep, value = pair.partition("=")
            if not sep or not key:
                raise PositionError(f"options: key=value, got {pair!r}")
            given[key] = value
    return slug, given, fields[1:]


def _body_and_pairs(fields: list[str]) -> tuple[list[str], dict[str, str]]:
    body: list[str] = []
    pairs: dict[str, str] = {}
    for field in fields:
        key, sep, value = field.partition("=")
        if sep:
            if key in pairs:
                raise PositionError(f"{key}= is given twice")
            pairs[key] = value
        elif pairs:
            raise PositionError(f"the piles come before the key=value fields: {field!r}")
        else:
            body.append(field)
    return body, pairs


def _take_clock(pairs: dict[str, str], position: dict) -> None:
    for key in ("now", "seed"):
        if key not in pairs:
            raise PositionError(f"{key}= is missing (every line ends with now= and seed=)")
        position[key] = _number(pairs.pop(key), key)


def _no_more(pairs: dict[str, str], allowed: str) -> None:
    if pairs:
        raise PositionError(f"unknown field {next(iter(pairs))}=; this variant has {allowed}")


def _clock(position: dict) -> list[str]:
    return [f"now={position['now']}", f"seed={position['seed']}"]


# ---------------------------------------------------------------------- speed family
def _speed_print(position: dict) -> list[str]:
    out = ["/".join(_pile(p) for p in position["centre"])]
    out += [f"{_pile(s['draw'])}:{'/'.join(_pile(p) for p in s['row'])}" for s in position["seats"]]
    if "ready" in position:
        out.append("ready=" + "".join("1" if r else "0" for r in position["ready"]))
    return out + _clock(position)


def _speed_read(body: list[str], pairs: dict[str, str], info: VariantInfo) -> dict:
    if len(body) < 2:
        raise PositionError("speed: the centre (two piles) and one field per seat")
    centre = [_read_pile(p, f"centre-{i}") for i, p in enumerate(_piles(body[0], 2, "centre"))]
    seats = []
    for s, field in enumerate(body[1:]):
        draw, sep, row = field.partition(":")
        if not sep:
            raise PositionError(f"seat {s}: draw pile, ':', then the row, got {field!r}")
        seats.append(
            {
                "draw": _read_pile(draw, f"seat {s} draw"),
                "row": [
                    _read_pile(p, f"seat {s} row-{k}")
                    for k, p in enumerate(_piles(row, 4, f"seat {s} row"))
                ],
            }
        )
    position: dict[str, Any] = {"centre": centre, "seats": seats}
    if "ready" in pairs:
        text = pairs.pop("ready")
        if len(text) != len(seats) or set(text) - {"0", "1"}:
            raise PositionError(f"ready: one 0 or 1 per seat, got {text!r}")
        position["ready"] = [c == "1" for c in text]
    elif info.ready_action:
        raise PositionError("ready= is missing (one 0 or 1 per seat)")
    _take_clock(pairs, position)
    _no_more(pairs, "ready=, now=, seed=" if info.ready_action else "now=, seed=")
    return position


# ---------------------------------------------------------------------- spit
#: spit's fields after the piles, with the value a position has when the field is left out.
_SPIT_DEFAULTS = {
    "no_reserve": None,
    "locked": None,
    "phase": "play",
    "choices": [None, None],
    "deal": 1,
}


def _spit_print(position: dict) -> list[str]:
    out = ["/".join(_pile(p) for p in position["centre"])]
    for seat in position["seats"]:
        piles = [
            _pile(p) + ("*" if up and p else "")
            for p, up in zip(seat["piles"], seat["up"], strict=True)
        ]
        out.append(f"{'/'.join(piles)}:{_pile(seat['reserve'])}")
    for key, default in _SPIT_DEFAULTS.items():
        value = position[key]
        if value == default:
            continue
        if key == "choices":
            value = ",".join(EMPTY if c is None else f"{c['pile']}@{c['t']}" for c in value)
        out.append(f"{key}={value}")
    return out + _clock(position)


def _spit_read(body: list[str], pairs: dict[str, str], info: VariantInfo) -> dict:
    if len(body) != 3:
        raise PositionError("spit: the centre (two piles) and one field per seat (two)")
    centre = [_read_pile(p, f"centre-{i}") for i, p in enumerate(_piles(body[0], 2, "centre"))]
    seats = []
    for s, field in enumerate(body[1:]):
        layout, sep, reserve = field.partition(":")
        if not sep:
            raise PositionError(f"seat {s}: five piles, ':', then the reserve, got {field!r}")
        piles, up = [], []
        for k, text in enumerate(_piles(layout, 5, f"seat {s} piles")):
            turned = text.endswith("*")
            cards = _read_pile(text[:-1] if turned else text, f"seat {s} pile-{k + 1}")
            if turned and not cards:
                raise PositionError(f"seat {s} pile-{k + 1}: '*' marks a face-up top card")
            piles.append(cards)
            up.append(turned)
        seats.append(
            {"piles": piles, "up": up, "reserve": _read_pile(reserve, f"seat {s} reserve")}
        )
    position: dict[str, Any] = {"centre": centre, "seats": seats}
    for key, default in _SPIT_DEFAULTS.items():
        if key not in pairs:
            position[key] = default
            continue
        text = pairs.pop(key)
        if key in ("no_reserve", "deal"):
            position[key] = _number(text, key)
        elif key == "choices":
            choices = text.split(",")
            if len(choices) != 2:
                raise PositionError(f"choices: one per seat, separated by ',', got {text!r}")
            position[key] = [_spit_choice(c) for c in choices]
        else:
            position[key] = text
    _take_clock(pairs, position)
    _no_more(pairs, "no_reserve=, locked=, phase=, choices=, deal=, now=, seed=")
    return position


def _spit_choice(text: str) -> dict | None:
    if text == EMPTY:
        return None
    pile, sep, t = text.partition("@")
    if not sep:
        raise PositionError(f"choices: centre-N@t or {EMPTY} per seat, got {text!r}")
    return {"pile": pile, "t": _number(t, "choices t")}


# ---------------------------------------------------------------------- james-bond
def _swap_print(position: dict) -> list[str]:
    out = [_pile(position["middle"])]
    for seat in position["seats"]:
        piles = []
        for k, pile in enumerate(seat["piles"]):
            slot = f"pile-{k + 1}"
            mark = ("!" if slot in seat["complete"] else "") + ("^" if seat["held"] == slot else "")
            piles.append(_pile(pile) + mark)
        # piles[:laying[:laid[:gone]]], written up to the last part the seat has.
        last = max((k for k, key in enumerate(SWAP_PARTS) if key in seat), default=-1)
        parts = [_pile(seat.get(key, [])) for key in SWAP_PARTS[: last + 1]]
        out.append(":".join(["/".join(piles), *parts]))
    if "removed" in position:
        out.append(f"removed={_pile(position['removed'])}")
    if position["deal"] != 1:
        out.append(f"deal={position['deal']}")
    if "wins" in position:
        out.append("wins=" + ",".join(str(w) for w in position["wins"]))
    return out + _clock(position)


def _swap_read(body: list[str], pairs: dict[str, str], info: VariantInfo) -> dict:
    if len(body) < 2:
        raise PositionError("james-bond: the middle, then one field per seat")
    seats = []
    for s, field in enumerate(body[1:]):
        parts = field.split(":")
        if len(parts) > 4:
            raise PositionError(f"seat {s}: piles[:laying[:laid[:gone]]], got {field!r}")
        piles, complete, held = [], [], None
        for k, text in enumerate(_piles(parts[0], None, f"seat {s} piles")):
            slot = f"pile-{k + 1}"
            if text.endswith("^"):
                text, held = text[:-1], slot
            if text.endswith("!"):
                text = text[:-1]
                complete.append(slot)
            piles.append(_read_pile(text, f"seat {s} {slot}"))
        spec: dict[str, Any] = {"piles": piles, "complete": complete, "held": held}
        if len(parts) > 1 and parts[1] != EMPTY:
            spec["laying"] = _read_pile(parts[1], f"seat {s} laying")
        if len(parts) > 2 and (parts[2] != EMPTY or len(parts) == 3):
            spec["laid"] = _read_pile(parts[2], f"seat {s} laid")
        if len(parts) > 3:
            spec["gone"] = _read_pile(parts[3], f"seat {s} gone")
        seats.append(spec)
    position: dict[str, Any] = {"middle": _read_pile(body[0], "middle"), "seats": seats}
    if "removed" in pairs:
        position["removed"] = _read_pile(pairs.pop("removed"), "removed")
    position["deal"] = _number(pairs.pop("deal", "1"), "deal")
    if "wins" in pairs:
        position["wins"] = [_number(w, "wins") for w in pairs.pop("wins").split(",")]
    _take_clock(pairs, position)
    _no_more(pairs, "removed=, deal=, wins=, now=, seed=")
    return position


Printer = Callable[[dict], list[str]]
Reader = Callable[[list[str], dict[str, str], VariantInfo], dict]
FAMILIES: dict[str, tuple[Printer, Reader]] = {
    "speed": (_speed_print, _speed_read),
    "spit": (_spit_print, _spit_read),
    "swap": (_swap_print, _swap_read),
}


# ---------------------------------------------------------------------- the two directions
def notation(info: VariantInfo, options: Mapping[str, Any], position: dict) -> str:
    """The one-line text of a position form of this variant with these options."""
    printer, _ = FAMILIES[info.family]
    return " ".join([_head(info, options), *printer(position)])


def read(info: VariantInfo, given: dict[str, str], fields: list[str]) -> Notated:
    """A line's options (as written, see split_head) and remaining fields read for this
    variant: PositionError for anything malformed, bad options included."""
    try:
        options = validate_options(info.options, given, from_strings=True, name=info.slug)
    except OptionError as exc:
        raise PositionError(f"options: {exc}") from None
    _, reader = FAMILIES[info.family]
    body, pairs = _body_and_pairs(fields)
    return Notated(info.slug, options, reader(body, pairs, info))
