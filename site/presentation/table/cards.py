"""Card pictures for the game table, drawn once per card and language.

A table holds dozens of cards and is drawn again whenever a bot moves; the card component's
markup depends only on the card and the page language, so it is rendered once and reused.
"""

from functools import lru_cache

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from core.glossary import current_lang

EMPTY_CARD = mark_safe('<span class="card card--empty"></span>')


@lru_cache(maxsize=1024)
def _card(code: str | None, lang: str) -> SafeString:
    with translation.override(lang):
        return mark_safe(render_to_string("table/card.html", {"code": code}).strip())


def card_markup(code: str | None) -> SafeString:
    """The card component for `code` (a card back for None) in the page's language."""
    return _card(code, current_lang())
