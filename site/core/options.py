"""Engine options as the site's URLs and forms carry them: `opt-<key>=<value>`.

The house-rules configurator, its printed QR code, the rules page's box of chosen house
rules and the demo's new-game form all read and write the same pairs, so a link made by one
opens the others with the same rules. The engine validates; this module turns its verdicts
into translated messages at the field concerned.
"""

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from django.utils.translation import gettext as _

from rules_engine.options import OptionError
from rules_engine.registry import VARIANTS, new_game, validate_options

from .params import clean_text, query_value

OPTION_PREFIX = "opt-"
MAX_UNKNOWN_REPORTED = 3


def value_key(value: Any) -> str:
    """An option value as the query string, the content files and the forms write it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def option_params(params: Any) -> dict[str, str]:
    """The `opt-<key>` pairs of a query string, as strings (the last of repeated ones)."""
    given: dict[str, str] = {}
    keys = params.keys() if hasattr(params, "keys") else []
    for name in keys:
        if isinstance(name, str) and name.startswith(OPTION_PREFIX):
            given[name[len(OPTION_PREFIX) :]] = query_value(params, name)
    return given


def check_options(variant: str, given: Mapping[str, str]) -> tuple[dict, dict[str, list[str]]]:
    """The engine's full option dict for the acceptable part of `given`, and the errors of
    the rest by form field (`opt-<key>`, or `options` for keys the game does not have)."""
    errors: dict[str, list[str]] = {}
    known = {spec.key for spec in VARIANTS[variant].options}
    valid: dict[str, str] = {}
    for key, value in given.items():
        if key not in known:
            unknown = errors.setdefault("options", [])
            if len(unknown) < MAX_UNKNOWN_REPORTED:  # a hostile URL gets no wall of text
                unknown.append(
                    _("This game has no option called “%(key)s”.")
                    % {"key": clean_text(key)[:40]}
                )
            continue
        try:
            # One option at a time, so that a refusal lands at the field that caused it.
            validate_options(variant, {key: value}, from_strings=True)
        except OptionError:
            errors[OPTION_PREFIX + key] = [_("Choose one of the values listed here.")]
            continue
        valid[key] = value
    return validate_options(variant, valid, from_strings=True), errors


@lru_cache(maxsize=256)
def _allowed_players(variant: str, options: tuple[tuple[str, Any], ...]) -> tuple[int, ...]:
    info = VARIANTS[variant]
    allowed = []
    for count in range(info.players_min, info.players_max + 1):
        try:
            new_game(variant, players=count, options=dict(options))
        except (ValueError, OptionError):
            continue
        allowed.append(count)
    return tuple(allowed)


def allowed_players(variant: str, options: Mapping[str, Any]) -> tuple[int, ...]:
    """The player counts the engine accepts with these options: it deals a game to see."""
    return _allowed_players(variant, tuple(sorted(options.items())))


def players_range(counts: tuple[int, ...]) -> str:
    if not counts:
        return ""
    low, high = min(counts), max(counts)
    return str(low) if low == high else f"{low}–{high}"
