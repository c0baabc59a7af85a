"""Names at the table: seats, bot levels, cards and piles as the page and its accessible
names say them."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.glossary import card_face, current_lang, glossary, term
from rules_engine.driver import HUMAN


def seat_name(seat: int, seats: list[str], viewer: int | None) -> str:
    number = seat + 1
    kind = seats[seat] if seat < len(seats) else HUMAN
    if seat == viewer:
        return _("Player %(n)s (you)") % {"n": number}
    if kind == HUMAN:
        return _("Player %(n)s") % {"n": number}
    return _("Player %(n)s (bot, %(level)s)") % {"n": number, "level": level_name(kind)}


def level_name(level: str) -> str:
    """A bot's level inside a seat's label: "Player 2 (bot, club player)"."""
    names = {"learner": _("learner"), "club": _("club player"), "expert": _("expert")}
    return names.get(level, level)


def level_choice(level: str) -> str:
    """A bot's level as an option of a select, capitalised like the other options."""
    names = {"learner": _("Learner"), "club": _("Club player"), "expert": _("Expert")}
    return names.get(level, level)


def rank_name(code: str | None) -> str:
    ranks = glossary(current_lang())["ranks"]
    return ranks.get(code[0], code[0]) if code else ""


def card_name(code: str | None) -> str:
    return card_face(code, current_lang()).name if code else term("face_down")


def pile_name(label: str, cards: list[dict], count: int) -> str:
    """The accessible name of a pile: where it is, what lies on top, how many cards."""
    if not count:
        return _("%(place)s: empty") % {"place": label}
    top = cards[-1]
    shown = card_name(top["card"]) if top["up"] and top["card"] else term("face_down")
    return ngettext("%(place)s: %(top)s, %(n)s card", "%(place)s: %(top)s, %(n)s cards", count) % {
        "place": label,
        "top": shown,
        "n": count,
    }
