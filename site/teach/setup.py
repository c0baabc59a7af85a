"""The teaching game's form: the demo's form (players, bot levels, rules, deal number) plus
who plays (the class watches bots, the teacher against bots, two players at one keyboard),
the bot level of the first seat when it is a bot, the starting pace and a second language."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django import forms
from django.conf import settings
from django.http import QueryDict
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext
from play.clock import PACE_VALUES
from play.models import HUMAN
from play.setup import DEFAULT_LEVEL, Choice, Setup, form_data, level_field, parse_setup

from presentation.table import level_choice
from rules_engine.bots import LEVELS

from .models import Lesson

DEFAULT_PACE = "1"


@dataclass
class TeachSetup:
    base: Setup
    mode: str
    first_level: str
    pace: float
    lang2: str
    errors: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.errors and self.base.ok

    @property
    def seats(self) -> list[str]:
        levels = self.base.levels
        if self.mode in (Lesson.WATCH, Lesson.TABLES):  # class tables: the lesson's game is a demo
            return [self.first_level, *levels]
        if self.mode == Lesson.TEACHER:
            return [HUMAN, *levels]
        return [HUMAN, HUMAN, *levels[1:]]

    @property
    def acting(self) -> list[int]:
        """The seats the teacher's browser plays."""
        return [s for s, kind in enumerate(self.seats) if kind == HUMAN]


def mode_choices(current: str) -> list[Choice]:
    labels = {Lesson.WATCH: _("The class watches: every player is a bot"),
              Lesson.TEACHER: _("You play as Player 1 against the bots"),
              Lesson.HOT_SEAT: _("Two people at one keyboard as Players 1 and 2; any other "
                                 "seats are bots"),
              Lesson.TABLES: _("Class tables: the pupils play each other in pairs on their "
                               "phones")}
    return [Choice(mode, labels[mode], mode == current) for mode, _label in Lesson.MODES]


def first_level_choices(current: str) -> list[Choice]:
    return [Choice(level, level_choice(level), level == current) for level in LEVELS]


def pace_label(pace: float) -> str:
    """A speed as the active language writes the number: "0.25×", Swedish "0,25×"."""
    return f"{number_format(Decimal(f'{pace:g}'))}×"


def pace_choices(current: float) -> list[Choice]:
    return [Choice(value, pace_label(pace), pace == current) for value, pace in PACE_VALUES.items()]


def language_choices(lang: str, current: str) -> list[Choice]:
    from django.utils.translation import get_language_info

    choices = [Choice("", pgettext("second language", "none"), current == "")]
    for code, _name in settings.LANGUAGES:
        if code != lang:
            choices.append(Choice(code, get_language_info(code)["name_local"], code == current))
    return choices


class TeachForm(forms.Form):
    """What teacher mode asks beyond the demo's set-up (play.setup.SetupForm): who plays, the
    first seat's bot level, the starting pace and a second language (any site language but
    the page's)."""

    mode = forms.ChoiceField(
        choices=Lesson.MODES, required=False,
        error_messages={"invalid_choice": gettext_lazy("Choose who plays from the list.")})
    first_level = level_field()
    pace = forms.ChoiceField(
        choices=[(value, value) for value in PACE_VALUES], required=False,
        error_messages={"invalid_choice": gettext_lazy("Choose a speed from the list.")})
    lang2 = forms.ChoiceField(
        required=False,
        error_messages={"invalid_choice": gettext_lazy("Choose a second language from the list.")})

    def __init__(self, data: dict[str, str], *, lang: str) -> None:
        # The first seat's level is sent as level-1, beside the demo's level-2, level-3, …
        super().__init__({**data, "first_level": data.get("level-1", "")})
        self.fields["lang2"].choices = [("", "")] + [
            (code, code) for code, _name in settings.LANGUAGES if code != lang]


def parse_teach_setup(variant: str, params: QueryDict, lang: str) -> TeachSetup:
    base = parse_setup(variant, params)
    form = TeachForm(form_data(params), lang=lang)
    form.is_valid()
    data = form.cleaned_data
    errors = {("level-1" if name == "first_level" else name): " ".join(messages)
              for name, messages in form.errors.items()}
    return TeachSetup(base, data.get("mode") or Lesson.WATCH,
                      data.get("first_level") or DEFAULT_LEVEL,
                      PACE_VALUES[data.get("pace") or DEFAULT_PACE], data.get("lang2") or "",
                      errors)
