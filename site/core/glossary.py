"""The game's words per language, read once from content/glossary/<lang>.toml.

Templates, card names and rules texts take their vocabulary from here so that a centre pile
is called the same thing everywhere on a page. A glossary also lists the forms a language
avoids (`[avoid]`, checked by a test across every text) and, where a language inflects card
names (Finnish "herttaässän päälle"), the case forms of each rank (`[rank_forms]`). Places on
the table are named from `[terms]`, or from a pattern per kind of place (`[place_names]`,
"bunke {n} (på hånden)") where the number does not simply follow the word.

Grammatical forms (`FORMS`) are asked for by name: a case ("acc", "ill", ...; a language maps
one case onto another in `[form_aliases]`, Finnish "acc" = "gen"), or a case with the definite
article ("acc_def": German "den Kreuz-Buben", from `[articles]` and `[rank_gender]`). Places
and the word "player" inflect through `[term_forms.<key>]`. A form a language does not list
is its plain word.
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
CASES = ("nom", "acc", "dat", "gen", "par", "ill", "ine", "ela", "ade", "abl", "all")
#: the forms a generated sentence may ask for: every case, and every case with its article.
FORMS = frozenset(CASES) | {f"{case}_def" for case in CASES}


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


def face_down_card(lang: str | None = None) -> str:
    """A card seen from the back, as a noun ("face-down card"; `term("face_down")` is the
    adjective)."""
    return glossary(lang or current_lang())["card"]["face_down"]


def _case(words: dict, form: str) -> tuple[str, bool]:
    """The case a form names (after the language's aliases), and whether it wants the
    definite article."""
    article = form.endswith("_def")
    case = form.removesuffix("_def")
    return words.get("form_aliases", {}).get(case, case), article


def _with_article(words: dict, case: str, gender: str | None, name: str) -> str:
    article = words.get("articles", {}).get(case, {}).get(gender or "")
    return f"{article} {name}" if article else name


def _rank_word(words: dict, rank: str, case: str) -> tuple[str, str | None]:
    """A rank's word in a case, and its grammatical gender where the language has one."""
    if rank == "X":
        card = words["card"]
        return card.get("joker_forms", {}).get(case, card["joker"]), card.get("joker_gender")
    word = words.get("rank_forms", {}).get(rank, {}).get(case, words["ranks"][rank])
    return word, words.get("rank_gender", {}).get(rank)


def card_name(code: str, lang: str, form: str = "nom") -> str:
    """A card's name as the language writes it, in a grammatical form where it has them.

    The rank carries the case ending ("hertta" + "ässän"); "<case>_def" adds the definite
    article where the language has one ("den Kreuz-Buben"). A form the glossary does not
    list falls back to the plain name.
    """
    words = glossary(lang)
    case, article = _case(words, form)
    if code != "X" and not is_card(code):
        raise ValueError(f"not a card: {code!r}")
    name, gender = _rank_word(words, code[0], case)
    if code != "X":
        name = words["card"]["name"].format(rank=name, suit=words["suits"][code[1]])
    return _with_article(words, case, gender, name) if article else name


def rank_name(code: str, lang: str, form: str = "nom") -> str:
    """A rank on its own ("king", Finnish partitive "kuningasta"); "X" is the joker."""
    words = glossary(lang)
    case, article = _case(words, form)
    name, gender = _rank_word(words, code, case)
    return _with_article(words, case, gender, name) if article else name


def term_form(key: str, lang: str, form: str = "nom") -> str:
    """A glossary term in a case where the language inflects it (Finnish "pelaajalle")."""
    words = glossary(lang)
    case, _article = _case(words, form)
    return words.get("term_forms", {}).get(key, {}).get(case, words["terms"][key])


def place_name(key: str, number: int | None, lang: str, form: str = "nom") -> str:
    """A place on the table as a sentence names it: "centre pile 2", German "Ablagestapel 2",
    Norwegian "bunke 2 (på hånden)", Finnish illative "pelipinoon 2", written in lower case
    where the language writes the word so. `key` is a `[terms]` key; `number` is the place's
    number, if it has one."""
    word = term_form(key, lang, form)
    if number is None:
        return word
    patterns = glossary(lang).get("place_names", {}).get(key)
    if patterns is None:
        return f"{word} {number}"
    if isinstance(patterns, str):
        patterns = {"nom": patterns}
    case, _article = _case(glossary(lang), form)
    return patterns.get(case, patterns["nom"]).format(n=number)


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
