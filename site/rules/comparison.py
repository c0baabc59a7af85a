"""The variant comparison, built from the engine's registry metadata.

Every cell is the engine's {code, params, section} for one dimension of one variant, turned
into a sentence in the visitor's language. Nothing here knows a rule: when the engine's
metadata changes, the table changes.
"""

from dataclasses import dataclass

from django.urls import reverse

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
            text = describe(dimension, cell["code"], cell["params"], slug)
            cells.append(Cell(slug, cell["code"], cell["params"], text, url))
        rows.append(Row(dimension, str(DIMENSION_LABELS[dimension]), tuple(cells)))
    return rows


@dataclass(frozen=True)
class Difference:
    """One row on which the variants differ: its label and each variant's own sentence."""

    label: str
    parts: tuple[tuple[str, str], ...]


def differences(rows: list[Row], names: dict[str, str]) -> list[Difference]:
    """The rows where the variants differ, each variant's cell kept as its own sentence.

    The cells are whole sentences; joining them into one would need grammar no template can
    give in five languages, so each stays apart under the variant's name.
    """
    return [
        Difference(row.label, tuple((names[cell.slug], cell.text) for cell in row.cells))
        for row in rows
        if row.differs
    ]
