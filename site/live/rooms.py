"""A process's share of a live game: its sockets of that game, the frames rendered for
them, and the waker that moves the game on when a bot or a deadline is due.

Nothing here is state that matters: the game row is the truth. A room only saves work
(one render per view and version, however many sockets show it) and makes the game move
on time while someone is watching: each process holding sockets of a game wakes at the next
due moment and catches the game up (play.service.play); when two processes wake together,
the store writes the change once and the other finds nothing due.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Hashable
from typing import Protocol

from channels.db import database_sync_to_async
from django.utils import timezone
from play import service
from play.models import Game

from core.dbwrite import CannotSave

from . import publish
from .publish import delays_frame

log = logging.getLogger(__name__)

#: frames kept per room (a few versions back, for sockets that are slow to ask).
KEPT_FRAMES = 32
#: after an error (the database away), the waker tries again this much later.
RETRY_S = 1.0


#: a room tells changed connection delays at most this often (several seats' pongs, and
#: every notice of them to each socket of the room, become one render per language).
DELAYS_EVERY_S = 1.0


class Shows(Protocol):
    """What a socket may see (publish.View, lesson_publish.LessonView): equal views are
    sent the same bytes."""

    def __hash__(self) -> int: ...

    def render(self, game_id: str, since: int | None, message: str = "", *,
               version: Hashable = None) -> tuple[int, str] | None: ...


class Member(Protocol):
    view: Shows

    async def send(self, text_data: str | None = None) -> None: ...


class Room:
    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.loop = asyncio.get_running_loop()
        self.members: set[Member] = set()
        self._frames: dict[tuple[Shows, Hashable, int | None], asyncio.Task] = {}
        self._changed = asyncio.Event()
        self._due: float | None = None  # the loop's time of the next catch-up
        self._waker: asyncio.Task | None = None
        self._recheck = False  # a seat's socket opened or closed: ask the game when next
        self._delays: asyncio.Task | None = None
        #: the game's version the waker's plan (`_due`) comes from (-1: none yet)
        self._planned = -1

    def join(self, member: Member) -> None:
        self.members.add(member)
        if self._waker is None or self._waker.done():
            self._waker = asyncio.create_task(self._wake())

    def leave(self, member: Member) -> None:
        self.members.discard(member)
        if not self.members:
            if self._waker is not None:
                self._waker.cancel()
            if self._delays is not None:
                self._delays.cancel()
            ROOMS.pop(self.game_id, None)

    def changed(self, wake_ms: int | None, version: object = None) -> None:
        """A notice of the change to `version`: the game next changes by itself in `wake_ms`
        (None: not). A notice no newer than the plan in hand is old news (the waker planned
        from its own catch-up, or another socket of the room had it first): its `wake_ms`,
        counted from when it was sent, would move the plan. A class question's notice names
        no int version and always counts."""
        if isinstance(version, int):
            if version <= self._planned:
                return
            self._planned = version
        self._plan_in(wake_ms)
        self._changed.set()

    def _plan_in(self, wake_ms: int | None) -> None:
        self._due = None if wake_ms is None else self.loop.time() + wake_ms / 1000

    def recheck(self) -> None:
        """A presence notice (a seat's socket opened or closed, in any process): the waker
        asks the stored game when it next changes (a grace ending is no change of the row)."""
        self._recheck = True
        self._changed.set()

    def delays_changed(self) -> None:
        """A seat's connection delay changed: tell this room's sockets, once for all the
        notices of the next moment."""
        if self._delays is None or self._delays.done():
            self._delays = asyncio.create_task(self._tell_delays())

    async def _tell_delays(self) -> None:
        await asyncio.sleep(DELAYS_EVERY_S)
        frames: dict[str, asyncio.Future] = {}
        for member in list(self.members):
            lang = member.view.lang
            if lang not in frames:
                frames[lang] = asyncio.ensure_future(database_sync_to_async(
                    delays_frame, thread_sensitive=False)(self.game_id, lang))
            try:
                frame = await frames[lang]
            except Exception:
                log.exception("delays of game %s", self.game_id)
                return
            if frame is not None and member in self.members:
                await member.send(text_data=frame)

    async def frame(self, view: Shows, version: Hashable, since: int | None) -> str | None:
        """The frame for `view` after the change to `version` (a game's version, or a
        lesson's change: live.lesson_publish): rendered by the first socket of the view
        that asks, shared by the others."""
        rendered = await self.rendered(view, version, since)
        return None if rendered is None else rendered[1]

    async def rendered(self, view: Shows, version: Hashable,
                       since: int | None) -> tuple[int, str] | None:
        """`frame`, with the game's version the frame shows (at least the notice's)."""
        key = (view, version, since)
        task = self._frames.get(key)
        if task is None:
            task = asyncio.create_task(_render(self.game_id, view, since, version))
            self._frames[key] = task
            while len(self._frames) > KEPT_FRAMES:
                del self._frames[next(iter(self._frames))]
        return await asyncio.shield(task)

    async def _wake(self) -> None:
        await self._plan()
        while self.members:
            self._changed.clear()
            timeout = None if self._due is None else max(0.0, self._due - self.loop.time())
            try:
                # A notice (a move, a clock command, another process's catch-up) re-plans.
                await asyncio.wait_for(self._changed.wait(), timeout)
                if self._recheck:
                    self._recheck = False
                    await self._plan()
                continue
            except TimeoutError:
                pass
            try:
                version, wake_ms = await database_sync_to_async(_catch_up)(self.game_id)
            except Game.DoesNotExist:
                return
            except CannotSave:  # a read-only database: try again a little later
                log.warning("waker of game %s: the database is read-only", self.game_id)
                self._plan_in(int(RETRY_S * 1000))
                continue
            except Exception:
                log.exception("waker of game %s", self.game_id)
                self._plan_in(int(RETRY_S * 1000))
                continue
            if version >= self._planned:  # (else a newer change's notice planned already)
                self._planned = version
                self._plan_in(wake_ms)

    async def _plan(self) -> None:
        try:
            wake_ms = await database_sync_to_async(_wake_in_ms)(self.game_id)
        except Game.DoesNotExist:
            wake_ms = None
        except Exception:
            log.exception("waker of game %s", self.game_id)
            wake_ms = int(RETRY_S * 1000)
        self._plan_in(wake_ms)


def _catch_up(game_id: str) -> tuple[int, int | None]:
    """The waker's catch-up: the game moved on to now (stored if anything was due); its
    version then, and the real ms until it next changes by itself, from the game as the
    catch-up left it: the change's own notice may come later than the waker's next turn
    (Redis), and a plan from the row as stored before it would wake the waker again at once
    for nothing."""
    wall = timezone.now()
    change = service.play(game_id, wall)
    return change.row.version, service.wake_in_ms(change.row, change.value.driver, wall)


def _wake_in_ms(game_id: str) -> int | None:
    row = Game.objects.get(pk=game_id)
    return service.wake_in_ms(row, service.driver_of(row), timezone.now())


async def _render(game_id: str, view: Shows, since: int | None,
                  version: Hashable) -> tuple[int, str] | None:
    # Rendering only reads: it need not wait in line behind this process's moves.
    return await database_sync_to_async(view.render, thread_sensitive=False)(
        game_id, since, version=version)


ROOMS: dict[str, Room] = {}


def room(game_id: str) -> Room:
    loop = asyncio.get_running_loop()
    publish.SOCKETS_LOOP = loop
    found = ROOMS.get(game_id)
    if found is None or found.loop is not loop:  # a server stopped and started in-process
        found = ROOMS[game_id] = Room(game_id)
    return found
