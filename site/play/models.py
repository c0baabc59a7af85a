"""Stored games of the playable demo.

A game row holds what it was started with (variant, options, seats, seed), the driver's
snapshot (the engine state with the bots' random generators and plans: small, and rewritten
with every change), the clock and a version number that every change increments. The log is
one LogEntry row per engine call the driver made: a bot's or a human's action with its game
time, accepted or not, or a deadline passing. Replaying the log on a fresh deal gives the
stored state again (tests/site/test_play_replay.py); the step-through viewer reads it as a
scenario. Nothing about a game is kept in process memory: any app process can serve it.
"""

from __future__ import annotations

import secrets

from django.db import models

from .clock import Clock

HUMAN = "human"  # the driver's seat kind for a person (rules_engine.driver.HUMAN)


def new_game_id() -> str:
    """An unguessable id: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


class Game(models.Model):
    id = models.CharField(primary_key=True, max_length=32, default=new_game_id, editable=False)
    variant = models.CharField(max_length=32)
    options = models.JSONField(default=dict)
    players = models.PositiveSmallIntegerField()
    #: one entry per seat: "human" or a bot level ("learner", "club", "expert").
    seats = models.JSONField()
    seed = models.BigIntegerField()
    #: rules_engine.driver.Driver.to_json() after the last change.
    snapshot = models.JSONField()
    #: incremented by every change; a change is written only over the version it was made on.
    version = models.PositiveIntegerField(default=0)
    #: number of LogEntry rows (the next entry's seq).
    log_length = models.PositiveIntegerField(default=0)
    #: per seat, the version the seat's last accepted action produced (0: none yet): a move
    #: sent from an older table than that is a replay or a stale page.
    acted = models.JSONField(default=list)
    #: game time of the last move a human sent (the idle pause counts from here).
    human_ms = models.BigIntegerField(default=0)

    # The clock (play.clock.Clock): game time clock_ms at wall time clock_at.
    clock_ms = models.BigIntegerField(default=0)
    clock_at = models.DateTimeField()
    speed = models.FloatField(default=1.0)
    paused = models.BooleanField(default=False)

    over = models.BooleanField(default=False)
    winner = models.SmallIntegerField(null=True, blank=True)
    end_reason = models.CharField(max_length=32, blank=True)

    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField()
    finished = models.DateTimeField(null=True, blank=True)

    # Presence (play.presence, issue #22): a person whose connection drops keeps the seat.
    #: real milliseconds a person's seat may stay away (the game paused) before a bot takes
    #: it; 0: presence is off (the demo: nobody is waited for, nothing is measured).
    away_limit_ms = models.PositiveIntegerField(default=0)
    #: per seat, the bot level that stands in for the seat's person ("": the seat has no
    #: person; empty list: no seat has). The seat's kind in `seats` is "human" while the
    #: person plays it and this level while the bot does.
    takeover = models.JSONField(default=list, blank=True)
    #: per seat, the name the table shows ("" or missing: "Player 2").
    names = models.JSONField(default=list, blank=True)
    #: what presence decided so far (play.presence.State): the seats away and since when,
    #: whether it stopped the clock, the news the latest change brought.
    presence = models.JSONField(default=dict, blank=True)

    class Meta:
        indexes = [models.Index(fields=["over", "updated"])]

    def __str__(self) -> str:
        return f"{self.variant} {self.id}"

    @property
    def clock(self) -> Clock:
        return Clock(self.clock_ms, self.clock_at, self.speed, self.paused)

    def set_clock(self, clock: Clock) -> None:
        self.clock_ms, self.clock_at = clock.base_ms, clock.base_at
        self.speed, self.paused = clock.speed, clock.paused

    @property
    def human_seats(self) -> list[int]:
        return [s for s, kind in enumerate(self.seats) if kind == HUMAN]

    def takeover_level(self, seat: int) -> str:
        """The bot level that stands in for the seat's person ("": no person's seat)."""
        return self.takeover[seat] if 0 <= seat < len(self.takeover) else ""

    def seat_name(self, seat: int) -> str:
        """The seat's own name ("": none given, the table calls it "Player 2")."""
        return self.names[seat] if 0 <= seat < len(self.names) else ""


class Socket(models.Model):
    """One open (or lately closed) socket of a browser holding seats of a game with presence
    on: the seats' link to the table, kept in the database so that every server process sees
    it. A socket refreshes `seen` with every answer to the server's ping; a socket whose
    process was killed stops refreshing and counts as closed once `seen` is old
    (play.presence.STALE_PINGS pings missed)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="sockets")
    #: the seats the socket's browser holds (two at a hot-seat table).
    seats = models.JSONField(default=list)
    opened = models.DateTimeField()
    seen = models.DateTimeField()
    closed = models.DateTimeField(null=True, blank=True)
    #: the last round trip measured (server to page and back), in milliseconds.
    rtt_ms = models.PositiveIntegerField(null=True, blank=True)
    #: not a socket: the page's requests over HTTP (its socket could not open), one row per
    #: game and seats, refreshed by its board requests.
    over_http = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["game", "seen"])]

    def __str__(self) -> str:
        return f"{self.game_id} seats {self.seats}"


class LogEntry(models.Model):
    """One engine call of a game, in order: rules_engine.driver.Entry as stored."""

    KINDS = [("bot", "bot"), ("human", "human"), ("clock", "clock")]

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="entries")
    seq = models.PositiveIntegerField()
    t = models.BigIntegerField()
    kind = models.CharField(max_length=8, choices=KINDS)
    #: the flat action (t, player, type, arguments); null for a deadline.
    action = models.JSONField(null=True, blank=True)
    #: the engine's reason code for a rejected action; empty when accepted (or a deadline).
    reason = models.CharField(max_length=32, blank=True)
    #: the events the call logged (Event.to_json() each).
    events = models.JSONField(default=list)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="play_logentry_unique_seq")
        ]

    def __str__(self) -> str:
        return f"{self.game_id} #{self.seq}"

    @property
    def accepted(self) -> bool:
        return self.action is not None and not self.reason

    def step(self) -> dict:
        """The entry as a scenario step (docs/scenarios.md)."""
        return {"advance": self.t} if self.action is None else dict(self.action)
