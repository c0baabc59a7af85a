"""Class tables' overview on the projector's socket (#23, live.tables): only the teacher's
browser opens it; a move at any table, a new round and a pupil joining reach it with no
request of the projector's; every projector of a moment gets the same bytes."""

from __future__ import annotations

import asyncio
import itertools
import random
import re
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone
from live.tables import EVERY_S, TablesConsumer
from play import service
from play.access import SESSION_KEY
from play.models import Game
from teach import questions, seating
from teach.access import PUPIL_KEY
from teach.models import ClassSeat, Lesson
from teach.overview import table_games
from teach.signals import announce

from config.asgi import application
from tests.play_human import sensible_action
from tests.site.test_live import ORIGIN, connect, fresh_channel_layer, own_loop
from tests.site.test_live_lessons import new_lesson, pupil_cookie, session_cookie, teacher_cookie

pytestmark = pytest.mark.django_db(transaction=True)
fresh_channel_layer = fresh_channel_layer  # the same fresh layer per test


async def open_tables(lesson: Lesson, cookie: bytes | None, lang: str = "en"):
    headers = [ORIGIN, *([(b"cookie", cookie)] if cookie else [])]
    socket = WebsocketCommunicator(
        application, f"/ws/{lang}/class/{lesson.pk}/tables/", headers=headers
    )
    connected, code = await socket.connect()
    return socket, connected, code


def seat_class(lesson: Lesson, names: tuple[str, ...]) -> None:
    for name in names:
        questions.join(lesson, name)
    seating.start_round(
        lesson, size=2, level="club", pairing="shuffle", wall=timezone.now(), away_ms=60_000
    )


def a_move(lesson: Lesson) -> int:
    """One move at the first table of the latest round (a legal one while there is one; when
    the random deal has left both seats stuck or the game has ended, a call, which the log
    keeps even when it is refused); its game's new version."""
    game_id = seating.current_round(lesson).tables.get(number=1).game_id
    row = Game.objects.get(pk=game_id)
    game = service.driver_of(row).game
    for seat in (0, 1):
        action = sensible_action(game, seat, random.Random(1)) or {"type": "call"}
        if action is not None:
            change = service.play(
                row.pk,
                timezone.now() + timedelta(milliseconds=50),
                seat=seat,
                action=action,
                version=row.version,
            )
            if change.changed:
                return change.row.version
    raise AssertionError("nothing stored")


def table_at(lesson: Lesson, number: int) -> str:
    return seating.current_round(lesson).tables.get(number=number).game_id


async def until(socket: WebsocketCommunicator, shows) -> str:
    """The first frame of `socket` that `shows` (other tables' boards may come first)."""
    while True:
        frame = await socket.receive_from(timeout=5)
        if shows(frame):
            return frame


def board_of(frame: str, game_id: str) -> str:
    """The <li> of `game_id`'s board in a frame of boards."""
    start = frame.index(f'data-game="{game_id}"')
    return frame[frame.rindex("<li", 0, start) : frame.index("</li>", start)]


@own_loop
async def test_only_the_teachers_browser_opens_the_overview_socket():
    lesson = await sync_to_async(new_lesson)()
    for cookie in (
        None,
        await sync_to_async(pupil_cookie)(lesson, "Ada"),
        await sync_to_async(teacher_cookie)(await sync_to_async(new_lesson)()),
    ):
        _socket, connected, code = await open_tables(lesson, cookie)
        assert not connected and code == 4403
    _socket, connected, _code = await open_tables(lesson, None, lang="xx")
    assert not connected


