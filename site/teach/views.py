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
from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from play import service
from play import views as play_views
from play.clock import PACE_VALUES
from play.models import Game, LogEntry
from play.service import Turn
from play.setup import level_fields, option_fields, player_choices
from play.store import Busy
from play.table import DEMO_KEYS, Table, build_table

from core.catalogue import variant_entry, variant_or_404
from core.glossary import current_lang
from core.pagecache import cached_page
from houserules.sheet import qr_svg
from presentation.narration import player_name
from presentation.reasons import reason_text

from . import questions
from .explain import BadRef, Ref, explain, parse_ref
from .keys import hands_for, legend
from .models import CLASS_CODE_DIGITS, Lesson, Pupil, Question
from .narration import lines
from .setup import (
    first_level_choices,
    language_choices,
    mode_choices,
    pace_choices,
    pace_label,
    parse_teach_setup,
)
from .summary import class_summary, seat_names

CONTROL_KEY = "teach"
PUPIL_KEY = "pupil"
MAX_CONTROLLED = 20
#: how many of the newest lines the live region reads out after a change
ANNOUNCED = 2


# ---------------------------------------------------------------------------- who is who
def controls(request: HttpRequest, game_id: str) -> bool:
    return game_id in request.session.get(CONTROL_KEY, [])


def _control(request: HttpRequest, game_id: str) -> None:
    held = [g for g in request.session.get(CONTROL_KEY, []) if g != game_id]
    request.session[CONTROL_KEY] = [*held, game_id][-MAX_CONTROLLED:]


def pupil_of(request: HttpRequest, lesson: Lesson) -> Pupil | None:
    pupil_id = request.session.get(PUPIL_KEY, {}).get(lesson.pk)
    if not isinstance(pupil_id, int) or isinstance(pupil_id, bool):
        return None
    return Pupil.objects.filter(pk=pupil_id, lesson=lesson).first()


def _remember_pupil(request: HttpRequest, pupil: Pupil) -> None:
    known = {k: v for k, v in request.session.get(PUPIL_KEY, {}).items() if k != pupil.lesson_id}
    known[pupil.lesson_id] = pupil.pk
    request.session[PUPIL_KEY] = dict(list(known.items())[-MAX_CONTROLLED:])


def _lesson_or_404(game_id: str) -> Lesson:
    play_views.check_id(game_id)
    lesson = Lesson.objects.select_related("game").filter(pk=game_id).first()
    if lesson is None:
        raise Http404(game_id)
    return lesson


# ---------------------------------------------------------------------------- new lesson
@require_http_methods(["GET", "HEAD", "POST"])
@cached_page
def setup_page(request: HttpRequest, variant: str) -> HttpResponse:
    lang = current_lang()
    entry = variant_or_404(variant, lang)
    params = request.POST if request.method == "POST" else request.GET
    setup = parse_teach_setup(variant, params, lang)
    status = 200
    if request.method == "POST":
        if setup.ok:
            try:
                row = service.start_game(
                    variant, setup.seats, options=setup.base.options, seed=setup.base.seed,
                    wall=timezone.now(), speed=setup.pace * settings.PLAY_CLOCK_SPEED,
                    paused=True)
            except ValueError:
                setup.errors["players"] = _("The engine cannot deal this game with these "
                                            "rules and players.")
            else:
                lesson = _new_lesson(row, setup.mode, setup.lang2)
                _control(request, lesson.pk)
                if setup.acting:
                    play_views.hold_seats(request, row.pk, setup.acting)
                url = reverse("teach_lesson", kwargs={"game_id": row.pk})
                return HttpResponseRedirect(url, status=303)
        status = 400
    errors = {**setup.base.errors, **setup.errors}
    context = {
        "entry": entry,
        "page_title": _("Teach %(game)s") % {"game": entry.name},
        "setup": setup,
        "errors": errors,
        "modes": mode_choices(setup.mode),
        "first_levels": first_level_choices(setup.first_level),
        "paces": pace_choices(setup.pace),
        "languages": language_choices(lang, setup.lang2),
        "option_fields": option_fields(setup.base, lang),
        "player_choices": (player_choices(setup.base)
                           if len(player_choices(setup.base)) > 1 else ()),
        "level_fields": level_fields(setup.base),
        "rules_url": reverse("rules", kwargs={"variant": variant}),
    }
    return render(request, "teach/setup.html", context, status=status)


