"""A stored game moved on by one request: catch up to now, then the human's action.

This module is the site's only user of the engine's driver (rules_engine.driver), the same
scheduler `simulate` runs: the site never plans a bot or fires a deadline itself. Every
request rebuilds the driver from the row's snapshot, lets it apply what is due by the
request's game time, applies the human's action at that time, and stores the snapshot and
the new log entries (play.store.change_game).

The clock commands (pause, resume, a step while paused, a change of speed) come from a seat's
player or from whoever controls the game without a seat (teacher mode's projector): the
caller says which (`controls`).
"""

from __future__ import annotations

import math
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import transaction

from rules_engine.actions import Action, Result
from rules_engine.bots import LEVELS
from rules_engine.driver import Driver, Entry, replay_record
from rules_engine.game import R_GAME_OVER
from rules_engine.game import Game as EngineGame
from rules_engine.registry import new_game

from . import presence
from .clock import Clock
from .models import HUMAN, Game, LogEntry
from .signals import game_changed
from .store import Change, change_game

# Site-level refusals: the move never reaches the engine (the engine's reasons are separate).
NOT_YOUR_SEAT = "not-your-seat"
STALE = "stale"
FORGED = "forged"
PAUSED = "paused"
RUNNING = "running"  # a single step asked for while the clock runs
HELD = "held"  # a rule of the game's owner holds the clock (teacher mode: a question is open)
AWAY = "away"  # the game waits for a person whose connection dropped (play.presence)
TABLES_HELD = "tables-held"  # teacher mode's class tables: the teacher paused every table
CLOCK_COMMANDS = ("pause", "resume", "step", "speed")
#: the longest name a seat may have (a table's form should say so before this refuses it).
NAME_MAX = 40
#: how much later than the bot's moment a page asks, so that the bot is surely due then.
POLL_MARGIN_MS = 15
#: how long (game ms) the page shows the start signal's "go" after it was given.
GO_SHOWN_MS = 800


#: Rules for clock commands that whoever owns a game adds (teacher mode: no step while a
#: class question is open; a resume closes the question), so they hold whichever route the
#: command came through. Each gets the row and the command and returns a refusal (HELD) or
#: None; it may act on a command it lets through. Registered in an AppConfig.ready().
CLOCK_RULES: list[Callable[[Game, str], str | None]] = []


@dataclass
class Turn:
    """What one request made of a game."""

    driver: Driver
    now_ms: int
    #: the engine's answer to the human's action (None: no action, or refused before it).
    result: Result | None = None
    #: a site-level refusal (NOT_YOUR_SEAT, STALE, FORGED, PAUSED, RUNNING) or None.
    refusal: str | None = None
    #: what a step while paused applied (None: no step, or nothing was due).
    stepped: Entry | None = None
    #: the move was the seat's last move sent again (a page retrying a lost answer): it
    #: was played once already and is answered with the game as it is.
    repeated: bool = False
    #: the engine refused the move and the stored change is that refusal's log entry alone
    #: (no event, no bot's move or deadline, no clock or presence change): every screen
    #: shows the same table as before it, so the mover needs only the reason (live.consumers).
    #: (A lesson's story tells refusals too: its moves are never quiet.)
    quiet: bool = False


def new_seed() -> int:
    return secrets.randbelow(2**31)


def start_game(variant: str, seats: list[str], *, using: str = "default", **deal) -> Game:
    """Deal a new game and store it (`deal_game`'s arguments and errors)."""
    row = deal_game(variant, seats, **deal)
    row.save(using=using)
    return row


