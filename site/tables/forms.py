"""The forms of a table: the new table (the demo's set-up form with a friend or a bot per
seat, the creator's name and what happens to a dropped player's seat) and taking a seat
(a display name)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from play.setup import Setup, form_data, setup_form

from core.fields import NaturalField
from rules_engine.bots import LEVELS
from rules_engine.registry import VARIANTS

from .models import DEFAULT_PRESENCE_S, FRIEND, NAME_MAX

#: how long a dropped player's seat may wait for them, seconds (the creator chooses)
PRESENCE_CHOICES = (30, 60, 120, 300)
DEFAULT_TAKEOVER = "club"


def clean_name(raw: str) -> str:
    """A display name as shown: NFC, no control or format characters, spaces collapsed."""
    text = unicodedata.normalize("NFC", raw)
    text = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C")
    return " ".join(text.split())


class NameField(forms.CharField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            max_length=200,
            error_messages={
                "required": gettext_lazy("Write the name the others will see."),
            },
            **kwargs,
        )

    def clean(self, value: Any) -> str:
        name = clean_name(str(value or ""))
        if not name:
            raise forms.ValidationError(self.error_messages["required"], code="required")
        if len(name) > NAME_MAX:
            raise forms.ValidationError(
                _("A name can have at most %(n)s characters.") % {"n": NAME_MAX}, code="long"
            )
        return name


class JoinForm(forms.Form):
    name = NameField()


class SeatForm(forms.Form):
    """A seat named by a button (the creator removing a player)."""

    seat = NaturalField(
        digits=2,
        error_messages={
            "invalid": gettext_lazy("Choose a seat of this table."),
            "required": gettext_lazy("Choose a seat of this table."),
        },
    )


def _kind_field() -> forms.ChoiceField:
    return forms.ChoiceField(
        choices=[(FRIEND, FRIEND), *[(level, level) for level in LEVELS]],
        required=False,
        error_messages={"invalid_choice": gettext_lazy("Choose a friend or a bot's level.")},
    )


@dataclass
class Plan:
    """A new table as the form asked for it."""

    setup: Setup
    name: str = ""
    kinds: list[str] = field(default_factory=list)
    presence_s: int = DEFAULT_PRESENCE_S
    takeover: str = DEFAULT_TAKEOVER
    errors: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.errors and self.setup.ok

    @property
    def base(self) -> Setup:
        return self.setup


def table_form(variant: str) -> type[forms.Form]:
    info = VARIANTS[variant]
    fields: dict[str, Any] = {
        "name": NameField(),
        "presence": forms.TypedChoiceField(
            choices=[(str(s), str(s)) for s in PRESENCE_CHOICES],
            coerce=int,
            required=False,
            error_messages={"invalid_choice": gettext_lazy("Choose a time from the list.")},
        ),
        "takeover": forms.ChoiceField(
            choices=[(level, level) for level in LEVELS],
            required=False,
            error_messages={"invalid_choice": gettext_lazy("Choose a level from the list.")},
        ),
        **{f"seat-{n + 1}": _kind_field() for n in range(1, info.players_max)},
    }
    return type(f"TableForm_{variant.replace('-', '_')}", (forms.Form,), fields)


def parse_plan(variant: str, params: QueryDict, *, named: bool) -> Plan:
    """The new table's form read from a query or a post; `named`: the creator's name is
    required (a post), not yet asked for (the form opened from a link)."""
    data = form_data(params)
    setup = setup_form(variant)(data).setup()
    form = table_form(variant)(data)
    form.is_valid()
    cleaned = form.cleaned_data
    errors = {
        name: " ".join(str(m) for m in messages)
        for name, messages in form.errors.items()
        if named or name != "name"
    }
    filled = range(1, setup.players)
    errors = {
        name: text
        for name, text in errors.items()
        if not name.startswith("seat-") or int(name[5:]) - 1 in filled
    }
    kinds = [FRIEND] + [
        cleaned.get(f"seat-{n + 1}") or (FRIEND if n == 1 else setup.levels[n - 1]) for n in filled
    ]
    if FRIEND not in kinds[1:] and not errors:
        errors["seat-2"] = _(
            "Invite at least one friend; to play against bots alone, "
            "choose “Play against the bots”."
        )
    return Plan(
        setup,
        cleaned.get("name", "") or "",
        kinds,
        cleaned.get("presence") or DEFAULT_PRESENCE_S,
        cleaned.get("takeover") or DEFAULT_TAKEOVER,
        errors,
    )
