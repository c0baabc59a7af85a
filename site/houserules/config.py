"""A house-rules configuration and its one public form: the query string.

Every sheet is bookmarkable, so the query string *is* the configuration:
`opt-<key>=<value>` per engine option, `name` (repeated), `place`, `date` (YYYY-MM-DD),
`lang` and `lang2` (the sheet's languages), `paper` (a4 or letter) and `own` (repeated, the
table's own rules). The engine validates the options and says how many may play; this module
only collects its verdicts and turns each into a translated message at the field concerned.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.options import (
    OPTION_PREFIX,
    OptionsForm,
    allowed_players,
    bound_options,
    option_errors,
    option_params,
    players_range,
    value_key,
)
from core.params import clean_text, query_value, query_values
from rules_engine.registry import VARIANTS

LANGUAGE_CODES = tuple(code for code, _name in settings.LANGUAGES)
PAPERS = ("a4", "letter")
MAX_OWN_RULES = 5
MAX_OWN_RULE_LENGTH = 140
MAX_NAME_LENGTH = 40
MAX_PLACE_LENGTH = 80
ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


@dataclass(frozen=True)
class HouseRulesConfig:
    variant: str
    options: dict[str, Any]
    names: tuple[str, ...] = ()
    place: str = ""
    date: dt.date | None = None
    languages: tuple[str, ...] = ("en",)
    paper: str = "a4"
    own_rules: tuple[str, ...] = ()

    def query_pairs(self) -> list[tuple[str, str]]:
        pairs = [(OPTION_PREFIX + key, value_key(v)) for key, v in self.options.items()]
        pairs += [("name", name) for name in self.names]
        if self.place:
            pairs.append(("place", self.place))
        if self.date:
            pairs.append(("date", self.date.isoformat()))
        pairs.append(("lang", self.languages[0]))
        if len(self.languages) > 1:
            pairs.append(("lang2", self.languages[1]))
        pairs.append(("paper", self.paper))
        pairs += [("own", rule) for rule in self.own_rules]
        return pairs

    def query_string(self) -> str:
        return urlencode(self.query_pairs())

    def with_languages(self, languages: tuple[str, ...]) -> HouseRulesConfig:
        return HouseRulesConfig(
            self.variant, self.options, self.names, self.place, self.date, languages,
            self.paper, self.own_rules,
        )


@dataclass
class Parsed:
    """What a query string asked for: the configuration if it is valid, else the errors."""

    config: HouseRulesConfig | None
    #: field name → translated messages; fields: opt-<key>, options, names, name-<i>, place,
    #: date, lang, lang2, paper, own, own-<i>.
    errors: dict[str, list[str]] = field(default_factory=dict)
    #: the submitted values, echoed back into the form (option values as strings).
    raw: dict[str, Any] = field(default_factory=dict)
    #: the options as their form read them (the configurator draws its controls from it).
    options_form: OptionsForm | None = None

    @property
    def ok(self) -> bool:
        return self.config is not None


def _parse_options(variant: str, params: Any, parsed: Parsed) -> dict[str, Any] | None:
    given = option_params(params)
    parsed.raw["options"] = given
    form = parsed.options_form = bound_options(variant, given)
    errors = option_errors(form)
    parsed.errors.update(errors)
    return None if errors else form.options()


def _parse_names(variant: str, params: Any, options: dict | None, parsed: Parsed) -> list[str]:
    info = VARIANTS[variant]
    raw = [clean_text(v) for v in query_values(params, "name")]
    parsed.raw["names"] = raw
    names = [n for n in raw if n]
    for index, name in enumerate(raw, start=1):
        if len(name) > MAX_NAME_LENGTH:
            parsed.errors[f"name-{index}"] = [
                _("A name can have at most %(count)s characters.") % {"count": MAX_NAME_LENGTH}
            ]
    if len(names) > info.players_max:
        parsed.errors["names"] = [
            ngettext(
                "This game is for at most %(count)s player.",
                "This game is for at most %(count)s players.",
                info.players_max,
            ) % {"count": info.players_max}
        ]
    elif options is not None and len(names) >= info.players_min:
        allowed = allowed_players(variant, options)
        if len(names) not in allowed:
            parsed.errors["names"] = [
                _("With these rules the game is for %(range)s players.")
                % {"range": players_range(allowed)}
            ]
    return names


def _parse_own_rules(params: Any, parsed: Parsed) -> list[str]:
    raw = [clean_text(v) for v in query_values(params, "own")]
    parsed.raw["own"] = raw
    for index, rule in enumerate(raw, start=1):
        if len(rule) > MAX_OWN_RULE_LENGTH:
            parsed.errors[f"own-{index}"] = [
                _("A rule of your own can have at most %(count)s characters; this one has "
                  "%(length)s.")
                % {"count": MAX_OWN_RULE_LENGTH, "length": len(rule)}
            ]
    rules = [r for r in raw if r]
    if len(rules) > MAX_OWN_RULES:
        parsed.errors["own"] = [
            _("Write at most %(count)s rules of your own.") % {"count": MAX_OWN_RULES}
        ]
    return rules


def _parse_date(params: Any, parsed: Parsed) -> dt.date | None:
    text = clean_text(query_value(params, "date"))
    parsed.raw["date"] = text
    if not text:
        return None
    if ISO_DATE.fullmatch(text):
        try:
            return dt.date.fromisoformat(text)
        except ValueError:
            pass
    parsed.errors["date"] = [_("Write the date as year-month-day, for example 2025-06-21.")]
    return None


def parse_config(variant: str, params: Any, page_lang: str) -> Parsed:
    """A configuration from a query string (a QueryDict or a plain mapping); never raises."""
    parsed = Parsed(None)
    if variant not in VARIANTS:
        parsed.errors["variant"] = [_("There is no such game.")]
        return parsed
    options = _parse_options(variant, params, parsed)
    names = _parse_names(variant, params, options, parsed)

    place = clean_text(query_value(params, "place"))
    parsed.raw["place"] = place
    if len(place) > MAX_PLACE_LENGTH:
        parsed.errors["place"] = [
            _("The location can have at most %(count)s characters.") % {"count": MAX_PLACE_LENGTH}
        ]
    date = _parse_date(params, parsed)

    lang = query_value(params, "lang") or page_lang
    lang2 = query_value(params, "lang2")
    parsed.raw["lang"], parsed.raw["lang2"] = lang, lang2
    if lang not in LANGUAGE_CODES:
        parsed.errors["lang"] = [_("Choose one of the listed languages.")]
    if lang2 and lang2 not in LANGUAGE_CODES:
        parsed.errors["lang2"] = [_("Choose one of the listed languages.")]
    languages = (lang,) if not lang2 or lang2 == lang else (lang, lang2)

    paper = query_value(params, "paper") or "a4"
    parsed.raw["paper"] = paper
    if paper not in PAPERS:
        parsed.errors["paper"] = [_("Choose A4 or US Letter.")]

    own_rules = _parse_own_rules(params, parsed)

    if parsed.errors or options is None:
        return parsed
    parsed.config = HouseRulesConfig(
        variant=variant,
        options=options,
        names=tuple(names),
        place=place,
        date=date,
        languages=languages,
        paper=paper,
        own_rules=tuple(own_rules),
    )
    return parsed
