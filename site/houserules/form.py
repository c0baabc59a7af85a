"""The configurator form, generated from the engine's option schema.

Every OptionSpec of the variant becomes one group of radio buttons: its values in the
schema's order, the default marked, a one-line explanation and a link to the option's
section of the rules page. Names, labels and explanations are the sheet text's
(optionwords.py), in the page's language.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from django.utils.translation import get_language_info
from django.utils.translation import gettext as _

from core.options import OPTION_PREFIX, value_key
from rules_engine.registry import VARIANTS

from .config import (
    LANGUAGE_CODES,
    MAX_NAME_LENGTH,
    MAX_OWN_RULE_LENGTH,
    MAX_OWN_RULES,
    Parsed,
)
from .optionwords import option_words


@dataclass(frozen=True)
class Choice:
    value: str
    label: str
    default: bool
    checked: bool
    dom_id: str


@dataclass(frozen=True)
class OptionField:
    key: str
    input_name: str
    legend: str
    explain: str
    choices: tuple[Choice, ...]
    rules_url: str
    errors: tuple[str, ...]


@dataclass(frozen=True)
class TextInput:
    name: str
    dom_id: str
    label: str
    value: str
    errors: tuple[str, ...]
    maxlength: int


def option_fields(variant: str, lang: str, parsed: Parsed) -> list[OptionField]:
    chosen = parsed.config.options if parsed.config else {}
    raw = parsed.raw.get("options", {})
    rules_url = reverse("rules", kwargs={"variant": variant})
    fields = []
    for words in option_words(variant, lang):
        spec = words.spec
        if spec.key in chosen:
            selected = value_key(chosen[spec.key])
        else:
            selected = raw.get(spec.key, value_key(spec.default))
        choices = tuple(
            Choice(
                value=value_key(value),
                label=label,
                default=value_key(value) == value_key(spec.default),
                checked=value_key(value) == selected,
                dom_id=f"opt-{spec.key}-{value_key(value)}",
            )
            for value, label in words.values
        )
        fields.append(
            OptionField(
                key=spec.key,
                input_name=OPTION_PREFIX + spec.key,
                legend=words.name,
                explain=words.explain,
                choices=choices,
                rules_url=f"{rules_url}#opt-{spec.key}",
                errors=tuple(parsed.errors.get(OPTION_PREFIX + spec.key, ())),
            )
        )
    return fields


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
