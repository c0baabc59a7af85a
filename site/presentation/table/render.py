"""A zone or an item alone, as the table template draws it (the partials of
templates/table/table.html): for a test or a page that shows one piece of a table."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from .model import Item, Zone


def zone_html(zone: Zone) -> SafeString:
    return mark_safe(render_to_string("table/table.html#zone", {"zone": zone}))


def item_html(item: Item) -> SafeString:
    return mark_safe(render_to_string("table/table.html#item", {"item": item}))
