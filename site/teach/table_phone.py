"""What a pupil's phone shows at a class table (#23) beyond play's own game page: the class
question while the class answers it (play.page.PAGE_HOOKS: the phone's page, every frame
pushed over the table's socket and the poll that stands in for it are play's game page;
also to a pupil whose seat a bot plays, or whose table has finished while the round goes on),
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


#: how often (ms) the phone at a finished table asks for its page while its socket is closed
#: and the round goes on: a class question may still come (the status line's pace)
OVER_POLL_MS = 2000


def question_extras(row: Game, seat: int | None) -> dict:
    """The class question in place of the table on the phone of the pupil at `seat` (None:
    a watcher: nothing), with that pupil's own answer; also while a bot plays the seat (the
    teacher handed it over) and after the table's game is over, while the round goes on."""
    if seat is None:
        return {}
    question = open_question(row)
    # A finished game's page asks for nothing more, but the class may still be asked:
    # without its socket, the phone asks again (its socket is open while the round goes on,
    # teach/class_table.html, and then the poll is not sent: static/js/play.js).
    extras = {"poll_ms": OVER_POLL_MS} if row.over and _round_goes_on(row) else {}
    if question is None:
        return extras
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
        **extras,
        "class_question": part,
        "class_answer_url": f"{context['answer_url']}?on={ON_TABLE}" if is_open else "",
    }


def _round_goes_on(row: Game) -> bool:
    return (
        ClassTable.objects.using(row._state.db or "default")
        .filter(game_id=row.pk, round__ended__isnull=True)
        .exists()
    )
