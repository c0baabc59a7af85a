"""What the teacher's class-tables controls send (#23): a command, and for a new round the
table size, the bots' level and how the class is seated."""

from __future__ import annotations

from django import forms
from django.utils.translation import ngettext
from play.setup import Choice

from core.fields import NaturalField
from presentation.table import level_choice
from rules_engine.bots import LEVELS

from .models import ClassRound
from .seating import sizes_allowed

COMMANDS = ("start", "pause", "resume", "end", "large", "remove", "bot", "give-back", "ask")
#: how long a dropped phone's seat waits before its bot plays it (ms)
AWAY_CHOICES = (30_000, 60_000, 120_000)


class CommandForm(forms.Form):
    command = forms.ChoiceField(choices=[(c, c) for c in COMMANDS])
    #: the table to show large (0: none)
    table = NaturalField(digits=3, required=False)
    #: the pupil to take out of the class tables
    pupil = NaturalField(digits=12, required=False)
    #: the seat of `table` to hand to its bot, to give back to its pupil (`give-back`), or
    #: to ask the class about (`ask`)
    seat = NaturalField(digits=1, required=False)


class RoundForm(forms.Form):
    """A new round; each field's name is the error code the view words."""

    size = forms.TypedChoiceField(coerce=int)
    level = forms.ChoiceField(choices=[(level, level) for level in LEVELS])
    pairing = forms.ChoiceField(choices=ClassRound.PAIRINGS)
    #: empty: settings.PLAY_AWAY_LIMIT_MS
    away = forms.TypedChoiceField(
        coerce=int,
        choices=[(str(ms), str(ms)) for ms in AWAY_CHOICES],
        required=False,
        empty_value=0,
    )

    def __init__(self, data, *, variant: str) -> None:
        super().__init__(data)
        self.fields["size"].choices = [(str(n), str(n)) for n in sizes_allowed(variant)]


def size_choices(variant: str, current: int) -> list[Choice]:
    return [Choice(str(n), str(n), n == current) for n in sizes_allowed(variant)]


def away_choices(current: int) -> list[Choice]:
    return [
        Choice(
            str(ms),
            ngettext("%(n)s second", "%(n)s seconds", ms // 1000) % {"n": ms // 1000}
            if ms < 120_000
            else ngettext("%(n)s minute", "%(n)s minutes", ms // 60_000) % {"n": ms // 60_000},
            ms == current,
        )
        for ms in AWAY_CHOICES
    ]


def level_choices(current: str) -> list[Choice]:
    return [Choice(level, level_choice(level), level == current) for level in LEVELS]
