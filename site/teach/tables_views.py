"""Class tables' pages (#23): the projector's overview of every table with the teacher's
controls, and each pupil's phone at the pupil's own table.

Only the browser that controls the lesson changes a round (403 otherwise). A pupil's phone
asks for its table (`pupil_table`); that request holds the pupil's seat of the table's
game in the phone's own session, then the page is the demo's live game page (play.js and
its socket), with the class's header and a status line that loads the next round's table
when the teacher seats the class again.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe
from play.access import hold_seats
from play.answers import Shown, catch_up, game_answer, parse_since
from play.page import play_context

from core.catalogue import variant_entry
from core.dbwrite import CannotSave, written
from core.glossary import current_lang
from presentation.gamepage import render_game

from . import questions, seating
from .access import controls, lesson_or_404, pupil_of
from .joining import format_code
from .models import ClassRound, Lesson, Pupil
from .overview import render_overview
from .signals import ALL, TEACHER, announce
from .tables_forms import CommandForm, RoundForm, away_choices, level_choices, size_choices


def overview_urls(lesson: Lesson) -> dict[str, str]:
    kw = {"game_id": lesson.pk}
    return {
        "tables_url": reverse("teach_tables", kwargs=kw),
        "control_url": reverse("teach_tables_control", kwargs=kw),
        "lesson_url": reverse("teach_lesson", kwargs=kw),
        "join_url": reverse("teach_join"),
    }


def _page_context(request: HttpRequest, lesson: Lesson, message: str = "") -> dict:
    row = lesson.game
    latest = seating.current_round(lesson)
    return {
        "lesson": lesson,
        "entry": variant_entry(row.variant, current_lang()),
        "round": latest,
        "message": message,
        "sizes": size_choices(row.variant, latest.size if latest else 2),
        "levels": level_choices(latest.bot_level if latest else seating.DEFAULT_LEVEL),
        "aways": away_choices(latest.away_ms if latest else settings.PLAY_AWAY_LIMIT_MS),
        "pairings": [
            (ClassRound.SHUFFLE, _("Shuffle everyone")),
            (ClassRound.WINNERS, _("Winners with winners")),
        ],
        "class_code": format_code(lesson.class_code),
        "join_link": request.build_absolute_uri(reverse("teach_join")),
        "socket_url": f"/ws/{current_lang()}/class/{lesson.pk}/tables/",
        **overview_urls(lesson),
    }


def _overview_answer(
    request: HttpRequest, lesson: Lesson, status: int = 200, message: str = ""
) -> HttpResponse:
    """The projector: the whole page, or for htmx only the overview (the same bytes for
    every screen that shows this moment of the class)."""
    overview = render_overview(lesson, overview_urls(lesson))
    if request.htmx:
        # The message goes to its own place beside the overview (an out-of-band swap).
        told = format_html(
            '<p id="tables-message" class="tables__message" role="status" '
            'hx-swap-oob="true">{}</p>',
            message,
        )
        # htmx swaps only a 2xx answer: the refusal is told in the message's place instead.
        response = HttpResponse(overview + told)
    else:
        context = {**_page_context(request, lesson, message), "overview": mark_safe(overview)}
        response = render(request, "teach/tables.html", context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_safe
@never_cache
def tables_page(request: HttpRequest, game_id: str) -> HttpResponse:
    lesson = lesson_or_404(game_id)
    if not controls(request, lesson.pk):
        return HttpResponseRedirect(reverse("teach_follow", kwargs={"game_id": game_id}))
    return _overview_answer(request, lesson)


MESSAGES = {
    "empty": lambda: _("Nobody has joined the class yet: pupils join with the class code."),
    "size": lambda: _("Choose a table size from the list."),
    "level": lambda: _("Choose a level from the list."),
    "pairing": lambda: _("Choose how to seat the class from the list."),
    "no-round": lambda: _("No round is being played: start one first."),
    "ended": lambda: _("This round is over: start a new round."),
    "table": lambda: _("There is no such table in this round."),
    "pupil": lambda: _("There is no such pupil in this class."),
    "seat": lambda: _("No pupil sits there in this round."),
    "away": lambda: _(
        "Choose from the list how long a seat waits when a phone loses its connection."
    ),
    "large": lambda: _("Show the table large before asking the class about it."),
    "ask-seat": lambda: _("There is no such seat at this table."),
    "ask-not-paused": lambda: _("Pause every table before asking the class."),
    "ask-open": lambda: _("A question is open already: show the answers or close it first."),
    "not-handed": lambda: _("That seat has not been handed to a bot."),
}
#: refusals that fit no state of the class now (409), not a request that was wrong (400)
CONFLICTS = ("empty", "no-round", "ended", "ask-not-paused", "ask-open", "not-handed")


def _act(lesson: Lesson, command: CommandForm, round_form: RoundForm) -> None:
    """Carry out the teacher's command (SeatingError with a MESSAGES key if it cannot be)."""
    wall = timezone.now()
    name = command.cleaned_data["command"]
    if name == "start":
        if not round_form.is_valid():
            raise seating.SeatingError(next(iter(round_form.errors)))
        data = round_form.cleaned_data
        seating.start_round(
            lesson,
            size=data["size"],
            level=data["level"],
            pairing=data["pairing"],
            wall=wall,
            away_ms=data["away"],
        )
        return
    if name == "remove":
        if seating.remove_pupil(lesson, command.cleaned_data["pupil"] or 0, wall) is None:
            raise seating.SeatingError("pupil")
        return
    latest = seating.current_round(lesson)
    if latest is None:
        raise seating.SeatingError("no-round")
    if latest.ended is not None:
        raise seating.SeatingError("ended")
    if name == "pause":
        seating.pause_all(latest, wall)
    elif name == "resume":
        questions.close_tables(lesson)  # the tables go on: their question is over
        seating.resume_all(latest, wall)
    elif name == "end":
        questions.close_tables(lesson)
        seating.end_round(latest, wall)
    elif name == "ask":
        _ask(lesson, latest, command.cleaned_data["table"] or 0, command.cleaned_data["seat"])
    elif name == "large":
        number = command.cleaned_data["table"] or 0
        if number and not latest.tables.filter(number=number).exists():
            raise seating.SeatingError("table")
        ClassRound.objects.filter(pk=latest.pk).update(large=number)
    elif name in ("bot", "give-back"):
        table = latest.tables.filter(number=command.cleaned_data["table"] or 0).first()
        seat = command.cleaned_data["seat"]
        if table is None or seat is None or not table.seats.filter(seat=seat).exists():
            raise seating.SeatingError("seat")
        if name == "bot":
            seating.hand_to_bot(table, seat, wall)
        else:
            seating.give_back(table, seat, wall)


