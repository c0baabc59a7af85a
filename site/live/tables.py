"""The projector's overview of class tables (#23) on a socket: every table's change pushed.

/ws/<lang>/class/<lesson id>/tables/ opens only for the browser that controls the lesson
(teach.access.in_control). The socket listens to the lesson's group (a round started,
paused, ended, a table shown large, a pupil joining or removed: teach.signals) and to the
group of every table's game of the latest round (each move, a bot's move, a dropped phone:
play.signals.game_changed and the presence notices), and after a notice sends the overview
as an out-of-band swap of the page's #tables-overview. Notices that come while one is being
rendered become one more render, not one each; the overview itself is rendered once per
distinct moment of the class and language (teach.overview), so every projector of a lesson
gets the same bytes. The socket takes no commands: the teacher's controls post over HTTP.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import SafeString
from teach.access import in_control
from teach.models import Lesson
from teach.overview import render_overview, table_games
from teach.tables_views import overview_urls

from . import publish
from .consumers import NO_SUCH_GAME
from .lesson_publish import lesson_group
from .lessons import NOT_THE_TEACHER
from .publish import View, group_name
from .rooms import Room, room

#: notices this close together become one render (a burst of moves at many tables)
GATHER_S = 0.04


@dataclass(eq=False)
class Watch:
    """The projector in a table's room (live.rooms): it keeps the room's waker going, so a
    table moves on time (its bots, its deadlines, a dropped phone's wait and its bot) even
    when no phone of that table is open; it is sent nothing of the table itself."""

    view: View

    async def send(self, text_data: str | None = None) -> None:
        """The table's own frames (its connection delays) are not for the projector."""


def overview_frame(lesson_id: str, lang: str) -> str | None:
    lesson = Lesson.objects.select_related("game").filter(pk=lesson_id).first()
    if lesson is None:
        return None
    with translation.override(lang):
        overview = render_overview(lesson, overview_urls(lesson))
    return format_html(
        '<div id="tables-overview" hx-swap-oob="innerHTML">{}</div>', SafeString(overview)
    )


def _allowed(scope: dict, lesson_id: str) -> bool | None:
    """None: no such lesson; else whether the socket's browser controls it."""
    if not Lesson.objects.filter(pk=lesson_id).exists():
        return None
    return in_control(scope.get("session") or {}, lesson_id)


class TablesConsumer(AsyncWebsocketConsumer):
    gone = False
    games: frozenset[str] = frozenset()
    rooms: dict[str, Room]
    _task: asyncio.Task | None = None
    _dirty = False
    _last: str | None = None

    async def connect(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        self.lesson_id: str = kwargs["game_id"]
        self.lang: str = kwargs["lang"]
        if self.lang not in dict(settings.LANGUAGES):
            await self.close(code=NO_SUCH_GAME)
            return
        allowed = await database_sync_to_async(_allowed)(self.scope, self.lesson_id)
        if not allowed:
            await self.close(code=NO_SUCH_GAME if allowed is None else NOT_THE_TEACHER)
            return
        # Changes made in other threads of this process reach the layer through this loop.
        publish.SOCKETS_LOOP = asyncio.get_running_loop()
        self.watch = Watch(View(None, self.lang))
        self.rooms = {}
        await self.channel_layer.group_add(lesson_group(self.lesson_id), self.channel_name)
        await self._follow_tables()
        await self.accept()
        self._soon()  # what changed between the page's answer and this socket

    async def _follow_tables(self) -> None:
        """Listen to the games of the latest round's tables (a new round: new games)."""
        now = frozenset(await database_sync_to_async(table_games)(self.lesson_id))
        for game_id in now - self.games:
            await self.channel_layer.group_add(group_name(game_id), self.channel_name)
            self.rooms[game_id] = room(game_id)
            self.rooms[game_id].join(self.watch)
        for game_id in self.games - now:
            await self.channel_layer.group_discard(group_name(game_id), self.channel_name)
            self.rooms.pop(game_id).leave(self.watch)
        self.games = now

    async def disconnect(self, code: int) -> None:
        self.gone = True
        if self._task is not None:
            self._task.cancel()
        if hasattr(self, "lesson_id"):
            await self.channel_layer.group_discard(lesson_group(self.lesson_id), self.channel_name)
            for game_id in self.games:
                await self.channel_layer.group_discard(group_name(game_id), self.channel_name)
                self.rooms.pop(game_id).leave(self.watch)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Nothing is read from the page (its commands post over HTTP)."""

    async def game_changed(self, event: dict) -> None:
        found = self.rooms.get(event.get("game", ""))
        if found is not None:  # the table's waker plans from the change, as a phone's does
            found.changed(event.get("wake_ms"))
        self._soon()

    async def presence_changed(self, event: dict) -> None:
        # A phone's socket opened or closed at one of the tables (the notice names none).
        for found in self.rooms.values():
            found.recheck()
        self._soon()

    async def presence_delays(self, event: dict) -> None:
        """The tables' connection delays are not on the overview."""

    async def lesson_changed(self, event: dict) -> None:
        await self._follow_tables()
        self._soon()

    def _soon(self) -> None:
        self._dirty = True
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._push())

    async def _push(self) -> None:
        while self._dirty and not self.gone:
            await asyncio.sleep(GATHER_S)
            self._dirty = False
            frame = await database_sync_to_async(overview_frame, thread_sensitive=False)(
                self.lesson_id, self.lang
            )
            if frame is None:
                await self.close(code=NO_SUCH_GAME)
                return
            if not self.gone and frame != self._last:  # a notice that changed nothing shown
                self._last = frame
                await self.send(text_data=frame)
