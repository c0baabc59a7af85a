"""The in-memory channel layer (one server process, no Redis) with the costs of a busy
server cut (#21). Each stored change sends one notice to its game's group and every socket
of the game receives it; Channels' own layer walked every channel and every group
membership of the process at each of those sends and receives (its sweep for expired
messages), and sent a group's message through a task per channel."""

from __future__ import annotations

import contextlib
import time

from channels import layers
from channels.exceptions import ChannelFull


class InMemoryChannelLayer(layers.InMemoryChannelLayer):
    #: expired messages (older than `expiry`, 60 s) and group memberships are swept at most
    #: this often: a message expires at most this much later than with Channels' layer.
    SWEEP_EVERY_S = 1.0
    _swept = float("-inf")

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._swept < self.SWEEP_EVERY_S:
            return
        self._swept = now
        super()._clean_expired()

    async def group_send(self, group: str, message: dict) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        # `send` awaits nothing: a channel's queue gets the message at once, in this order.
        for channel in list(self.groups.get(group, ())):
            with contextlib.suppress(ChannelFull):  # a full channel misses it, as before
                await self.send(channel, message)
