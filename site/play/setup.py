"""The new-game form: players, a bot level per opponent, every option of the variant, a seed.

The form is generated from the engine's option schema (rules_engine.options.OptionSpec) and
reads the same query string as the house-rules configurator, `opt-<key>=<value>`, so a
house-rules link opens it with the table's rules filled in; each option is a choice between
its values, named as the house-rules sheet names them. The engine validates the options and
says which player counts it deals; this module only turns its verdicts into messages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _

from core.options import (
    OPTION_PREFIX,
    allowed_players,
    check_options,
    option_params,
    players_range,
    value_key,
)
from core.params import parse_natural
from houserules.optionwords import option_words
from presentation.table import level_choice
from rules_engine.bots import LEVELS
from rules_engine.registry import VARIANTS

from .models import HUMAN, Game

DEFAULT_LEVEL = "club"
MAX_SEED = 2**63 - 1


@dataclass(frozen=True)
class Choice:
    value: str
    label: str
    selected: bool


@dataclass(frozen=True)
class OptionField:
    key: str
    name: str
    choices: tuple[Choice, ...]
    anchor: str
    error: str = ""


@dataclass(frozen=True)
class LevelField:
    number: int  # the seat's player number (2, 3, ...)
    choices: tuple[Choice, ...]
    hidden: bool
    error: str = ""


@dataclass
class Setup:
    """What the form asked for, and whether the engine can deal it."""

    variant: str
    players: int
    levels: list[str]
    options: dict[str, Any]
    seed: int | None
    raw_options: dict[str, str] = field(default_factory=dict)
    raw_seed: str = ""
    errors: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def seats(self) -> list[str]:
        return [HUMAN, *self.levels]


def _last(params: QueryDict, name: str) -> str:
    values = params.getlist(name)
    return str(values[-1]).strip() if values else ""


def parse_setup(variant: str, params: QueryDict) -> Setup:
    info = VARIANTS[variant]
    errors: dict[str, str] = {}
    raw_options = option_params(params)
    options, option_errors = check_options(variant, raw_options)
    errors.update((name, " ".join(messages)) for name, messages in option_errors.items())

    raw_players = _last(params, "players")
    players = info.players_min
    if raw_players:
        number = parse_natural(raw_players, digits=2)
        if number is not None:
            players = number
        else:
            errors["players"] = _("Choose the number of players from the list.")
    allowed = allowed_players(variant, options)
    if "players" not in errors and players not in allowed:
        errors["players"] = _("With these rules the game is for %(range)s players.") % {
            "range": players_range(allowed)}
        players = min(allowed, key=lambda n: abs(n - players))

    levels = []
    for seat in range(1, max(players, info.players_min)):
        level = _last(params, f"level-{seat + 1}") or DEFAULT_LEVEL
        if level not in LEVELS:
            errors[f"level-{seat + 1}"] = _("Choose a level from the list.")
            level = DEFAULT_LEVEL
        levels.append(level)

    raw_seed = _last(params, "seed")
    seed = None
    if raw_seed:
        seed = parse_natural(raw_seed, digits=len(str(MAX_SEED)))
        if seed is None or seed > MAX_SEED:
            seed = None
            errors["seed"] = _("A deal number is a whole number such as 42, or empty for a "
                               "new deal.")
    return Setup(variant, players, levels, options, seed, raw_options, raw_seed, errors)


def option_fields(setup: Setup, lang: str) -> list[OptionField]:
    """Each option with the names and value labels of the house-rules sheet, so the form,
    the configurator and the printed sheet agree; the link goes to the rules text's
    section of the option."""
    fields = []
    for words in option_words(setup.variant, lang):
        key = words.spec.key
        current = value_key(setup.options[key])
        fields.append(OptionField(
            key=key, name=words.name,
            choices=tuple(Choice(value_key(value), label, value_key(value) == current)
                          for value, label in words.values),
            anchor=f"opt-{key}", error=setup.errors.get(OPTION_PREFIX + key, "")))
    return fields


def player_choices(setup: Setup) -> tuple[Choice, ...]:
    info = VARIANTS[setup.variant]
    return tuple(Choice(str(n), str(n), n == setup.players)
                 for n in range(info.players_min, info.players_max + 1))


def level_fields(setup: Setup) -> list[LevelField]:
    info = VARIANTS[setup.variant]
    fields = []
    for seat in range(1, info.players_max):
        current = setup.levels[seat - 1] if seat - 1 < len(setup.levels) else DEFAULT_LEVEL
        fields.append(LevelField(
            number=seat + 1,
            choices=tuple(Choice(level, level_choice(level), level == current) for level in LEVELS),
            hidden=seat >= setup.players, error=setup.errors.get(f"level-{seat + 1}", "")))
    return fields


def again_pairs(row: Game) -> list[tuple[str, str]]:
    """The set-up form's query for a new game with a played game's players and rules."""
    pairs = [("players", str(row.players))]
    pairs += [(f"level-{s + 1}", kind) for s, kind in enumerate(row.seats) if s > 0]
    pairs += [(OPTION_PREFIX + key, value_key(value)) for key, value in row.options.items()]
    return pairs
