"""The printed agreement as the templates draw it: one column per sheet language.

Rules texts, names and labels come in the sheet's languages (which may differ from the page's:
a Finnish page can prepare a Swedish or a Swedish | Finnish sheet). Free text from the visitor
(names, place, own rules) is passed through as plain strings; the templates escape it.
"""

from __future__ import annotations

from dataclasses import dataclass

import segno
from django.utils import formats, translation
from django.utils.html import escape, strip_tags
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from core.catalogue import variant_entry
from core.options import allowed_players, players_range, value_key

from .config import HouseRulesConfig
from .sheettext import SheetSection, load_sheet_text, render_sections


@dataclass(frozen=True)
class ExtraRule:
    """An engine option that this language's sheet text does not place yet."""

    name: str
    value: str


@dataclass(frozen=True)
class SheetColumn:
    lang: str
    variant_name: str
    heading: str
    facts: tuple[str, ...]
    sections: tuple[SheetSection, ...]
    extra_rules: tuple[ExtraRule, ...]


@dataclass(frozen=True)
class Sheet:
    config: HouseRulesConfig
    columns: tuple[SheetColumn, ...]
    labels: dict[str, str]
    date_text: str
    signature_lines: tuple[str, ...]
    qr_svg: SafeString | None
    link: str

    @property
    def bilingual(self) -> bool:
        return len(self.columns) > 1

    @property
    def lang(self) -> str:
        return self.columns[0].lang

    @property
    def type_size(self) -> str:
        """How large the printed type can be for the page to hold this much text: "large"
        or "medium" for shorter sheets, "" for full ones, "small" for the very fullest
        (tests/browser: every sheet, the default and the fullest, prints on one page)."""
        rows = -(-len(self.signature_lines) // SIGNATURES_PER_ROW)
        length = (max(_text_length(column) for column in self.columns)
                  + OWN_RULE_WEIGHT * sum(len(rule) for rule in self.config.own_rules)
                  + SIGNATURE_ROW_CHARS * rows)
        if length <= LARGE_TYPE_UP_TO:
            return "large"
        if length <= MEDIUM_TYPE_UP_TO:
            return "medium"
        if length > SMALL_TYPE_FROM:
            return "small"
        return ""

    @property
    def link_html(self) -> SafeString:
        """The printed link, which may wrap only after a slash (never inside a word)."""
        parts = self.link.split("/")
        return mark_safe("/<wbr>".join(escape(part) for part in parts))


#: how much text a sheet holds, in characters of rules text (an own rule takes a little
#: more room, a row of signatures as much as a short paragraph), up to which it prints in
#: larger type; measured with tests/browser/test_houserules_browser.py's one-page test.
LARGE_TYPE_UP_TO = 2700
MEDIUM_TYPE_UP_TO = 3400
#: the fullest sheets (every name, five long own rules, the longest sentences) print smaller
SMALL_TYPE_FROM = 4700
OWN_RULE_WEIGHT = 1.4
SIGNATURES_PER_ROW = 4
SIGNATURE_ROW_CHARS = 250


def _text_length(column: SheetColumn) -> int:
    return sum(len(section.title) + len(strip_tags(str(section.html)))
               for section in column.sections)


def _column(config: HouseRulesConfig, lang: str) -> SheetColumn | None:
    text = load_sheet_text(config.variant, lang)
    if text is None:
        return None
    with translation.override(lang):
        entry = variant_entry(config.variant, lang)
        counts = allowed_players(config.variant, config.options)
        players = ngettext("%(range)s player", "%(range)s players", max(counts or (2,))) % {
            "range": players_range(counts)
        }
        extra = tuple(
            ExtraRule(spec.key.replace("_", " "), value_key(config.options[spec.key]))
            for spec in entry.info.options
            if spec.key not in text.options and spec.key in config.options
        )
        return SheetColumn(
            lang=lang,
            variant_name=entry.name,
            heading=_("House rules: %(game)s") % {"game": entry.name},
            facts=(players, text.deck, text.duration),
            sections=tuple(render_sections(text, config.options)),
            extra_rules=extra,
        )


def _labels(languages: tuple[str, ...]) -> dict[str, str]:
    """Sheet-wide labels, in every sheet language at once ("Signature / Allekirjoitus")."""
    wanted = {
        "own": gettext_noop("Our own rules"),
        "own_note": gettext_noop("Agreed between us; the rules above do not cover them."),
        "signatures": gettext_noop("We play by these rules"),
        "signature": gettext_noop("Signature"),
        "place": gettext_noop("Location"),
        "date": gettext_noop("Date"),
        "link": gettext_noop("Play by these rules online"),
        "extra": gettext_noop("More house rules"),
    }
    labels = {}
    for key, msgid in wanted.items():
        parts = []
        for lang in languages:
            with translation.override(lang):
                parts.append(_(msgid))
        labels[key] = " / ".join(dict.fromkeys(parts))
    return labels


def qr_svg(url: str) -> SafeString:
    # segno writes only path data, numbers and the URL's own characters are never echoed.
    code = segno.make(url, error="m")
    return mark_safe(code.svg_inline(scale=4, omitsize=True, svgclass="sheet__qr-code"))


def build_sheet(config: HouseRulesConfig, *, link: str = "") -> Sheet | None:
    """The sheet for a valid configuration; None if a sheet language has no text."""
    columns = [_column(config, lang) for lang in config.languages]
    if any(column is None for column in columns):
        return None
    date_text = ""
    if config.date:
        with translation.override(config.languages[0]):
            date_text = formats.date_format(config.date, "DATE_FORMAT")
    counts = allowed_players(config.variant, config.options)
    lines = max(len(config.names), min(counts or (2,)))
    names = config.names + ("",) * (lines - len(config.names))
    return Sheet(
        config=config,
        columns=tuple(c for c in columns if c is not None),
        labels=_labels(config.languages),
        date_text=date_text,
        signature_lines=names,
        qr_svg=qr_svg(link) if link else None,
        link=link,
    )
