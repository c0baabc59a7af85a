"""Live games over WebSockets (live.consumers): what each socket is sent, and what a socket
may not do. Channels' WebsocketCommunicator drives the ASGI application as a browser would,
with the signed session cookie of a browser that holds a seat."""

from __future__ import annotations

import asyncio
import functools
import json
import random
import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.sessions.backends.signed_cookies import SessionStore
from django.utils import timezone, translation
from play import service
from play.access import SESSION_KEY
from play.answers import REFUSALS
from play.models import Game
from play.service import NOT_YOUR_SEAT

from config.asgi import application
from presentation.table.cards import _card
from rules_engine import SPECTATOR
from tests.play_human import sensible_action

pytestmark = pytest.mark.django_db(transaction=True)


def own_loop(test):
    """Run a coroutine test in a thread with an event loop of its own: Playwright's sync API
    (the browser tests, earlier in the same run) keeps a loop running in the main thread."""

    @functools.wraps(test)
    def run(*args, **kwargs):
        with ThreadPoolExecutor(1) as pool:
            return pool.submit(asyncio.run, test(*args, **kwargs)).result()

    return run

ORIGIN = (b"origin", b"http://testserver")
FRAME_VERSION = re.compile(r'^<div id="game" hx-swap-oob="innerHTML" data-version="(\d+)"')


@pytest.fixture(autouse=True)
def fresh_channel_layer():
    """The in-memory layer's queues belong to one event loop: a new one per test."""
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


def new_row(variant: str = "stress-se", seats: tuple[str, ...] = ("human", "club"),
            **options) -> Game:
    return service.start_game(variant, list(seats), options=options or None, seed=7,
                              wall=timezone.now())


def cookie_for(seats: dict[str, int | list[int]]) -> bytes:
    session = SessionStore()
    session[SESSION_KEY] = seats
    session.save()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}".encode()


async def connect(game_id: str, *, lang: str = "en", cookie: bytes | None = None,
                  origin: tuple[bytes, bytes] | None = ORIGIN) -> WebsocketCommunicator:
    headers = [h for h in (origin, (b"cookie", cookie) if cookie else None) if h]
    socket = WebsocketCommunicator(application, f"/ws/{lang}/play/{game_id}/", headers=headers)
    connected, _code = await socket.connect()
    assert connected
    return socket


def version_of(frame: str) -> int:
    match = FRAME_VERSION.match(frame)
    assert match, frame[:200]
    return int(match.group(1))


async def frames_until(socket: WebsocketCommunicator, version: int, timeout: float = 5) -> str:
    """The first frame showing `version` or later."""
    while True:
        frame = await socket.receive_from(timeout=timeout)
        if version_of(frame) >= version:
            return frame


def a_move(row: Game) -> dict:
    game = service.driver_of(row).game
    action = sensible_action(game, 0, random.Random(3))
    assert action is not None
    return action


@own_loop
async def test_a_socket_opens_and_shows_the_game_from_the_line_it_saw_last():
    row = await sync_to_async(new_row)()
    socket = await connect(row.pk)
    await socket.send_to(text_data=json.dumps({"since": 0}))
    frame = await socket.receive_from()
    assert version_of(frame) == row.version
    assert 'class="game__state' in frame
    # A pushed board never asks the page to poll: the socket brings the changes.
    assert 'class="poll"' not in frame
    await socket.disconnect()


@own_loop
async def test_a_move_over_one_socket_reaches_a_watcher_in_another_language():
    row = await sync_to_async(new_row)("stress-se", ("human", "human"))
    player = await connect(row.pk, cookie=cookie_for({row.pk: 0}))
    watcher = await connect(row.pk, lang="sv")
    action = await sync_to_async(a_move)(row)
    await player.send_to(text_data=json.dumps({"action": json.dumps(action),
                                               "version": row.version}))
    frame = await frames_until(watcher, row.version + 1)
    assert version_of(frame) > row.version
    with translation.override("sv"):
        assert "<p>Spelare 1 " in frame, re.findall(r"<p>[^<]*</p>", frame)
    stored = await sync_to_async(Game.objects.get)(pk=row.pk)
    assert stored.version == version_of(frame)
    await player.disconnect()
    await watcher.disconnect()


def cards_seen(board: dict) -> set[str]:
    zones = [*board["centre"], *(z for seat in board["seats"] for z in seat["zones"])]
    return {c["card"] for z in zones for c in z["cards"] if c["card"]}


