"""The configurator's own inputs: names, own rules, the sheet's languages.

Its options are the engine's option schema through the options form (core.options), drawn
as radio groups of optionwords.option_fields: each value in the schema's order, the default
marked, a one-line explanation and a link to the option's section of the rules page.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import get_language_info
from django.utils.translation import gettext as _

from rules_engine.registry import VARIANTS

from .config import (
    LANGUAGE_CODES,
    MAX_NAME_LENGTH,
    MAX_OWN_RULE_LENGTH,
    MAX_OWN_RULES,
    Parsed,
)


@dataclass(frozen=True)
class TextInput:
    name: str
    dom_id: str
    label: str
    value: str
    errors: tuple[str, ...]
    maxlength: int


def _padded(values: list[str], count: int) -> list[str]:
    return (values + [""] * count)[:count] if len(values) <= count else values


def name_inputs(variant: str, parsed: Parsed) -> list[TextInput]:
    count = VARIANTS[variant].players_max
    values = _padded(list(parsed.raw.get("names", [])), count)
    return [
        TextInput(
            name="name",
            dom_id=f"name-{i}",
            label=_("Player %(number)s") % {"number": i},
            value=value,
            errors=tuple(parsed.errors.get(f"name-{i}", ())),
            maxlength=MAX_NAME_LENGTH,
        )
        for i, value in enumerate(values, start=1)
    ]


def own_rule_inputs(parsed: Parsed) -> list[TextInput]:
    values = _padded(list(parsed.raw.get("own", [])), MAX_OWN_RULES)
    return [
        TextInput(
            name="own",
            dom_id=f"own-{i}",
            label=_("Your own rule %(number)s") % {"number": i},
            value=value,
            errors=tuple(parsed.errors.get(f"own-{i}", ())),
            maxlength=MAX_OWN_RULE_LENGTH,
        )
        for i, value in enumerate(values, start=1)
    ]


def language_choices() -> list[tuple[str, str]]:
    return [(code, get_language_info(code)["name_local"]) for code in LANGUAGE_CODES]