def deal_game(variant: str, seats: list[str], *, options: dict | None = None,
              seed: int | None = None, wall: datetime, speed: float | None = None,
              paused: bool = False, away_limit_ms: int = 0,
              takeover: list[str] | None = None, names: list[str] | None = None) -> Game:
    """A new game's row, dealt and not yet stored (ValueError / OptionError for what the
    engine refuses): a caller that stores it in a transaction of its own deals first, so
    that the database's write lock is not held while the cards are dealt;
    `paused`: its clock waits for a resume (teacher mode starts when the class is ready).

    Presence (play.presence; off unless `away_limit_ms` > 0): `takeover` names, per seat,
    the bot level that stands in for the seat's person when they stay away longer than
    `away_limit_ms` ("" for a bot's seat; a human seat without one is never waited for);
    `names`: per seat, the name the table shows ("" for "Player 2")."""
    seed = new_seed() if seed is None else seed
    takeover, names = _per_seat(takeover, seats, "takeover"), _per_seat(names, seats, "names")
    if any(len(name) > NAME_MAX for name in names):
        raise ValueError(f"a seat's name is longer than {NAME_MAX} characters")
    for seat, level in enumerate(takeover):
        if level and (seats[seat] != HUMAN or level not in LEVELS):
            raise ValueError(f"seat {seat}: no bot level {level!r} can stand in for it")
    if away_limit_ms < 0:
        raise ValueError("an away limit cannot be negative")
    driver = Driver.new(variant, seats, options=options, seed=seed,
                        signal_ms=settings.PLAY_SIGNAL_MS)
    clock = Clock(0, wall, settings.PLAY_CLOCK_SPEED if speed is None else speed, paused)
    row = Game(variant=variant, options=dict(driver.game.options), players=len(seats),
               seats=list(seats), seed=seed, snapshot=driver.to_json(), acted=[0] * len(seats),
               updated=wall, away_limit_ms=away_limit_ms, takeover=takeover, names=names)
    row.set_clock(clock)
    return row


def _per_seat(values: list[str] | None, seats: list[str], what: str) -> list[str]:
    if not values:
        return []
    if len(values) != len(seats):
        raise ValueError(f"{len(values)} {what} for {len(seats)} seats")
    return [str(value) for value in values]


def driver_of(row: Game) -> Driver:
    return Driver.from_json(row.snapshot, record=[])


def as_it_stands(row: Game, wall: datetime) -> Turn:
    """The game as stored, at `wall`'s game time, with nothing applied: what a page shows
    for a request that changes nothing (one that could not be read, or was refused)."""
    return Turn(driver_of(row), row.clock.now_ms(wall))


def _idle_limit(row: Game, clock: Clock, now: int) -> int | None:
    """Game time at which a game whose player stopped playing pauses (None: never)."""
    if clock.paused or row.over or HUMAN not in row.seats:
        return None
    limit = row.human_ms + settings.PLAY_IDLE_PAUSE_MS
    return limit if now > limit else None


