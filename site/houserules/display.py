"""The house rules a table chose, as the rules page shows them above the full text.

The printed QR code leads to the rules page with the chosen options in its query string
(`opt-<key>=<value>`, as in the configurator); this is the box listing them, each linked to
its section of the rules. The engine validates the options; an unreadable set is reported,
never half shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.translation import gettext as _

from core.options import OPTION_PREFIX, check_options, option_params, value_key
from rules_engine.registry import VARIANTS

from .optionwords import option_label, option_name
from .sheettext import load_sheet_text


@dataclass(frozen=True)
class ChosenRule:
    key: str
    name: str
    label: str
    usual: bool

    @property
    def anchor(self) -> str:
        return f"opt-{self.key}"


@dataclass(frozen=True)
class HouseRulesBox:
    rules: tuple[ChosenRule, ...]
    error: str
    edit_url: str
    #: the opt- pairs again, for forms on the page that must keep them.
    pairs: tuple[tuple[str, str], ...]


def house_rules_box(variant: str, params: Any, lang: str) -> HouseRulesBox | None:
    """None when the query string names no option (the rules page as it always was)."""
    given = option_params(params)
    if not given:
        return None
    options, errors = check_options(variant, given)
    if errors:
        return HouseRulesBox(
            (), _("These house rules could not be read, so the rules are shown without them."),
            "", (),
        )
    text = load_sheet_text(variant, lang)
    rules = []
    for spec in VARIANTS[variant].options:
        if spec.key not in given:
            continue
        option_text = text.options.get(spec.key) if text else None
        value = options[spec.key]
        rules.append(
            ChosenRule(
                key=spec.key,
                name=option_name(spec, option_text),
                label=option_label(spec, value, option_text),
                usual=value_key(value) == value_key(spec.default),
            )
        )
    pairs = tuple((OPTION_PREFIX + rule.key, value_key(options[rule.key])) for rule in rules)
    edit_url = reverse("houserules_form", kwargs={"variant": variant}) + "?" + urlencode(pairs)
    return HouseRulesBox(tuple(rules), "", edit_url, pairs)
