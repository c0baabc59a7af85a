"""Rules texts: Markdown files parsed once into sections of safe HTML.

A text is `content/<variant>/<lang>.md`: a `# Title`, a lead paragraph, then `## Heading
{#anchor}` sections whose anchors are the same in every language. Card tokens written as
inline code (`7H`) become card components. A block between `::: site` and `:::` lines is an
"On this site" note: what the website itself decides (tie windows, the start signal). Notes
are drawn as labelled boxes (role="note"), hidden in print, and left out of `table_html`, the
text of the table rules alone. Parsing happens once per file version (content only changes on
deploy), so a rules page costs a cache lookup, not a Markdown parse.
"""

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import nh3
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from markdown_it import MarkdownIt

from rules_engine.cards import is_card
from rules_engine.registry import VARIANTS

SECTION_HEADING = re.compile(r"^## (?P<title>.+?)\s*\{#(?P<anchor>[a-z0-9-]+)\}\s*$", re.M)
ANCHORED_H3 = re.compile(r"<h3>(?P<title>.*?)\s*\{#(?P<anchor>[a-z0-9_-]+)\}</h3>")
H3_ID = re.compile(r'<h3 id="(?P<anchor>[a-z0-9_-]+)">')
CARD_CODE = re.compile(r"<code>(?P<code>[A2-9TJQK][SHDC]|X)</code>")

SITE_NOTE = re.compile(r"^::: site[ \t]*\n(?P<body>.*?)\n:::[ \t]*$", re.M | re.S)
NOTE_FENCE = re.compile(r"^:::", re.M)

SPECIAL_SECTION = {"speed": "equal-ranks", "swap": "win-call", "spit": "deal-end"}


def required_anchors(family: str) -> list[str]:
    """The section anchors every text of a variant family has, in order."""
    return [
        "about",
        "equipment",
        "deal",
        "start",
        "moves",
        SPECIAL_SECTION[family],
        "stuck",
        "running-out",
        "winning",
        "options",
        "tips",
        "faq",
    ]


@dataclass(frozen=True)
class Section:
    anchor: str
    title: str
    html: SafeString
    #: the same section without its "On this site" notes: the rules of a real table
    table_html: SafeString
    sub_anchors: tuple[str, ...]


@dataclass(frozen=True)
class Rulebook:
    variant: str
    lang: str
    title: str
    lead: SafeString
    sections: tuple[Section, ...]

    @property
    def anchors(self) -> list[str]:
        return [s.anchor for s in self.sections]

    def all_anchors(self) -> set[str]:
        found = set(self.anchors)
        for section in self.sections:
            found.update(section.sub_anchors)
        return found

    def section(self, anchor: str) -> Section | None:
        return next((s for s in self.sections if s.anchor == anchor), None)


_markdown = MarkdownIt("commonmark", {"html": False, "typographer": True}).enable("table")


def _card_html(code: str) -> str:
    if not is_card(code):
        return f"<code>{code}</code>"
    return render_to_string("rules/card_token.html", {"code": code}).strip()


class NoteError(ValueError):
    """A `::: site` note that is not closed, or a stray `:::` line."""


def split_notes(text: str) -> list[tuple[bool, str]]:
    """The text as (is_note, markdown) parts in reading order."""
    parts: list[tuple[bool, str]] = []
    pos = 0
    for match in SITE_NOTE.finditer(text):
        parts.append((False, text[pos : match.start()]))
        parts.append((True, match.group("body")))
        pos = match.end()
    parts.append((False, text[pos:]))
    for is_note, part in parts:
        if not is_note and NOTE_FENCE.search(part):
            raise NoteError(f"unclosed or stray note fence near: {part.strip()[:60]!r}")
    return parts


def strip_notes(text: str) -> str:
    """The table rules alone: the Markdown with every "On this site" note removed."""
    return "".join(part for is_note, part in split_notes(text) if not is_note)


def _render_part(text: str) -> str:
    html = nh3.clean(_markdown.render(text))
    return ANCHORED_H3.sub(r'<h3 id="\g<anchor>">\g<title></h3>', html)


def _note_html(text: str) -> str:
    # A note, not a landmark: a page has many of them, and each is part of its section.
    label = escape(gettext("On this site"))
    return (
        f'<div class="site-note" role="note" aria-label="{label}">'
        f'<p class="site-note__label">{label}</p>{_render_part(text)}</div>'
    )


def render_markdown(
    text: str, lang: str, *, notes: bool = True
) -> tuple[SafeString, tuple[str, ...]]:
    """Markdown → sanitised HTML with anchored h3 headings, drawn cards and site notes."""
    with translation.override(lang):
        html = "".join(
            (_note_html(part) if notes else "") if is_note else _render_part(part)
            for is_note, part in split_notes(text)
        )
        anchors = tuple(m.group("anchor") for m in H3_ID.finditer(html))
        html = CARD_CODE.sub(lambda m: _card_html(m.group("code")), html)
    return mark_safe(html), anchors


def text_path(variant: str, lang: str) -> Path:
    return settings.CONTENT_DIR / variant / f"{lang}.md"


@lru_cache(maxsize=64)
def _parse(path: Path, mtime_ns: int, variant: str, lang: str) -> Rulebook:
    source = path.read_text(encoding="utf-8")
    head, *_ = SECTION_HEADING.split(source, maxsplit=1)
    title_line, _, lead = head.strip().partition("\n")
    matches = list(SECTION_HEADING.finditer(source))
    sections = []
    for i, match in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(source)
        body = source[match.end() : end]
        body_html, sub_anchors = render_markdown(body, lang)
        table_html, _ = render_markdown(body, lang, notes=False)
        sections.append(
            Section(
                match.group("anchor"), match.group("title").strip(), body_html, table_html,
                sub_anchors,
            )
        )
    lead_html, _ = render_markdown(lead.strip(), lang)
    return Rulebook(
        variant=variant,
        lang=lang,
        title=title_line.lstrip("# ").strip(),
        lead=lead_html,
        sections=tuple(sections),
    )


def load_rulebook(variant: str, lang: str) -> Rulebook | None:
    path = text_path(variant, lang)
    try:
        mtime = path.stat().st_mtime_ns
    except FileNotFoundError:
        return None
    return _parse(path, mtime, variant, lang)


def rulebooks_load() -> bool:
    """Every variant's rules text loads in every site language (the health check's)."""
    languages = [code for code, _name in settings.LANGUAGES]
    return all(load_rulebook(slug, lang) is not None for slug in VARIANTS for lang in languages)
