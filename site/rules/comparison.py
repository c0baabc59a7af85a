"""The variant comparison, built from the engine's registry metadata.

Every cell is the engine's {code, params, section} for one dimension of one variant, turned
into a sentence in the visitor's language. Nothing here knows a rule: when the engine's
metadata changes, the table changes.
"""

from dataclasses import dataclass

from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from rules_engine.registry import VARIANTS
from rules_engine.variant import METADATA_KEYS

from .phrases import DIMENSION_LABELS, describe


@dataclass(frozen=True)
class Cell:
    slug: str
    code: str
    params: dict
    text: str
    url: str


@dataclass(frozen=True)
class Row:
    dimension: str
    label: str
    cells: tuple[Cell, ...]

    @property
    def differs(self) -> bool:
        return len({cell.text for cell in self.cells}) > 1


def build_rows(slugs: list[str]) -> list[Row]:
    rows = []
    for dimension in METADATA_KEYS:
        cells = []
        for slug in slugs:
            cell = VARIANTS[slug].metadata[dimension]
            url = reverse("rules", kwargs={"variant": slug}) + f"#{cell['section']}"
            text = describe(dimension, cell["code"], cell["params"])
            cells.append(Cell(slug, cell["code"], cell["params"], text, url))
        rows.append(Row(dimension, str(DIMENSION_LABELS[dimension]), tuple(cells)))
    return rows


def difference_sentences(rows: list[Row], names: dict[str, str]) -> list[str]:
    """One plain sentence per row where two variants differ."""
    sentences = []
    for row in rows:
        if not row.differs:
            continue
        first, second = row.cells
        sentences.append(
            _("%(dimension)s: in %(a)s, %(a_text)s; in %(b)s, %(b_text)s")
            % {
                "dimension": row.label,
                "a": names[first.slug],
                "a_text": _lower_first(first.text),
                "b": names[second.slug],
                "b_text": _lower_first(second.text),
            }
        )
    return sentences


def _lower_first(text: str) -> str:
    text = text.rstrip(".")
    # German capitalises nouns, so a sentence's first word keeps its case there.
    if get_language() == "de" or text[:2] == text[:2].upper():
        return text
    return text[:1].lower() + text[1:]
