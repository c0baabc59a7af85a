"""The projector's overview of class tables (#23) on a socket: every table's change pushed.

/ws/<lang>/class/<lesson id>/tables/ opens only for the browser that controls the lesson
(teach.access.in_control). The socket listens to the lesson's group (a round started,
paused, ended, a table shown large, a pupil joining or removed: teach.signals) and to the
group of every table's game of the latest round (each move, a bot's move, a dropped phone:
play.signals.game_changed and the presence notices).

A lesson's notice sends the whole overview, an out-of-band swap of the page's
#tables-overview. A game's notice sends only what it changed: that table's small board (an
out-of-band swap of its own <li>), and the round's line and the leaderboard only once a
table has finished (the leaderboard counts finished games only); a table shown large sends
the whole overview, its story being on it. Each table goes out at most once per EVERY_S:
the notices of a burst become one frame, rendered from the rows as they stand then (the
latest state wins), and a notice that comes while a frame is rendered is one more frame, so
the projector always ends on every table's latest state; and since a channel layer drops a
notice to a full channel (the projector's hears every table), the tables' stored versions
are compared with the boards shown every SWEEP_S, and a table behind is sent again. The
overview itself is rendered once per distinct moment of the class and language
(teach.overview), so every projector of a lesson gets the same bytes. The socket takes no
commands: the teacher's controls post over HTTP.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import SafeString
from teach.access import in_control
from teach.models import Lesson
from teach.overview import (
    Changes,
    Seating,
    changes,
    render_overview,
    seating_of,
    table_games,
    table_versions,
)
from teach.tables_views import overview_urls

from . import publish
from .consumers import NO_SUCH_GAME
from .dispatch import LoopConsumer
from .lesson_publish import lesson_group
from .lessons import NOT_THE_TEACHER
from .publish import View, group_name
from .rooms import Room, room

#: notices this close together become one frame (a burst of moves at many tables)
GATHER_S = 0.02
#: a table's board goes to the projector at most this often (the latest state wins)
EVERY_S = 0.15
#: how often the tables' stored versions are compared with the boards shown: a notice can be
#: lost (a channel layer drops a message to a full channel: a busy projector's, which hears
#: every table), and the next board of that table must come all the same
SWEEP_S = 0.25


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


def whole(lesson_id: str, lang: str) -> tuple[str, Seating, dict[str, str]] | None:
    """The whole overview's frame, and the seating and links its tables' boards are drawn
    with until the lesson next changes (None: no such lesson)."""
    seating = seating_of(lesson_id)
    frame = overview_frame(lesson_id, lang)
    if frame is None:
        return None
    with translation.override(lang):
        return frame, seating, overview_urls(Lesson(pk=lesson_id))


def changes_frame(
    seating: Seating,
    urls: dict[str, str],
    lang: str,
    game_ids: frozenset[str],
    over: frozenset[str],
) -> Changes | None:
    """What changed at the tables of `game_ids` (teach.overview.changes)."""
    with translation.override(lang):
        return changes(seating, game_ids, over, urls)


def _allowed(scope: dict, lesson_id: str) -> bool | None:
    """None: no such lesson; else whether the socket's browser controls it."""
    if not Lesson.objects.filter(pk=lesson_id).exists():
        return None
    return in_control(scope.get("session") or {}, lesson_id)


