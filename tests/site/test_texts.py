"""The texts as a reader meets them: table rules apart from the website, one word per thing.

Covers every reader-facing text: the rules texts, the example narration, the interface
catalogues (with the comparison and reason sentences in them), meta.toml and the printed
house-rules sheets.
"""

import json
import re
import tomllib

import polib
import pytest
from django.conf import settings

from core.glossary import avoided_forms
from presentation.reasons import REASONS
from rules.rulebook import load_rulebook, split_notes, strip_notes
from rules_engine.registry import VARIANTS

from .pages import LANGS

CONTENT = settings.CONTENT_DIR
ANCHOR = re.compile(r"\{#[a-z0-9_-]+\}")

# Words that only describe the website: they belong in "On this site" notes, never in the
# rules of a real table.
SITE_WORDS = {
    "en": r"\b(web)?site\b|\bonline\b|\bengine\b|\bclick|\btap(s|ped|ping)?\b|\bscreen\b|\bbutton",
    "sv": r"webbplats|\bsajt|\bmotor|\bklick|\bknapp(en|ar|arna)?\b|\bskärm",
    "nb": r"nettsted|nettside|\bmotor|\bklikk|\bknapp(en|er|ene)?\b|\bskjerm",
    "de": r"Website|Webseite|Internetseite|Engine|\bklick|Schaltfläche|Bildschirm",
    "fi": r"sivusto|moottori|\bklikka|napsaut|painike|näytö|näyttö",
}
TIMING = r"milli(second|sekund|sekunt)|\d\s*ms\b|\bms\b"


def _ids() -> set[str]:
    """Option keys, option values and reason codes that only the engine should ever see."""
    found = set()
    for info in VARIANTS.values():
        for spec in info.options:
            found.add(spec.key)
            found.update(c for c in spec.choices if isinstance(c, str))
    found.update(REASONS)
    # ordinary English compounds that happen to be codes too
    return {i for i in found if ("-" in i or "_" in i) and i != "face-down"}


ENGINE_IDS = _ids()
ID_PATTERN = re.compile(
    r"(?<![\w-])(" + "|".join(map(re.escape, sorted(ENGINE_IDS))) + r")(?![\w-])"
)


def rules_text(slug: str, lang: str) -> str:
    return (CONTENT / slug / f"{lang}.md").read_text(encoding="utf-8")