@own_loop
async def test_moves_rounds_and_pupils_reach_every_projector_as_the_same_bytes(settings):
    settings.PLAY_AWAY_GRACE_MS = 10**9  # no phone holds a seat's socket here
    lesson = await sync_to_async(new_lesson)()
    await sync_to_async(seat_class)(lesson, ("Ada", "Bo", "Cy", "Di"))
    cookie = await sync_to_async(teacher_cookie)(lesson)
    first, connected, _ = await open_tables(lesson, cookie)
    assert connected
    second, connected, _ = await open_tables(lesson, cookie)
    assert connected
    opened = [await s.receive_from(timeout=5) for s in (first, second)]
    assert opened[0].startswith('<div id="tables-overview" hx-swap-oob="innerHTML">')
    assert 'id="table-2"' in opened[0] and opened[0] == opened[1]
    # A move at a table: both projectors are sent the same new board of that table, as an
    # out-of-band swap of its own <li> (a frame holds only boards of tables that changed).
    version = await sync_to_async(a_move)(lesson)
    game_id = await sync_to_async(table_at)(lesson, 1)
    board = f'data-game="{game_id}" data-version="{version}" hx-swap-oob="outerHTML">'
    moved = [await until(s, lambda frame: board in frame) for s in (first, second)]
    assert [board_of(frame, game_id) for frame in moved] == [board_of(moved[0], game_id)] * 2
    for frame in moved:
        assert frame.startswith('<li class="tableau" id="table-')
        assert 'id="tables-overview"' not in frame and "Leaderboard" not in frame
    # A pupil joins: the overview lists the pupil as seated at the next round.
    await sync_to_async(questions.join)(lesson, "Eve")
    joined = [await until(s, lambda frame: "Eve" in frame) for s in (first, second)]
    assert "Seated at the next round:" in joined[0] and joined[0] == joined[1]
    # A new round: the socket follows the new tables' games.
    await sync_to_async(seat_class)(lesson, ())
    await sync_to_async(announce)(lesson.pk)
    renewed = await until(first, lambda frame: "Round 2" in frame)
    assert 'id="table-3"' in renewed
    # The socket follows the new round's games: their moves reach it.
    version = await sync_to_async(a_move)(lesson)
    game_id = await sync_to_async(table_at)(lesson, 1)
    await until(first, lambda frame: f'data-game="{game_id}" data-version="{version}"' in frame)
    for socket in (first, second):
        await socket.disconnect()


@own_loop
async def test_a_table_nobodys_phone_watches_moves_on_while_the_projector_does(settings):
    """A pupil alone against a bot whose phone never came: the table waits for the pupil,
    then the pupil's bot plays; the projector's socket keeps the table's waker going."""
    settings.PLAY_AWAY_GRACE_MS = 200
    lesson = await sync_to_async(new_lesson)()

    def one_pupil() -> None:
        questions.join(lesson, "Ada")
        seating.start_round(
            lesson, size=2, level="club", pairing="shuffle", wall=timezone.now(), away_ms=300
        )

    await sync_to_async(one_pupil)()
    cookie = await sync_to_async(teacher_cookie)(lesson)
    projector, connected, _ = await open_tables(lesson, cookie)
    assert connected
    game_id = (await sync_to_async(table_games)(lesson.pk))[0]
    start = (await sync_to_async(Game.objects.get)(pk=game_id)).version
    deadline = asyncio.get_running_loop().time() + 20
    while True:
        row = await sync_to_async(Game.objects.get)(pk=game_id)
        if row.seats[0] == "club" and row.version > start + 3:
            break  # the pupil's bot took the seat and the two bots play on, unasked
        assert asyncio.get_running_loop().time() < deadline, (row.seats, row.version)
        await asyncio.sleep(0.2)
    await projector.disconnect()


