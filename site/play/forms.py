"""The requests a game page sends, as forms: a move, a clock command, and the log position
the page has seen (`since`). A form that does not validate changes nothing: the views answer
it with the game as it stands and a message (play.answers)."""

from __future__ import annotations

from django import forms
from django.conf import settings

from core.fields import ActionField, NaturalField, ReadingForm

from .clock import PACE_VALUES
from .service import CLOCK_COMMANDS

#: the most digits of a game version or log position a request may send
COUNTER_DIGITS = 9


class SinceForm(ReadingForm):
    """The log position the page had seen (its announcements start after it)."""

    since = NaturalField(digits=COUNTER_DIGITS, required=False)


class MoveForm(ReadingForm):
    """A move: the action, and the version of the table it was made on."""

    action = ActionField()
    version = NaturalField(digits=COUNTER_DIGITS)


class ClockForm(ReadingForm):
    """A clock command: pause, resume, step, or speed with one of the offered paces."""

    command = forms.ChoiceField(choices=[(c, c) for c in CLOCK_COMMANDS])
    version = NaturalField(digits=COUNTER_DIGITS)
    value = forms.ChoiceField(choices=[(v, v) for v in PACE_VALUES], required=False)

    def clean(self) -> dict:
        data = super().clean()
        if data.get("command") == "speed" and not data.get("value"):
            raise forms.ValidationError("a pace is needed", code="pace")
        return data

    def service_args(self) -> dict:
        """The command as play.service.compute takes it (the pace as the clock's speed)."""
        data = self.cleaned_data
        args: dict = {"clock_command": data["command"], "version": data["version"]}
        if data["command"] == "speed":
            args["speed"] = PACE_VALUES[data["value"]] * settings.PLAY_CLOCK_SPEED
        return args
