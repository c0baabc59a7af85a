"""What an engine option and each of its values are called, in one language.

The words come from the house-rules sheet text (content/<variant>/house-rules/<lang>.toml),
which the rules text's option sections match, so the configurator, the printed sheet, the
rules page's box of chosen house rules and the demo's new-game form call a value the same
in every language. An option the texts do not know yet still gets a plain name.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from core.choices import Choice, OptionField
from core.options import OPTION_PREFIX, OptionsForm, value_key
from rules_engine.options import OptionSpec
from rules_engine.registry import VARIANTS

from .sheettext import OptionText, load_sheet_text


@dataclass(frozen=True)
class OptionWords:
    spec: OptionSpec
    name: str
    explain: str
    #: (engine value, its label), in the order the forms offer them.
    values: tuple[tuple[Any, str], ...]


def option_values(spec: OptionSpec) -> list[Any]:
    return [True, False] if spec.type == "bool" else list(spec.choices)


def option_name(spec: OptionSpec, text: OptionText | None) -> str:
    return text.name if text else spec.key.replace("_", " ").capitalize()


def option_label(spec: OptionSpec, value: Any, text: OptionText | None) -> str:
    key = value_key(value)
    if text is not None and key in text.labels:
        return text.labels[key]
    if spec.type == "bool":
        return _("On") if value else _("Off")
    return key


def option_words(variant: str, lang: str) -> list[OptionWords]:
    """Every option of the variant, in the engine's order."""
    sheet_text = load_sheet_text(variant, lang)
    words = []
    for spec in VARIANTS[variant].options:
        text = sheet_text.options.get(spec.key) if sheet_text else None
        words.append(OptionWords(
            spec=spec,
            name=option_name(spec, text),
            explain=text.explain if text else _("The rules page explains this option."),
            values=tuple((value, option_label(spec, value, text))
                         for value in option_values(spec)),
        ))
    return words


def option_fields(form: OptionsForm, lang: str) -> list[OptionField]:
    """Every option of a checked options form as a control, in the engine's order: its words
    in `lang`, the value the game would be played with selected (a refused or missing value
    is the engine's default), the default marked, the form's messages at the field and a
    link to the option's section of the rules page. The configurator draws radio groups of
    them, the set-up pages selects."""
    played = form.options()
    rules_url = reverse("rules", kwargs={"variant": form.variant})
    fields = []
    for words in option_words(form.variant, lang):
        key = words.spec.key
        current, default = value_key(played[key]), value_key(words.spec.default)
        choices = tuple(
            Choice(
                value=value_key(value),
                label=label,
                selected=value_key(value) == current,
                default=value_key(value) == default,
                dom_id=f"{OPTION_PREFIX}{key}-{value_key(value)}",
            )
            for value, label in words.values
        )
        fields.append(
            OptionField(
                key=key,
                name=words.name,
                explain=words.explain,
                choices=choices,
                rules_url=f"{rules_url}#{OPTION_PREFIX}{key}",
                errors=tuple(str(m) for m in form.errors.get(OPTION_PREFIX + key, ())),
            )
        )
    return fields
