"""A table of friends (#22): a variant with its rules, two to four seats (each a friend or
a bot), who took which seat, who is ready, and the games played at it (rounds).

A table is found by its code alone (128 random bits, like a game id): whoever has the link
may take a free seat or watch. Who took a seat is remembered by a hash of a random token the
taking browser keeps in its signed session (tables.access), so nothing in a row lets anyone
act for another browser.
"""

from __future__ import annotations

import secrets

from django.db import models
from play.models import Game

FRIEND = "friend"
#: a seat's display name, at most this many characters
NAME_MAX = 24
#: how long a dropped player's seat waits before a bot takes it (#22 part B), seconds
DEFAULT_PRESENCE_S = 60


def new_table_code() -> str:
    """An unguessable code: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


class Table(models.Model):
    code = models.CharField(primary_key=True, max_length=32, default=new_table_code, editable=False)
    variant = models.CharField(max_length=32)
    #: every option as the engine filled it in
    options = models.JSONField(default=dict)
    players = models.PositiveSmallIntegerField()
    #: the hash of the creating browser's token (tables.access)
    creator = models.CharField(max_length=64)
    #: seconds a dropped player's seat waits before its takeover bot plays it
    presence_s = models.PositiveSmallIntegerField(default=DEFAULT_PRESENCE_S)
    #: the saved house-rules sheet the table was made from (empty: none)
    sheet = models.CharField(max_length=16, blank=True)
    #: hashes of browsers the creator removed: they may watch, not take a seat again
    removed = models.JSONField(default=list, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["updated"])]

    def __str__(self) -> str:
        return f"{self.variant} table {self.code}"


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    #: the seat's number in the game (0: the creator's)
    number = models.PositiveSmallIntegerField()
    #: FRIEND, or a bot level ("learner", "club", "expert")
    kind = models.CharField(max_length=16)
    name = models.CharField(max_length=NAME_MAX, blank=True)
    #: tables.nickname's key of the name: two seats of a table never share one
    name_key = models.CharField(max_length=4 * NAME_MAX, blank=True)
    #: the hash of the holding browser's token (empty: free, or a bot's seat)
    holder = models.CharField(max_length=64, blank=True)
    ready = models.BooleanField(default=False)
    #: the bot level that plays a dropped player's seat (#22 part B)
    takeover = models.CharField(max_length=16, default="club")

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="tables_seat_unique_number"),
            models.UniqueConstraint(
                fields=["table", "name_key"],
                name="tables_seat_unique_name",
                condition=~models.Q(name_key=""),
            ),
            models.UniqueConstraint(
                fields=["table", "holder"],
                name="tables_seat_one_per_browser",
                condition=~models.Q(holder=""),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id} seat {self.number}"

    @property
    def friend(self) -> bool:
        return self.kind == FRIEND

    @property
    def taken(self) -> bool:
        return bool(self.holder)


class Round(models.Model):
    """One game played at a table: the first deal, then each rematch."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    #: a pruned game takes its round with it (play's prune_games)
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="table_round")

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="tables_round_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id} round {self.number}"
