"""Choices as the templates draw them: one family for every select and radio group.

`Choice` is one value of a control (a player count, a bot level, a pace, an engine option's
value); `OptionField` is one engine option as a control, built from the bound options form
(core.options.OptionsForm) by houserules.optionwords.option_fields, so the house-rules
configurator and the demo's and the teacher's set-up pages offer an option the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from .options import OPTION_PREFIX


@dataclass(frozen=True)
class Choice:
    value: str
    label: str
    selected: bool
    #: the engine's default value of an option (the configurator marks it "usual rule")
    default: bool = False
    #: the id of its radio button, where the control is a radio group
    dom_id: str = ""


@dataclass(frozen=True)
class OptionField:
    key: str
    #: the option's name in the page's language (a select's label, a radio group's legend)
    name: str
    #: one line on what it changes
    explain: str
    choices: tuple[Choice, ...]
    #: the option's section of the rules page
    rules_url: str
    errors: tuple[str, ...] = ()

    @property
    def input_name(self) -> str:
        return OPTION_PREFIX + self.key

    @property
    def error(self) -> str:
        return " ".join(self.errors)
