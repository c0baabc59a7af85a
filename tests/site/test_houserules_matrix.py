"""Every value of every option changes the printed sheet, in every language.

The same values change play in the engine: tests/engine/test_options_change_play.py.
"""

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from houserules.config import HouseRulesConfig
from houserules.sheet import build_sheet
from houserules.sheettext import load_sheet_text
from rules_engine.registry import VARIANTS, validate_options

from .houserules_helpers import LANGS, option_values, query_value, sheet_text

MATRIX = [
    (variant, spec.key, lang)
    for variant, info in VARIANTS.items()
    for spec in info.options
    for lang in LANGS
]


def enabling(variant: str, lang: str, key: str) -> dict:
    """An option named only inside another option's sentence needs that value chosen."""
    places = load_sheet_text(variant, lang).placeholders()[key]
    owner, _, value = places[0].partition("=")
    if not value:
        return {}
    spec = VARIANTS[variant].option(owner)
    return {owner: next(v for v in option_values(spec) if query_value(v) == value)}


def printed(variant: str, lang: str, options: dict) -> str:
    config = HouseRulesConfig(
        variant=variant, options=validate_options(variant, options), languages=(lang,)
    )
    with translation.override(lang):
        page = render_to_string("houserules/sheet.html", {"sheet": build_sheet(config)})
    return sheet_text(page)


@pytest.mark.parametrize(
    ("variant", "key", "lang"), MATRIX, ids=[f"{v}:{k}:{lang}" for v, k, lang in MATRIX]
)
def test_each_value_prints_its_own_rule(variant, key, lang):
    spec = VARIANTS[variant].option(key)
    base = enabling(variant, lang, key)
    texts = {
        repr(value): printed(variant, lang, {**base, key: value}) for value in option_values(spec)
    }
    assert len(set(texts.values())) == len(texts)
    sentences = load_sheet_text(variant, lang).options[key].rules
    for value in option_values(spec):
        sentence = sentences[query_value(value)].split("{")[0].strip()
        # the sentence stands in the rules as written (Markdown-free sentences by design)
        assert sentence[:60] in texts[repr(value)]
