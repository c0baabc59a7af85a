"""The game table: one presenter per engine family turns the engine's board into zones,
items and commands (model.py), drawn by templates/table/table.html. Play, teach and the
examples' sandbox all draw their tables through build_table."""

from .build import build_table, key_legend, second_language, teaching_hands
from .model import DEMO_KEYS, Command, Item, Keys, SeatView, Table, Zone, key_label
from .names import card_name, level_choice, level_name, rank_name, seat_name
from .presenter import TablePresenter
from .registry import PRESENTERS, presenter_for
from .render import item_html, zone_html

__all__ = [
    "DEMO_KEYS",
    "PRESENTERS",
    "Command",
    "Item",
    "Keys",
    "SeatView",
    "Table",
    "TablePresenter",
    "Zone",
    "build_table",
    "card_name",
    "item_html",
    "key_label",
    "key_legend",
    "level_choice",
    "level_name",
    "presenter_for",
    "rank_name",
    "seat_name",
    "second_language",
    "teaching_hands",
    "zone_html",
]
