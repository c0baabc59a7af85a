"""Teacher mode on the socket (live.lessons): the projector's socket is the teacher's alone,
a pupil's frame carries nothing of the teacher's, a class question reaches every pupil and
follower with no request of theirs, an answer reaches the projector's tally, and each view
is rendered once for all its sockets."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.sessions.backends.signed_cookies import SessionStore
from django.utils import timezone, translation
from django.utils.html import escape
from play import service
from play.access import SESSION_KEY
from play.models import Game, LogEntry
from teach import questions
from teach.access import CONTROL_KEY, PUPIL_KEY
from teach.models import Lesson, Pupil, Question
from teach.narration import lines

from config.asgi import application
from rules_engine.actions import Action
from tests.site.test_live import (
    ORIGIN,
    frames_until,
    fresh_channel_layer,
    own_loop,
    version_of,
)

pytestmark = pytest.mark.django_db(transaction=True)
fresh_channel_layer = fresh_channel_layer  # the same fresh layer per test

#: what only the projector shows: the clock, the pace, asking the class, the tally
TEACHER_ONLY = (
    'data-clock="',
    'id="question-ask"',
    'id="class-question"',
    'id="tally"',
    'id="question-reveal"',
    'id="question-close"',
)


def new_lesson(
    variant: str = "stress-de",
    seats: tuple[str, ...] = ("expert", "expert"),
    mode: str = Lesson.WATCH,
) -> Lesson:
    row = service.start_game(variant, list(seats), seed=7, wall=timezone.now(), paused=True)
    return Lesson.objects.create(game=row, mode=mode)


def session_cookie(**values) -> bytes:
    session = SessionStore()
    for key, value in values.items():
        session[key] = value
    session.save()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}".encode()


def teacher_cookie(lesson: Lesson, seats: list[int] | None = None) -> bytes:
    values: dict = {CONTROL_KEY: [lesson.pk]}
    if seats:
        values[SESSION_KEY] = {lesson.pk: seats}
    return session_cookie(**values)


def pupil_cookie(lesson: Lesson, nickname: str) -> bytes:
    pupil = questions.join(lesson, nickname)
    assert pupil is not None
    return session_cookie(**{PUPIL_KEY: {lesson.pk: pupil.pk}})


async def open_socket(
    lesson: Lesson, *, teacher: bool = False, lang: str = "en", cookie: bytes | None = None
) -> WebsocketCommunicator:
    path = f"/ws/{lang}/class/{lesson.pk}/{'teacher/' if teacher else ''}"
    headers = [ORIGIN, *([(b"cookie", cookie)] if cookie else [])]
    socket = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await socket.connect()
    assert connected, code
    return socket


async def shown(socket: WebsocketCommunicator) -> str:
    """The frame a page is sent when it says which line it saw last."""
    await socket.send_to(text_data=json.dumps({"since": 0}))
    return await socket.receive_from()


async def frame_with(socket: WebsocketCommunicator, text: str, timeout: float = 5) -> str:
    """The first frame that shows `text` (earlier ones told of earlier changes)."""
    while True:
        frame = await socket.receive_from(timeout=timeout)
        if text in frame:
            return frame


async def drain(socket: WebsocketCommunicator) -> None:
    while not await socket.receive_nothing(timeout=0.3):
        await socket.receive_from()


async def close_all(*sockets: WebsocketCommunicator) -> None:
    for socket in sockets:
        await socket.disconnect()


@own_loop
async def test_the_projectors_socket_opens_only_for_the_teachers_browser():
    lesson = await sync_to_async(new_lesson)()
    for cookie in (
        None,
        await sync_to_async(pupil_cookie)(lesson, "Ada"),
        await sync_to_async(teacher_cookie)(await sync_to_async(new_lesson)()),
    ):
        headers = [ORIGIN, *([(b"cookie", cookie)] if cookie else [])]
        refused = WebsocketCommunicator(
            application, f"/ws/en/class/{lesson.pk}/teacher/", headers=headers
        )
        connected, code = await refused.connect()
        assert not connected and code == 4403
    for path in ("/ws/en/class/NoSuchLesson00/", f"/ws/xx/class/{lesson.pk}/"):
        missing = WebsocketCommunicator(application, path, headers=[ORIGIN])
        connected, _code = await missing.connect()
        assert not connected
    teacher = await open_socket(
        lesson, teacher=True, cookie=await sync_to_async(teacher_cookie)(lesson)
    )
    frame = await shown(teacher)
    assert version_of(frame) == lesson.game.version
    assert 'id="clock-resume"' in frame and 'id="question-ask"' in frame
    # A pushed board never asks the page to poll.
    assert 'class="poll"' not in frame
    await close_all(teacher)


@own_loop
async def test_a_question_reaches_every_pupil_and_follower_with_no_request_of_theirs():
    lesson = await sync_to_async(new_lesson)()
    teacher = await open_socket(
        lesson, teacher=True, cookie=await sync_to_async(teacher_cookie)(lesson)
    )
    pupils = [
        await open_socket(lesson, lang=lang, cookie=await sync_to_async(pupil_cookie)(lesson, name))
        for name, lang in (("Ada", "en"), ("Bo", "en"), ("Cy", "sv"))
    ]
    follower = await open_socket(lesson, lang="de")
    row = lesson.game
    await sync_to_async(questions.ask)(lesson, row, 0)
    for pupil in pupils:
        frame = await pupil.receive_from(timeout=5)
        assert 'class="question question--pupil"' in frame
        assert 'data-answer-url="/' in frame
        for mark in TEACHER_ONLY:
            assert mark not in frame, mark
    # A follower who has not joined sees the board, no question to answer, nothing of the
    # teacher's.
    frame = await follower.receive_from(timeout=5)
    assert "question--pupil" not in frame
    for mark in TEACHER_ONLY:
        assert mark not in frame, mark
    tally = await frame_with(teacher, "0 of 3 pupils have answered.")
    assert 'id="class-question" class="teach__question" hx-swap-oob="true"' in tally
    await close_all(teacher, follower, *pupils)


@own_loop
async def test_an_answer_reaches_the_projectors_tally_and_no_pupil():
    lesson = await sync_to_async(new_lesson)()
    teacher = await open_socket(
        lesson, teacher=True, cookie=await sync_to_async(teacher_cookie)(lesson)
    )
    names = ("Ada", "Bo")
    cookies = [await sync_to_async(pupil_cookie)(lesson, n) for n in names]
    pupils = [await open_socket(lesson, cookie=c) for c in cookies]
    question = await sync_to_async(questions.ask)(lesson, lesson.game, 0)
    await frame_with(teacher, "0 of 2 pupils have answered.")
    for socket in pupils:
        await socket.receive_from(timeout=5)
    ada = await sync_to_async(Pupil.objects.get)(lesson=lesson, nickname="Ada")
    action = await sync_to_async(any_answer)(question)
    await sync_to_async(questions.answer)(question, ada, action)
    await frame_with(teacher, "1 of 2 pupils have answered.")
    for pupil in pupils:
        assert await pupil.receive_nothing(timeout=0.3)
    # Shown: every pupil's phone is told, and only Ada's shows Ada's answer.
    await sync_to_async(questions.reveal)(question)
    frames = [await p.receive_from(timeout=5) for p in pupils]
    assert 'id="my-answer"' in frames[0] and "You answered:" in frames[0]
    assert 'id="my-answer"' not in frames[1]
    # The shared part is the same bytes for both.
    assert (
        frames[0].split('<div id="my-answer-box" hx-swap-oob')[0]
        == frames[1].split('<div id="my-answer-box" hx-swap-oob')[0]
    )
    await close_all(teacher, *pupils)


def any_answer(question: Question) -> dict:
    game = questions.position(question)
    board = game.board(None)
    row = next(z for z in board["seats"][question.seat]["zones"] if z["cards"])
    return {"type": "play", "from": row["id"], "card": row["cards"][-1]["card"], "to": "centre-0"}


@own_loop
async def test_each_view_is_rendered_once_for_all_its_sockets(monkeypatch):
    from live import lesson_publish

    renders = []
    real = lesson_publish.render_lesson_frame

    def counting(game_id, view, **kwargs):
        renders.append(view)
        return real(game_id, view, **kwargs)

    monkeypatch.setattr(lesson_publish, "render_lesson_frame", counting)
    lesson = await sync_to_async(new_lesson)()
    teacher = await open_socket(
        lesson, teacher=True, cookie=await sync_to_async(teacher_cookie)(lesson)
    )
    pupils = [
        await open_socket(lesson, cookie=await sync_to_async(pupil_cookie)(lesson, n))
        for n in ("Ada", "Bo", "Cy", "Di")
    ]
    followers = [await open_socket(lesson, lang=lang) for lang in ("en", "en", "fi")]
    await drain(teacher)  # the pupils' joining was told to the projector
    renders.clear()
    await sync_to_async(questions.ask)(lesson, lesson.game, 1)
    frames = [await s.receive_from(timeout=5) for s in (teacher, *pupils, *followers)]
    await asyncio.sleep(0.1)
    # the projector, the pupils (one language), the followers in two languages
    assert sorted((v.role.value, v.lang) for v in renders) == [
        ("follower", "en"),
        ("follower", "fi"),
        ("pupil", "en"),
        ("teacher", "en"),
    ]
    assert len(set(frames[1:5])) == 1 and frames[5] == frames[6]
    await close_all(teacher, *pupils, *followers)


@own_loop
async def test_the_teachers_clock_goes_over_the_socket_and_a_pupils_is_refused():
    lesson = await sync_to_async(new_lesson)()
    teacher = await open_socket(
        lesson, teacher=True, cookie=await sync_to_async(teacher_cookie)(lesson)
    )
    pupil = await open_socket(lesson, cookie=await sync_to_async(pupil_cookie)(lesson, "Ada"))
    row = lesson.game
    await pupil.send_to(text_data=json.dumps({"command": "resume", "version": row.version}))
    told = await pupil.receive_from(timeout=5)
    assert " data-told" in told.split(">", 1)[0]
    assert "Only the teacher" in told
    assert (await sync_to_async(Game.objects.get)(pk=row.pk)).paused
    await teacher.send_to(text_data=json.dumps({"command": "resume", "version": row.version}))
    resumed = await frames_until(teacher, row.version + 1)
    assert 'id="clock-pause"' in resumed
    # The pupil is shown the game going on, with no request of its own.
    frame = await pupil.receive_from(timeout=5)
    assert version_of(frame) > row.version and "data-clock" not in frame
    assert not (await sync_to_async(Game.objects.get)(pk=row.pk)).paused
    await close_all(teacher, pupil)


@own_loop
async def test_a_step_held_by_an_open_question_is_told_to_the_projector_as_over_http():
    lesson = await sync_to_async(new_lesson)()
    teacher = await open_socket(
        lesson, teacher=True, cookie=await sync_to_async(teacher_cookie)(lesson)
    )
    await sync_to_async(questions.ask)(lesson, lesson.game, 0)
    await frame_with(teacher, 'id="tally"')
    row = lesson.game
    await teacher.send_to(text_data=json.dumps({"command": "step", "version": row.version}))
    told = await frame_with(teacher, 'id="step-held"')
    assert " data-told" in told.split(">", 1)[0]
    assert (await sync_to_async(Game.objects.get)(pk=row.pk)).log_length == row.log_length
    await close_all(teacher)


def a_refused_play(row: Game) -> dict:
    """A card of seat 0 laid on a centre pile where the engine refuses it (and logs why)."""
    game = service.driver_of(row).game
    tops = {z["id"]: z["cards"][-1]["card"] for z in game.board(None)["centre"] if z["cards"]}
    for play in (a.to_json() for a in game.legal_actions(0) if a.type == "play"):
        for pile, top in sorted(tops.items()):
            wrong = {**play, "to": pile, "onto": top}
            if not game.copy().apply(Action.from_json({**wrong, "t": game.now})).accepted:
                return wrong
    raise AssertionError("no play the engine refuses")


@own_loop
async def test_a_refused_move_in_a_lesson_reaches_every_story_with_its_reason():
    """A refusal in a game of people shows nothing new and is told to its mover alone
    (live.publish); a lesson's story tells every refused move, so the projector's and every
    pupil's and follower's story gets its line."""
    lesson = await sync_to_async(new_lesson)("stress-se", ("human", "human"), Lesson.HOT_SEAT)
    teacher = await open_socket(
        lesson, teacher=True, cookie=await sync_to_async(teacher_cookie)(lesson, [0, 1])
    )
    pupil = await open_socket(lesson, cookie=await sync_to_async(pupil_cookie)(lesson, "Ada"))
    follower = await open_socket(lesson, lang="sv")
    await drain(teacher)
    row = lesson.game
    await teacher.send_to(text_data=json.dumps({"command": "resume", "version": row.version}))
    for socket in (teacher, pupil, follower):
        await frames_until(socket, row.version + 1)
    row = await sync_to_async(Game.objects.get)(pk=row.pk)
    wrong = await sync_to_async(a_refused_play)(row)
    await teacher.send_to(text_data=json.dumps(
        {"action": json.dumps(wrong), "version": row.version, "seat": "0"}))
    frames = [await frame_with(s, "story__line--refused") for s in (teacher, pupil, follower)]
    row = await sync_to_async(Game.objects.get)(pk=row.pk)
    entry = await sync_to_async(LogEntry.objects.get)(game_id=row.pk, seq=row.log_length - 1)
    assert entry.reason and entry.action["card"] == wrong["card"] and not entry.events
    for frame, lang in zip(frames, ("en", "en", "sv"), strict=True):
        told = await sync_to_async(refused_lines)(row, lang)
        assert len(told) == 1 and f'<span class="story__text">{told[0]}</span>' in frame
    await close_all(teacher, pupil, follower)


def refused_lines(row: Game, lang: str) -> list[str]:
    with translation.override(lang):
        return [escape(line.text) for line in lines(row, 0) if not line.event]


def _table_question(lesson: Lesson) -> tuple[str, list[str]]:
    """Class tables (#23): a round seated and paused, a question asked about a table's game;
    its game id and its players' nicknames."""
    from teach import seating

    wall = timezone.now()
    latest = seating.start_round(lesson, size=2, level="club", pairing="shuffle", wall=wall)
    seating.pause_all(latest, wall)
    table = latest.tables.select_related("game").order_by("number").first()
    names = list(table.seats.order_by("seat").values_list("pupil__nickname", flat=True))
    questions.ask(lesson, Game.objects.get(pk=table.game_id), 0)
    return table.game_id, names


@own_loop
async def test_a_question_about_a_class_table_reaches_the_pupils_follow_pages():
    lesson = await sync_to_async(new_lesson)(mode=Lesson.TABLES)
    cookies = [await sync_to_async(pupil_cookie)(lesson, name) for name in ("Ada", "Bo")]
    pupils = [await open_socket(lesson, cookie=cookie) for cookie in cookies]
    game_id, names = await sync_to_async(_table_question)(lesson)
    for pupil in pupils:
        frame = await frame_with(pupil, 'class="question question--pupil"')
        assert all(f'<h2 class="seat__name">{name}' in frame for name in names)
        assert 'data-answer-url="/' in frame and "class-tables-hook" not in frame
    question = await sync_to_async(Question.objects.get)(lesson=lesson)
    assert question.game_id == game_id
    await close_all(*pupils)
