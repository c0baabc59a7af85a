"""Who may join a class, and with which code (#25).

A class code is twelve digits, shown on the projector in three groups of four (typed on a
phone's number pad). Wrong codes are counted per client address and per browser session in
the configured cache (core.throttle): over either limit, no code is looked up until the
window ends, so guessing a code is hopeless (docs/hardening.md gives the arithmetic). A
lesson whose game is over takes no new pupils.
"""

from __future__ import annotations

import secrets
from typing import Any

from django import forms
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.clientip import client_ip
from core.throttle import Limit

from .models import CLASS_CODE_DIGITS, Lesson
from .questions import MAX_NICKNAME, clean_nickname

GROUP = 4
#: characters of a typed code kept: the digits and a few spaces or dashes between groups
CODE_CHARS = CLASS_CODE_DIGITS + 8
#: wrong codes allowed per window: a school behind one address shares the first limit
BY_ADDRESS = Limit("join-address", tries=30, seconds=600)
BY_SESSION = Limit("join-session", tries=10, seconds=600)
#: the session's own random name for the per-session count (sessions are signed cookies)
SESSION_KEY = "joiner"


class JoinRefused(ValueError):
    """The code cannot take this browser into a class; args[0] is the translated reason."""


def format_code(code: str) -> str:
    """The code as the projector shows it: groups of four digits."""
    return " ".join(code[i : i + GROUP] for i in range(0, len(code), GROUP))


def read_code(raw: str) -> str:
    """The digits as typed, without the spaces or dashes between groups."""
    return "".join(raw.replace("-", " ").split())


def _session_name(request: HttpRequest) -> str:
    name = request.session.get(SESSION_KEY)
    if not isinstance(name, str):
        name = secrets.token_hex(8)
        request.session[SESSION_KEY] = name
    return name


def find_lesson(request: HttpRequest, raw: str) -> Lesson:
    """The lesson the typed code names, if this browser may join it; JoinRefused else."""
    counted = [(BY_ADDRESS, client_ip(request)), (BY_SESSION, _session_name(request))]
    if any(limit.exceeded(who) for limit, who in counted):
        raise JoinRefused(
            _(
                "Too many wrong class codes were tried from here. Wait ten "
                "minutes, then type the code from the projector again."
            )
        )
    code = read_code(raw)
    if not (code.isascii() and code.isdigit() and len(code) == CLASS_CODE_DIGITS):
        raise JoinRefused(_("A class code is twelve digits, as the projector shows it."))
    lesson = Lesson.objects.select_related("game").filter(class_code=code).first()
    if lesson is None:
        for limit, who in counted:
            limit.count(who)
        raise JoinRefused(_("No class has this code. Check the digits on the projector."))
    if lesson.game.over:
        raise JoinRefused(_("This lesson is over: its class can no longer be joined."))
    return lesson


class CodeField(forms.CharField):
    """The class code as typed, cut to CODE_CHARS (also when the form is shown again)."""

    def to_python(self, value: Any) -> str:
        return super().to_python(value)[:CODE_CHARS]

    def bound_data(self, data: Any, initial: Any) -> str:
        return data[:CODE_CHARS] if isinstance(data, str) else ""


class NicknameField(forms.CharField):
    """A nickname as the class sees it (teach.questions.clean_nickname): shown again that
    way after an error, so the pupil sees what a correction starts from."""

    def to_python(self, value: Any) -> str:
        return clean_nickname(super().to_python(value))

    def bound_data(self, data: Any, initial: Any) -> str:
        return clean_nickname(data) if isinstance(data, str) else ""


class JoinForm(forms.Form):
    """A pupil's way into a class: the code from the projector and a nickname.

    Cleaning the code looks its lesson up (find_lesson), counting a wrong code against this
    browser and its address, so the form is built with the request; `lesson` is then the
    lesson found. Both fields are checked here rather than by `required`, so that an empty
    code meets the same throttle and the same message as a mistyped one."""

    code = CodeField(
        label=gettext_lazy("Class code"),
        required=False,
        strip=False,
        widget=forms.TextInput(
            attrs={
                "inputmode": "numeric",
                "autocomplete": "off",
                "maxlength": CODE_CHARS,
                "required": True,
            }
        ),
    )
    nickname = NicknameField(
        label=gettext_lazy("Nickname"),
        required=False,
        strip=False,
        widget=forms.TextInput(
            attrs={"autocomplete": "nickname", "maxlength": MAX_NICKNAME, "required": True}
        ),
    )

    def __init__(self, request: HttpRequest, data: Any = None, **kwargs: Any) -> None:
        super().__init__(data, auto_id="join-%s", label_suffix="", **kwargs)
        self.request = request
        self.lesson: Lesson | None = None

    @classmethod
    def prefilled(cls, request: HttpRequest) -> JoinForm:
        """The empty form, filled in from the address (`?code=...&nickname=...`) if given."""
        initial = {
            name: field.bound_data(request.GET.get(name, ""), None)
            for name, field in cls.base_fields.items()
        }
        return cls(request, initial=initial)

    def clean_code(self) -> str:
        try:
            self.lesson = find_lesson(self.request, self.cleaned_data["code"])
        except JoinRefused as refused:
            raise forms.ValidationError(str(refused), code="refused") from None
        return self.lesson.class_code

    def clean_nickname(self) -> str:
        nickname = self.cleaned_data["nickname"]
        if not nickname:
            raise forms.ValidationError(
                _("Choose a nickname (at most %(n)s characters).") % {"n": MAX_NICKNAME},
                code="nickname",
            )
        return nickname
