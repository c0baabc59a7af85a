"""The pieces generated sentences are built from, in the active language.

A sentence is one translated string (the game story, the sandbox's moves). Its values are
words that know their grammatical forms, so that a translation can ask for the form its
sentence needs instead of working around a name in the nominative: besides `%(card)s` it may
write `%(card_acc)s`, and so on for every card, list of cards, place, player and rank slot
(`Words`). The forms come from the glossary (`core.glossary`); a form a language does not
have is the plain word. Finnish: "%(player)s pelaa %(card_acc)s %(pile_ill)s." → "Pelaaja 2
pelaa patakolmosen pelipinoon 1."; German: "%(player)s legt %(card_acc_def)s auf %(pile)s."
→ "Spieler 2 legt die Pik-Drei auf Ablagestapel 1." (docs/texts.md lists the forms).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy

from core.glossary import FORMS, card_name, current_lang, rank_name, term_form


@runtime_checkable
class Inflected(Protocol):
    """A word with grammatical forms: str() is its plain form."""

    def form(self, form: str) -> str: ...


#: A table of sentences that are filled with Words (its type names it so, for the catalogue
#: test that lets only such sentences' translations ask for grammatical forms).
WordsSentences = dict


class Words(dict):
    """The values of one sentence. A missing key "<slot>_<form>" is the slot's word in that
    form ("card_acc", "pile_ill", "cards_acc_def"); any other missing key is an error."""

    def __missing__(self, key: str) -> str:
        slot, sep, form = key.partition("_")
        value = self.get(slot)
        if sep and form in FORMS and isinstance(value, Inflected):
            return value.form(form)
        raise KeyError(key)


def and_list(items: Sequence[str]) -> str:
    """"a, b and c" in the active language ("a, b och c", "a, b ja c")."""
    return get_text_list(list(items), pgettext("list", "and"))


def sentence(text: str) -> str:
    """A generated sentence starts with a capital, whatever word the language put first."""
    return text[:1].upper() + text[1:]


@dataclass(frozen=True)
class CardWord:
    """One card: "the seven of hearts" is "%(card)s" after "the" in English."""

    code: str | None

    def form(self, form: str) -> str:
        return card_name(self.code, current_lang(), form) if self.code else ""

    def __str__(self) -> str:
        return self.form("nom")


@dataclass(frozen=True)
class CardList:
    """Several cards, joined as the language joins a list, each in the same form. The
    sentence gives the first card its article ("the %(cards)s"); each later card gets its
    own where the language writes one there (English "the ten of spades and the queen of
    diamonds"; a language whose card names need none translates it as "%(card)s")."""

    codes: tuple[str, ...]

    def form(self, form: str) -> str:
        lang = current_lang()
        names = [card_name(code, lang, form) for code in self.codes]
        later = pgettext("a later card in a list", "the %(card)s")
        # with two decks the same card can come twice: "the five of hearts and another five
        # of hearts" (the second is the other deck's)
        again = pgettext("the same card again in a list", "another %(card)s")
        return and_list(names[:1] + [
            (again if code in self.codes[:i + 1] else later) % {"card": name}
            for i, (code, name) in enumerate(zip(self.codes[1:], names[1:], strict=True))])

    def __str__(self) -> str:
        return self.form("nom")


@dataclass(frozen=True)
class RankWord:
    """A rank on its own ("king"; Finnish "neljä kuningasta" is "%(rank_par)s")."""

    code: str | None

    def form(self, form: str) -> str:
        return rank_name(self.code, current_lang(), form) if self.code else ""

    def __str__(self) -> str:
        return self.form("nom")


#: How many cards a sentence counts, one to twelve, as running text writes the number. The
#: translations write the number for cards ("one card", German "eine Karte").
NUMBER_WORDS = (
    pgettext_lazy("how many cards", "one"), pgettext_lazy("how many cards", "two"),
    pgettext_lazy("how many cards", "three"), pgettext_lazy("how many cards", "four"),
    pgettext_lazy("how many cards", "five"), pgettext_lazy("how many cards", "six"),
    pgettext_lazy("how many cards", "seven"), pgettext_lazy("how many cards", "eight"),
    pgettext_lazy("how many cards", "nine"), pgettext_lazy("how many cards", "ten"),
    pgettext_lazy("how many cards", "eleven"), pgettext_lazy("how many cards", "twelve"),
)


#: The largest count a language writes as a word; British house style spells out one to nine
#: only, so "twelve cards" and "13 cards" never stand side by side in one English list.
WORDS_UP_TO = {"en": 9}


@dataclass(frozen=True)
class Count:
    """A number of cards (or piles) inside a sentence: a word up to twelve ("stacks the two
    cards"; English: up to nine), digits beyond ("takes 23 cards"), as a careful writer of
    each language does."""

    n: int

    def __str__(self) -> str:
        if 1 <= self.n <= WORDS_UP_TO.get(current_lang(), len(NUMBER_WORDS)):
            return str(NUMBER_WORDS[self.n - 1])
        return str(self.n)


def score(wins: Sequence[int]) -> str:
    """Deals won by each player, as the language writes a score ("3–1", German "3:1")."""
    return pgettext("between the numbers of a score", "–").join(str(w) for w in wins)


class Blank:
    """A slot the event left empty: nothing, in every form."""

    def form(self, form: str) -> str:
        return ""

    def __str__(self) -> str:
        return ""


BLANK = Blank()


@dataclass(frozen=True)
class Verbatim:
    """Text told as it was sent (a place a request names that no game has), in every form."""

    text: str

    def form(self, form: str) -> str:
        return self.text

    def __str__(self) -> str:
        return self.text


#: the display names of the seats of the game being told (a friends' or class table: the
#: names chosen at the table; "" where a seat has none), set by `seat_names`
_SEAT_NAMES: ContextVar[tuple[str, ...]] = ContextVar("seat_names", default=())

#: Finnish case endings after a colon for a display name, which no rule can inflect
#: ("Anna:lla", "Ville:lle"), in their back-vowel spelling (a front-vowel name: ä, ö, y)
NAME_ENDINGS = {
    "fi": {
        "gen": "n", "acc": "n", "ine": "ssa", "ela": "sta", "ade": "lla", "abl": "lta",
        "all": "lle",
    },
}
_FRONT = str.maketrans("aou", "äöy")


@contextmanager
def seat_names(names: Sequence[str]) -> Iterator[None]:
    """Within it, sentences call a seat by its display name where it has one (the story lines
    and the end of a game at a table of people who chose names)."""
    token = _SEAT_NAMES.set(tuple(names))
    try:
        yield
    finally:
        _SEAT_NAMES.reset(token)


def seat_display_name(seat: int | None) -> str:
    names = _SEAT_NAMES.get()
    return names[seat] if seat is not None and 0 <= seat < len(names) else ""


def name_form(name: str, form: str) -> str:
    """A display name in a sentence's form: as written where the language does not inflect
    the word "player" in that form, else with the case ending after a colon (Finnish), or
    after the word in that case where no ending is listed ("pelaajaan Anna")."""
    lang = current_lang()
    word = term_form("player", lang, form)
    if word == term_form("player", lang):
        return name
    ending = NAME_ENDINGS.get(lang, {}).get(form.removesuffix("_def"))
    if ending is None:
        return f"{word} {name}"
    vowels = [ch for ch in name.lower() if ch in "aouäöy"]
    front = not vowels or vowels[-1] in "äöy"
    return f"{name}:{ending.translate(_FRONT) if front else ending}"


def player_name(seat: int | None, *, in_sentence: bool = False) -> str:
    """A player as a label ("Player 2") or, `in_sentence`, as a sentence names them where
    the language writes it in lower case (Swedish "ger spelare 2 ett kort")."""
    n = (seat or 0) + 1
    if in_sentence:
        return pgettext("in a sentence", "Player %(n)s") % {"n": n}
    return _("Player %(n)s") % {"n": n}


@dataclass(frozen=True)
class PlayerWord:
    """A player inside a sentence; its other forms are the glossary's forms of "player"
    with the number (Finnish "pelaajalle 2")."""

    seat: int | None

    def form(self, form: str) -> str:
        name = seat_display_name(self.seat)
        if name:
            return name_form(name, form)
        lang = current_lang()
        word = term_form("player", lang, form)
        if word == term_form("player", lang):
            return str(self)
        return f"{word} {(self.seat or 0) + 1}"

    def __str__(self) -> str:
        return seat_display_name(self.seat) or player_name(self.seat, in_sentence=True)
