"""A lesson's rules for its game's clock, applied by play.service to every clock command
(the lesson's projector route and the demo's /play/<id>/clock/ alike, #25)."""

from __future__ import annotations

from play.models import Game
from play.service import HELD, TABLES_HELD

from . import questions
from .models import ClassTable, Lesson


def lesson_clock(row: Game, command: str) -> str | None:
    """No step while a class question is open (the class is answering in this position); a
    resume ends the question (the game goes on)."""
    lesson = Lesson.objects.using(row._state.db or "default").filter(pk=row.pk).first()
    if lesson is None:
        return None
    if command == "step" and lesson.open_question is not None:
        return HELD
    if command == "resume":
        questions.close_all(lesson)
    return None


def class_tables_clock(row: Game, command: str) -> str | None:
    """A class table's pupil may not resume it while the teacher holds every table (#23);
    the teacher's own resume clears the hold first (teach.seating.resume_all)."""
    if command != "resume":
        return None
    table = (
        ClassTable.objects.using(row._state.db or "default")
        .select_related("round")
        .filter(game_id=row.pk)
        .first()
    )
    return TABLES_HELD if table is not None and table.round.paused else None