def compute(row: Game, wall: datetime, *, seat: int | None = None, action: dict | None = None,
            version: int | None = None, clock_command: str | None = None,
            speed: float | None = None, controls: bool = False,
            hands: str | None = None, refusals_told: bool = False) -> Change[Turn]:
    """Catch `row` up to `wall`, then apply the seat's action or the clock command (unsaved).

    A clock command comes from a seat's player, or from the game's controller (`controls`:
    the caller has checked that the request holds the game, e.g. a teacher without a seat).
    "step" applies exactly the next due bot action or deadline while the game is paused;
    "speed" sets the clock's speed factor (`speed`). `hands` ("bot" or "person") hands a
    person's `seat` to its bot or back to the person (play.presence.change_hands; the caller
    has checked who may); "owner-bot" hands it to its bot for good (the person may not take
    it back), "give-back" lets the person take it back again. `refusals_told`: the game's
    pages tell every refused move to all who watch (teach's story), so a refusal is never
    quiet (Turn.quiet)."""
    if clock_command is not None and clock_command not in CLOCK_COMMANDS:
        raise ValueError(f"unknown clock command {clock_command!r}")
    driver = driver_of(row)
    clock = row.clock
    changed = False
    if presence.is_on(row):
        clock, changed = presence.settle(row, driver, clock, wall, presence.links(row, wall))
    now = clock.now_ms(wall)
    turn = Turn(driver, now)
    acting = action is not None or clock_command is not None
    if acting:
        seated = seat is not None and seat in row.human_seats
        if not seated and not (controls and action is None):
            turn.refusal = NOT_YOUR_SEAT
        elif version is None or version > row.version:
            turn.refusal = FORGED
        elif seated and version < row.acted[seat]:  # type: ignore[index]
            if action is not None and repeats_last_move(row, seat, action):  # type: ignore[arg-type]
                action, turn.repeated = None, True
            else:
                turn.refusal = STALE
        elif action is not None and (clock.paused and not row.over):
            turn.refusal = AWAY if presence.away(row) else PAUSED
        elif clock_command == "step" and not clock.paused and not row.over:
            turn.refusal = RUNNING
        elif clock_command == "resume" and presence.away(row) and not row.over:
            turn.refusal = AWAY
        elif clock_command is not None:
            turn.refusal = next(filter(None, (rule(row, clock_command) for rule in CLOCK_RULES)),
                                None)
        if turn.refusal:
            if not changed:
                return Change(row, turn)
            # What presence found is stored all the same (the move is not played).
            row.set_clock(clock)
            row.snapshot = driver.to_json()
            return Change(row, turn, changed=True)
    idle = _idle_limit(row, clock, now)
    if idle is not None:
        clock, now, changed = clock.pause(wall, at_ms=idle), idle, True
    if clock_command == "pause" and presence.stopped_clock(row):
        # A player's own pause: the game stays paused when the missing person is back.
        row.presence, changed = {**row.presence, "paused": False}, True
    if clock_command == "pause" and not row.over and not clock.paused:
        clock, changed = clock.pause(wall), True
    if not row.over:
        driver.run_until(now)
    if hands == "give-back" and seat is not None and not driver.game.over:
        changed = presence.give_back(row, seat) or changed
    elif hands is not None and seat is not None and not driver.game.over:
        clock, handed = presence.change_hands(
            row, driver, clock, wall, seat, hands != "person", lock=hands == "owner-bot"
        )
        changed = changed or handed
    if clock_command == "step" and clock.paused and not driver.game.over:
        turn.stepped = driver.step()
        if turn.stepped is not None:
            clock, changed = clock.stepped_to(turn.stepped.t), True
            now = max(now, turn.stepped.t)
    if clock_command == "speed" and speed is not None and not row.over:
        clock, changed = clock.with_speed(speed, wall), True
    if clock_command == "resume" and clock.paused and not row.over:
        clock, changed = clock.resume(wall), True
        row.human_ms = now  # the idle pause counts afresh from here
        if presence.is_on(row):  # a table of people on their own screens starts together
            driver.hold_for_signal(now)
    if action is not None:
        if driver.game.over:
            turn.result = Result(False, R_GAME_OVER, [])
        else:
            t = max(now, driver.game.now)
            turn.result = driver.submit(seat, t, action)  # type: ignore[arg-type]
            if driver.record and driver.record[-1].kind == "human":
                row.human_ms = t  # a malformed action is no engine call and no sign of life
            if turn.result.accepted:
                row.acted = [row.version + 1 if s == seat else v
                             for s, v in enumerate(row.acted)]
    turn.now_ms = now
    row.set_clock(clock)
    entries = driver.record or []
    turn.quiet = (not refusals_told and not changed and turn.result is not None
                  and not turn.result.accepted and len(entries) == 1
                  and entries[0].kind == "human" and not entries[0].events)
    if not (changed or entries):
        return Change(row, turn)
    row.snapshot = driver.to_json()
    game = driver.game
    if game.over and not row.over:
        row.over, row.winner, row.end_reason = True, game.winner, game.end_reason or ""
        row.finished = wall
    return Change(row, turn, changed=True, entries=[_log_entry(e) for e in entries])


def _comparable(action: dict) -> dict:
    return {key: value for key, value in action.items() if key not in ("t", "player")}


def repeats_last_move(row: Game, seat: int, action: dict) -> bool:
    """Whether `action`, sent from a view older than the seat's last accepted move, is that
    very move again: the page sends a move whose answer never came once more, with the
    same version (static/js/play.js), and must not be told it was refused."""
    last = (LogEntry.objects.using(row._state.db or "default")
            .filter(game_id=row.pk, kind="human", reason="", action__player=seat)
            .order_by("-seq").only("action").first())
    if last is None or last.action is None:
        return False
    try:
        sent = Action.from_json({**action, "t": 0, "player": seat}).to_json()
    except (TypeError, ValueError, KeyError):
        return False
    return _comparable(sent) == _comparable(last.action)


def _log_entry(entry: Entry) -> LogEntry:
    return LogEntry(t=entry.t, kind=entry.kind,
                    action=None if entry.action is None else entry.action.to_json(),
                    reason=entry.reason or "", events=[e.to_json() for e in entry.events])


