"""Telling a game's open sockets that it changed, and what each of them should show.

A stored change (play.signals.game_changed, from any process: a move over HTTP or over a
socket, a bot's move, a deadline, a clock command) goes to the game's channel group as one
small notice: the new version and the first log entry the change added. Each server process
holding sockets of the game renders the board once per distinct view among its sockets (a
seat's own, or the watchers', in one language: `View`) and sends the same bytes to every
socket of that view (live.rooms). The game row stays the one truth: the notice carries no
state, the frame is rendered from the row as stored.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.html import format_html
from play import presence, service
from play.answers import Shown
from play.models import Game, LogEntry
from play.page import play_context
from play.presence_page import delay_rows

from rules_engine import Driver

log = logging.getLogger(__name__)


#: drivers rebuilt from stored snapshots, by game and version: every view of one change reads
#: the same one (read only: rendering never moves a game).
_DRIVERS: OrderedDict[tuple[str, int], Driver] = OrderedDict()
KEPT_DRIVERS = 64


def shared_driver(row: Game) -> Driver:
    key = (row.pk, row.version)
    driver = _DRIVERS.get(key)
    if driver is None:
        driver = _DRIVERS[key] = service.driver_of(row)
        while len(_DRIVERS) > KEPT_DRIVERS:
            _DRIVERS.popitem(last=False)
    return driver


@dataclass(frozen=True)
class View:
    """What one socket may see of a game: the seat its browser holds (None: a watcher)
    and the language it reads."""

    seat: int | None
    lang: str

    def render(self, game_id: str, since: int | None,
               message: str = "") -> tuple[int, str] | None:
        return render_frame(game_id, self, since=since, message=message)


def group_name(game_id: str) -> str:
    return f"game.{game_id}"


def announce_change(sender: type, *, row: Game, entries: list[LogEntry],
                    wake_ms: int | None = None, **kwargs) -> None:
    # "game": a socket in several games' groups (live.tables) tells them apart
    notice = {"type": "game.changed", "game": row.pk, "version": row.version,
              "since": row.log_length - len(entries), "wake_ms": wake_ms}
    send_notice(group_name(row.pk), notice)


def send_notice(group: str, notice: dict) -> None:
    """`notice` to every socket of `group` (a game's, a lesson's, a table's lobby), in this
    process and (Redis) every other, from whichever thread the change was made in."""
    layer = get_channel_layer()
    if layer is None:
        return
    send = partial(layer.group_send, group, notice)
    loop = SOCKETS_LOOP
    if loop is not None and loop.is_running():
        # This process holds sockets: the notice goes through their event loop, whichever
        # thread the change was made in (the in-memory layer is not thread-safe).
        future = asyncio.run_coroutine_threadsafe(send(), loop)
        future.add_done_callback(_log_failure)
    elif isinstance(layer, InMemoryChannelLayer):
        return  # no socket in this process, and no other process to tell
    else:
        _in_a_thread_without_a_loop(async_to_sync(send))


def _in_a_thread_without_a_loop(call) -> None:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        call()
        return
    # A synchronous caller inside a running loop (a script or test driving a browser).
    with ThreadPoolExecutor(1) as pool:
        pool.submit(call).result()


def _log_failure(future: Future) -> None:
    if not future.cancelled() and future.exception() is not None:
        log.error("a change could not be told to the game's sockets",
                  exc_info=future.exception())


#: the event loop of this process's sockets (set by the first socket; live.consumers).
SOCKETS_LOOP: asyncio.AbstractEventLoop | None = None


def render_frame(game_id: str, view: View, *, since: int | None,
                 message: str = "") -> tuple[int, str] | None:
    """The board as `view` sees it now, as an out-of-band swap of the page's #game, with
    the story lines since log entry `since` (None: none); None for a game that is gone.
    The frame asks for no poll: while the socket is open, changes come to the page."""
    try:
        row = Game.objects.get(pk=game_id)
    except Game.DoesNotExist:
        return None
    turn = service.Turn(shared_driver(row), row.clock.now_ms(timezone.now()))
    with translation.override(view.lang):
        role, context = play_context(Shown(row, turn, message, since=since), view.seat)
        context.update(role=role.value, fragment=True, poll_ms=None)
        state = render_to_string("play/game.html#game", context)
    frame = format_html('<div id="game" hx-swap-oob="innerHTML" data-version="{}"{}>{}</div>',
                        row.version, " data-told" if message else "", state)
    return row.version, frame


def delays_frame(game_id: str, lang: str) -> str | None:
    """The line of the seats' connection delays (a table with presence on), as an
    out-of-band swap of the page's #delays; None: no such game, or presence is off."""
    try:
        row = Game.objects.get(pk=game_id)
    except Game.DoesNotExist:
        return None
    if not presence.is_on(row):
        return None
    with translation.override(lang):
        rows = delay_rows(row, presence.links(row, timezone.now()))
        return render_to_string("play/presence_delays.html",
                                {"presence": {"delays": rows}, "oob": True})
