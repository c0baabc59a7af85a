"""The new-game form: players, a bot level per opponent, every option of the variant, a seed.

The form is generated from the engine's option schema (rules_engine.options.OptionSpec) and
reads the same query string as the house-rules configurator, `opt-<key>=<value>`, so a
house-rules link opens it with the table's rules filled in. The engine validates the options
and says which player counts it deals; this module only turns its verdicts into messages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from core.options import (
    OPTION_PREFIX,
    allowed_players,
    check_options,
    option_params,
    players_range,
    value_key,
)
from rules.rulebook import load_rulebook
from rules_engine.bots import LEVELS
from rules_engine.options import OptionSpec
from rules_engine.registry import VARIANTS

from .models import HUMAN
from .table import CALL_WORDS, level_name

DEFAULT_LEVEL = "club"
MAX_SEED = 2**63 - 1
OPTION_HEADING = re.compile(r'<h3 id="opt-(?P<key>[a-z0-9_]+)">(?P<title>.*?)</h3>')


@dataclass(frozen=True)
class Choice:
    value: str
    label: str
    selected: bool


@dataclass(frozen=True)
class OptionField:
    key: str
    name: str
    kind: str  # "bool" or "choice"
    choices: tuple[Choice, ...]
    checked: bool
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
        if raw_players.isascii() and raw_players.isdigit() and len(raw_players) < 3:
            players = int(raw_players)
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
        # Bounded by length first: int() refuses strings of more than 4,300 digits.
        if (raw_seed.isascii() and raw_seed.isdigit() and len(raw_seed) <= len(str(MAX_SEED))
                and int(raw_seed) <= MAX_SEED):
            seed = int(raw_seed)
        else:
            errors["seed"] = _("A deal number is a whole number such as 42, or empty for a "
                               "new deal.")
    return Setup(variant, players, levels, options, seed, raw_options, raw_seed, errors)


@lru_cache(maxsize=64)
def _option_names(variant: str, lang: str) -> dict[str, str]:
    """Each option's name as the rules text of this language heads it (`#opt-<key>`)."""
    book = load_rulebook(variant, lang) or load_rulebook(variant, "en")
    section = book.section("options") if book else None
    if section is None:
        return {}
    return {m.group("key"): re.sub(r"<[^>]+>", "", m.group("title"))
            for m in OPTION_HEADING.finditer(section.html)}


def choice_label(spec: OptionSpec, value: Any) -> str:
    labels = {
        ("slap_penalty", "first-chooses"): _("The first to call picks a pile; the other "
                                             "player takes the other one"),
        ("slap_penalty", "slowest-takes-both"): _("The slower player takes both piles"),
        ("one_empty_stuck", "one-turns"): _("Only the player with a draw pile turns a card"),
        ("one_empty_stuck", "give-a-card"): _("The other player gives a card, both turn"),
        ("both_empty_stuck", "take-own-side"): _("Each takes the centre pile on their side"),
        ("both_empty_stuck", "fewer-cards-wins"): _("Fewer cards left wins"),
    }
    if spec.key == "call_word":
        return CALL_WORDS.get(value, str(value))
    if spec.key == "jokers":
        return pgettext("number of jokers", "none") if value == 0 else str(value)
    if spec.key == "grab_limit":
        return _("at most %(n)s cards") % {"n": value}
    return str(labels.get((spec.key, value), value))


def option_fields(setup: Setup, lang: str) -> list[OptionField]:
    names = _option_names(setup.variant, lang)
    fields = []
    for spec in VARIANTS[setup.variant].options:
        current = setup.options[spec.key]
        choices: tuple[Choice, ...] = ()
        if spec.type != "bool":
            choices = tuple(Choice(value_key(v), choice_label(spec, v), v == current)
                            for v in spec.choices)
        fields.append(OptionField(
            key=spec.key, name=names.get(spec.key, spec.key),
            kind="bool" if spec.type == "bool" else "choice", choices=choices,
            checked=current is True, anchor=f"opt-{spec.key}",
            error=setup.errors.get(OPTION_PREFIX + spec.key, "")))
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
            choices=tuple(Choice(level, level_name(level), level == current) for level in LEVELS),
            hidden=seat >= setup.players, error=setup.errors.get(f"level-{seat + 1}", "")))
    return fields