def _new_lesson(row: Game, mode: str, lang2: str) -> Lesson:
    for _attempt in range(20):  # a class code already in use is drawn again
        try:
            with transaction.atomic():
                return Lesson.objects.create(game=row, mode=mode, lang2=lang2)
        except IntegrityError:
            continue
    raise RuntimeError("no free class code")


# ---------------------------------------------------------------------------- the table
def _explainable(table: Table) -> None:
    """A paused table's cards and piles ask to be explained when clicked."""
    for view in [*table.opponents, *([table.own] if table.own else [])]:
        for zone in view.zones:
            for item in zone.items:
                top = item.top
                card = top["card"] if zone.fanned and top and top["up"] else None
                item.explain = Ref(zone.id, view.seat, card).to_json()
    for zone in table.centre:
        for item in zone.items:
            top = item.top
            card = top["card"] if zone.fanned and top else None
            item.explain = Ref(zone.id, None, card).to_json()


def _second_language(table: Table, lang2: str, names: list[str]) -> None:
    """The captions and seat names in the second language beside the first."""
    from presentation.board import zone_label

    with translation.override(lang2):
        for view in [*table.opponents, *([table.own] if table.own else [])]:
            view.name_alt, view.lang_alt = names[view.seat], lang2
            for zone in view.zones:
                zone.label_alt = zone_label(zone.id, zone.kind, table.variant)
                zone.lang_alt = lang2
        for zone in table.centre:
            zone.label_alt, zone.lang_alt = zone_label(zone.id, zone.kind, table.variant), lang2


def _table(lesson: Lesson, row: Game, game, *, acting: list[int], explainable: bool) -> Table:
    family = game.variant.family
    hands = hands_for(family, acting) if acting else {}
    names = seat_names(lesson, row)
    table = build_table(game, row.seats, 0, interactive=bool(hands), reveal=True, hands=hands,
                        names=names)
    if explainable:
        _explainable(table)
    if lesson.lang2:
        with translation.override(lesson.lang2):
            names2 = seat_names(lesson, row)
        _second_language(table, lesson.lang2, names2)
    return table


def _key_lists(lesson: Lesson, row: Game, game, acting: list[int]) -> list[dict]:
    """Each acting seat's keys and what they do, for the list beside the table."""
    hands = hands_for(game.variant.family, acting)
    table = build_table(game, row.seats, 0, interactive=True, reveal=True, hands=hands)
    names = seat_names(lesson, row)
    lists = []
    for seat, keys in hands.items():
        labels = {c.dom_id.removeprefix("cmd-").removesuffix(f"-{c.seat}"): c.label
                  for c in table.commands if c.seat in (seat, None)}
        lists.append({"name": names[seat], "seat": seat,
                      "keys": legend(table.family, keys, labels)})
    return lists


def _command_groups(table: Table) -> list[dict]:
    """The command buttons, one group per player when two play at one keyboard."""
    seats = list(dict.fromkeys(c.seat for c in table.commands))
    if seats == [None]:
        return [{"name": "", "commands": table.commands}]
    views = {v.seat: v.name for v in [*table.opponents, *([table.own] if table.own else [])]}
    return [{"name": views.get(seat, ""), "commands": [c for c in table.commands if c.seat == seat]}
            for seat in sorted(s for s in seats if s is not None)]


def _urls(row: Game) -> dict[str, str]:
    kw = {"game_id": row.pk}
    return {
        "lesson_url": reverse("teach_lesson", kwargs=kw),
        "follow_url": reverse("teach_follow", kwargs=kw),
        "move_url": reverse("teach_move", kwargs=kw),
        "clock_url": reverse("teach_clock", kwargs=kw),
        "question_url": reverse("teach_question", kwargs=kw),
        "explain_url": reverse("teach_explain", kwargs=kw),
        "summary_url": reverse("teach_summary", kwargs=kw),
        "replay_url": reverse("teach_replay", kwargs=kw),
        "rules_url": reverse("rules", kwargs={"variant": row.variant}),
        "setup_url": reverse("teach_setup", kwargs={"variant": row.variant}),
    }