class TablesConsumer(LoopConsumer):
    gone = False
    games: frozenset[str] = frozenset()
    rooms: dict[str, Room]
    _task: asyncio.Task | None = None
    #: the whole overview is due (a lesson's notice); else the tables of these games
    _whole = False
    _changed: set[str]
    #: per game, when its board last went out (loop time) and the board sent
    _sent_at: dict[str, float]
    _boards: dict[str, str]
    #: the games shown finished (the leaderboard is sent again when another finishes)
    _over: frozenset[str] = frozenset()
    #: the latest round's seating and the page's links, as of the last whole overview
    _seating: Seating | None = None
    _urls: dict[str, str]
    #: per game, the version of the board shown
    _versions: dict[str, int]
    _sweeper: asyncio.Task | None = None
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
        self._changed, self._sent_at, self._boards, self._versions = set(), {}, {}, {}
        await self.channel_layer.group_add(lesson_group(self.lesson_id), self.channel_name)
        await self._follow_tables()
        await self.accept()
        self._soon(whole=True)  # what changed between the page's answer and this socket
        self._sweeper = asyncio.create_task(self._sweep())

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
        for task in (self._task, self._sweeper):
            if task is not None:
                task.cancel()
        if hasattr(self, "lesson_id"):
            await self.channel_layer.group_discard(lesson_group(self.lesson_id), self.channel_name)
            for game_id in self.games:
                await self.channel_layer.group_discard(group_name(game_id), self.channel_name)
                self.rooms.pop(game_id).leave(self.watch)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Nothing is read from the page (its commands post over HTTP)."""

    async def game_changed(self, event: dict) -> None:
        game = event.get("game", "")
        found = self.rooms.get(game)
        if found is not None:  # the table's waker plans from the change, as a phone's does
            found.changed(event.get("wake_ms"), event["version"])
            self._soon(game)

    async def presence_changed(self, event: dict) -> None:
        # A phone's socket opened or closed at one of the tables (the notice names none);
        # what the projector shows of it (a phone away) is a change of the table's game.
        for found in self.rooms.values():
            found.recheck()

    async def presence_delays(self, event: dict) -> None:
        """The tables' connection delays are not on the overview."""

    async def lesson_changed(self, event: dict) -> None:
        await self._follow_tables()
        self._soon(whole=True)

    def _soon(self, game: str | None = None, *, whole: bool = False) -> None:
        if whole:
            self._whole = True
        if game is not None:
            self._changed.add(game)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._push())

    async def _push(self) -> None:
        loop = asyncio.get_running_loop()
        while (self._whole or self._changed) and not self.gone:
            await asyncio.sleep(GATHER_S)
            if self._whole or self._seating is None:
                self._whole = False
                self._changed.clear()
                found = await database_sync_to_async(whole, thread_sensitive=False)(
                    self.lesson_id, self.lang
                )
                if found is None:
                    await self.close(code=NO_SUCH_GAME)
                    return
                frame, self._seating, self._urls = found
                self._over = self._seating.over
                self._versions = dict(self._seating.versions)
                self._boards.clear()  # the boards now shown are the overview's
                now = loop.time()
                self._sent_at = dict.fromkeys(self.games, now)
                if frame != self._last:  # a notice that changed nothing shown
                    self._last = frame
                    await self._send(frame)
                continue
            now = loop.time()
            due = frozenset(g for g in self._changed if self._sent_at.get(g, 0) + EVERY_S <= now)
            if not due:  # each changed table went out less than EVERY_S ago
                await asyncio.sleep(min(self._sent_at[g] for g in self._changed) + EVERY_S - now)
                continue
            self._changed -= due  # a notice from now on is rendered again
            found = await database_sync_to_async(changes_frame, thread_sensitive=False)(
                self._seating, self._urls, self.lang, due, self._over
            )
            if found is None:
                self._whole = True
                continue
            self._over = found.over
            self._versions.update(found.versions)
            now = loop.time()
            boards = []
            for game, board in found.boards.items():
                if self._boards.get(game) != board:
                    self._boards[game] = board
                    self._sent_at[game] = now
                    boards.append(board)
            if boards or found.rest:
                self._last = None  # the whole overview is no longer what was last sent
                await self._send("".join(boards) + found.rest)

    async def _sweep(self) -> None:
        """Every SWEEP_S, a table whose stored version is not the one shown is rendered again,
        notice or not."""
        while not self.gone:
            await asyncio.sleep(SWEEP_S)
            if not self.games:
                continue
            stored = await database_sync_to_async(table_versions, thread_sensitive=False)(
                self.games
            )
            behind = [g for g, version in stored.items() if self._versions.get(g) != version]
            for game in behind:
                self._soon(game)

    async def _send(self, frame: str) -> None:
        if self.gone:
            return
        try:
            await self.send(text_data=frame)
        except OSError:
            # The page left before its disconnect reached this socket: the ASGI server raises
            # its own OSError for a send after the close (ASGI 2.4); nothing is wrong.
            self.gone = True
