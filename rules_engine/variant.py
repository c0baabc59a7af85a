"""VariantInfo: what the registry knows about a variant, and the comparison metadata form."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules_engine.options import OptionSpec

#: the comparison table's dimensions, in display order (see docs/engine.md for every code).
METADATA_KEYS = (
    "players",
    "decks",
    "cards_per_player",
    "in_front",
    "start",
    "legal_move",
    "equal_ranks",
    "stuck",
    "running_out",
    "end",
    "scoring",
    "options",
)

FAMILIES = ("speed", "swap", "spit")


def dim(code: str, section: str, **params: Any) -> dict:
    """One comparison cell: a stable code the site translates, its parameters, its anchor."""
    return {"code": code, "params": params, "section": section}


@dataclass(frozen=True)
class VariantInfo:
    slug: str
    family: str
    players_min: int
    players_max: int
    decks: int
    jokers_max: int
    cards_per_player: int | dict
    source_file: str
    source_language: str
    options: tuple[OptionSpec, ...]
    metadata: dict
    game_class: type

    def __post_init__(self) -> None:
        # A variant with a missing or extra dimension would break the comparison page.
        if tuple(self.metadata) != METADATA_KEYS:
            raise ValueError(
                f"{self.slug}: metadata keys must be exactly {METADATA_KEYS} in that order"
            )
        for key, cell in self.metadata.items():
            if set(cell) != {"code", "params", "section"}:
                raise ValueError(f"{self.slug}: metadata {key!r} needs code, params, section")
        if self.family not in FAMILIES:
            raise ValueError(f"{self.slug}: family must be one of {FAMILIES}")

    def option(self, key: str) -> OptionSpec:
        for spec in self.options:
            if spec.key == key:
                return spec
        raise KeyError(key)

    def to_json(self) -> dict:
        return {
            "slug": self.slug,
            "family": self.family,
            "players_min": self.players_min,
            "players_max": self.players_max,
            "decks": self.decks,
            "jokers_max": self.jokers_max,
            "cards_per_player": self.cards_per_player,
            "source_file": self.source_file,
            "source_language": self.source_language,
            "options": [s.to_json() for s in self.options],
            "metadata": self.metadata,
        }
