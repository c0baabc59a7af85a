"""Teacher mode: a demo game shown to a class on a projector.

The game is an ordinary demo game (play.models.Game), moved on by the demo's service (the
engine's driver) and its views' move and clock handling; this app draws it differently (the
whole table, large, with the story of the game beside it), adds the teacher's controls
(pace, a step while paused, “explain this”, class questions), the read-only follow page with
its QR code, the pupils who join it, and the printable class summary after the game.

The browser that starts a lesson controls it (its signed session lists the lessons it
controls) and holds the seats a person plays (none, the teacher's, or two at one keyboard).
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from play import service
from play.access import hold_seats
from play.answers import (
    BadMove,
    Shown,
    act,
    catch_up,
    game_answer,
    parse_since,
    read_clock,
    read_move,
    unchanged,
    unreadable,
)
from play.models import Game
from play.replay import render_replay
from play.setup import again_pairs
from play.setup_page import SetupKind, setup_view
from play.told import told

from core.catalogue import variant_entry
from core.dbwrite import CannotSave, written
from core.glossary import current_lang
from core.pagecache import cached_page
from core.params import parse_natural

from . import questions
from .access import controls, lesson_or_404, pupil_of, remember_pupil, take_control
from .explain import BadRef, explain, parse_ref
from .joining import JoinForm
from .models import Lesson, Question
from .page import render_follow, render_lesson, urls_of
from .setup import (
    TeachSetup,
    first_level_choices,
    language_choices,
    mode_choices,
    pace_choices,
    parse_teach_setup,
)
from .summary import class_summary
from .table_phone import ON_TABLE
from .tables_summary import has_results, table_results
from .tables_views import table_answer, table_redirect


# ---------------------------------------------------------------------------- new lesson
def _start(request: HttpRequest, setup: TeachSetup) -> str:
    row = service.start_game(
        setup.base.variant, setup.seats, options=setup.base.options, seed=setup.base.seed,
        wall=timezone.now(), speed=setup.pace * settings.PLAY_CLOCK_SPEED, paused=True)
    lesson = _new_lesson(row, setup.mode, setup.lang2)
    take_control(request, lesson.pk)
    if setup.acting:
        hold_seats(request, row.pk, setup.acting)
    if setup.mode == Lesson.TABLES:
        return reverse("teach_tables", kwargs={"game_id": row.pk})
    return reverse("teach_lesson", kwargs={"game_id": row.pk})


def _teach_fields(setup: TeachSetup, lang: str) -> dict:
    return {
        "modes": mode_choices(setup.mode),
        "first_levels": first_level_choices(setup.first_level),
        "paces": pace_choices(setup.pace),
        "languages": language_choices(lang, setup.lang2),
    }


LESSON = SetupKind(title=gettext_lazy("Teach %(game)s"), parse=parse_teach_setup, start=_start,
                   extra=_teach_fields, teach=True)


@require_http_methods(["GET", "HEAD", "POST"])
@cached_page
def setup_page(request: HttpRequest, variant: str) -> HttpResponse:
    return setup_view(request, variant, LESSON)


def _new_lesson(row: Game, mode: str, lang2: str) -> Lesson:
    for _attempt in range(20):  # a class code already in use is drawn again
        try:
            with transaction.atomic():
                return Lesson.objects.create(game=row, mode=mode, lang2=lang2)
        except IntegrityError:
            continue
    raise RuntimeError("no free class code")


def _since(request: HttpRequest) -> int | None:
    return parse_since(request.GET.get("since") or request.POST.get("since"))


@require_safe
@never_cache
@game_answer
def lesson_page(request: HttpRequest, game_id: str) -> HttpResponse:
    lesson = lesson_or_404(game_id)
    if not controls(request, lesson.pk):
        return HttpResponseRedirect(reverse("teach_follow", kwargs={"game_id": game_id}))
    return render_lesson(request, catch_up(game_id, _since(request)))


@require_safe
@never_cache
@game_answer
def follow_page(request: HttpRequest, game_id: str) -> HttpResponse:
    lesson = lesson_or_404(game_id)
    to_table = table_redirect(request, lesson)  # a pupil seated at a class table plays there
    if to_table is not None:
        return to_table
    return render_follow(request, catch_up(game_id, _since(request)))


# ---------------------------------------------------------------------------- teacher's acts
def _refuse(request: HttpRequest, game_id: str, message: str, status: int) -> HttpResponse:
    return render_lesson(request, unchanged(game_id, message, status, _since(request)))


def _controller_or_403(request: HttpRequest, game_id: str, refusal: str) -> Lesson:
    """The lesson, if this browser controls it; else PermissionDenied with `refusal`."""
    lesson = lesson_or_404(game_id)
    if not controls(request, lesson.pk):
        raise PermissionDenied(refusal)
    return lesson


@require_POST
@never_cache
@game_answer
def move(request: HttpRequest, game_id: str) -> HttpResponse:
    _controller_or_403(request, game_id, _("Only the teacher's browser plays in this game."))
    try:
        action, version = read_move(request)
    except BadMove:
        return render_lesson(request, unreadable(game_id))
    # the lesson's story tells a refused move on every screen of the lesson
    return render_lesson(request, act(request, game_id, action=action, version=version,
                                      refusals_told=True))


@require_POST
@never_cache
@game_answer
def clock(request: HttpRequest, game_id: str) -> HttpResponse:
    _controller_or_403(request, game_id, _("Only the teacher's browser controls this game."))
    try:
        request_args = read_clock(request)
    except BadMove:
        return render_lesson(request, unreadable(game_id))
    # A lesson's clock rules (no step while a question is open) are teach.clockrules',
    # applied by play.service whichever route the command comes through.
    return render_lesson(request, act(request, game_id, controls=True, **request_args))


def _ask_the_class(request: HttpRequest, lesson: Lesson, row: Game, command: str) -> None:
    """The teacher's question command: ask about a seat's move, show the answers, or close
    (questions.QuestionError for one that does not fit the lesson now)."""
    if command == "ask":
        seat = parse_natural(request.POST.get("seat", ""), digits=2)
        if seat is None:
            raise questions.QuestionError("seat")
        questions.ask(lesson, row, seat)
    elif command in ("reveal", "close"):
        open_question = lesson.open_question
        if open_question is None:
            raise questions.QuestionError("none")
        if command == "reveal":
            questions.reveal(open_question)
        else:
            questions.close_all(lesson)
    else:
        raise questions.QuestionError("command")


@require_POST
@never_cache
def question(request: HttpRequest, game_id: str) -> HttpResponse:
    lesson = _controller_or_403(request, game_id, _("Only the teacher's browser asks the class."))
    command = request.POST.get("command", "")
    row = lesson.game
    try:
        written(lambda: _ask_the_class(request, lesson, row, command))
    except questions.QuestionError as error:
        messages = {
            "not-paused": _("Pause the game before asking the class."),
            "open": _("A question is open already: show the answers or close it first."),
            "none": _("No question is open."),
        }
        text = messages.get(str(error), _("That request could not be read, so nothing was "
                                          "changed."))
        return _refuse(request, game_id, text, 409 if str(error) in messages else 400)
    except CannotSave:  # a read-only database: the question's place says so (#25)
        return _refuse(request, game_id, _("Nothing can be saved right now. Please try again "
                                           "in a moment."), 503)
    return render_lesson(request, Shown(row, service.as_it_stands(row, timezone.now()),
                                        since=_since(request)))


@require_safe
@never_cache
def explain_view(request: HttpRequest, game_id: str) -> HttpResponse:
    lesson = lesson_or_404(game_id)
    row = lesson.game
    game = service.driver_of(row).game
    context: dict = {"lesson": lesson, "explanations": []}
    status = 200
    if not row.paused or row.over:
        context["message"] = _("Pause the game to ask about a card.")
        status = 409
    else:
        try:
            ref = parse_ref(request.GET.get("ref", ""), game)
        except BadRef:
            context["message"] = _("That is not a card or pile on this table.")
            status = 400
        else:
            context["explanations"] = [(current_lang(), explain(game, ref))]
            if lesson.lang2:
                with translation.override(lesson.lang2):
                    context["explanations"].append((lesson.lang2, explain(game, ref)))
    return render(request, "teach/explain.html", context, status=status)


# ---------------------------------------------------------------------------- pupils
@require_POST
@never_cache
def answer(request: HttpRequest, game_id: str, number: int) -> HttpResponse:
    lesson = lesson_or_404(game_id)
    row = lesson.game
    pupil = pupil_of(request, lesson)
    on_table = request.GET.get("on") == ON_TABLE and pupil is not None

    def answered(text: Promise | None = None, status: int = 200) -> HttpResponse:
        # Asked on a class table's phone (#23): that page answers (in both of a two-language
        # lesson's languages: play.told), else the follow page.
        message = told(text) if text is not None else ""
        if on_table:
            found = table_answer(request, lesson, pupil, message, status)
            if found is not None:
                return found
        turn = service.as_it_stands(row, timezone.now())
        return render_follow(request, Shown(row, turn, message, status, _since(request)))

    if pupil is None:
        return answered(gettext_lazy("Join the class with its code and a nickname to answer."), 403)
    found = lesson.questions.filter(number=number).first()
    if found is None or found.state != Question.OPEN:
        return answered(gettext_lazy("This question is closed: your answer was not taken."), 409)
    try:
        action, _version = read_move(request)
        written(lambda: questions.answer(found, pupil, action))
    except (BadMove, questions.QuestionError):
        return answered(gettext_lazy("That answer could not be read, so nothing was changed."), 400)
    except CannotSave:  # a read-only database: the answer's place says so (#25)
        return answered(
            gettext_lazy("Your answer cannot be saved right now. Try again in a moment."), 503
        )
    return answered()


@require_http_methods(["GET", "HEAD", "POST"])
@never_cache
def join(request: HttpRequest) -> HttpResponse:
    """A pupil joins a class: its code (from the projector) and a nickname."""
    status = 200
    if request.method != "POST":
        form = JoinForm.prefilled(request)
    else:
        form = JoinForm(request, request.POST)
        if form.is_valid() and form.lesson is not None:
            lesson = form.lesson
            pupil = questions.join(lesson, form.cleaned_data["nickname"],
                                   pupil_of(request, lesson))
            if pupil is not None:
                remember_pupil(request, pupil)
                url = reverse("teach_follow", kwargs={"game_id": lesson.pk})
                return HttpResponseRedirect(url, status=303)
            form.add_error("nickname", _("Someone in this class already has this nickname: "
                                         "choose another."))
        status = 400
    context = {"form": form, "page_title": _("Join a class")}
    return render(request, "teach/join.html", context, status=status)


# ---------------------------------------------------------------------------- after the game
@require_safe
@never_cache
def replay_page(request: HttpRequest, game_id: str) -> HttpResponse:
    """The finished game in the step-through viewer, linking back to the lesson's page (which
    sends everyone but the teacher on to the follow page)."""
    lesson = lesson_or_404(game_id)
    row = lesson.game
    if not row.over:
        return HttpResponseRedirect(reverse("teach_follow", kwargs={"game_id": game_id}))
    return render_replay(
        request, row, url=reverse("teach_replay", kwargs={"game_id": game_id}),
        game_url=reverse("teach_lesson", kwargs={"game_id": game_id}))


@require_safe
@never_cache
def summary_page(request: HttpRequest, game_id: str) -> HttpResponse:
    lesson = lesson_or_404(game_id)
    row = lesson.game
    # A lesson of class tables prints once a table has finished, its own game unplayed (#23).
    if not row.over and not has_results(lesson):
        return HttpResponseRedirect(reverse("teach_follow", kwargs={"game_id": game_id}))
    lang = current_lang()
    tables_round, tables = table_results(lesson, lang)
    context = {"lesson": lesson, "row": row, "entry": variant_entry(row.variant, lang),
               "summary": class_summary(lesson, row, lang), **urls_of(row),
               "again_query": urlencode(again_pairs(row)), "watched": row.over,
               "tables_round": tables_round, "tables": tables}
    return render(request, "teach/summary.html", context)
