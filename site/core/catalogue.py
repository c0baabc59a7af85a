"""The variants as the site presents them: engine facts joined with localized names.

Player counts, decks and sources come from the engine's registry; names, summaries, origins
and the facts of the box that opens each rules page are content
(content/<variant>/meta.toml), written per language.
"""

import tomllib
from dataclasses import dataclass
from functools import cache

from django.conf import settings
from django.http import Http404

from rules_engine.registry import VARIANTS, VariantInfo

BOX_KEYS = ("players", "deck", "duration", "age", "in_short")
# The box facts a meta.toml may list under `estimated`: no source gives them, so the page
# says they are this site's own estimate.
ESTIMABLE = ("duration", "age")


@dataclass(frozen=True)
class Box:
    """The short box at the top of a rules page: the game at a glance, for a real table."""

    players: str
    deck: str
    duration: str
    age: str
    in_short: str
    estimated: frozenset[str] = frozenset()


@dataclass(frozen=True)
class VariantEntry:
    info: VariantInfo
    name: str
    summary: str
    origin: str
    box: Box | None = None

    @property
    def slug(self) -> str:
        return self.info.slug

    @property
    def players(self) -> str:
        low, high = self.info.players_min, self.info.players_max
        return str(low) if low == high else f"{low}–{high}"


@cache
def _meta(slug: str) -> dict:
    path = settings.CONTENT_DIR / slug / "meta.toml"
    if not path.exists():
        return {}
    with path.open("rb") as fh:
        return tomllib.load(fh)


def variant_entry(slug: str, lang: str) -> VariantEntry:
    info = VARIANTS[slug]
    meta = _meta(slug)
    texts = meta.get(lang) or meta.get("en") or {}
    estimated = frozenset(meta.get("estimated", ()))
    if not estimated <= set(ESTIMABLE):
        raise ValueError(f"{slug}/meta.toml: 'estimated' may list only {ESTIMABLE}")
    return VariantEntry(
        info=info,
        name=texts.get("name", slug),
        summary=texts.get("summary", ""),
        origin=texts.get("origin", ""),
        box=Box(**{key: texts[key] for key in BOX_KEYS}, estimated=estimated)
        if all(k in texts for k in BOX_KEYS) else None,
    )


def all_variants(lang: str) -> list[VariantEntry]:
    return [variant_entry(slug, lang) for slug in VARIANTS]


def variant_or_404(slug: str, lang: str) -> VariantEntry:
    if slug not in VARIANTS:
        raise Http404(slug)
    return variant_entry(slug, lang)
