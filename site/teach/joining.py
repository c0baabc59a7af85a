"""Who may join a class, and with which code (#25).

A class code is twelve digits, shown on the projector in three groups of four (typed on a
phone's number pad). Wrong codes are counted per client address and per browser session in
the configured cache (core.throttle): over either limit, no code is looked up until the
window ends, so guessing a code is hopeless (docs/hardening.md gives the arithmetic). A
lesson whose game is over takes no new pupils.
"""

from __future__ import annotations

import secrets

from django.http import HttpRequest
from django.utils.translation import gettext as _

from core.clientip import client_ip
from core.throttle import Limit

from .models import CLASS_CODE_DIGITS, Lesson

GROUP = 4
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
