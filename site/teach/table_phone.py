"""What a pupil's phone shows at a class table (#23) beyond play's own game page: the class
question while the class answers it (play.page.PAGE_HOOKS: the phone's page, every frame
pushed over the table's socket and the poll that stands in for it are play's game page),
and why the pupil may not take back a seat the teacher handed to its bot
(play.answers.HANDED_OVER_HOOKS)."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from play import presence
from play.models import Game

from .models import ClassSeat, ClassTable, Question

#: where the answer's response goes: the phone's table page, not the follow page
ON_TABLE = "table"


def handed_over_words(row: Game) -> str:
    """A class table's hand-over is the teacher's ("": not a class table)."""
    if not ClassTable.objects.using(row._state.db or "default").filter(game_id=row.pk).exists():
        return ""
    return _(
        "Your teacher has given your seat to a bot: you can play it again once your teacher "
        "hands it back."
    )


def open_question(row: Game) -> Question | None:
    """The class question open while `row` is a table of the round being played."""
    if not presence.is_on(row):  # the demo's games: not a class table, no query
        return None
    return (
        Question.objects.using(row._state.db or "default")
        .filter(lesson__rounds__tables__game_id=row.pk, lesson__rounds__ended__isnull=True)
        .exclude(state=Question.CLOSED)
        .select_related("lesson__game", "game")
        .order_by("-number")
        .first()
    )


def question_extras(row: Game, seat: int | None) -> dict:
    """The class question in place of the table on the phone of the pupil at `seat` (None:
    a watcher, or a seat a bot plays: nothing), with that pupil's own answer."""
    question = None if seat is None else open_question(row)
    if question is None:
        return {}
    from .page import asked_name, my_answer, question_context  # (not loaded at ready())

    lesson = question.lesson
    context = question_context(lesson, lesson.game, question)
    seated = (
        ClassSeat.objects.filter(table__game_id=row.pk, seat=seat).select_related("pupil").first()
    )
    mine = None if seated is None else my_answer(question, seated.pupil, lesson.game)
    is_open = question.state == Question.OPEN
    part = render_to_string(
        "teach/table_question.html",
        {
            **context,
            "question": question,
            "asked": asked_name(lesson, lesson.game, question),
            "my_answer": mine,
            "is_open": is_open,
        },
    )
    return {
        "class_question": part,
        "class_answer_url": f"{context['answer_url']}?on={ON_TABLE}" if is_open else "",
    }
