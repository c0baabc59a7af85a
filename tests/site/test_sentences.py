"""Every sentence the site assembles for a game is finished in every language.

scripts/sentences.py plays seeded bot games of every variant, tries refused moves along the
way and writes every distinct sentence to docs/sentences/<lang>.txt for a reader. This test
plays a shorter run of the same games and checks the assembled output itself, not the
catalogue: every event and refusal code seen has a sentence in every language, no
placeholder is left over, and no English catalogue text or English word turns up in a
Swedish, Norwegian, German or Finnish sentence.
"""

import re
from collections import defaultdict
from functools import cache

import polib
import pytest
from django.conf import settings

from scripts import sentences

OTHER_LANGS = ("sv", "nb", "de", "fi")
LEFTOVER = re.compile(r"%\(|%s|%d|[{}]|\bNone\b")
# Words of the English sentences that none of the other four languages writes.
ENGLISH_WORDS = re.compile(
    r"\b(the|onto|plays|takes|turns|tried|but|and|with|from|pile|card|cards|player|"
    r"centre|place|slap|slaps|calls|wins|deal)\b",
    re.IGNORECASE,
)
# Codes a short run must meet, so that the test keeps covering the hard cases.
EVENTS = {"played", "refilled", "stress", "won", "laid", "swapped", "uncovered", "locked"}
REFUSALS = {"not-adjacent", "no-stress", "frozen", "not-in-hand", "cannot-take-back"}


@cache
def said() -> tuple[sentences.Said, ...]:
    return tuple(sentences.collect(seeds=1, max_calls=300))


@cache
def english_msgids(lang: str) -> tuple[str, ...]:
    """The catalogue's whole English texts with a translation of their own: the same check
    the page test makes (tests/site/test_translations.py), here on assembled sentences."""
    po = polib.pofile(str(settings.BASE_DIR / "locale" / lang / "LC_MESSAGES" / "django.po"))
    return tuple(
        e.msgid
        for e in po
        if " " in e.msgid and "%" not in e.msgid and e.msgstr and e.msgstr != e.msgid
    )


def test_the_run_meets_every_kind_of_sentence():
    seen = defaultdict(set)
    for s in said():
        seen[s.kind].add(s.code)
    assert seen["event"] >= EVENTS
    assert seen["refusal"] >= REFUSALS
    assert {s.variant for s in said()} == {t[0] for t in sentences.TABLES}


def test_every_code_has_a_finished_sentence_in_every_language():
    for s in said():
        for lang in sentences.LANGS:
            text = s.texts[lang]
            assert text.strip(), (s.kind, s.code, s.variant, lang)
            assert not LEFTOVER.search(text), (lang, text)
            assert text[0] == text[0].upper() and text.rstrip()[-1] in ".!?”“»", (lang, text)


@pytest.mark.parametrize("lang", OTHER_LANGS)
def test_no_english_in_the_other_languages(lang):
    msgids = english_msgids(lang)
    for s in said():
        text = s.texts[lang]
        assert not ENGLISH_WORDS.search(text), (s.code, text)
        assert not [m for m in msgids if m in text], (s.code, text)
        assert text != s.texts["en"], (s.code, text)


def test_the_written_files_hold_every_code_met():
    """docs/sentences/ is what a reader checks: it must not lag behind the codes."""
    for lang in sentences.LANGS:
        written = (sentences.OUT / f"{lang}.txt").read_text(encoding="utf-8")
        headings = set(re.findall(r"^### (.+)$", written, re.M))
        assert {s.code for s in said()} <= headings, lang
