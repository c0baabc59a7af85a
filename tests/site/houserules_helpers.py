"""Shared helpers for the house-rules tests: configurations and the sheet's printed text."""

import html
import re

from rules_engine.registry import VARIANTS

LANGS = ["sv", "nb", "de", "fi", "en"]
SHEET = re.compile(r'<article class="sheet.*?</article>', re.S)
TAGS = re.compile(r"<[^>]+>")
OWN_RULE = (
    "Whoever loses a deal shuffles and deals the next one; nobody touches a card before the word"
)


def option_values(spec) -> list:
    return [True, False] if spec.type == "bool" else list(spec.choices)


def query_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def sheet_html(page: str) -> str:
    match = SHEET.search(page)
    assert match, "no sheet on the page"
    return match.group(0)


def sheet_text(page: str) -> str:
    """The words a printed sheet carries (tags gone, entities decoded, spaces single)."""
    # <wbr> marks where a printed link may wrap: no space in the text
    text = sheet_html(page).replace("<wbr>", "")
    return " ".join(html.unescape(TAGS.sub(" ", text)).split())


def longest_options(variant: str, lang: str) -> dict:
    """Per option, the value whose sentence on the sheet is longest: the fullest sheet."""
    from houserules.sheettext import load_sheet_text

    text = load_sheet_text(variant, lang)
    chosen = {}
    for spec in VARIANTS[variant].options:
        rules = text.options[spec.key].rules
        chosen[spec.key] = max(option_values(spec), key=lambda v: len(rules[query_value(v)]))
    return chosen


def longest_query(variant: str, langs: tuple[str, ...], paper: str) -> list[tuple[str, str]]:
    """All names, five own rules of 140 characters, both languages, the longest sentences."""
    info = VARIANTS[variant]
    options = longest_options(variant, langs[0])
    if variant == "james-bond":
        options["second_deck"] = True  # eight names need the second deck
    pairs = [(f"opt-{k}", query_value(v)) for k, v in options.items()]
    pairs += [("name", f"Maximilian-Alexander {i}") for i in range(1, info.players_max + 1)]
    pairs += [("own", f"{OWN_RULE} {i}"[:140].ljust(140, ".")) for i in range(1, 6)]
    pairs += [("place", "Grandmother's summer cottage by the lake, Ylläsjärvi, Lapland")]
    pairs += [("date", "2025-07-14"), ("lang", langs[0]), ("paper", paper)]
    if len(langs) > 1:
        pairs.append(("lang2", langs[1]))
    return pairs
