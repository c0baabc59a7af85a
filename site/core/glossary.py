"""The game's words per language, read once from content/glossary/<lang>.toml.

Templates, card names and rules texts take their vocabulary from here so that a centre pile
is called the same thing everywhere on a page.
"""

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
    name = words["card"]["name"].format(rank=words["ranks"][rank], suit=words["suits"][suit])
    return CardFace(
        code=code,
        name=name,
        rank_label=words.get("rank_short", {}).get(rank, rank),
        suit=suit,
        suit_symbol=SUIT_SYMBOLS[suit],
        suit_letter=words["suit_short"][suit],
        suit_class=SUIT_CLASSES[suit],
        joker=False,
    )
