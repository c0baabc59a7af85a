"""A zone or an item alone, as the table template draws it (the partials of
templates/table/table.html): for a test or a page that shows one piece of a table.

A table is drawn again whenever anyone moves, and a move changes one or two of its zones:
`zone_markup` keeps the markup of the zones drawn lately, by language and by everything the
zone holds, so the template draws only what changed (the same markup, fewer template nodes).
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeData, SafeString, mark_safe
from django.utils.translation import get_language

from .model import Item, Zone

#: zones kept (a few hundred bytes each); the whole store is dropped when it is full.
MAX_ZONES = 4096
_ZONES: dict[tuple, SafeString] = {}


def zone_html(zone: Zone) -> SafeString:
    return mark_safe(render_to_string("table/table.html#zone", {"zone": zone}))


def item_html(item: Item) -> SafeString:
    return mark_safe(render_to_string("table/table.html#item", {"item": item}))


def zone_markup(zone: Zone) -> SafeString:
    """zone_html(zone), drawn once per language and content."""
    key = (get_language(), _frozen(zone))
    markup = _ZONES.get(key)
    if markup is None:
        markup = zone_html(zone)
        if len(_ZONES) >= MAX_ZONES:
            _ZONES.clear()
        _ZONES[key] = markup
    return markup


#: the field names of each dataclass met, by type (None: not a dataclass): asked for every
#: value of every zone of every board drawn, so not looked up again each time.
_FIELDS: dict[type, tuple[str, ...] | None] = {}


def _frozen(value: Any) -> Any:
    """A hashable value that differs whenever the markup could: every field of every
    dataclass, lists and dicts item by item, text with its escaping (safe or not), and
    anything else (a lazy translation) as its text in the active language."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is list or kind is tuple:
        return tuple([_frozen(v) for v in value])
    if kind is dict:
        return ("{", *[(k, _frozen(v)) for k, v in value.items()])
    try:
        names = _FIELDS[kind]
    except KeyError:
        names = _FIELDS[kind] = (tuple(f.name for f in fields(value))
                                 if is_dataclass(value) else None)
    if names is not None:
        return (kind.__name__, *[_frozen(getattr(value, name)) for name in names])
    if isinstance(value, SafeData):
        return ("safe", str(value))
    return (kind.__name__, str(value))
