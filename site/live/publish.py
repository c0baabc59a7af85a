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
import copy
import logging
import threading
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
from play.store import read_row

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


#: the latest change this process stored of each game (its row as written and the log
#: entries it added), so that the renders of the change read neither the row nor the log
#: again. A version's row never changes, so a kept one is never stale for its version;
#: losing it costs one read. Rows from other processes' changes are read as before.
_CHANGES: OrderedDict[str, tuple[Game, tuple[LogEntry, ...]]] = OrderedDict()
KEPT_CHANGES = 256
_CHANGES_LOCK = threading.Lock()


def remember(row: Game, entries: list[LogEntry]) -> None:
    """Keep the change to `row.version` (from play.signals.game_changed, in the thread that
    stored it), unless a later version of the game is kept already."""
    kept = copy.copy(row)  # the caller's row may go on being used; this one is only read
    with _CHANGES_LOCK:
        known = _CHANGES.get(row.pk)
        if known is not None and known[0].version >= row.version:
            return
        _CHANGES[row.pk] = (kept, tuple(entries))
        _CHANGES.move_to_end(row.pk)
        while len(_CHANGES) > KEPT_CHANGES:
            _CHANGES.popitem(last=False)


def row_at_least(game_id: str, version: object) -> tuple[Game, tuple[LogEntry, ...]]:
    """The game's row at `version` or later, and the log entries of its latest change when
    this process made it (else none): the kept change if it is that recent, else the row as
    stored (Game.DoesNotExist for a game that is gone)."""
    known = _CHANGES.get(game_id)
    # (a notice that is no stored change, e.g. teach's, names no int version: read the row)
    if known is not None and isinstance(version, int) and known[0].version >= version:
        return known
    return read_row(game_id), ()


@dataclass(frozen=True)
class View:
    """What one socket may see of a game: the seat its browser holds (None: a watcher)
    and the language it reads."""

    seat: int | None
    lang: str

    def render(self, game_id: str, since: int | None, message: str = "", *,
               version: object = None) -> tuple[int, str] | None:
        return render_frame(game_id, self, since=since, message=message, version=version)


def group_name(game_id: str) -> str:
    return f"game.{game_id}"


def announce_change(sender: type, *, row: Game, entries: list[LogEntry],
                    wake_ms: int | None = None, quiet: bool = False, **kwargs) -> None:
    if SOCKETS_LOOP is not None:  # only a process holding sockets renders frames
        remember(row, entries)
    if quiet:
        # A refused move logged for the record (play.service.Turn.quiet) shows nothing new
        # on any screen: its mover is told the reason (live.consumers), every other page
        # keeps its board and takes the next board that shows something. Telling them cost
        # every process holding the game a notice and a frame per socket, for most of the
        # changes of a game between people (#21). Nor does any waker need it: its plan can
        # only be early (a sign of life delays the idle pause), and a waker that wakes
        # early finds nothing due and plans again.
        return
    # "game": a socket in several games' groups (live.tables) tells them apart
    send_notice(group_name(row.pk), {"type": "game.changed", "game": row.pk,
                                     "version": row.version,
                                     "since": row.log_length - len(entries), "wake_ms": wake_ms})


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


def render_frame(game_id: str, view: View, *, since: int | None, message: str = "",
                 version: object = None) -> tuple[int, str] | None:
    """The board as `view` sees it now (`version`: at least as of the change to it that a
    notice told of), as an out-of-band swap of the page's #game, with the story lines since
    log entry `since` (None: none); None for a game that is gone. The frame asks for no
    poll: while the socket is open, changes come to the page."""
    try:
        row, entries = row_at_least(game_id, version)
    except Game.DoesNotExist:
        return None
    turn = service.Turn(shared_driver(row), row.clock.now_ms(timezone.now()))
    shown = Shown(row, turn, message, since=since, fresh=list(entries) or None)
    with translation.override(view.lang):
        role, context = play_context(shown, view.seat)
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
