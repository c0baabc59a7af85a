"""Who is who in a lesson: the browser that started it controls it (its signed session lists
the lessons it controls); a pupil who joined is remembered by the lesson's id."""

from __future__ import annotations

from collections.abc import Mapping

from django.http import Http404, HttpRequest
from play.access import check_id

from .models import Lesson, Pupil

CONTROL_KEY = "teach"
PUPIL_KEY = "pupil"
MAX_CONTROLLED = 20


def controls(request: HttpRequest, game_id: str) -> bool:
    return in_control(request.session, game_id)


def in_control(session: Mapping, game_id: str) -> bool:
    """`controls` from a session as a request or a lesson's socket (live.lessons) has it."""
    held = session.get(CONTROL_KEY, [])
    return isinstance(held, list) and game_id in held


def take_control(request: HttpRequest, game_id: str) -> None:
    held = [g for g in request.session.get(CONTROL_KEY, []) if g != game_id]
    request.session[CONTROL_KEY] = [*held, game_id][-MAX_CONTROLLED:]


def pupil_of(request: HttpRequest, lesson: Lesson) -> Pupil | None:
    return pupil_in(request.session, lesson.pk)


def pupil_in(session: Mapping, game_id: str) -> Pupil | None:
    """`pupil_of` from a session as a request or a lesson's socket (live.lessons) has it."""
    known = session.get(PUPIL_KEY, {})
    pupil_id = known.get(game_id) if isinstance(known, dict) else None
    if not isinstance(pupil_id, int) or isinstance(pupil_id, bool):
        return None
    return Pupil.objects.filter(pk=pupil_id, lesson_id=game_id).first()


def remember_pupil(request: HttpRequest, pupil: Pupil) -> None:
    known = {k: v for k, v in request.session.get(PUPIL_KEY, {}).items() if k != pupil.lesson_id}
    known[pupil.lesson_id] = pupil.pk
    request.session[PUPIL_KEY] = dict(list(known.items())[-MAX_CONTROLLED:])


def lesson_or_404(game_id: str) -> Lesson:
    check_id(game_id)
    lesson = Lesson.objects.select_related("game").filter(pk=game_id).first()
    if lesson is None:
        raise Http404(game_id)
    return lesson
