"""The projector's page and the follow page: the lesson's game drawn for its role (the
teacher, a follower, a pupil) through presentation.gamepage, with the story of the game, the
class question and the keys of the seats the teacher plays."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from play import service
from play.access import held_seats
from play.answers import Shown
from play.clock import PACE_VALUES
from play.models import Game, LogEntry

from core.catalogue import variant_entry
from core.glossary import current_lang
from houserules.sheet import qr_svg
from presentation.gamepage import Role, render_game, table_for
from presentation.narration import player_name
from presentation.reasons import reason_text
from presentation.table import Table, build_table, key_legend, second_language, teaching_hands

from . import questions
from .access import pupil_of
from .joining import JoinForm, format_code
from .models import Lesson, Pupil, Question
from .narration import lines
from .setup import pace_label
from .summary import seat_names
from .tables_board import table_seat_names

#: how many of the newest lines the live region reads out after a change
ANNOUNCED = 2


def _table(lesson: Lesson, row: Game, game, role: Role, acting: list[int]) -> Table:
    table = table_for(
        role,
        game,
        row.seats,
        acting=acting,
        names=seat_names(lesson, row),
        paused=row.paused and not row.over,
    )
    if lesson.lang2:
        with translation.override(lesson.lang2):
            names2 = seat_names(lesson, row)
        second_language(table, lesson.lang2, names2)
    return table


def _seats(lesson: Lesson, row: Game, question: Question | None) -> list[dict]:
    """The seats a class question names (name: the seat's label, a select's option;
    in_sentence: as the question names it): the lesson's own, or while the class answers
    about a class table (#23), that table's players by name."""
    if question is not None and question.game_id:
        names = table_seat_names(question.game)
        return [{"seat": s, "name": n, "in_sentence": n} for s, n in enumerate(names)]
    return [
        {"seat": s, "name": n, "in_sentence": player_name(s, in_sentence=True)}
        for s, n in enumerate(seat_names(lesson, row))
    ]


def _key_lists(lesson: Lesson, row: Game, game, acting: list[int]) -> list[dict]:
    """Each acting seat's keys and what they do, for the list beside the table."""
    hands = teaching_hands(game.variant.family, acting)
    table = build_table(game, row.seats, 0, interactive=True, reveal=True, hands=hands)
    names = seat_names(lesson, row)
    lists = []
    for seat, keys in hands.items():
        labels = {
            c.dom_id.removeprefix("cmd-").removesuffix(f"-{c.seat}"): c.label
            for c in table.commands
            if c.seat in (seat, None)
        }
        lists.append({"name": names[seat], "seat": seat, "keys": key_legend(game, keys, labels)})
    return lists


def _command_groups(table: Table) -> list[dict]:
    """The command buttons, one group per player when two play at one keyboard."""
    seats = list(dict.fromkeys(c.seat for c in table.commands))
    if seats == [None]:
        return [{"name": "", "commands": table.commands}]
    views = {v.seat: v.name for v in [*table.opponents, *([table.own] if table.own else [])]}
    return [
        {"name": views.get(seat, ""), "commands": [c for c in table.commands if c.seat == seat]}
        for seat in sorted(s for s in seats if s is not None)
    ]


def urls_of(row: Game) -> dict[str, str]:
    return dict(_urls(row.pk, row.variant, translation.get_language()))


@functools.lru_cache(maxsize=256)
def _urls(game_id: str, variant: str, lang: str | None) -> tuple[tuple[str, str], ...]:
    """The lesson's URLs in the active language `lang` (reversed once per game and
    language, not on every frame of every socket)."""
    kw = {"game_id": game_id}
    urls = {
        "lesson_url": reverse("teach_lesson", kwargs=kw),
        "follow_url": reverse("teach_follow", kwargs=kw),
        "move_url": reverse("teach_move", kwargs=kw),
        "clock_url": reverse("teach_clock", kwargs=kw),
        "question_url": reverse("teach_question", kwargs=kw),
        "explain_url": reverse("teach_explain", kwargs=kw),
        "summary_url": reverse("teach_summary", kwargs=kw),
        "replay_url": reverse("teach_replay", kwargs=kw),
        "tables_url": reverse("teach_tables", kwargs=kw),
        "rules_url": reverse("rules", kwargs={"variant": variant}),
        "setup_url": reverse("teach_setup", kwargs={"variant": variant}),
    }
    return tuple(urls.items())


def _story(
    row: Game, lesson: Lesson, since: int | None, fragment: bool, fresh: list[LogEntry] | None
) -> dict:
    first = since if fragment and since is not None else 0
    told = lines(row, first, lesson.lang2, fresh=fresh)
    return {
        "lines": told,
        "announce": [line.text for line in told[-ANNOUNCED:]]
        if fragment and since is not None and since < row.log_length
        else [],
    }


def render_lesson(request: HttpRequest, shown: Shown) -> HttpResponse:
    """The projector's page, or its fragment for htmx: the game as the teacher controls it."""
    lesson = Lesson.objects.get(pk=shown.row.pk)
    return _render(request, lesson, shown, Role.TEACHER)


def render_follow(request: HttpRequest, shown: Shown) -> HttpResponse:
    lesson = Lesson.objects.get(pk=shown.row.pk)
    role = Role.PUPIL if pupil_of(request, lesson) else Role.FOLLOWER
    return _render(request, lesson, shown, role)


def socket_url(row: Game, lang: str, role: Role) -> str:
    """The lesson's socket for a page of `role` (live.lessons): the projector's own, or the
    follow page's (a pupil's or a follower's, told apart by the browser's session)."""
    teacher = "teacher/" if role is Role.TEACHER else ""
    return f"/ws/{lang}/class/{row.pk}/{teacher}"


def _render(request: HttpRequest, lesson: Lesson, shown: Shown, role: Role) -> HttpResponse:
    row = shown.row
    controller = role is Role.TEACHER
    fragment = bool(request.htmx)
    context = lesson_context(
        lesson, shown, role,
        acting=list(held_seats(request, row.pk)) if controller else [],
        fragment=fragment,
        command=request.POST.get("command", ""),
    )
    if role is Role.PUPIL:
        context.update(_pupil_context(lesson, row, context["question"], pupil_of(request, lesson)))
    if not fragment:
        follow = request.build_absolute_uri(context["follow_url"])
        context.update(
            {
                "follow_link": follow,
                "follow_qr": qr_svg(follow),
                "class_code": format_code(lesson.class_code),
                "join_url": reverse("teach_join"),
                "join_form": JoinForm(request),
                "socket_url": socket_url(row, current_lang(), role),
            }
        )
    return render_game(
        request,
        role,
        template="teach/lesson.html",
        context=context,
        version=row.version,
        status=shown.status,
    )


def lesson_context(
    lesson: Lesson,
    shown: Shown,
    role: Role,
    *,
    acting: list[int],
    fragment: bool,
    command: str = "",
    live: bool = False,
) -> dict:
    """What the lesson's page shows `role` (in the active language) after `shown`:
    `acting`, the seats the teacher plays; `fragment`, only the game's part; `command`, the
    clock command the request carried; `live`, a frame for the lesson's sockets (no poll,
    the tally as a frame of its own: live.publish)."""
    lang = current_lang()
    row, turn = shown.row, shown.turn
    game = turn.driver.game
    controller = role is Role.TEACHER
    paused = row.paused and not row.over
    table = _table(lesson, row, game, role, acting)
    question = lesson.open_question
    return {
        "lesson": lesson,
        "row": row,
        "controller": controller,
        "entry": variant_entry(row.variant, lang),
        "table": table,
        "message": shown.message,
        "paused": paused,
        "started": row.clock_ms > 0 or row.log_length > 0,
        "pace": f"{row.speed / settings.PLAY_CLOCK_SPEED:g}",
        "paces": [(value, pace_label(pace)) for value, pace in PACE_VALUES.items()],
        "poll_ms": None if live else service.next_poll_ms(row, turn.driver, timezone.now()),
        "live": live,
        "countdown": service.countdown(row, turn.driver, timezone.now()),
        "question": question,
        "tally": questions.tally(question) if question and controller else None,
        "seats": _seats(lesson, row, question),
        "command_groups": _command_groups(table),
        "key_lists": (
            _key_lists(lesson, row, game, acting)
            if acting and not fragment and not row.over
            else []
        ),
        # A step refused because the class is answering says so (→ used to do nothing).
        "step_held": question is not None and command == "step",
        "stepped_nothing": turn.stepped is None and question is None and command == "step",
        "lang2": lesson.lang2,
        **urls_of(row),
        **_story(row, lesson, shown.since, fragment, shown.fresh),
    }


@dataclass(frozen=True)
class LiveParts:
    """A lesson's page as its sockets show it (live.publish wraps each part in its
    out-of-band swap): the game's part, and the projector's class question (None: the
    role has none)."""

    state: str
    question: str | None


def live_parts(lesson: Lesson, shown: Shown, role: Role, acting: list[int],
               command: str = "") -> LiveParts:
    """The lesson's page for every socket of one view: `role` in the active language (a
    pupil's own answer is not in it: `my_answer_part`); `command`: the clock command the
    one socket it is told to sent."""
    context = lesson_context(lesson, shown, role, acting=acting, fragment=True,
                             command=command, live=True)
    if role is Role.PUPIL:
        context.update(_pupil_context(lesson, shown.row, context["question"], None))
    context.update(role=role.value, fragment=True)
    state = render_to_string("teach/lesson.html#game", context)
    tally = render_to_string("teach/tally.html", context) if role is Role.TEACHER else None
    return LiveParts(state, tally)


def my_answer_part(lesson: Lesson, pupil_id: int) -> str:
    """A pupil's own answer to the class question shown (its verdict once revealed), for
    the place the shared frame leaves for it (#my-answer-box)."""
    pupil = Pupil.objects.filter(pk=pupil_id, lesson=lesson).first()
    question = lesson.open_question
    if pupil is None or question is None:
        return ""
    context = {"question": question, "my_answer": my_answer(question, pupil, lesson.game)}
    return render_to_string("teach/my_answer.html", context)


def _pupil_context(
    lesson: Lesson, row: Game, question: Question | None, pupil: Pupil | None
) -> dict:
    """The class question on a pupil's phone (`pupil` None: as every pupil sees it, the
    place for the pupil's own answer left empty)."""
    context: dict = {"pupil": pupil}
    if question is None and lesson.rounds.filter(ended__isnull=True).exists():
        # Class tables are playing (#23): the page asks where this pupil sits and goes
        # there (the same bytes for every pupil; the answer is each one's own).
        context["table_status_url"] = (
            reverse("teach_pupil_status", kwargs={"game_id": lesson.pk}) + "?at="
        )
    if question is None:
        return context
    context.update(question_context(lesson, row, question))
    if pupil is not None:
        context["my_answer"] = my_answer(question, pupil, row)
    return context


def question_context(lesson: Lesson, row: Game, question: Question) -> dict:
    """The class question as a pupil answers it (the follow page, a class table's phone):
    its position as a table to tap (the seat asked about; a closed or revealed question's
    cannot be tapped) and where the answer goes."""
    position = questions.position(question)
    is_open = question.state == Question.OPEN
    asked = questions.game_of(question)  # a class table's game, or the lesson's own
    names = seat_names(lesson, row) if asked.pk == row.pk else table_seat_names(asked)
    return {
        "question_table": table_for(
            Role.SANDBOX,
            position,
            asked.seats,
            seat=question.seat,
            names=names,
            interactive=is_open,
        ),
        "answer_url": reverse(
            "teach_answer", kwargs={"game_id": row.pk, "number": question.number}
        ),
    }


def asked_name(lesson: Lesson, row: Game, question: Question) -> str:
    """The player the question asks about, as its sentence names them."""
    return _seats(lesson, row, question)[question.seat]["in_sentence"]


def my_answer(question: Question, pupil: Pupil, row: Game) -> dict | None:
    mine = question.answers.filter(pupil=pupil).first()
    if mine is None:
        return None
    return {
        "move": questions.answered_text({**mine.action, "player": question.seat}, row.variant),
        "accepted": mine.accepted,
        "reason": reason_text(mine.reason) if mine.reason else "",
    }