@own_loop
async def test_a_watcher_and_the_other_seat_never_receive_a_seats_hidden_cards():
    row = await sync_to_async(new_row)("james-bond", ("human", "human"))
    sockets = {
        "seat0": await connect(row.pk, cookie=cookie_for({row.pk: 0})),
        "seat1": await connect(row.pk, cookie=cookie_for({row.pk: 1})),
        "watcher": await connect(row.pk),
    }
    pick = {"type": "pick", "pile": "pile-1"}
    await sockets["seat0"].send_to(text_data=json.dumps({"action": json.dumps(pick),
                                                         "version": row.version}))
    frames = {name: await frames_until(s, row.version + 1) for name, s in sockets.items()}
    stored = await sync_to_async(Game.objects.get)(pk=row.pk)
    game = await sync_to_async(lambda: service.driver_of(stored).game)()
    hidden = cards_seen(game.board(0)) - cards_seen(game.board(SPECTATOR))
    assert hidden, "seat 0 holds a pile only it may look into"
    with translation.override("en"):
        pictures = {card: str(_card(card, "en")) for card in hidden}
    assert any(picture in frames["seat0"] for picture in pictures.values())
    for name in ("seat1", "watcher"):
        for card, picture in pictures.items():
            assert picture not in frames[name], (name, card)
    for socket in sockets.values():
        await socket.disconnect()


@own_loop
async def test_a_watchers_move_is_refused_with_the_reason_and_changes_nothing():
    row = await sync_to_async(new_row)()
    watcher = await connect(row.pk, lang="de")
    action = await sync_to_async(a_move)(row)
    await watcher.send_to(text_data=json.dumps({"action": json.dumps(action),
                                                "version": row.version}))
    frame = await watcher.receive_from()
    assert " data-told" in frame.split(">", 1)[0]
    with translation.override("de"):
        assert str(REFUSALS[NOT_YOUR_SEAT][1]) in frame
    stored = await sync_to_async(Game.objects.get)(pk=row.pk)
    assert stored.version == row.version
    await watcher.disconnect()


@pytest.mark.parametrize("text", ["not json", "[1, 2]", '{"action": 5, "version": "x"}',
                                  '{"action": "{\\"type\\": \\"play\\"}", "version": 0}',
                                  '{"command": "explode", "version": 0}', "{}",
                                  '{"action": "' + "x" * 4000 + '", "version": 0}'])
@own_loop
async def test_a_frame_that_cannot_be_read_gets_the_reason_and_changes_nothing(text):
    row = await sync_to_async(new_row)()
    socket = await connect(row.pk, cookie=cookie_for({row.pk: 0}))
    await socket.send_to(text_data=text)
    frame = await socket.receive_from()
    assert " data-told" in frame.split(">", 1)[0]
    assert "nothing was changed" in frame
    stored = await sync_to_async(Game.objects.get)(pk=row.pk)
    assert stored.version == row.version
    # The socket stays open for the next, good frame.
    await socket.send_to(text_data=json.dumps({"since": 0}))
    assert version_of(await socket.receive_from()) == row.version
    await socket.disconnect()


@own_loop
async def test_a_flood_of_frames_is_told_to_slow_down():
    row = await sync_to_async(new_row)()
    socket = await connect(row.pk, cookie=cookie_for({row.pk: 0}))
    for _ in range(40):
        await socket.send_to(text_data=json.dumps({"since": 0}))
    texts = [await socket.receive_from() for _ in range(40)]
    assert any("Too many moves at once" in text for text in texts)
    await socket.disconnect()


@own_loop
async def test_a_socket_from_another_site_or_for_no_game_is_refused():
    row = await sync_to_async(new_row)()
    foreign = WebsocketCommunicator(application, f"/ws/en/play/{row.pk}/",
                                    headers=[(b"origin", b"http://evil.example")])
    connected, _ = await foreign.connect()
    assert not connected
    missing = WebsocketCommunicator(application, "/ws/en/play/NoSuchGame0000/",
                                    headers=[ORIGIN])
    connected, _ = await missing.connect()
    assert not connected


@own_loop
async def test_a_bot_moves_with_no_request_from_any_page():
    row = await sync_to_async(new_row)("stress-se", ("human", "expert"))
    socket = await connect(row.pk, cookie=cookie_for({row.pk: 0}))
    await socket.send_to(text_data=json.dumps({"since": 0}))
    first = version_of(await socket.receive_from())
    # Nobody sends anything: the server's waker catches the game up when the bot is due.
    later = await frames_until(socket, first + 1, timeout=15)
    assert version_of(later) > first
    await socket.disconnect()


