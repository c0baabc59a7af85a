"""The game's words per language, read once from content/glossary/<lang>.toml.

Templates, card names and rules texts take their vocabulary from here so that a centre pile
is called the same thing everywhere on a page. A glossary also lists the forms a language
avoids (`[avoid]`, checked by a test across every text) and, where a language inflects card
names (Finnish "herttaässän päälle"), the case forms of each rank (`[rank_forms]`).
"""

import re
import tomllib
from dataclasses import dataclass
from functools import cache

from django.conf import settings
from django.utils.translation import get_language

from rules_engine.cards import is_card

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_CLASSES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


@cache
def glossary(lang: str) -> dict:
    path = settings.CONTENT_DIR / "glossary" / f"{lang}.toml"
    if not path.exists():
        path = settings.CONTENT_DIR / "glossary" / "en.toml"
    with path.open("rb") as fh:
        return tomllib.load(fh)


def current_lang() -> str:
    return (get_language() or settings.LANGUAGE_CODE).split("-")[0]


def term(key: str, lang: str | None = None) -> str:
    return glossary(lang or current_lang())["terms"].get(key, key)


def card_name(code: str, lang: str, form: str = "nom") -> str:
    """A card's name as the language writes it, in a grammatical form where it has them.

    The rank carries the case ending ("hertta" + "ässän"); a form the glossary does not list
    falls back to the plain name.
    """
    words = glossary(lang)
    if code == "X":
        return words["card"].get("joker_forms", {}).get(form, words["card"]["joker"])
    if not is_card(code):
        raise ValueError(f"not a card: {code!r}")
    rank, suit = code[0], code[1]
    rank_word = words.get("rank_forms", {}).get(rank, {}).get(form, words["ranks"][rank])
    return words["card"]["name"].format(rank=rank_word, suit=words["suits"][suit])


@dataclass(frozen=True)
class AvoidedForm:
    """A form a language's texts do not use, and what they say instead."""

    form: str
    instead: str
    pattern: re.Pattern


def avoided_forms(lang: str) -> list[AvoidedForm]:
    """The glossary's `[avoid]` table as patterns.

    A key is matched case-insensitively as a whole word; a trailing `*` lets any ending
    follow ("draghög*" also catches "draghögen"). Case-sensitive keys start with `=`.
    """
    found = []
    for key, instead in glossary(lang).get("avoid", {}).items():
        flags = re.I
        form = key
        if form.startswith("="):
            form, flags = form[1:], 0
        tail = r"\w*" if form.endswith("*") else r"(?!\w)"
        body = re.escape(form.rstrip("*"))
        head = r"(?<!\w)" if form[:1].isalnum() else ""
        found.append(AvoidedForm(key, instead, re.compile(head + body + tail, flags)))
    return found


@dataclass(frozen=True)
class CardFace:
    """What a card component needs to draw one card in one language."""

    code: str
    name: str
    rank_label: str
    suit: str
    suit_symbol: str
    suit_letter: str
    suit_class: str
    joker: bool


@cache
def card_face(code: str, lang: str) -> CardFace:
    words = glossary(lang)
    if code == "X":
        name = words["card"]["joker"]
        return CardFace(code, name, "★", "", "★", "J", "joker", True)
    if not is_card(code):
        raise ValueError(f"not a card: {code!r}")
    rank, suit = code[0], code[1]
    return CardFace(
        code=code,
        name=card_name(code, lang),
        rank_label=words.get("rank_short", {}).get(rank, rank),
        suit=suit,
        suit_symbol=SUIT_SYMBOLS[suit],
        suit_letter=words["suit_short"][suit],
        suit_class=SUIT_CLASSES[suit],
        joker=False,
    )
