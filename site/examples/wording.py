"""Pieces the generated sentences share: a list of things joined as the language joins it."""

from django.utils.text import get_text_list
from django.utils.translation import pgettext


def and_list(items: list[str]) -> str:
    """"a, b and c" in the active language ("a, b och c", "a, b ja c")."""
    return get_text_list(items, pgettext("list", "and"))
