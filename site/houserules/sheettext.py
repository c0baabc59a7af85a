"""The short rules of the printed sheet: content/<variant>/house-rules/<lang>.toml.

A file holds the header facts (deck, duration), the short rules in fixed sections written in
Markdown, and per engine option its name, a one-line explanation and per value a label (for
the form) and a rule sentence (for the sheet). A section text names an option as `{key}`; the
sentence for the chosen value stands in its place, so the sheet reads as one set of rules,
not as a list of switches. A sentence may itself hold a placeholder (a limit that only
matters when another option is on). Files are parsed once per version (their mtime).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils.safestring import SafeString

from core.options import value_key
from rules.rulebook import render_markdown

#: the sheet's sections, in print order; "special" is the variant's own event (the equal-rank
#: call, the swap and the win call, the end of a deal).
SECTION_IDS = ("setup", "move", "special", "stuck", "running-out", "winning", "answers")
PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9_]*)\}")
#: how deep a sentence may nest another option's placeholder.
MAX_NESTING = 3


class SheetTextError(ValueError):
    """A content file that does not have the shape described above."""


@dataclass(frozen=True)
class OptionText:
    name: str
    explain: str
    labels: dict[str, str]
    rules: dict[str, str]


# eq=False: hashed by identity, and _parse hands out one object per file version, so the
# rendered sections below are cached per version.
@dataclass(frozen=True, eq=False)
class SheetText:
    variant: str
    lang: str
    deck: str
    duration: str
    sections: tuple[tuple[str, str, str], ...]  # (id, title, markdown)
    options: dict[str, OptionText]

    def placeholders(self) -> dict[str, list[str]]:
        """Option key → where it is named: section ids or '<key>=<value>' of a sentence."""
        found: dict[str, list[str]] = {}
        for section_id, _title, text in self.sections:
            for key in PLACEHOLDER.findall(text):
                found.setdefault(key, []).append(section_id)
        for owner, option in self.options.items():
            for value, rule in option.rules.items():
                for key in PLACEHOLDER.findall(rule):
                    found.setdefault(key, []).append(f"{owner}={value}")
        return found


@dataclass(frozen=True)
class SheetSection:
    id: str
    title: str
    html: SafeString


def text_path(variant: str, lang: str) -> Path:
    return settings.CONTENT_DIR / variant / "house-rules" / f"{lang}.toml"


def _string(table: dict, key: str, where: str) -> str:
    value = table.get(key)
    if not isinstance(value, str) or not value.strip():
        raise SheetTextError(f"{where}: '{key}' must be a non-empty string")
    return value.strip()


def _option(key: str, table: Any, where: str) -> OptionText:
    if not isinstance(table, dict) or not isinstance(table.get("values"), dict):
        raise SheetTextError(f"{where}: options.{key} needs name, explain and values")
    labels, rules = {}, {}
    for value, entry in table["values"].items():
        if not isinstance(entry, dict):
            raise SheetTextError(f"{where}: options.{key}.values.{value} must be a table")
        labels[value] = _string(entry, "label", f"{where} options.{key}.values.{value}")
        rules[value] = _string(entry, "rule", f"{where} options.{key}.values.{value}")
    return OptionText(
        name=_string(table, "name", f"{where} options.{key}"),
        explain=_string(table, "explain", f"{where} options.{key}"),
        labels=labels,
        rules=rules,
    )


@lru_cache(maxsize=64)
def _parse(path: Path, mtime_ns: int, variant: str, lang: str) -> SheetText:
    where = f"{variant}/house-rules/{lang}.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise SheetTextError(f"{where}: {exc}") from exc
    sections_table = data.get("sections")
    if not isinstance(sections_table, dict) or set(sections_table) != set(SECTION_IDS):
        raise SheetTextError(f"{where}: sections must be exactly {', '.join(SECTION_IDS)}")
    sections = tuple(
        (
            sid,
            _string(sections_table[sid], "title", f"{where} sections.{sid}"),
            _string(sections_table[sid], "text", f"{where} sections.{sid}"),
        )
        for sid in SECTION_IDS
    )
    options = {
        key: _option(key, table, where) for key, table in (data.get("options") or {}).items()
    }
    return SheetText(
        variant=variant,
        lang=lang,
        deck=_string(data, "deck", where),
        duration=_string(data, "duration", where),
        sections=sections,
        options=options,
    )


def load_sheet_text(variant: str, lang: str) -> SheetText | None:
    path = text_path(variant, lang)
    try:
        mtime = path.stat().st_mtime_ns
    except FileNotFoundError:
        return None
    return _parse(path, mtime, variant, lang)


def fill_placeholders(text: str, sheet: SheetText, options: dict[str, Any]) -> str:
    """Each `{key}` replaced by the chosen value's sentence (nested ones too)."""

    def sentence(match: re.Match) -> str:
        key = match.group(1)
        option = sheet.options.get(key)
        if option is None or key not in options:
            return ""
        return option.rules.get(value_key(options[key]), "")

    for _depth in range(MAX_NESTING):
        if not PLACEHOLDER.search(text):
            break
        text = PLACEHOLDER.sub(sentence, text)
    return text


def render_sections(sheet: SheetText, options: dict[str, Any]) -> list[SheetSection]:
    chosen = tuple(sorted((key, value_key(value)) for key, value in options.items()))
    return list(_render(sheet, chosen))


@lru_cache(maxsize=512)
def _render(sheet: SheetText, chosen: tuple[tuple[str, str], ...]) -> tuple[SheetSection, ...]:
    # value_key() of a value's string form is that string, so the keys stand in for values.
    options = dict(chosen)
    return tuple(
        SheetSection(
            section_id, title, render_markdown(fill_placeholders(text, sheet, options),
                                               sheet.lang)[0]
        )
        for section_id, title, text in sheet.sections
    )
