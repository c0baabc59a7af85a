"""The socket of a lesson's page (teacher mode): the projector's, a pupil's or a follower's.

/ws/<lang>/class/<id>/teacher/ is the projector's socket: it opens only for the browser that
controls the lesson (its signed session, teach.access.in_control) and may send the
teacher's clock commands and moves, as the game's socket does (live.consumers). Any other
browser's is /ws/<lang>/class/<id>/: a pupil's (the session names a pupil of the lesson) or
a follower's; it is shown what a follower or pupil may see and acts on nothing (a pupil
answers over HTTP, and the answer's response shows it). Frames from the page:

    {"since": 12}                                  show me the lesson, told from entry 12 on
    {"action": "{...}", "version": 7, "seat": 0}   the teacher's move
    {"command": "pause", "version": 7}             the teacher's clock command

Every frame to the page is a set of htmx out-of-band swaps (live.lesson_publish).
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from play import service
from play.access import seat_named, seats_in
from play.answers import CANNOT_SAVE, BadMove, clock_from, move_from, outcome
from play.models import Game
from play.store import Busy
from teach.access import in_control, pupil_in
from teach.models import Lesson

from core.dbwrite import CannotSave
from presentation.gamepage import Role

from .consumers import BURST, NO_SUCH_GAME, PER_SECOND, TokenBucket, _read
from .dispatch import LoopConsumer
from .lesson_publish import MY_ANSWER_BOX, LessonView, lesson_group, my_answer_frame
from .publish import group_name
from .rooms import Room, room

#: the projector's socket asked for by a browser that does not control the lesson
NOT_THE_TEACHER = 4403


class LessonConsumer(LoopConsumer):
    view: LessonView
    room: Room | None = None
    gone = False
    pupil_id: int | None = None

    async def connect(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        self.game_id: str = kwargs["game_id"]
        lang = kwargs["lang"]
        if lang not in dict(settings.LANGUAGES):
            await self.close(code=NO_SUCH_GAME)
            return
        wants_teacher = bool(kwargs.get("teacher"))
        who = await database_sync_to_async(_who)(self.scope, self.game_id, wants_teacher)
        if who is None:
            await self.close(code=NO_SUCH_GAME)
            return
        role, self.seats, self.pupil_id = who
        if wants_teacher and role is not Role.TEACHER:
            await self.close(code=NOT_THE_TEACHER)
            return
        self.view = LessonView(role, lang, self.seats)
        self.bucket = TokenBucket(BURST, PER_SECOND)
        for group in self._groups():
            await self.channel_layer.group_add(group, self.channel_name)
        self.room = room(self.game_id)
        self.room.join(self)
        await self.accept()

    def _groups(self) -> tuple[str, str]:
        return group_name(self.game_id), lesson_group(self.game_id)

    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        if not self.gone:  # a frame rendered for a socket that closed meanwhile
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)

    async def disconnect(self, code: int) -> None:
        self.gone = True
        if self.room is not None:
            self.room.leave(self)
            for group in self._groups():
                await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self.bucket.take():
            await self._tell(_("Too many moves at once: wait a moment, then play on."))
            return
        frame = _read(text_data)
        if frame is None:
            await self._tell(_("That request could not be read, so nothing was changed."))
        elif "since" in frame:
            since = frame["since"]
            await self._send_rendered(since if isinstance(since, int) and since >= 0 else None)
        elif ("action" in frame or "command" in frame) and self.view.role is not Role.TEACHER:
            await self._tell(_("Only the teacher's browser controls this game."))
        elif "action" in frame or "command" in frame:
            await self._act(frame)
        else:
            await self._tell(_("That request could not be read, so nothing was changed."))

    async def game_changed(self, event: dict) -> None:
        """A notice from live.publish: the lesson's game changed."""
        if self.room is None:
            return
        self.room.changed(event.get("wake_ms"), event["version"])
        await self._send_shared(await self.room.frame(self.view, event["version"], event["since"]))

    async def lesson_changed(self, event: dict) -> None:
        """A notice from live.lesson_publish: the lesson's question, answers or pupils."""
        if self.room is None or self.view.role.value not in event.get("views", ()):
            return
        await self._send_shared(await self.room.frame(self.view, ("lesson", event["stamp"]), None))

    async def _send_shared(self, frame: str | None) -> None:
        if frame is None:
            return
        if self.pupil_id is not None and MY_ANSWER_BOX in frame:
            frame += await database_sync_to_async(my_answer_frame, thread_sensitive=False)(
                self.game_id, self.pupil_id, self.view.lang
            )
        await self.send(text_data=frame)

    async def _act(self, frame: dict) -> None:
        values = {
            key: str(value)
            for key, value in frame.items()
            if isinstance(value, str | int) and not isinstance(value, bool)
        }
        try:
            if "action" in frame:
                action, version = move_from(values)
                # the lesson's story tells a refused move on every screen (teach.views.move)
                request: dict = {"action": action, "version": version, "refusals_told": True}
            else:
                # The projector controls the lesson's clock whatever seats it plays.
                request = {**clock_from(values), "controls": True}
        except BadMove:
            await self._tell(_("That move could not be read, so nothing was changed."))
            return
        seat = seat_named(values.get("seat", ""), self.seats)
        command = ""
        try:
            message, command = await database_sync_to_async(_play)(
                self.game_id, self.view.lang, seat, request
            )
        except Busy:
            message = _("The server is busy just now; try again in a moment.")
        except CannotSave:
            message = str(CANNOT_SAVE)
        except Game.DoesNotExist:
            await self.close(code=NO_SUCH_GAME)
            return
        if message or command:
            await self._tell(message, command)

    async def _tell(self, message: str, command: str = "") -> None:
        """The lesson as it stands with `message` (and what the projector says of a
        `command` that did nothing), to this socket only."""
        await self._send_rendered(None, message, command)

    async def _send_rendered(self, since: int | None, message: str = "", command: str = "") -> None:
        rendered = await database_sync_to_async(self.view.render)(
            self.game_id, since, message, command
        )
        if rendered is None:
            await self.close(code=NO_SUCH_GAME)
        else:
            await self._send_shared(rendered[1])


def _play(game_id: str, lang: str, seat: int | None, request: dict) -> tuple[str, str]:
    """Apply the teacher's move or clock command: the message for the projector (empty:
    all went well; the change itself reaches every socket as a notice), and "step" for a
    step that was held or found nothing to take (the projector says which, as over HTTP)."""
    change = service.play(game_id, timezone.now(), seat=seat, **request)
    with translation.override(lang):
        _status, message = outcome(change.value, request.get("action"))
    step = request.get("clock_command") == "step"
    return message, "step" if step and (message or change.value.stepped is None) else ""


def _who(
    scope: dict, game_id: str, wants_teacher: bool
) -> tuple[Role, tuple[int, ...], int | None] | None:
    """The socket's role, the seats it plays and its pupil; None: no such lesson."""
    if not Lesson.objects.filter(pk=game_id).exists():
        return None
    session = scope.get("session") or {}
    if wants_teacher:
        if in_control(session, game_id):
            return Role.TEACHER, seats_in(session, game_id), None
        return Role.FOLLOWER, (), None
    pupil = pupil_in(session, game_id)
    if pupil is not None:
        return Role.PUPIL, (), pupil.pk
    return Role.FOLLOWER, (), None