def _story(row: Game, lesson: Lesson, since: int | None, fragment: bool,
           fresh: list[LogEntry] | None) -> dict:
    first = since if fragment and since is not None else 0
    told = lines(row, first, lesson.lang2, fresh=fresh)
    return {"lines": told, "announce": [line.text for line in told[-ANNOUNCED:]]
            if fragment and since is not None and since < row.log_length else []}


def render_lesson(request: HttpRequest, row: Game, turn: Turn, *, message: str = "",
                  status: int = 200, since: int | None = None,
                  fresh: list[LogEntry] | None = None) -> HttpResponse:
    """The projector's page, or its fragment for htmx: the game as the teacher controls it."""
    lesson = Lesson.objects.get(pk=row.pk)
    return _render(request, lesson, row, turn, "controller", message=message, status=status,
                   since=since, fresh=fresh)


def render_follow(request: HttpRequest, row: Game, turn: Turn, *, message: str = "",
                  status: int = 200, since: int | None = None,
                  fresh: list[LogEntry] | None = None) -> HttpResponse:
    lesson = Lesson.objects.get(pk=row.pk)
    role = "pupil" if pupil_of(request, lesson) else "follower"
    return _render(request, lesson, row, turn, role, message=message, status=status,
                   since=since, fresh=fresh)


def _render(request: HttpRequest, lesson: Lesson, row: Game, turn: Turn, role: str, *,
            message: str, status: int, since: int | None,
            fresh: list[LogEntry] | None) -> HttpResponse:
    lang = current_lang()
    game = turn.driver.game
    controller = role == "controller"
    acting = list(play_views.held_seats(request, row.pk)) if controller else []
    paused = row.paused and not row.over
    table = _table(lesson, row, game, acting=[] if paused else acting,
                   explainable=paused and controller)
    question = lesson.open_question
    fragment = bool(request.htmx)
    urls = _urls(row)
    context = {
        "lesson": lesson,
        "row": row,
        "role": role,
        "controller": controller,
        "entry": variant_entry(row.variant, lang),
        "table": table,
        "message": message,
        "paused": paused,
        "started": row.clock_ms > 0 or row.log_length > 0,
        "pace": f"{row.speed / settings.PLAY_CLOCK_SPEED:g}",
        "paces": [(value, pace_label(pace)) for value, pace in PACE_VALUES.items()],
        "poll_ms": service.next_poll_ms(row, turn.driver, timezone.now()),
        "question": question,
        "tally": questions.tally(question) if question and controller else None,
        # name: the seat's label (a select's option); in_sentence: as a question names it.
        "seats": [{"seat": s, "name": n, "in_sentence": player_name(s, in_sentence=True)}
                  for s, n in enumerate(seat_names(lesson, row))],
        "command_groups": _command_groups(table),
        "key_lists": (_key_lists(lesson, row, game, acting)
                      if acting and not fragment and not row.over else []),
        "stepped_nothing": turn.stepped is None and request.POST.get("command") == "step",
        "fragment": fragment,
        "lang2": lesson.lang2,
        **urls,
        **_story(row, lesson, since, fragment, fresh),
    }
    if role == "pupil":
        context.update(_pupil_context(request, lesson, row, question))
    if not fragment:
        follow = request.build_absolute_uri(urls["follow_url"])
        context.update({"follow_link": follow, "follow_qr": qr_svg(follow),
                        "class_code": " ".join([lesson.class_code[:3], lesson.class_code[3:]]),
                        "join_url": reverse("teach_join")})
    template = "teach/lesson.html#state" if fragment else "teach/lesson.html"
    response = render(request, template, context, status=status)
    response["X-Game-Version"] = str(row.version)
    patch_vary_headers(response, ["HX-Request"])
    return response


def _pupil_context(request: HttpRequest, lesson: Lesson, row: Game,
                   question: Question | None) -> dict:
    pupil = pupil_of(request, lesson)
    context: dict = {"pupil": pupil}
    if question is None or pupil is None:
        return context
    position = questions.position(question)
    is_open = question.state == Question.OPEN
    names = seat_names(lesson, row)
    context["question_table"] = build_table(
        position, row.seats, question.seat, interactive=is_open, reveal=True,
        hands={question.seat: DEMO_KEYS}, names=names)
    context["answer_url"] = reverse("teach_answer", kwargs={"game_id": row.pk,
                                                            "number": question.number})
    mine = question.answers.filter(pupil=pupil).first()
    if mine is not None:
        context["my_answer"] = {
            "move": questions.answered_text({**mine.action, "player": question.seat},
                                            row.variant),
            "accepted": mine.accepted,
            "reason": reason_text(mine.reason) if mine.reason else ""}
    return context


