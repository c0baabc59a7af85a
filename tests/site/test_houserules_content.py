"""The sheet texts: complete for every option, short, in the glossary's words, table language."""

import re
from urllib.parse import urlencode

import pytest
from django.test import Client

from core.glossary import glossary
from houserules.sheettext import PLACEHOLDER, SECTION_IDS, load_sheet_text
from rules_engine.registry import VARIANTS

from .houserules_helpers import LANGS, longest_query, option_values, query_value, sheet_text

CASES = [(variant, lang) for variant in VARIANTS for lang in LANGS]
WORD = re.compile(r"\w")
CARD = re.compile(r"`(?:[A2-9TJQK][SHDC]|X)`")

#: words that belong to the website, the engine or its clock, never to a table's rules.
SITE_WORDS = {
    "en": r"\b(?:site|website|engine|click|tap|millisecond)",
    "sv": r"\b(?:sajt|webbplats|sidan|spelmotor|klicka|millisekund)",
    "nb": r"\b(?:nettsted|nettside|siden\b(?! av)|spillmotor|klikk|millisekund)",
    "de": r"\b(?:Website|Webseite|Engine|Spielmotor|klick|Millisekunde)",
    "fi": r"\b(?:sivusto|pelimoottori|klikk|napauta|millisekunti)",
}

#: glossary terms each variant's sheet must use (the same words as the rules pages).
TERMS = {
    "stress-se": ["centre_pile", "draw_pile", "play_row"],
    "stressi-fi": ["centre_pile", "draw_pile", "play_row"],
    "stress-de": ["centre_pile", "hand_stack"],
    "spit": ["centre_pile", "reserve", "layout"],
    "james-bond": ["held_pile"],
}


def base_words(variant: str, lang: str) -> int:
    text = load_sheet_text(variant, lang)
    return sum(
        len([w for w in PLACEHOLDER.sub(" ", body).split() if WORD.search(w)])
        for _id, _title, body in text.sections
    )


@pytest.mark.parametrize(("variant", "lang"), CASES)
def test_every_option_has_a_name_an_explanation_and_a_sentence_per_value(variant, lang):
    text = load_sheet_text(variant, lang)
    assert text is not None, f"content/{variant}/house-rules/{lang}.toml is missing"
    assert [section_id for section_id, _, _ in text.sections] == list(SECTION_IDS)
    specs = {spec.key: spec for spec in VARIANTS[variant].options}
    assert set(text.options) == set(specs)
    for key, option in text.options.items():
        values = [query_value(v) for v in option_values(specs[key])]
        assert set(option.rules) == set(values), key
        assert set(option.labels) == set(values), key
        assert len(set(option.rules.values())) == len(values), f"{key}: two values, one sentence"


@pytest.mark.parametrize(("variant", "lang"), CASES)
def test_every_option_stands_in_the_rules_exactly_once(variant, lang):
    text = load_sheet_text(variant, lang)
    where = text.placeholders()
    assert set(where) == {spec.key for spec in VARIANTS[variant].options}
    for key, places in where.items():
        assert len(places) == 1, f"{key} is placed at {places}"
        assert places[0] not in ("answers",), f"{key} belongs in the rules, not the arguments"


@pytest.mark.parametrize(("variant", "lang"), CASES)
def test_the_short_rules_stay_short(variant, lang):
    assert base_words(variant, lang) <= 350


@pytest.mark.parametrize(("variant", "lang"), CASES)
def test_a_legal_move_is_shown_with_card_pictures(variant, lang):
    move = dict((sid, body) for sid, _, body in load_sheet_text(variant, lang).sections)["move"]
    assert len(CARD.findall(move)) >= 3


@pytest.mark.parametrize(("variant", "lang"), CASES)
def test_the_sheet_uses_the_glossary_words(variant, lang):
    text = load_sheet_text(variant, lang)
    words = " ".join(body for _id, _title, body in text.sections).lower()
    terms = glossary(lang)["terms"]
    for key in TERMS[variant]:
        term = terms[key].lower()
        stem = term[: max(4, len(term) - 2)]  # inflected forms: mitthögarna, keskipinoon
        assert stem in words, f"{lang} {variant}: glossary term {term!r} is not used"


@pytest.mark.django_db
@pytest.mark.parametrize(("variant", "lang"), CASES)
def test_the_fullest_sheet_speaks_table_language_only(variant, lang):
    client = Client()
    query = urlencode(longest_query(variant, (lang,), "a4"))
    page = client.get(f"/{lang}/{variant}/house-rules/sheet/?{query}")
    assert page.status_code == 200
    words = sheet_text(page.text)
    assert not re.search(SITE_WORDS[lang], words, re.IGNORECASE), re.search(
        SITE_WORDS[lang], words, re.IGNORECASE
    )
    assert not re.search(r"\d\s*ms\b", words)
    for spec in VARIANTS[variant].options:
        if "_" in spec.key:
            assert spec.key not in words
        for value in option_values(spec):
            if isinstance(value, str) and "-" in value:
                assert value not in words, f"engine id {value!r} on the sheet"
    assert "{" not in words and "}" not in words
