"""Engine options as the site's URLs and forms carry them: `opt-<key>=<value>`.

The house-rules configurator, its printed QR code, the rules page's box of chosen house
rules and the demo's new-game form all read and write the same pairs, so a link made by one
opens the others with the same rules. The engine validates; this module turns its verdicts
into translated messages at the field concerned.
"""

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, ClassVar

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules_engine.options import OptionError, OptionSpec
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


class OptionField(forms.Field):
    """One engine option (an OptionSpec): the engine reads and judges the value, so the form
    accepts exactly what the engine accepts. A missing value is the engine's default."""

    default_error_messages = {"invalid": gettext_lazy("Choose one of the values listed here.")}

    def __init__(self, spec: OptionSpec, **kwargs: Any) -> None:
        self.spec = spec
        super().__init__(required=False, initial=value_key(spec.default), **kwargs)

    def to_python(self, value: Any) -> Any:
        if value is None:
            return None
        try:
            return self.spec.check(str(value), from_string=True)
        except OptionError:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid") from None


class OptionsForm(forms.Form):
    """The engine options of one variant as a form, one `opt-<key>` field per OptionSpec of
    its schema (options_form builds the class, as modelform_factory builds one from a model).
    The demo's and the teacher's set-up and the house-rules configurator all read options
    through it (check_options)."""

    variant: ClassVar[str] = ""

    def clean(self) -> dict:
        data = super().clean()
        unknown = [
            name[len(OPTION_PREFIX) :]
            for name in self.data
            if isinstance(name, str) and name.startswith(OPTION_PREFIX) and name not in self.fields
        ]
        for key in unknown[:MAX_UNKNOWN_REPORTED]:  # a hostile URL gets no wall of text
            self.add_error(
                None, _("This game has no option called “%(key)s”.") % {"key": clean_text(key)[:40]}
            )
        return data

    def options(self) -> dict:
        """The engine's full option dict: the values given and valid, defaults for the rest."""
        given = {
            name[len(OPTION_PREFIX) :]: value
            for name, value in getattr(self, "cleaned_data", {}).items()
            if name.startswith(OPTION_PREFIX) and value is not None
        }
        return validate_options(self.variant, given)


def options_form(variant: str) -> type[OptionsForm]:
    """The options form class of `variant`, generated from its option schema."""
    return _options_form(variant, VARIANTS[variant].options)


@lru_cache(maxsize=16)
def _options_form(variant: str, specs: tuple[OptionSpec, ...]) -> type[OptionsForm]:
    fields = {OPTION_PREFIX + spec.key: OptionField(spec) for spec in specs}
    name = f"OptionsForm_{variant.replace('-', '_')}"
    return type(name, (OptionsForm,), {"variant": variant, **fields})


def bound_options(variant: str, given: Mapping[str, str]) -> OptionsForm:
    """The options form of `variant` bound to `given` (key -> value as written) and checked."""
    form = options_form(variant)({OPTION_PREFIX + key: value for key, value in given.items()})
    form.is_valid()
    return form


def option_errors(form: OptionsForm) -> dict[str, list[str]]:
    """A checked form's messages by field (`opt-<key>`, or `options` for keys the game does
    not have)."""
    return {
        "options" if name == NON_FIELD_ERRORS else name: [str(m) for m in messages]
        for name, messages in form.errors.items()
    }


def check_options(variant: str, given: Mapping[str, str]) -> tuple[dict, dict[str, list[str]]]:
    """The engine's full option dict for the acceptable part of `given`, and the errors of
    the rest by form field (option_errors)."""
    form = bound_options(variant, given)
    return form.options(), option_errors(form)


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