def play(game_id: str, wall: datetime, *, using: str = "default", **request) -> Change[Turn]:
    """compute() on the stored game, stored without losing a concurrent update; whoever
    listens to play.signals.game_changed hears of a stored change."""
    change = change_game(game_id, lambda row: compute(row, wall, **request), using=using)
    if change.changed:
        game_changed.send(sender=Game, row=change.row, entries=change.entries,
                          wake_ms=wake_in_ms(change.row, change.value.driver, wall),
                          quiet=change.value.quiet)
    return change


def next_poll_ms(row: Game, driver: Driver, wall: datetime) -> int | None:
    """Real milliseconds until the page should ask again (None: never, the game is over)."""
    if row.over or driver.game.over:
        return None
    idle = settings.PLAY_IDLE_POLL_MS
    due = driver.next_due()
    if countdown(row, driver, wall) is not None:  # the board without it, once "go" was seen
        gone = driver.signal_at + GO_SHOWN_MS  # type: ignore[operator]
        due = gone if due is None else min(due, gone)
    if due is None:
        return idle
    delay = row.clock.wall_ms_until(due, wall)
    return idle if delay is None else min(idle, delay + POLL_MARGIN_MS)


@dataclass(frozen=True)
class Countdown:
    """The start signal a page shows while the game waits for it: the whole seconds left
    (0: "go" was just given) and the real ms until go (None: the clock is paused, the
    countdown stands still)."""

    seconds: int
    wall_ms: int | None


def countdown(row: Game, driver: Driver, wall: datetime) -> Countdown | None:
    """The countdown to the next start signal at `wall`, or its "go" just after it (None:
    play is on)."""
    now = row.clock.now_ms(wall)
    at = driver.signal_at
    if row.over or at is None or now >= at + GO_SHOWN_MS:
        return None
    return Countdown(max(0, -(-(at - now) // 1000)), row.clock.wall_ms_until(at, wall))


def wake_in_ms(row: Game, driver: Driver, wall: datetime) -> int | None:
    """Real milliseconds until the game changes with no person acting: a bot's move, an
    engine deadline, the idle pause, or presence's next moment (a grace or an away limit
    ending; None: nothing will; over, or paused or waiting for a person with nobody
    away). A server holding the game's sockets catches it up then (live.rooms)."""
    clock = row.clock
    if row.over or driver.game.over:
        return None
    delays = []
    if not clock.paused:
        idle_at = row.human_ms + settings.PLAY_IDLE_PAUSE_MS if HUMAN in row.seats else None
        moments = [t for t in (driver.next_due(), idle_at) if t is not None]
        delay = clock.wall_ms_until(min(moments), wall) if moments else None
        if delay is not None:
            delays.append(delay)
    if presence.is_on(row):
        delays += [max(0, math.ceil((moment - wall).total_seconds() * 1000))
                   for moment in presence.wake_moments(row, wall, presence.links(row, wall))]
    return min(delays) + POLL_MARGIN_MS if delays else None


def hand_to_bot(game_id: str, seat: int, wall: datetime, *, lock: bool = False,
                using: str = "default") -> Change[Turn]:
    """A person's seat played by its stand-in bot from now on (a teacher's "let a bot play
    for them" at a class table); nothing changes for a seat no person holds or a bot plays
    already. `lock`: the table's owner chose it, so the person may not take the seat back
    until the owner gives it back (give_back). The caller checks that the request may."""
    return play(game_id, wall, seat=seat, hands="owner-bot" if lock else "bot", using=using)


def give_back(game_id: str, seat: int, wall: datetime, *,
              using: str = "default") -> Change[Turn]:
    """The owner lets the person take back the seat they handed to its bot."""
    return play(game_id, wall, seat=seat, hands="give-back", using=using)


def take_back(game_id: str, seat: int, wall: datetime, *,
              using: str = "default") -> Change[Turn]:
    """The person takes their seat back from its stand-in bot ("Take my seat back"); nothing
    changes when they already play it. The caller checks that the request holds the seat
    (play.access)."""
    return play(game_id, wall, seat=seat, hands="person", using=using)


def replay_log(row: Game, *, using: str = "default") -> EngineGame:
    """A fresh deal of the row's game with its whole log replayed (the stored history)."""
    game = new_game(row.variant, players=row.players, seed=row.seed, options=row.options)
    with transaction.atomic(using=using):
        steps = [e.step() for e in LogEntry.objects.using(using).filter(game=row)]
    return replay_record(game, steps)
