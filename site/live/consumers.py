"""The socket of a live game page: changes pushed to the page, moves and clock commands
sent from it.

A socket belongs to one game and one view (live.publish.View): the seat its browser holds
(the signed session the page was opened with) or a watcher's, in the page's language. Frames
from the page are small JSON objects:

    {"since": 12}                                  show me the game, told from entry 12 on
    {"action": "{...}", "version": 7, "seat": 0}   a move (play.views.move_from)
    {"command": "pause", "version": 7}             a clock command (play.views.clock_from)
    {"pong": 123456}                               the answer to the server's ping

and every frame to the page is an htmx out-of-band swap of the page's #game (or, at a table
with presence on, of its line of connection delays), or a ping `{"ping": 123456}` (the
server's own clock, so the round trip it measures needs no clock of the page's). A frame that
cannot be read, is too large, comes too fast, or is for a seat this browser does not hold
is answered with the unchanged board and the translated reason, to this socket only; it
changes nothing, closes nothing and logs no traceback.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone, translation
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from play import presence, service
from play.access import seat_named, seats_in
from play.answers import CANNOT_SAVE, BadMove, clock_from, move_from, outcome
from play.models import Game
from play.page import second_language_of
from play.store import Busy
from play.told import in_language, told

from core.dbwrite import CannotSave

from .dispatch import LoopConsumer
from .publish import View, group_name, render_frame
from .rooms import Room, room

#: a frame larger than this is not read (a move is at most core.actions.MAX_ACTION_BYTES).
MAX_FRAME_BYTES = 2048
#: frames a socket may send in a burst, and how many more each second.
BURST = 12
PER_SECOND = 6.0
#: close codes for what a socket cannot be opened for.
NO_SUCH_GAME = 4404


class TokenBucket:
    def __init__(self, burst: int, rate: float) -> None:
        self.burst, self.rate = burst, rate
        self.tokens, self.at = float(burst), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


#: a round trip that moved by less than this (ms, or a quarter of it) is not told again.
DELAY_STEP_MS = 25


class GameConsumer(LoopConsumer):
    view: View
    room: Room | None = None
    gone = False
    #: the socket's row (play.presence): only a socket of a person's seat at a table with
    #: presence on has one; it answers pings and keeps its seat at the table.
    presence_id: int | None = None
    pinger: asyncio.Task | None = None
    ping_sent: int | None = None  # the stamp of the ping not answered yet
    ping_at = 0.0  # when it left
    rtt_told: int | None = None
    #: the version of the last board told to this socket alone (a refused move's reason,
    #: which is a stored change too): the page drops the notice's frame of that version.
    told_version = -1
    #: the newest version of a board this socket sent its page (-1: none yet).
    shown_version = -1

    async def connect(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        self.game_id: str = kwargs["game_id"]
        lang = kwargs["lang"]
        if lang not in dict(settings.LANGUAGES):
            await self.close(code=NO_SUCH_GAME)
            return
        self.seats = await database_sync_to_async(_seats)(self.scope, self.game_id)
        if self.seats is None:
            await self.close(code=NO_SUCH_GAME)
            return
        self.view = View(self.seats[0] if self.seats else None, lang)
        self.bucket = TokenBucket(BURST, PER_SECOND)
        await self.channel_layer.group_add(group_name(self.game_id), self.channel_name)
        self.room = room(self.game_id)
        self.room.join(self)
        await self.accept()
        if self.seats:
            await self._arrive()

    async def send(self, text_data: str | None = None, bytes_data: bytes | None = None,
                   close: bool = False) -> None:
        # A frame rendered for a socket that closed meanwhile goes nowhere: the ASGI server
        # raises its own OSError on a send after the close (ASGI 2.4; uvicorn's
        # ClientDisconnected), also before the page's disconnect has reached this socket.
        if self.gone:
            return
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except OSError:
            self.gone = True

    async def close(self, code: int | None = None, reason: str | None = None) -> None:
        """Closed by the server (missed pings, a game gone): nothing more is sent, though the
        socket stays in its room and group until the page's disconnect arrives."""
        if self.gone:
            return
        self.gone = True
        await super().close(code=code, reason=reason)
        if self.pinger is not None and self.pinger is not asyncio.current_task():
            self.pinger.cancel()

    async def disconnect(self, code: int) -> None:
        self.gone = True
        if self.pinger is not None:
            self.pinger.cancel()
        if self.room is not None:
            self.room.leave(self)
            if self.presence_id is not None:
                await database_sync_to_async(presence.socket_closed)(self.presence_id,
                                                                      timezone.now())
                # Every process's waker plans the moment the seat's grace ends.
                await self.channel_layer.group_send(group_name(self.game_id),
                                                    {"type": "presence.changed"})
            await self.channel_layer.group_discard(group_name(self.game_id), self.channel_name)

    async def _arrive(self) -> None:
        """A person's seat's socket at a table with presence on: keep its row, catch the
        game up (a person back from away lets it go on), then ping it."""
        try:
            self.presence_id = await database_sync_to_async(presence.socket_opened)(
                self.game_id, self.seats, timezone.now())
            if self.presence_id is None:
                return
            await database_sync_to_async(service.play)(self.game_id, timezone.now())
        except (Game.DoesNotExist, Busy, CannotSave):
            pass  # the waker or the next request catches the game up
        await self.channel_layer.group_send(group_name(self.game_id),
                                            {"type": "presence.changed"})
        self.pinger = asyncio.create_task(self._ping())

    async def _ping(self) -> None:
        """A ping now and every PLAY_PING_MS; a page that answered none of the last
        presence.STALE_PINGS is gone (its network died without closing the socket)."""
        missed = 0
        start = time.monotonic()  # stamps count from here: they tell nothing of the server
        while not self.gone:
            if self.ping_sent is not None:
                missed += 1
                if missed >= presence.STALE_PINGS:
                    await self.close()
                    return
            else:
                missed = 0
                self.ping_sent = int((time.monotonic() - start) * 1000)
                self.ping_at = time.monotonic()
                await self.send(text_data=json.dumps({"ping": self.ping_sent}))
            await asyncio.sleep(settings.PLAY_PING_MS / 1000)

    async def _pong(self, stamp: object) -> None:
        if self.presence_id is None or stamp != self.ping_sent or self.ping_sent is None:
            return  # not the ping this socket is waiting for
        rtt = int((time.monotonic() - self.ping_at) * 1000)
        self.ping_sent = None
        await database_sync_to_async(presence.socket_seen)(self.presence_id, timezone.now(),
                                                           rtt)
        told = self.rtt_told
        if told is None or abs(rtt - told) >= max(DELAY_STEP_MS, told // 4):
            self.rtt_told = rtt
            await self.channel_layer.group_send(group_name(self.game_id),
                                                {"type": "presence.delays"})

    async def presence_changed(self, event: dict) -> None:
        """A seat's socket opened or closed somewhere: re-plan the waker, re-tell delays."""
        if self.room is not None:
            self.room.recheck()
            self.room.delays_changed()

    async def presence_delays(self, event: dict) -> None:
        if self.room is not None:
            self.room.delays_changed()

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data is not None and text_data.startswith('{"pong"'):
            # Answers to this socket's own pings: at most one counts per ping, so they
            # need no share of the rate limit.
            frame = _read(text_data)
            await self._pong(frame.get("pong") if frame else None)
            return
        if not self.bucket.take():
            await self._tell(_("Too many moves at once: wait a moment, then play on."))
            return
        frame = _read(text_data)
        if frame is None:
            await self._tell(_("That request could not be read, so nothing was changed."))
        elif "since" in frame:
            since = frame["since"]
            await self._show(since if isinstance(since, int) and since >= 0 else None)
        elif "action" in frame or "command" in frame:
            await self._act(frame)
        else:
            await self._tell(_("That request could not be read, so nothing was changed."))

    async def game_changed(self, event: dict) -> None:
        """A notice from live.publish: the game changed (possibly in another process)."""
        if self.room is None:
            return
        self.room.changed(event.get("wake_ms"), event["version"])
        version = event["version"]
        if isinstance(version, int) and version <= max(self.told_version, self.shown_version):
            # Its page shows that board already (this socket's own refused move, told with
            # the reason, or a later board): static/js/play.js would drop a frame no newer
            # than the board shown, so the view is not rendered for it (often its only
            # socket). A class question's notice names no int version and always passes.
            return
        rendered = await self.room.rendered(self.view, version, event["since"])
        if rendered is not None:
            self.shown_version = max(self.shown_version, rendered[0])
            await self.send(text_data=rendered[1])

    async def _act(self, frame: dict) -> None:
        values = {key: str(value) for key, value in frame.items()
                  if isinstance(value, str | int) and not isinstance(value, bool)}
        try:
            if "action" in frame:
                action, version = move_from(values)
                request: dict = {"action": action, "version": version}
            else:
                request = clock_from(values)
        except BadMove:
            await self._tell(_("That move could not be read, so nothing was changed."))
            return
        seat = seat_named(values.get("seat", ""), self.seats)
        try:
            answer = await database_sync_to_async(_play)(self.game_id, self.view.lang, seat,
                                                         request)
        except Busy:
            await self._tell(_("The server is busy just now; try again in a moment."))
        except CannotSave:  # a read-only database: the move was not played
            await self._tell(CANNOT_SAVE)
        except Game.DoesNotExist:
            await self.close(code=NO_SUCH_GAME)
        else:
            if answer.quiet and answer.version is None and answer.now == self.shown_version:
                # Refused with nothing stored (a move before the start signal, a paused
                # game), and the page shows the game as it stands: the reason alone.
                await self.send(text_data=answer.frame())
            elif answer.quiet and answer.version is not None and self.shown_version >= 0:
                # The refusal changed nothing the page shows but the version: the page keeps
                # its board and shows the reason (static/js/play.js); nothing is rendered,
                # and no other page is told (live.publish.announce_change). If a board
                # before it is still on its way to this socket (another seat's move whose
                # notice has not come yet), the page keeps its version and takes the boards
                # as they come. (A socket that sent its page no board yet sends the board,
                # as below.)
                if answer.version == self.shown_version + 1:
                    self.told_version = self.shown_version = answer.version
                await self.send(text_data=answer.frame())
            elif answer.message:
                await self._tell(answer.message, version=answer.version)

    async def _tell(self, message: str | Promise, version: int | None = None) -> None:
        """The board as it stands with `message`, to this socket only (`version`: at least
        that of the change the message is about). A lazy message is worded in the socket's
        language, and again in a table's second language (play.told)."""
        if isinstance(message, Promise):
            with translation.override(self.view.lang):
                message = told(message)
        await self._send_rendered(since=None, message=message, version=version)

    async def _show(self, since: int | None) -> None:
        await self._send_rendered(since=since, message="")

    async def _send_rendered(self, *, since: int | None, message: str,
                             version: int | None = None) -> None:
        rendered = await database_sync_to_async(render_frame)(
            self.game_id, self.view, since=since, message=message, version=version)
        if rendered is None:
            await self.close(code=NO_SUCH_GAME)
        else:
            if message:
                self.told_version = max(self.told_version, rendered[0])
            self.shown_version = max(self.shown_version, rendered[0])
            await self.send(text_data=rendered[1])


def _read(text: str | None) -> dict | None:
    if text is None or len(text) > MAX_FRAME_BYTES:
        return None
    try:
        frame = json.loads(text)
    except ValueError:
        return None
    return frame if isinstance(frame, dict) else None


def _seats(scope: dict, game_id: str) -> tuple[int, ...] | None:
    """The seats the socket's browser holds (empty: it watches); None: no such game."""
    if not Game.objects.filter(pk=game_id).exists():
        return None
    return seats_in(scope.get("session") or {}, game_id)


@dataclass(frozen=True)
class Answer:
    """What a move or clock command over the socket made of the game, for its sender."""

    #: the message for the sender (empty: all went well; the change itself reaches every
    #: socket through live.publish), and in the table's second language ("": none)
    message: str
    #: the version stored (None: nothing was)
    version: int | None
    #: a refusal whose stored change shows nothing new (play.service.Turn.quiet)
    quiet: bool = False
    #: the log length after the change (the page's data-seq)
    seq: int = 0
    lang2: str = ""
    message2: str = ""
    #: the game's version after the request (stored or not)
    now: int = -1

    def frame(self) -> str:
        """The reason alone, for a page that shows the board before this change (or, when
        nothing was stored, the board as it stands): it keeps its board, now of the version
        after the request (static/js/play.js)."""
        return json.dumps({"told": self.now, "seq": self.seq, "message": self.message,
                           "lang2": self.lang2, "message2": self.message2})


def _play(game_id: str, lang: str, seat: int | None, request: dict) -> Answer:
    """Apply a move or clock command (live.publish tells every socket of a stored change)."""
    change = service.play(game_id, timezone.now(), seat=seat, **request)
    turn = change.value
    row = change.row
    with translation.override(lang):
        _status, message = outcome(turn, request.get("action"))
        # a refusal that stored nothing, or only its log entry (play.service.Turn.quiet)
        quiet = bool(message) and (turn.quiet or not change.changed)
        lang2 = second_language_of(row) if quiet else ""
    return Answer(message, row.version if change.changed else None, quiet, row.log_length,
                  lang2, in_language(message, lang2) if lang2 else "", row.version)
