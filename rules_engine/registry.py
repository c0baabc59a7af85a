"""The variant registry, in the site's display order.

Registering a variant = a module `rules_engine/variants/<name>.py` that ends with one
`register(VariantInfo(...))` call (rules_engine.variant.register), imported by the
`rules_engine.variants` package in display order. This module imports that package once.
"""

from __future__ import annotations

from typing import Any

from rules_engine import notation as _notation
from rules_engine import options as _options
from rules_engine import variants as _variants  # noqa: F401  (registers every variant)
from rules_engine.game import Game
from rules_engine.positions import PositionError
from rules_engine.variant import METADATA_KEYS, VariantInfo, registered

__all__ = [
    "METADATA_KEYS",
    "VARIANTS",
    "UnknownVariant",
    "VariantInfo",
    "game_class",
    "game_from_json",
    "game_from_notation",
    "game_from_position",
    "get_variant",
    "new_game",
    "position_from_notation",
    "to_json",
    "validate_options",
]

class UnknownVariant(KeyError):
    def __str__(self) -> str:  # KeyError would quote the whole message
        return str(self.args[0]) if self.args else "unknown variant"


VARIANTS: dict[str, VariantInfo] = registered()


def game_class(slug: str) -> type[Game]:
    """The variant's Game subclass (UnknownVariant for a bad slug)."""
    return get_variant(slug).game_class


def get_variant(slug: str) -> VariantInfo:
    info = VARIANTS.get(slug) if isinstance(slug, str) else None
    if info is None:
        valid = ", ".join(VARIANTS)
        raise UnknownVariant(f"unknown variant {slug!r}; valid variants: {valid}")
    return info


def validate_options(slug: str, given: Any, *, from_strings: bool = False) -> dict:
    """The variant's full option dict (defaults filled in); OptionError names a bad key or
    value, UnknownVariant a bad slug."""
    info = get_variant(slug)
    return _options.validate_options(info.options, given, from_strings=from_strings,
                                     name=info.slug)


def new_game(
    slug: str,
    *,
    players: int | None = None,
    seed: int = 0,
    options: dict | None = None,
    debug: bool = False,
) -> Game:
    """A freshly dealt game; options are validated (OptionError) and defaults filled in."""
    return get_variant(slug).game_class.new(
        players=players, seed=seed, options=options, debug=debug
    )


def game_from_position(
    slug: str, position: dict, *, options: dict | None = None, debug: bool = False
) -> Game:
    """A game set up from an explicit position (docs/scenarios.md); PositionError if malformed."""
    return get_variant(slug).game_class.from_position(position, options=options, debug=debug)


def position_from_notation(text: str) -> _notation.Notated:
    """What a notation line (Game.notation()) says: variant, full options, position form.
    Malformed text, an unknown variant or a bad option is a PositionError naming it."""
    slug, given, fields = _notation.split_head(text)
    info = VARIANTS.get(slug)
    if info is None:
        raise PositionError(f"unknown variant {slug!r}; valid variants: {', '.join(VARIANTS)}")
    return _notation.read(info, given, fields)


def game_from_notation(text: str, *, debug: bool = False) -> Game:
    """A game set up from a notation line (PositionError if the text or the position is bad)."""
    notated = position_from_notation(text)
    return game_from_position(notated.variant, notated.position, options=notated.options,
                              debug=debug)


def game_from_json(data: dict) -> Game:
    """Any variant's game rebuilt from its to_json() output (dispatches on data["variant"])."""
    return get_variant(data["variant"]).game_class.from_json(data)


def to_json() -> dict:
    return {"variants": [info.to_json() for info in VARIANTS.values()]}