def _since(request: HttpRequest) -> int | None:
    raw = request.GET.get("since") or request.POST.get("since") or ""
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else None


def _catch_up(game_id: str, render_page, request: HttpRequest) -> HttpResponse:
    try:
        change = service.play(game_id, timezone.now())
    except Game.DoesNotExist:
        raise Http404(game_id) from None
    except Busy:
        return HttpResponse(_("This game is very busy; try again in a moment."), status=503)
    return render_page(request, change.row, change.value, since=_since(request),
                       fresh=change.entries)


@require_safe
@never_cache
def lesson_page(request: HttpRequest, game_id: str) -> HttpResponse:
    lesson = _lesson_or_404(game_id)
    if not controls(request, lesson.pk):
        return HttpResponseRedirect(reverse("teach_follow", kwargs={"game_id": game_id}))
    return _catch_up(game_id, render_lesson, request)


@require_safe
@never_cache
def follow_page(request: HttpRequest, game_id: str) -> HttpResponse:
    _lesson_or_404(game_id)
    return _catch_up(game_id, render_follow, request)


# ---------------------------------------------------------------------------- teacher's acts
def _refuse(request: HttpRequest, game_id: str, message: str, status: int) -> HttpResponse:
    row = play_views.game_or_404(game_id)
    turn = Turn(service.driver_of(row), row.clock.now_ms(timezone.now()))
    return render_lesson(request, row, turn, message=message, status=status,
                         since=_since(request))


def _controller_or_403(request: HttpRequest, game_id: str) -> Lesson:
    lesson = _lesson_or_404(game_id)
    if not controls(request, lesson.pk):
        raise PermissionError
    return lesson


@require_POST
@never_cache
def move(request: HttpRequest, game_id: str) -> HttpResponse:
    try:
        _controller_or_403(request, game_id)
    except PermissionError:
        return HttpResponse(_("Only the teacher's browser plays in this game."), status=403)
    try:
        action, version = play_views.read_move(request)
    except play_views.BadMove:
        return play_views.unreadable(request, game_id, render_lesson)
    return play_views.act(request, game_id, render=render_lesson, action=action,
                          version=version)


@require_POST
@never_cache
def clock(request: HttpRequest, game_id: str) -> HttpResponse:
    try:
        lesson = _controller_or_403(request, game_id)
    except PermissionError:
        return HttpResponse(_("Only the teacher's browser controls this game."), status=403)
    try:
        request_args = play_views.read_clock(request)
    except play_views.BadMove:
        return play_views.unreadable(request, game_id, render_lesson)
    command = request_args["clock_command"]
    if command == "step" and lesson.open_question is not None:
        return _refuse(request, game_id, _("Close the question before going on to the next step."),
                       409)
    if command == "resume":
        questions.close_all(lesson)  # the game goes on: the question is over
    return play_views.act(request, game_id, render=render_lesson, controls=True,
                          **request_args)


@require_POST
@never_cache
def question(request: HttpRequest, game_id: str) -> HttpResponse:
    try:
        lesson = _controller_or_403(request, game_id)
    except PermissionError:
        return HttpResponse(_("Only the teacher's browser asks the class."), status=403)
    command = request.POST.get("command", "")
    row = lesson.game
    try:
        if command == "ask":
            raw = request.POST.get("seat", "")
            if not (raw.isascii() and raw.isdigit() and len(raw) < 3):
                raise questions.QuestionError("seat")
            questions.ask(lesson, row, int(raw))
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
    except questions.QuestionError as error:
        messages = {
            "not-paused": _("Pause the game before asking the class."),
            "open": _("A question is open already: show the answers or close it first."),
            "none": _("No question is open."),
        }
        text = messages.get(str(error), _("That request could not be read, so nothing was "
                                          "changed."))
        return _refuse(request, game_id, text, 409 if str(error) in messages else 400)
    turn = Turn(service.driver_of(row), row.clock.now_ms(timezone.now()))
    return render_lesson(request, row, turn, since=_since(request))