async def frame_with(socket: WebsocketCommunicator, text: str, timeout: float = 5) -> str:
    """The first frame holding `text` (the server's pings and delays skipped)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        left = deadline - asyncio.get_running_loop().time()
        assert left > 0, f"no frame with {text!r}"
        frame = await socket.receive_from(timeout=left)
        if text in frame:
            return frame


@own_loop
async def test_a_class_question_reaches_the_phones_at_their_tables(settings):
    """Asked, revealed and closed over the lesson's HTTP routes: each phone's table socket
    is sent its table's page with the question in the table's place (the same version of
    the table's game: the question's mark tells the page), then its own table again."""
    settings.PLAY_AWAY_GRACE_MS = 10**9
    lesson = await sync_to_async(new_lesson)()
    await sync_to_async(seat_class)(lesson, ("Ada", "Bo"))

    def phone() -> tuple[str, bytes]:
        seat = ClassSeat.objects.select_related("table", "pupil").get(pupil__nickname="Ada")
        cookie = session_cookie(
            **{
                PUPIL_KEY: {lesson.pk: seat.pupil_id},
                SESSION_KEY: {seat.table.game_id: [seat.seat]},
            }
        )
        return seat.table.game_id, cookie

    game_id, cookie = await sync_to_async(phone)()
    socket = await connect(game_id, cookie=cookie)
    wall = timezone.now()
    round_ = await sync_to_async(seating.current_round)(lesson)
    await sync_to_async(seating.pause_all)(round_, wall)
    row = await sync_to_async(Game.objects.get)(pk=game_id)
    await socket.send_to(text_data='{"since": 0}')
    await frame_with(socket, f'data-version="{row.version}"')

    def ask() -> None:
        questions.ask(Lesson.objects.get(pk=lesson.pk), row, 0)

    await sync_to_async(ask)()
    asked = await frame_with(socket, 'data-question="1-open"')
    assert f'data-version="{row.version}"' in asked
    assert f'data-answer-url="/en/teach/{lesson.pk}/answer/1/?on=table"' in asked

    def reveal() -> None:
        questions.reveal(Lesson.objects.get(pk=lesson.pk).open_question)

    await sync_to_async(reveal)()
    revealed = await frame_with(socket, 'data-question="1-revealed"')
    assert "data-answer-url" not in revealed
    await sync_to_async(questions.close_tables)(lesson)
    # A revealed frame sent before the close may still be on its way; the table comes back
    # after it, and no question follows the table.
    while "data-question" in await frame_with(socket, f'data-version="{row.version}"'):
        pass
    later = []
    while not await socket.receive_nothing(timeout=0.5):
        later.append(await socket.receive_from())
    assert not any("data-question" in frame for frame in later), later
    await socket.disconnect()


@own_loop
async def test_a_refusal_over_a_two_language_tables_socket_is_told_in_both(settings):
    settings.PLAY_AWAY_GRACE_MS = 10**9
    lesson = await sync_to_async(new_lesson)()
    await sync_to_async(seat_class)(lesson, ("Ada", "Bo"))

    def phone() -> tuple[str, bytes, int]:
        Lesson.objects.filter(pk=lesson.pk).update(lang2="sv")
        seat = ClassSeat.objects.select_related("table").get(pupil__nickname="Ada")
        seating.pause_all(seating.current_round(lesson), timezone.now())
        held = {seat.table.game_id: [seat.seat]}
        cookie = session_cookie(**{PUPIL_KEY: {lesson.pk: seat.pupil_id}, SESSION_KEY: held})
        return seat.table.game_id, cookie, Game.objects.get(pk=seat.table.game_id).version

    game_id, cookie, version = await sync_to_async(phone)()
    socket = await connect(game_id, cookie=cookie)
    await socket.send_to(text_data=f'{{"command": "resume", "version": {version}}}')
    told = await frame_with(socket, " data-told")
    assert "The teacher has paused every table" in told
    assert '<p class="game__message" lang="sv">Läraren har pausat alla bord' in told
    await socket.disconnect()


@own_loop
async def test_a_burst_of_moves_reaches_the_projector_as_fewer_frames_ending_on_the_latest(
    settings,
):
    """Moves at a table faster than EVERY_S: the projector is sent that table's board at most
    once per EVERY_S, and the last board it is sent is the table's latest version."""
    settings.PLAY_AWAY_GRACE_MS = 10**9
    lesson = await sync_to_async(new_lesson)()
    await sync_to_async(seat_class)(lesson, ("Ada", "Bo"))
    cookie = await sync_to_async(teacher_cookie)(lesson)
    projector, connected, _ = await open_tables(lesson, cookie)
    assert connected
    await projector.receive_from(timeout=5)  # the whole overview
    game_id = (await sync_to_async(table_games)(lesson.pk))[0]
    loop = asyncio.get_running_loop()
    frames: list[tuple[float, str]] = []

    async def receive() -> None:
        while True:
            frames.append((loop.time(), await projector.receive_output(timeout=30)))

    receiving = asyncio.ensure_future(receive())
    until, moves = loop.time() + 5 * EVERY_S, 0
    while loop.time() < until:
        await sync_to_async(a_move)(lesson)
        moves += 1
    await asyncio.sleep(4 * EVERY_S)
    receiving.cancel()
    frames = [(at, frame["text"]) for at, frame in frames]
    latest = (await sync_to_async(Game.objects.get)(pk=game_id)).version
    shown = [int(v) for _at, f in frames for v in re.findall(r'data-version="(\d+)"', f)]
    assert shown and shown[-1] == latest
    assert len(frames) < moves
    # Frames came no closer than EVERY_S (a little less: the loop's own timing).
    gaps = [b - a for (a, _), (b, _) in itertools.pairwise(frames)]
    assert all(gap >= 0.8 * EVERY_S for gap in gaps), (gaps, moves)
    await projector.disconnect()


