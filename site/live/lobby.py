"""The socket of a table's page (#22): who is there and who is ready, pushed to every
page of the table as it changes, each rendered in its reader's language for its browser.

A lobby socket only listens: everything a player does at a table is a form post
(tables.views), whose stored change reaches every page through `table_changed`. The page
is a few seats, so each socket renders its own frame (the seat its browser holds differs
from page to page). A frame from the page is ignored.
"""

from __future__ import annotations

import asyncio
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.conf import settings
from tables.access import me_in
from tables.lobby import render_lobby
from tables.models import Table

from . import publish
from .dispatch import LoopConsumer

NO_SUCH_TABLE = 4404


def group_name(code: str) -> str:
    return f"table.{code}"


def announce_table(sender: type, *, code: str, **kwargs) -> None:
    """tables.signals.table_changed: tell the table's pages (in every process)."""
    publish.send_notice(group_name(code), {"type": "table.changed"})


class LobbyConsumer(LoopConsumer):
    code = ""
    joined = False
    #: closed by either side: a frame rendered meanwhile goes nowhere (an ASGI server raises
    #: on a send after the close)
    gone = False

    async def connect(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        self.code, self.lang = kwargs["code"], kwargs["lang"]
        exists = await database_sync_to_async(Table.objects.filter(pk=self.code).exists)()
        if self.lang not in dict(settings.LANGUAGES) or not exists:
            await self.close(code=NO_SUCH_TABLE)
            return
        self.who = me_in(self.scope.get("session"))
        publish.SOCKETS_LOOP = asyncio.get_running_loop()
        await self.channel_layer.group_add(group_name(self.code), self.channel_name)
        self.joined = True
        await self.accept()
        # Whatever changed since the page was rendered (nothing: no frame).
        seen = parse_qs(self.scope.get("query_string", b"").decode("latin-1")).get("seen", [""])
        await self._send_lobby(unless_seen=seen[-1][:32] or "-")

    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        if not self.gone:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)

    async def close(self, code: int | None = None, reason: str | None = None) -> None:
        if not self.gone:
            self.gone = True
            await super().close(code=code, reason=reason)

    async def disconnect(self, code: int) -> None:
        self.gone = True
        if self.joined:
            await self.channel_layer.group_discard(group_name(self.code), self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        return None

    async def table_changed(self, event: dict) -> None:
        await self._send_lobby()

    async def _send_lobby(self, unless_seen: str = "") -> None:
        frame = await database_sync_to_async(render_lobby, thread_sensitive=False)(
            self.code, self.who, self.lang, unless_seen
        )
        if frame is None:
            await self.close(code=NO_SUCH_TABLE)
        elif frame:
            await self.send(text_data=frame)
