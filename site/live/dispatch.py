"""What every socket of the site (live.consumers, live.lessons, live.tables, live.lobby)
changes in Channels' dispatch of a message to its handler."""

from __future__ import annotations

from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer


class LoopConsumer(AsyncWebsocketConsumer):
    """A socket whose handlers touch the database only through database_sync_to_async.

    Channels closes the database's old connections before every handler it dispatches
    (`aclose_old_connections`): a hand-off to the one thread of sync work, where it waits
    behind every move being stored, for each frame from a page and each notice to each
    socket. These handlers never use a connection in the event loop's thread, and
    database_sync_to_async closes old connections in its own thread before and after each
    call, so the hand-off only cost CPU and delayed every notice (#21)."""

    async def dispatch(self, message: dict) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
