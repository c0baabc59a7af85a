"""What a table, an offer or a sentence needs to know about how a game is played that its
board does not say: the engine states it (rules_engine.UiFacts, VariantInfo's UI facts),
and this module is the one place the site reads it from."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules_engine import UiFacts
from rules_engine.game import Game
from rules_engine.options import OptionError
from rules_engine.registry import VARIANTS

__all__ = ["UiFacts", "ui_facts", "variant_call_word", "variant_defaults", "variant_facts"]


def ui_facts(game: Game) -> UiFacts:
    """The facts of `game`, for its options (call word, gesture, a call on the own pile
    only, refill as an action, whole-stack plays, combining, ready, the grab limit)."""
    return game.ui


def variant_call_word(slug: str) -> str:
    """The word a variant's players call with its default options (German Stress's shout
    names no pile, so its narration names the word)."""
    info = VARIANTS.get(slug)
    return info.call_word if info else "stress"


def variant_defaults(slug: str) -> UiFacts | None:
    """The facts of a game of this variant with its default options (a sentence that names
    no options, e.g. the narration of a call, reads them here); None for an unknown slug."""
    info = VARIANTS.get(slug)
    return info.ui() if info else None


def variant_facts(slug: str, options: Mapping[str, Any]) -> UiFacts | None:
    """The facts of a game of this variant with these options (a stored game's, without
    dealing one); None for an unknown variant or options it refuses."""
    info = VARIANTS.get(slug)
    if info is None:
        return None
    try:
        return info.ui(options)
    except OptionError:
        return None