@own_loop
async def test_a_projector_gone_before_its_disconnect_is_sent_nothing_and_logs_nothing(caplog):
    """The ASGI server raises its own OSError for a send to a page that left before the
    socket's disconnect came (uvicorn: ClientDisconnected): no traceback, nothing more sent."""
    from uvicorn.protocols.utils import ClientDisconnected

    consumer = TablesConsumer()
    sent = []

    async def closed(text_data: str | None = None) -> None:
        sent.append(text_data)
        raise ClientDisconnected

    consumer.send = closed
    await consumer._send("<li>one</li>")
    await consumer._send("<li>two</li>")
    assert sent == ["<li>one</li>"] and consumer.gone
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


@own_loop
async def test_a_lost_notice_still_reaches_the_projector(settings, monkeypatch):
    """A change whose notice never came (a channel layer drops it for a full channel): the
    projector's socket finds the table's newer version by itself and sends its board."""
    from live import publish

    settings.PLAY_AWAY_GRACE_MS = 10**9
    lesson = await sync_to_async(new_lesson)()
    await sync_to_async(seat_class)(lesson, ("Ada", "Bo"))
    cookie = await sync_to_async(teacher_cookie)(lesson)
    projector, connected, _ = await open_tables(lesson, cookie)
    assert connected
    await projector.receive_from(timeout=5)  # the whole overview
    monkeypatch.setattr(publish, "send_notice", lambda group, notice: None)
    version = await sync_to_async(a_move)(lesson)
    game_id = await sync_to_async(table_at)(lesson, 1)
    board = f'data-game="{game_id}" data-version="{version}"'
    await until(projector, lambda frame: board in frame)
    await projector.disconnect()


@own_loop
async def test_a_game_socket_gone_before_its_disconnect_is_sent_nothing_and_logs_nothing():
    """A phone that left while a frame for it was on its way (a delays line, a board): the
    ASGI server's OSError marks the socket gone, no traceback (live.consumers)."""
    from channels.generic.websocket import AsyncWebsocketConsumer
    from live.consumers import GameConsumer
    from uvicorn.protocols.utils import ClientDisconnected

    sent = []

    async def closed(self, text_data=None, bytes_data=None, close=False) -> None:
        sent.append(text_data)
        raise ClientDisconnected

    consumer = GameConsumer()
    original = AsyncWebsocketConsumer.send
    AsyncWebsocketConsumer.send = closed
    try:
        await consumer.send(text_data="<div>one</div>")
        await consumer.send(text_data="<div>two</div>")
    finally:
        AsyncWebsocketConsumer.send = original
    assert sent == ["<div>one</div>"] and consumer.gone
