"""Form fields for what the site reads from requests: whole numbers in ASCII digits only
(core.params.parse_natural) and a move as an engine action (core.actions.read_action).

Django's IntegerField reads with int(), which takes " 3", "1_0" and other digits than
ASCII ones; these fields take only what a page of this site sends. ReadingForm: a form that
reads a request and is never rendered, built without copying its fields."""

from __future__ import annotations

from typing import Any

from django import forms

from .actions import ActionShapeError, read_action
from .params import MAX_DIGITS, parse_natural


class NaturalField(forms.Field):
    """A non-negative whole number of at most `digits` ASCII digits (and at most `maximum`)."""

    def __init__(self, *, digits: int = MAX_DIGITS, maximum: int | None = None, **kwargs: Any):
        self.digits, self.maximum = digits, maximum
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        number = parse_natural(str(value), digits=self.digits)
        if number is None or (self.maximum is not None and number > self.maximum):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return number

    default_error_messages = {"invalid": "not a number"}


class ActionField(forms.Field):
    """A move as the table sends it: a small JSON object naming an engine action."""

    default_error_messages = {"invalid": "not an action"}

    def to_python(self, value: Any) -> dict | None:
        if value in self.empty_values:
            return None
        try:
            return read_action(str(value))
        except ActionShapeError as error:
            raise forms.ValidationError(
                self.error_messages["invalid"], code="invalid", params={"check": error.args}
            ) from None


class _SharedFields(dict):
    """A form class's fields, which its forms share: the copy of them a form takes is a new
    dict of the same fields."""

    def __deepcopy__(self, memo: dict) -> dict:
        return dict(self)


class _ReadingFormMetaclass(forms.forms.DeclarativeFieldsMetaclass):
    def __new__(mcs, name: str, bases: tuple, attrs: dict) -> type:
        form_class = super().__new__(mcs, name, bases, attrs)
        form_class.base_fields = _SharedFields(form_class.base_fields)
        return form_class


class ReadingForm(forms.BaseForm, metaclass=_ReadingFormMetaclass):
    """A form that only reads a request: never rendered, and no form changes its fields.
    Django deep-copies a form class's fields into every form so that one form may change
    its own; these forms share them instead. A move over a game's socket builds a form for
    each frame, and the copy was most of its cost (#21)."""