def narration(lang: str) -> list[tuple[str, str]]:
    """(where, text) for every title, intro and step narration of every example."""
    found = []
    for path in sorted(CONTENT.glob("*/examples/*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        where = f"{path.parent.parent.name}/{path.stem}"
        for key in ("title", "intro"):
            if lang in data.get(key, {}):
                found.append((f"{where} {key}", data[key][lang]))
        for i, step in enumerate(data.get("actions", [])):
            if lang in step.get("say", {}):
                found.append((f"{where} step {i}", step["say"][lang]))
    return found


def catalogue(lang: str) -> list[tuple[str, str]]:
    """The interface in one language: msgstr per entry (English: the msgids themselves)."""
    po = polib.pofile(str(settings.BASE_DIR / "locale" / ("sv" if lang == "en" else lang)
                          / "LC_MESSAGES" / "django.po"))
    found = []
    for entry in po:
        if lang == "en":
            found += [(entry.msgid, entry.msgid)] + (
                [(entry.msgid_plural, entry.msgid_plural)] if entry.msgid_plural else [])
        else:
            texts = [entry.msgstr, *entry.msgstr_plural.values()]
            found += [(entry.msgid, t) for t in texts if t]
    return found


def meta(lang: str) -> list[tuple[str, str]]:
    found = []
    for slug in VARIANTS:
        with (CONTENT / slug / "meta.toml").open("rb") as fh:
            for key, value in tomllib.load(fh).get(lang, {}).items():
                found.append((f"{slug} {key}", value))
    return found


def _strings(where: str, value) -> list[tuple[str, str]]:
    if isinstance(value, str):
        return [(where, PLACEHOLDER.sub("", value))]
    if isinstance(value, dict):
        return [hit for key, item in value.items() for hit in _strings(f"{where}.{key}", item)]
    return []


# {key} in a sheet text stands for the sentence of that option's chosen value.
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


def sheets(lang: str) -> list[tuple[str, str]]:
    """Every sentence of the printed house-rules sheets (content/<variant>/house-rules/)."""
    found = []
    for slug in VARIANTS:
        with (CONTENT / slug / "house-rules" / f"{lang}.toml").open("rb") as fh:
            found += _strings(f"{slug}/house-rules/{lang}", tomllib.load(fh))
    return found


def reader_texts(lang: str) -> list[tuple[str, str]]:
    texts = [(f"{slug}/{lang}.md", ANCHOR.sub("", rules_text(slug, lang))) for slug in VARIANTS]
    return texts + narration(lang) + catalogue(lang) + meta(lang) + sheets(lang)


BOOKS = [(slug, lang) for slug in VARIANTS for lang in LANGS]


@pytest.mark.parametrize(("slug", "lang"), BOOKS)
def test_table_rules_hold_no_website_mechanics(slug, lang):
    """Milliseconds, the site, the engine: only inside "On this site" notes."""
    table = strip_notes(rules_text(slug, lang))
    for pattern in (TIMING, SITE_WORDS[lang]):
        hits = [m.group(0) for m in re.finditer(pattern, table, re.I)]
        assert hits == [], (slug, lang, hits)


@pytest.mark.parametrize(("slug", "lang"), BOOKS)
def test_every_text_keeps_its_website_mechanics_in_notes(slug, lang):
    notes = [part for is_note, part in split_notes(rules_text(slug, lang)) if is_note]
    assert notes, "each text says at least once what the site does differently"
    assert all(part.strip() for part in notes)


@pytest.mark.parametrize("lang", LANGS)
def test_no_engine_ids_in_anything_a_reader_sees(lang):
    """Options are named by their names; option ids and reason codes stay in the engine."""
    hits = [(where, m.group(0)) for where, text in reader_texts(lang)
            for m in ID_PATTERN.finditer(text)]
    assert hits == []


@pytest.mark.parametrize("lang", LANGS)
def test_no_avoided_form_anywhere(lang):
    """The glossary's [avoid] table, checked in every text of the language."""
    hits = []
    for where, text in reader_texts(lang):
        for form in avoided_forms(lang):
            hits += [(where, m.group(0), form.instead) for m in form.pattern.finditer(text)]
    assert hits == []


@pytest.mark.parametrize("lang", LANGS)
def test_one_heading_per_section_in_every_variant(lang):
    headings: dict[str, set[str]] = {}
    for slug in VARIANTS:
        for section in load_rulebook(slug, lang).sections:
            headings.setdefault(section.anchor, set()).add(section.title)
    assert {a: t for a, t in headings.items() if len(t) > 1} == {}


CARD_WITH_ENDING = re.compile(r"`(?:[A2-9TJQK][SHDC]|X)`(?:[:’'\-]?[^\W\d_])")


@pytest.mark.parametrize(("slug", "lang"), BOOKS)
def test_no_case_ending_glued_to_a_card_picture(slug, lang):
    """`7H`:n would draw a card followed by ":n"; the sentence is built around it instead."""
    assert CARD_WITH_ENDING.findall(rules_text(slug, lang)) == []


SPLIT_FINNISH = re.compile(
    r"\b(pata|hertta|ruutu|risti) (ässä|kakko|kolmo|nelo|vito|kuuto|seisk|kasi|kasei|ysi|ysei|"
    r"kunink|kymp|jätk|kuning)", re.I)
SPLIT_GERMAN = re.compile(
    r"\b(Kreuz|Pik|Herz|Karo) (Ass|Asse|Zwei|Drei|Vier|Fünf|Sechs|Sieben|Acht|Neun|Zehn|Bube|"
    r"Dame|König)")


@pytest.mark.parametrize(("lang", "pattern"), [("fi", SPLIT_FINNISH), ("de", SPLIT_GERMAN)])
def test_card_names_are_compounds(lang, pattern):
    """Finnish writes "herttaässän", German "Kreuz-Ass": never two loose words."""
    hits = [(where, m.group(0)) for where, text in reader_texts(lang)
            for m in pattern.finditer(text)]
    assert hits == []


def sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])[\"”»“]?\s+(?=[\"„”»“]?[^\W\d_]*[A-ZÅÄÖÆØÜ])",
                                text.strip()) if s]


@pytest.mark.parametrize(("slug", "lang"), BOOKS)
def test_every_variant_has_its_box_in_every_language(slug, lang):
    with (CONTENT / slug / "meta.toml").open("rb") as fh:
        texts = tomllib.load(fh)[lang]
    for key in ("players", "deck", "duration", "age", "in_short"):
        assert texts.get(key, "").strip(), (slug, lang, key)
    assert len(sentences(texts["in_short"])) == 3, texts["in_short"]
    info = VARIANTS[slug]
    assert str(info.players_min) in texts["players"]


def test_the_box_opens_the_rules_page(client):
    text = client.get("/fi/james-bond/").text
    box = text[text.index('class="rules-box"'):text.index('class="toc"')]
    assert "Alle vartti" in box
    assert "2–4" in box
    assert text.index('class="rules-box"') < text.index('id="about"')


def test_notes_are_labelled_in_the_page_language(client):
    text = client.get("/de/stress-se/").text
    assert '<div class="site-note" role="note" aria-label="Auf dieser Website">' in text
    assert text.count('class="site-note"') == rules_text("stress-se", "de").count("::: site")


def test_table_rules_of_a_section_leave_the_notes_out():
    book = load_rulebook("stress-se", "en")
    moves = book.section("moves")
    assert "site-note" in moves.html
    assert "site-note" not in moves.table_html
    assert "100 milliseconds" not in book.section("equal-ranks").table_html


def test_an_unclosed_note_is_an_error():
    from rules.rulebook import NoteError

    with pytest.raises(NoteError):
        split_notes("Some rule.\n\n::: site\nA note without its end.\n")


@pytest.mark.parametrize(
    ("lang", "slug", "words"),
    [("sv", "james-bond", "på norska"), ("nb", "stress-de", "på tysk"),
     ("de", "stressi-fi", "auf Finnisch"), ("fi", "stress-se", "ruotsiksi"),
     ("en", "stress-de", "in German")],
)
def test_the_original_language_is_named_inside_a_whole_sentence(client, lang, slug, words):
    """ "på norska", not "på Norsk"; "ruotsiksi", not "Ruotsi": no language name pasted in."""
    assert words in client.get(f"/{lang}/{slug}/").text