@require_safe
@never_cache
def explain_view(request: HttpRequest, game_id: str) -> HttpResponse:
    lesson = _lesson_or_404(game_id)
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
    lesson = _lesson_or_404(game_id)
    row = lesson.game
    turn = Turn(service.driver_of(row), row.clock.now_ms(timezone.now()))
    pupil = pupil_of(request, lesson)
    if pupil is None:
        return render_follow(request, row, turn, status=403, since=_since(request), message=_(
            "Join the class with its code and a nickname to answer."))
    found = lesson.questions.filter(number=number).first()
    if found is None or found.state != Question.OPEN:
        return render_follow(request, row, turn, status=409, since=_since(request),
                             message=_("This question is closed: your answer was not taken."))
    try:
        action, _version = play_views.read_move(request)
        questions.answer(found, pupil, action)
    except (play_views.BadMove, questions.QuestionError):
        return render_follow(request, row, turn, status=400, since=_since(request),
                             message=_("That answer could not be read, so nothing was "
                                       "changed."))
    return render_follow(request, row, turn, since=_since(request))


@require_http_methods(["GET", "HEAD", "POST"])
@never_cache
def join(request: HttpRequest) -> HttpResponse:
    """A pupil joins a class: its code (from the projector) and a nickname."""
    params = request.POST if request.method == "POST" else request.GET
    code = "".join(params.get("code", "").split())[:CLASS_CODE_DIGITS + 4]
    nickname = questions.clean_nickname(params.get("nickname", ""))
    errors: dict[str, str] = {}
    status = 200
    if request.method == "POST":
        lesson = None
        if not (code.isascii() and code.isdigit() and len(code) == CLASS_CODE_DIGITS):
            errors["code"] = _("A class code has six digits: the ones shown on the projector.")
        else:
            lesson = Lesson.objects.filter(class_code=code).first()
            if lesson is None:
                errors["code"] = _("No class has this code. Check the digits on the "
                                   "projector.")
        if not nickname:
            errors["nickname"] = _("Choose a nickname (at most %(n)s characters).") % {
                "n": questions.MAX_NICKNAME}
        if lesson is not None and not errors:
            pupil = pupil_of(request, lesson)
            if pupil is None or pupil.nickname.lower() != nickname.lower():
                pupil = questions.join(lesson, nickname)
            if pupil is None:
                errors["nickname"] = _("Someone in this class already has this nickname: "
                                       "choose another.")
            else:
                _remember_pupil(request, pupil)
                url = reverse("teach_follow", kwargs={"game_id": lesson.pk})
                return HttpResponseRedirect(url, status=303)
        status = 400
    context = {"code": code, "nickname": nickname, "errors": errors,
               "page_title": _("Join a class")}
    return render(request, "teach/join.html", context, status=status)


# ---------------------------------------------------------------------------- after the game
@require_safe
@never_cache
def replay_page(request: HttpRequest, game_id: str) -> HttpResponse:
    """The finished game in the step-through viewer, linking back to the lesson's page (which
    sends everyone but the teacher on to the follow page)."""
    lesson = _lesson_or_404(game_id)
    row = lesson.game
    if not row.over:
        return HttpResponseRedirect(reverse("teach_follow", kwargs={"game_id": game_id}))
    return play_views.render_replay(
        request, row, url=reverse("teach_replay", kwargs={"game_id": game_id}),
        game_url=reverse("teach_lesson", kwargs={"game_id": game_id}))


@require_safe
@never_cache
def summary_page(request: HttpRequest, game_id: str) -> HttpResponse:
    lesson = _lesson_or_404(game_id)
    row = lesson.game
    if not row.over:
        return HttpResponseRedirect(reverse("teach_follow", kwargs={"game_id": game_id}))
    lang = current_lang()
    context = {"lesson": lesson, "row": row, "entry": variant_entry(row.variant, lang),
               "summary": class_summary(lesson, row, lang), **_urls(row),
               "again_query": urlencode(play_views.again_pairs(row))}
    return render(request, "teach/summary.html", context)