def _ask(lesson: Lesson, latest: ClassRound, number: int, seat: int | None) -> None:
    """A class question about the table shown large, for one of its seats."""
    table = latest.tables.filter(number=number).select_related("game").first()
    if table is None or number != latest.large:
        raise seating.SeatingError("large")
    if seat is None:
        raise seating.SeatingError("ask-seat")
    try:
        questions.ask(lesson, table.game, seat)
    except questions.QuestionError as error:
        raise seating.SeatingError(f"ask-{error}") from error


@require_POST
@never_cache
def tables_control(request: HttpRequest, game_id: str) -> HttpResponse:
    lesson = lesson_or_404(game_id)
    if not controls(request, lesson.pk):
        raise PermissionDenied(_("Only the teacher's browser seats the class and runs its tables."))
    command = CommandForm(request.POST)
    if not command.is_valid():
        return _overview_answer(
            request, lesson, 400, _("That request could not be read, so nothing was changed.")
        )
    try:
        written(lambda: _act(lesson, command, RoundForm(request.POST, variant=lesson.game.variant)))
    except seating.SeatingError as error:
        text = MESSAGES.get(str(error), MESSAGES["size"])()
        return _overview_answer(request, lesson, 409 if str(error) in CONFLICTS else 400, text)
    except CannotSave:
        return _overview_answer(
            request, lesson, 503, _("Nothing can be saved right now. Please try again in a moment.")
        )
    # Every projector's socket re-renders; a new or ended round reaches the pupils' follow
    # pages too (their table is ready, teach/lesson.html).
    name = command.cleaned_data["command"]
    announce(lesson.pk, ALL if name in ("start", "end") else TEACHER)
    if request.htmx:
        return _overview_answer(request, lesson)
    return HttpResponseRedirect(reverse("teach_tables", kwargs={"game_id": game_id}), status=303)


