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
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules_engine.options import OptionError
from rules_engine.registry import VARIANTS, new_game, validate_options

LANGUAGE_CODES = tuple(code for code, _name in settings.LANGUAGES)
PAPERS = ("a4", "letter")
OPTION_PREFIX = "opt-"
MAX_OWN_RULES = 5
MAX_OWN_RULE_LENGTH = 140
MAX_NAME_LENGTH = 40
MAX_PLACE_LENGTH = 80
#: more values than any form sends: the rest of a hostile query string is not even read.
MAX_VALUES_READ = 12
MAX_UNKNOWN_REPORTED = 3
ISO_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def value_key(value: Any) -> str:
    """An option value as the query string, the content files and the form write it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


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

    @property
    def ok(self) -> bool:
        return self.config is not None


def clean_text(value: str) -> str:
    """One line of free text: no control characters, runs of white space made single."""
    text = "".join(" " if unicodedata.category(ch)[0] in "CZ" else ch for ch in value)
    return " ".join(text.split())


def _values(params: Any, name: str) -> list[str]:
    if hasattr(params, "getlist"):
        values = params.getlist(name)
    else:
        value = params.get(name)
        values = value if isinstance(value, list) else ([] if value is None else [value])
    return [str(v) for v in values[:MAX_VALUES_READ]]


def _single(params: Any, name: str) -> str:
    values = _values(params, name)
    return values[-1] if values else ""


@lru_cache(maxsize=256)
def _allowed_players(variant: str, options: tuple[tuple[str, Any], ...]) -> tuple[int, ...]:
    """The player counts the engine accepts with these options: it deals a game to see."""
    info = VARIANTS[variant]
    allowed = []
    for count in range(info.players_min, info.players_max + 1):
        try:
            new_game(variant, players=count, options=dict(options))
        except (ValueError, OptionError):
            continue
        allowed.append(count)
    return tuple(allowed)


def allowed_players(variant: str, options: Mapping[str, Any]) -> tuple[int, ...]:
    return _allowed_players(variant, tuple(sorted(options.items())))


def players_range(counts: tuple[int, ...]) -> str:
    if not counts:
        return ""
    low, high = min(counts), max(counts)
    return str(low) if low == high else f"{low}–{high}"


def option_params(params: Any) -> dict[str, str]:
    """The `opt-<key>` pairs of a query string, as strings (the last of repeated ones)."""
    given: dict[str, str] = {}
    keys = params.keys() if hasattr(params, "keys") else []
    for name in keys:
        if isinstance(name, str) and name.startswith(OPTION_PREFIX):
            given[name[len(OPTION_PREFIX) :]] = _single(params, name)
    return given


def parse_options(variant: str, given: Mapping[str, str]) -> tuple[dict | None, dict]:
    """The full option dict the engine makes of `given`, or None and the errors by field."""
    errors: dict[str, list[str]] = {}
    known = {spec.key for spec in VARIANTS[variant].options}
    valid: dict[str, str] = {}
    for key, value in given.items():
        if key not in known:
            unknown = errors.setdefault("options", [])
            if len(unknown) >= MAX_UNKNOWN_REPORTED:  # a hostile URL gets no wall of text
                continue
            unknown.append(
                _("This game has no option called “%(key)s”.")
                % {"key": clean_text(key)[:40]}
            )
            continue
        try:
            # One option at a time, so that a refusal lands at the field that caused it.
            validate_options(variant, {key: value}, from_strings=True)
        except OptionError:
            errors[OPTION_PREFIX + key] = [_("Choose one of the values listed here.")]
            continue
        valid[key] = value
    if errors:
        return None, errors
    return validate_options(variant, valid, from_strings=True), errors


def _parse_options(variant: str, params: Any, parsed: Parsed) -> dict[str, Any] | None:
    given = option_params(params)
    parsed.raw["options"] = given
    options, errors = parse_options(variant, given)
    parsed.errors.update(errors)
    return options


def _parse_names(variant: str, params: Any, options: dict | None, parsed: Parsed) -> list[str]:
    info = VARIANTS[variant]
    raw = [clean_text(v) for v in _values(params, "name")]
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
    raw = [clean_text(v) for v in _values(params, "own")]
    parsed.raw["own"] = raw
    for index, rule in enumerate(raw, start=1):
        if len(rule) > MAX_OWN_RULE_LENGTH:
            parsed.errors[f"own-{index}"] = [
                _("An own rule can have at most %(count)s characters; this one has %(length)s.")
                % {"count": MAX_OWN_RULE_LENGTH, "length": len(rule)}
            ]
    rules = [r for r in raw if r]
    if len(rules) > MAX_OWN_RULES:
        parsed.errors["own"] = [
            _("Write at most %(count)s own rules.") % {"count": MAX_OWN_RULES}
        ]
    return rules


def _parse_date(params: Any, parsed: Parsed) -> dt.date | None:
    text = clean_text(_single(params, "date"))
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

    place = clean_text(_single(params, "place"))
    parsed.raw["place"] = place
    if len(place) > MAX_PLACE_LENGTH:
        parsed.errors["place"] = [
            _("The place can have at most %(count)s characters.") % {"count": MAX_PLACE_LENGTH}
        ]
    date = _parse_date(params, parsed)

    lang = _single(params, "lang") or page_lang
    lang2 = _single(params, "lang2")
    parsed.raw["lang"], parsed.raw["lang2"] = lang, lang2
    if lang not in LANGUAGE_CODES:
        parsed.errors["lang"] = [_("Choose one of the listed languages.")]
    if lang2 and lang2 not in LANGUAGE_CODES:
        parsed.errors["lang2"] = [_("Choose one of the listed languages.")]
    languages = (lang,) if not lang2 or lang2 == lang else (lang, lang2)

    paper = _single(params, "paper") or "a4"
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
