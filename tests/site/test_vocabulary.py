"""Every code the engine declares is worded in every language: each reason code a variant
can answer gets its own sentence (presentation.reasons), each event code a variant can log
gets a sentence (presentation.narration). The engine's declarations (VariantInfo's
reason_codes and event_codes, rules_engine.codes) are the list, so a new code without words
fails here."""

import pytest
from django.utils import translation

from presentation.narration import narrate
from presentation.reasons import REASONS, reason_text
from rules_engine import VARIANTS

LANGS = ["en", "sv", "nb", "de", "fi"]

#: plausible data for each declared event field, so a sentence can name what it needs.
FIELD_VALUES = {
    "card": "7H",
    "cards": ["7H", "9C"],
    "gave": ["7H"],
    "took": ["9C"],
    "rank": "7",
    "pile": "centre-0",
    "piles": ["centre-0"],
    "from": "row-0",
    "to": "centre-1",
    "count": 2,
    "seats": [0, 1],
    "deal": 1,
    "wins": [1, 0],
    "reserve": [11, 11],
    "middle": ["4S", "6H", "3C", "JD"],
    "removed": 0,
    "left": 2,
    "last": False,
    "dealt": False,
    "word": "stress",
    "gesture": "slap",
    "false": False,
    "joker": False,
    "ready": False,
    "phase": "choose-pile",
    "cause": "start",
    "reason": "stress",
}
#: where one event's field holds something else than the same field elsewhere.
EVENT_VALUES = {
    "gave": {"to": 1},
    "won": {"reason": "out-of-cards"},
    "draw": {"reason": "cap"},
    "took": {"reason": "tie"},
    "deal-over": {"reason": "layout-empty"},
    "pile-race": {"reason": "first"},
    "redeal": {"reason": "simultaneous-calls"},
    "moved": {"from": "pile-1", "to": "pile-2"},
    "picked": {"pile": "pile-1"},
    "put-back": {"pile": "pile-1", "cause": "change"},
    "swapped": {"pile": "pile-1"},
    "swap-ended": {"pile": "pile-1", "cause": "five-seconds"},
    "completed": {"pile": "pile-1"},
    "stikk": {"pile": "pile-1"},
    "uncovered": {"pile": "pile-3"},
    "dealt": {"piles": 6},
}


def _declared_reasons():
    return sorted(
        {(slug, str(code)) for slug, info in VARIANTS.items() for code in info.reason_codes}
    )


def _declared_events():
    return sorted(
        {(slug, str(code)) for slug, info in VARIANTS.items() for code in info.event_codes}
    )


@pytest.mark.parametrize(("slug", "code"), _declared_reasons())
def test_every_declared_reason_code_has_its_own_words(slug, code):
    """reason_text falls back to a general sentence for a code it does not know: a declared
    code must be named in REASONS, and read in every language."""
    assert code in REASONS, f"{slug}: reason {code!r} has no words"
    with translation.override("en"):
        english = reason_text(code)
    for lang in LANGS:
        with translation.override(lang):
            text = reason_text(code)
        assert text.strip(), (lang, code)
        if lang != "en":
            assert text != english, f"{code!r} is not translated into {lang}"


@pytest.mark.parametrize(("slug", "code"), _declared_events())
def test_every_declared_event_code_is_told_in_every_language(slug, code):
    info = VARIANTS[slug]
    event = next(e for e in info.event_codes if e == code)
    bare = {"code": code, "player": 0, "t": 0}
    values = FIELD_VALUES | EVENT_VALUES.get(code, {})
    full = bare | {name: values[name] for name in event.fields}
    for lang in LANGS:
        with translation.override(lang):
            for data in (bare, full):
                text = narrate(data, info.family, slug)
                assert text.strip() and "%(" not in text, (slug, code, lang, data)


def test_the_lists_are_the_engines_whole_vocabulary():
    reasons = {code for _, code in _declared_reasons()}
    events = {code for _, code in _declared_events()}
    assert {"bad-action", "too-slow", "frozen", "face-down", "wrong-word"} <= reasons
    assert {"played", "stress", "uncovered", "time-up", "swap-ended", "won"} <= events