# ---------------------------------------------------------------------------- the pupil's phone
def _pupil_urls(lesson: Lesson, at: str) -> dict[str, str]:
    kw = {"game_id": lesson.pk}
    return {
        "table_url": reverse("teach_pupil_table", kwargs=kw),
        "status_url": f"{reverse('teach_pupil_status', kwargs=kw)}?at={at}",
        "follow_url": reverse("teach_follow", kwargs=kw),
    }


def _status_context(lesson: Lesson, seated: seating.Seated | None) -> dict:
    round_ = seated.round if seated else seating.current_round(lesson)
    return {
        "class_round": round_,
        "seated": seated,
        "asking": lesson.open_question is not None,
        **_pupil_urls(lesson, seated.table.game_id if seated else ""),
    }


@require_safe
@never_cache
@game_answer
def pupil_table(request: HttpRequest, game_id: str) -> HttpResponse:
    """The pupil's phone: the pupil's table in this round, or a wait for the next one."""
    lesson = lesson_or_404(game_id)
    pupil = pupil_of(request, lesson)
    if pupil is None:
        return HttpResponseRedirect(reverse("teach_join"))
    seated = None if pupil.removed else seating.seat_of(lesson, pupil)
    context = _phone_context(lesson, pupil, seated)
    if seated is None:
        return render(request, "teach/class_table.html", context)
    hold_seats(request, seated.table.game_id, [seated.seat])  # this phone plays this seat
    return _table_answer(request, seated, context, catch_up(seated.table.game_id, None))


def table_answer(
    request: HttpRequest, lesson: Lesson, pupil: Pupil, message: str = "", status: int = 200
) -> HttpResponse | None:
    """The pupil's table page (for htmx its game part) with `message`: the answer to a class
    question asked on the phone's table page (teach.views.answer); None when the pupil sits
    at no table now (the follow page answers then)."""
    seated = None if pupil.removed else seating.seat_of(lesson, pupil)
    if seated is None or seated.round.ended is not None:
        return None
    since = parse_since(request.POST.get("since"))
    caught = catch_up(seated.table.game_id, since)
    shown = Shown(caught.row, caught.turn, message, status, since, caught.fresh)
    return _table_answer(request, seated, _phone_context(lesson, pupil, seated), shown)


def _phone_context(lesson: Lesson, pupil: Pupil, seated: seating.Seated | None) -> dict:
    return {
        "lesson": lesson,
        "pupil": pupil,
        "entry": variant_entry(lesson.game.variant, current_lang()),
        **_status_context(lesson, seated),
    }


def _table_answer(
    request: HttpRequest, seated: seating.Seated, context: dict, shown: Shown
) -> HttpResponse:
    role, game_context = play_context(shown, seated.seat)
    from .tables_board import seat_names

    names = seat_names(
        shown.row, {s.seat: s.pupil.nickname for s in seated.table.seats.select_related("pupil")}
    )
    others = [name for s, name in enumerate(names) if s != seated.seat]
    return render_game(
        request,
        role,
        template="teach/class_table.html",
        context={**game_context, **context, "others": others},
        version=shown.row.version,
        status=shown.status,
    )


def table_redirect(request: HttpRequest, lesson: Lesson) -> HttpResponse | None:
    """For a pupil seated in the running round: off to the own table (htmx: HX-Redirect)."""
    pupil = pupil_of(request, lesson)
    if pupil is None or pupil.removed or lesson.open_question is not None:
        return None  # (a class question is answered on the follow page)
    seated = seating.seat_of(lesson, pupil)
    if seated is None or seated.round.ended is not None:
        return None
    url = reverse("teach_pupil_table", kwargs={"game_id": lesson.pk})
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return HttpResponseRedirect(url)


@require_safe
@never_cache
def pupil_status(request: HttpRequest, game_id: str) -> HttpResponse:
    """The line above a pupil's table, asked again every few seconds: it sends the phone to
    its new table when the teacher starts a round (and to the join page when it has no
    pupil any more)."""
    lesson = lesson_or_404(game_id)
    pupil = pupil_of(request, lesson)
    seated = None if pupil is None or pupil.removed else seating.seat_of(lesson, pupil)
    at = request.GET.get("at", "")[:40]
    now = seated.table.game_id if seated else ""
    if pupil is None or now != at:
        response = HttpResponse(status=204)
        target = reverse("teach_join") if pupil is None else _pupil_urls(lesson, now)["table_url"]
        response["HX-Redirect"] = target
        return response
    return render(
        request,
        "teach/class_status.html",
        {"lesson": lesson, "pupil": pupil, **_status_context(lesson, seated)},
    )