@own_loop
async def test_a_waker_whose_notices_come_late_catches_up_only_when_something_is_due(
    monkeypatch,
):
    """With Redis a change's notice may reach the process after its waker's next turn; the
    waker plans from its own catch-up, and the late notice moves no plan."""
    from live import publish

    real_send, real_play = publish.send_notice, service.play
    loop = asyncio.get_running_loop()

    def late(group: str, notice: dict) -> None:
        loop.call_soon_threadsafe(loop.call_later, 0.3, real_send, group, notice)

    catch_ups: list[bool] = []  # whether each catch-up stored a change

    def counted(*args, **kwargs):
        change = real_play(*args, **kwargs)
        catch_ups.append(change.changed)
        return change

    monkeypatch.setattr(publish, "send_notice", late)
    monkeypatch.setattr(service, "play", counted)
    row = await sync_to_async(service.start_game)("stress-se", ["human", "expert"], seed=7,
                                                  wall=timezone.now(), speed=4.0)
    socket = await connect(row.pk, cookie=cookie_for({row.pk: 0}))
    await socket.send_to(text_data=json.dumps({"since": 0}))
    first = version_of(await socket.receive_from())
    await frames_until(socket, first + 4, timeout=20)
    await socket.disconnect()
    assert catch_ups.count(True) >= 4
    assert catch_ups.count(False) == 0, catch_ups


@own_loop
async def test_sockets_of_one_view_get_the_same_bytes_rendered_once(monkeypatch):
    from live import publish

    renders = []
    real = publish.render_frame

    def counting(*args, **kwargs):
        renders.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(publish, "render_frame", counting)
    row = await sync_to_async(new_row)("stress-se", ("human", "human"))
    watchers = [await connect(row.pk) for _ in range(5)]
    player = await connect(row.pk, cookie=cookie_for({row.pk: 0}))
    action = await sync_to_async(a_move)(row)
    await player.send_to(text_data=json.dumps({"action": json.dumps(action),
                                               "version": row.version}))
    frames = [await frames_until(w, row.version + 1) for w in watchers]
    assert len(set(frames)) == 1
    await frames_until(player, row.version + 1)
    await asyncio.sleep(0.1)
    # one render for the five watchers, one for the player's seat
    assert len(renders) == 2
    for w in [*watchers, player]:
        await w.disconnect()


@own_loop
async def test_hostile_frames_are_answered_escaped_and_change_nothing(monkeypatch):
    """The fuzzer's hostile values (tests/fuzz/payloads.py) in every field of a frame, and
    as the whole frame: each gets an answer, none is reflected unescaped, the game and the
    socket stay as they were."""
    from live import consumers

    from tests.fuzz.payloads import PAYLOADS

    monkeypatch.setattr(consumers, "BURST", 10**6)
    row = await sync_to_async(new_row)("stress-se", ("human", "human"))  # no bot moves it
    socket = await connect(row.pk, cookie=cookie_for({row.pk: 0}))
    for payload in PAYLOADS:
        value = payload.value
        for frame in (
            value,
            json.dumps({"action": value, "version": row.version}),
            json.dumps({"action": json.dumps({"type": "play", "card": value, "to": value}),
                        "version": value}),
            json.dumps({"command": value, "version": row.version, "value": value}),
            json.dumps({"since": value}),
        ):
            if not frame:
                continue
            try:
                frame.encode()
            except UnicodeEncodeError:
                continue  # invalid UTF-8 cannot be a text frame
            await socket.send_to(text_data=frame)
            answer = await socket.receive_from(timeout=5)
            assert answer.startswith('<div id="game"')
            if payload.markup:
                assert value not in answer, (payload.kind, value[:80])
    stored = await sync_to_async(Game.objects.get)(pk=row.pk)
    assert stored.version == row.version
    await socket.disconnect()


@own_loop
async def test_a_move_the_database_cannot_save_is_told_where_it_was_made(monkeypatch):
    """A read-only database (#25): the mover is told, in the move's place, and the socket
    stays open."""
    from live import consumers
    from play.answers import CANNOT_SAVE

    from core.dbwrite import CannotSave

    def read_only(*args, **kwargs):
        raise CannotSave()

    row = await sync_to_async(new_row)("stress-se", ("human", "human"))
    socket = await connect(row.pk, cookie=cookie_for({row.pk: 0}))
    monkeypatch.setattr(consumers.service, "play", read_only)
    action = await sync_to_async(a_move)(row)
    await socket.send_to(text_data=json.dumps({"action": json.dumps(action),
                                               "version": row.version}))
    frame = await socket.receive_from()
    assert " data-told" in frame.split(">", 1)[0]
    assert str(CANNOT_SAVE) in frame
    await socket.send_to(text_data=json.dumps({"since": 0}))
    assert version_of(await socket.receive_from()) == row.version
    await socket.disconnect()
