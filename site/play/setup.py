"""The new-game form: players, a bot level per opponent, every option of the variant, a seed.

The form is generated from the engine's option schema (rules_engine.options.OptionSpec) and
reads the same query string as the house-rules configurator, `opt-<key>=<value>`, so a
house-rules link opens it with the table's rules filled in; each option is a choice between
its values, named as the house-rules sheet names them. The engine validates the options and
says which player counts it deals; this module only turns its verdicts into messages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.choices import Choice
from core.fields import NaturalField
from core.options import (
    OPTION_PREFIX,
    OptionsForm,
    allowed_players,
    options_form,
    players_range,
    value_key,
)
from presentation.table import level_choice
from rules_engine.bots import LEVELS
from rules_engine.registry import VARIANTS

from .models import HUMAN, Game

DEFAULT_LEVEL = "club"
#: more names than a set-up form has: the rest of a hostile query is not read.
MAX_NAMES_READ = 64
MAX_SEED = 2**63 - 1


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
    raw_seed: str = ""
    errors: dict[str, str] = field(default_factory=dict)
    #: the form that read it (the page draws its option controls from it)
    form: OptionsForm | None = field(default=None, repr=False, compare=False)

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def seats(self) -> list[str]:
        return [HUMAN, *self.levels]

    @property
    def base(self) -> Setup:
        """The demo's part of a set-up (teacher mode's TeachSetup adds its own fields)."""
        return self


def _last(params: QueryDict, name: str) -> str:
    values = params.getlist(name)
    return str(values[-1]).strip() if values else ""


def form_data(params: QueryDict) -> dict[str, str]:
    """A set-up query as its form reads it: each name's last value, without spaces around."""
    return {name: _last(params, name) for name in list(params.keys())[:MAX_NAMES_READ]}


class SetupForm(forms.Form):
    """The demo's new game as a form: the variant's options (OptionsForm, from the engine's
    schema), the number of players, a bot level per opponent, a deal number. setup_form
    builds the class of a variant."""

    variant: ClassVar[str] = ""
    seed = NaturalField(
        digits=len(str(MAX_SEED)),
        maximum=MAX_SEED,
        required=False,
        error_messages={"invalid": gettext_lazy(
            "A deal number is a whole number such as 42, or empty for a new deal.")},
    )

    def clean(self) -> dict:
        data = super().clean()
        info = VARIANTS[self.variant]
        players = data.get("players") or info.players_min
        if "players" not in self.errors:
            allowed = allowed_players(self.variant, self.options())
            if players not in allowed:
                self.add_error("players", _("With these rules the game is for %(range)s "
                                            "players.") % {"range": players_range(allowed)})
                players = min(allowed, key=lambda n: abs(n - players))
        data["players"] = players
        return data

    def setup(self) -> Setup:
        """What the form asked for (defaults where a field was refused), and its errors; a
        bot level is judged only for the seats this many players fill."""
        self.is_valid()
        data, info = self.cleaned_data, VARIANTS[self.variant]
        players = data.get("players") or info.players_min
        filled = range(1, max(players, info.players_min))
        errors = {name: " ".join(str(m) for m in messages)
                  for name, messages in self.errors.items()
                  if not name.startswith("level-") or int(name[6:]) - 1 in filled}
        errors = {("options" if name == NON_FIELD_ERRORS else name): text
                  for name, text in errors.items()}
        levels = [data.get(f"level-{seat + 1}") or DEFAULT_LEVEL for seat in filled]
        return Setup(self.variant, players, levels, self.options(), data.get("seed"),
                     self.data.get("seed", ""), errors, form=self)


def level_field() -> forms.ChoiceField:
    """A bot's level (empty: the default level)."""
    return forms.ChoiceField(
        choices=[(level, level) for level in LEVELS], required=False,
        error_messages={"invalid_choice": gettext_lazy("Choose a level from the list.")})


def setup_form(variant: str) -> type[SetupForm]:
    """The set-up form class of `variant`: its options and as many level fields as seats."""
    info = VARIANTS[variant]
    fields: dict[str, Any] = {
        "variant": variant,
        "players": NaturalField(digits=2, required=False, error_messages={
            "invalid": gettext_lazy("Choose the number of players from the list.")}),
        **{f"level-{seat + 1}": level_field() for seat in range(1, info.players_max)},
    }
    return type(f"SetupForm_{variant.replace('-', '_')}", (SetupForm, options_form(variant)),
                fields)


def parse_setup(variant: str, params: QueryDict) -> Setup:
    return setup_form(variant)(form_data(params)).setup()


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
