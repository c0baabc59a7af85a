"""Teacher mode's lessons on the socket: what each of a lesson's sockets is shown, and how a
change to the lesson reaches them.

A lesson's sockets (live.lessons) belong to two channel groups: the game's (`game.<id>`,
publish.group_name: every stored change of the lesson's game, play.signals.game_changed) and
the lesson's own (`lesson.<id>`, `lesson_group`: a class question asked, revealed or closed,
an answer, a pupil joining: teach.signals.lesson_changed). Either notice carries no state;
each process renders the lesson's page once per distinct `LessonView` among its sockets (the
projector's per language and seats played, a follower's per language, a pupil's per
language) and sends the same bytes to every socket of that view (live.rooms). A pupil's own
answer is the one thing that differs between two pupils: it follows the shared frame as a
small part of its own (`my_answer_frame`).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass

from django.utils import timezone, translation
from django.utils.html import format_html
from django.utils.safestring import SafeString
from play import service
from play.answers import Shown
from play.models import Game
from teach.models import Lesson
from teach.page import live_parts, my_answer_part

from presentation.gamepage import Role

from .publish import group_name, send_notice, shared_driver

#: the place a pupil's shared frame leaves for the pupil's own answer
MY_ANSWER_BOX = 'id="my-answer-box"'


@dataclass(frozen=True)
class LessonView:
    """What one socket of a lesson may see: its role (Role.TEACHER only for the browser
    that controls the lesson), the language it reads, and the seats the teacher plays."""

    role: Role
    lang: str
    acting: tuple[int, ...] = ()

    def render(
        self, game_id: str, since: int | None, message: str = "", command: str = "", *,
        version: object = None,
    ) -> tuple[int, str] | None:
        # `version` (the notice's) is not needed: the lesson and its game are read together.
        return render_lesson_frame(game_id, self, since=since, message=message, command=command)


def lesson_group(lesson_id: str) -> str:
    return f"lesson.{lesson_id}"


def announce_lesson_change(
    sender: object, *, lesson_id: str, views: tuple[str, ...], **kwargs
) -> None:
    """teach.signals.lesson_changed → one notice to the lesson's group. `stamp` tells one
    change from the next (the game's version does not move when a question does)."""
    stamp = uuid.uuid4().hex
    send_notice(
        lesson_group(lesson_id), {"type": "lesson.changed", "views": list(views), "stamp": stamp}
    )
    if "pupil" in views:
        tell_tables(lesson_id, stamp)


def tell_tables(lesson_id: str, stamp: str) -> None:
    """A class question asked, revealed or closed shows on the phones at the class tables
    of the round being played (#23: teach.table_phone puts it in the table's place on play's
    game page): each table's sockets get a notice of their game as it stands. The stamp is
    the notice's version, so each process renders the frame afresh (live.rooms keeps frames
    by version); the question's mark in it (data-question) makes static/js/play.js take a
    frame of the version shown."""
    wall = timezone.now()
    # (a finished table's too: its phone keeps its socket while the round goes on)
    rows = Game.objects.filter(
        class_table__round__lesson_id=lesson_id,
        class_table__round__ended__isnull=True,
    )
    for row in rows:
        notice = {
            "type": "game.changed",
            "game": row.pk,
            "version": f"lesson-{stamp}",
            "since": row.log_length,
            "wake_ms": service.wake_in_ms(row, shared_driver(row), wall),
        }
        send_notice(group_name(row.pk), notice)


def render_lesson_frame(
    game_id: str, view: LessonView, *, since: int | None, message: str = "", command: str = ""
) -> tuple[int, str] | None:
    """The lesson's page as `view` sees it now: an out-of-band swap of #game (marked
    data-lesson: a question's change keeps the game's version, so static/js/play.js takes
    a lesson frame of the version shown) and, for the projector, of its class question;
    with the story lines since log entry `since` (None: none). `message` and `command`:
    told to one socket only (a refusal; a step that was held or found nothing to do).
    None: no such lesson."""
    lesson = Lesson.objects.select_related("game").filter(pk=game_id).first()
    if lesson is None:
        return None
    row = lesson.game
    turn = service.Turn(shared_driver(row), row.clock.now_ms(timezone.now()))
    shown = Shown(row, turn, message, since=row.log_length if since is None else since)
    with translation.override(view.lang):
        parts = live_parts(lesson, shown, view.role, list(view.acting), command)
    frame = format_html(
        '<div id="game" hx-swap-oob="innerHTML" data-version="{}" data-lesson{}>{}</div>',
        row.version,
        " data-told" if message or command else "",
        SafeString(parts.state),
    )
    if parts.question is not None:
        frame += format_html(
            '<div id="class-question" class="teach__question" hx-swap-oob="true">{}</div>',
            SafeString(parts.question),
        )
    return row.version, frame


def my_answer_frame(game_id: str, pupil_id: int, lang: str) -> str:
    """A pupil's own answer, for the place its shared frame left for it."""
    lesson = Lesson.objects.select_related("game").filter(pk=game_id).first()
    if lesson is None:
        return ""
    with translation.override(lang):
        part = my_answer_part(lesson, pupil_id)
    return format_html(
        '<div {} hx-swap-oob="innerHTML">{}</div>', SafeString(MY_ANSWER_BOX), SafeString(part)
    )
