"""The driver: one game clock for bots, humans and the engine's own deadlines.

Every real-time caller uses this one scheduler: `simulate` (bot-vs-bot games and the
benchmarks) and the site (the playable demo, teacher mode). Seats are bots (a level name,
rules_engine.bots.LEVELS) or humans (HUMAN). Each bot holds a *plan*, the compact action it
will send and when (Bot.plan: its reaction time after what it saw); the engine may have a
*deadline* (Game.next_deadline). Time moves only by what happens: the next due thing is the
earliest plan or deadline, and nothing else moves the game's clock.

Re-planning (what a bot does when the table changes under its hand):
  * after an accepted action (a bot's or a human's) the actor plans anew, and every other bot
    keeps its plan when the hand is already moving (due within COMMIT_MS), when it is a call
    and the game's phase is still the one it was planned in, or when the variant says the
    plan still holds (the variant's bot module's plan_holds, rules_engine.bots.strategy: James
    Bond, where most moves change nothing another player sees). Every other plan is made
    again from now;
  * after a rejected bot action that bot plans again from the action's time;
  * after a deadline every bot plans again (or keeps a plan that still holds, as above);
  * a bot without a plan (nothing to do) looks again after every engine call.
Planning happens right after each engine call, so a snapshot always holds every plan and the
queries (next_due, to_json) change nothing.

The record: every engine call the driver makes (a bot's or a human's action with its time,
accepted or not, and every deadline it lets pass) is an Entry; `Entry.to_json()` is a
scenario step (docs/scenarios.md), so a record replays through `replay_record` or
`rules_engine.scenario.replay` to the identical game.

The start signal (`signal_ms`, 0: none): real players start together on a signal ("ready,
steady, go"), at the deal and whenever play starts again (the variant's `signal_events`:
new cards turned, a new deal; `hold_for_signal`: play resumed after a pause). With
`signal_ms` > 0 the driver holds the game for that long after each: a human's action
before the signal is refused (WAIT_SIGNAL, no engine call), every bot plans from the signal
on, and an engine deadline due meanwhile waits for it. The
site decides the length; simulate, the benchmarks and the engine's tests run without one.

Snapshots (`to_json` / `from_json`) hold the game without its event history (Game.to_json
with log=False), the bots' random generators and their plans: their size does not grow with
the game's length, and a resumed driver continues exactly as one that never stopped.
"""

from __future__ import annotations

import base64
import random
import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from rules_engine.actions import Action, Event, Result
from rules_engine.bots import LEVELS, Bot, Level, strategy
from rules_engine.game import R_BAD_ACTION, R_BAD_PLAYER, Game, InvariantError
from rules_engine.registry import game_from_json, new_game

#: a seat a person plays (every other seat kind is a bot level).
HUMAN = "human"
#: a plan due within this many ms of an accepted action is already under way: it is not
#: re-planned (the hand is moving, and may arrive too slow).
COMMIT_MS = 150
SNAPSHOT_VERSION = 1
#: a human's action refused because the start signal has not been given yet (a driver's
#: reason, like a wrong seat: the engine never sees the action).
WAIT_SIGNAL = "wait-signal"
#: "no limit" for the scheduler's loop (later than any game time, more than any count).
FOREVER = 1 << 62
#: a Mersenne Twister state: 624 words and the position, little-endian whatever the machine.
_WORDS = struct.Struct("<625I")

EntryKind = Literal["bot", "human", "clock"]


@dataclass(frozen=True, slots=True)
class Entry:
    """One engine call the driver made: a seat's action (accepted or not) or a deadline."""

    t: int
    kind: EntryKind
    action: Action | None
    reason: str | None
    events: list[Event]

    @property
    def accepted(self) -> bool:
        return self.action is not None and self.reason is None

    def to_json(self) -> dict:
        """The scenario step form: the flat action, or {"advance": t} for a deadline."""
        return {"advance": self.t} if self.action is None else self.action.to_json()


def bot_seed(seed: int, seat: int) -> int:
    """The seed of one seat's bot generator (the same for simulate and the site)."""
    return seed * 7919 + seat


def _rng_to_json(rng: random.Random) -> list:
    """A generator's state as [version, base64 of its 625 32-bit words, gauss]: half the size
    of the plain list of numbers, and several times faster to read and write."""
    version, internal, gauss = rng.getstate()
    return [version, base64.b64encode(_WORDS.pack(*internal)).decode("ascii"), gauss]


def _rng_state(data: list) -> tuple:
    version, words, gauss = data
    return version, _WORDS.unpack(base64.b64decode(words)), gauss


def _rng_from_json(data: list) -> random.Random:
    rng = random.Random(0)  # a seed, so that no system entropy is read only to be replaced
    rng.setstate(_rng_state(data))
    return rng


class Driver:
    """Runs one game in real time: bots' plans, engine deadlines and humans' actions."""

    def __init__(self, game: Game, seats: Sequence[str | Level], *, seed: int = 0,
                 record: list[Entry] | None = None, check: bool = False, signal_ms: int = 0,
                 _bots: list[Bot | None] | None = None, _plans: list | None = None,
                 _signal_at: int | None = None) -> None:
        seats = tuple(seats)
        if len(seats) != game.players:
            raise ValueError(f"{len(seats)} seat kinds for {game.players} players")
        for kind in seats:
            if kind != HUMAN and not isinstance(kind, Level) and kind not in LEVELS:
                raise ValueError(f"unknown seat kind {kind!r}; valid: {HUMAN}, "
                                 + ", ".join(LEVELS))
        self.game = game
        self.seats = seats
        self.seed = seed
        #: every engine call since this driver was built or resumed (None: not kept).
        self.record = record
        #: check the game's invariants after every engine call, counting failures.
        self.check = check
        self.invariant_violations = 0
        #: the countdown before each start (ms of game time; 0: play starts at once), and
        #: the game time of the last signal given or due (None: never held).
        self.signal_ms = signal_ms
        self.signal_at = _signal_at
        #: engine calls with an action (bots' and humans'), and how many were rejected.
        self.actions = 0
        self.rejected = 0
        self.calls = 0
        self.reasons: dict[str, int] = {}
        self.bots: list[Bot | None] = _bots if _bots is not None else [
            None if kind == HUMAN else Bot(s, kind, random.Random(bot_seed(seed, s)), game)
            for s, kind in enumerate(seats)]
        self._bot_seats = tuple(s for s, bot in enumerate(self.bots) if bot is not None)
        holds = strategy(game)[1]
        self._holds = None if holds is None else (lambda s, token: holds(game, s, token))
        #: each seat's plan, (t, compact token, is a call, seat) from Bot.plan, or None.
        self.plans: list = _plans if _plans is not None else [None] * game.players
        if _plans is None:
            self._plan_missing()

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(cls, variant: str, seats: Sequence[str], *, options: dict | None = None,
            seed: int = 0, record: list[Entry] | None = None, signal_ms: int = 0) -> Driver:
        """A freshly dealt game of `variant` with one seat per entry of `seats`; with
        `signal_ms`, play starts after that countdown."""
        game = new_game(variant, players=len(seats), seed=seed, options=options)
        driver = cls(game, seats, seed=seed, record=record, signal_ms=signal_ms)
        if signal_ms:
            driver._hold(game.now)
        return driver

    def to_json(self) -> dict:
        """A snapshot to resume from: the game (without its event history), the seats, the
        bots' generators and plans. Its size does not grow with the game's length."""
        data = {
            "version": SNAPSHOT_VERSION,
            # A Level object (a benchmark's own level) is written by name; only the named
            # LEVELS can be resumed.
            "seats": [kind if isinstance(kind, str) else kind.name for kind in self.seats],
            "seed": self.seed,
            "game": {**self.game.to_json(log=False), "rng": _rng_to_json(self.game.rng)},
            "bots": [None if bot is None else {"rng": _rng_to_json(bot.rng),
                                               "call_phase": bot.call_phase}
                     for bot in self.bots],
            "plans": [None if p is None else [p[0], list(p[1]), p[2], p[3]]
                      for p in self.plans],
        }
        if self.signal_ms:  # a game without a signal keeps the snapshot it always had
            data["signal"] = [self.signal_ms, self.signal_at]
        return data

    @classmethod
    def from_json(cls, data: dict, *, record: list[Entry] | None = None) -> Driver:
        """Resume from to_json(): the same game, bots and plans, ready to continue."""
        if data.get("version") != SNAPSHOT_VERSION:
            raise ValueError(f"driver snapshot version {data.get('version')!r} is not "
                             f"{SNAPSHOT_VERSION}")
        version, internal, gauss = _rng_state(data["game"]["rng"])
        game = game_from_json({**data["game"], "rng": [version, internal, gauss]})
        seats = data["seats"]
        bots: list[Bot | None] = []
        for s, (kind, state) in enumerate(zip(seats, data["bots"], strict=True)):
            if kind == HUMAN:
                bots.append(None)
                continue
            bot = Bot(s, kind, _rng_from_json(state["rng"]), game)
            bot.call_phase = state["call_phase"]
            bots.append(bot)
        plans = [None if p is None else (p[0], tuple(p[1]), p[2], p[3]) for p in data["plans"]]
        signal_ms, signal_at = data.get("signal") or (0, None)
        return cls(game, seats, seed=data["seed"], record=record, signal_ms=signal_ms,
                   _bots=bots, _plans=plans, _signal_at=signal_at)

    # ------------------------------------------------------------------ queries
    def next_due(self) -> int | None:
        """Game time (ms) of the next bot action or engine deadline (None: nothing is due;
        the game waits for a human, or is over)."""
        if self.game.over:
            return None
        due = self.game.next_deadline()
        if due is not None and self.waiting(due):
            due = self.signal_at
        for p in self.plans:
            if p is not None and (due is None or p[0] < due):
                due = p[0]
        return due

    def waiting(self, t: int) -> bool:
        """Whether the game is held for the start signal at game time t."""
        return self.signal_at is not None and t < self.signal_at

    # ------------------------------------------------------------------ moving on
    def run_until(self, t: int) -> list[Entry]:
        """Apply every bot plan and deadline due at or before t, in time order (re-planning
        after each); returns what happened."""
        return self._collect(lambda: self._run(until=t))

    def step(self) -> Entry | None:
        """Apply exactly the next due thing, whatever its time (teacher mode's single step
        while paused); None when nothing is due."""
        entries = self._collect(lambda: self._run(max_steps=1))
        return entries[0] if entries else None

    def submit(self, seat: int, t: int, action: Action | dict) -> Result:
        """A human seat's action at t: catch up to t first, then apply it at t (rejected: the
        engine's reason code, nothing changed), then the bots re-plan."""
        if not (type(seat) is int and 0 <= seat < len(self.seats)
                and self.seats[seat] == HUMAN):
            return Result(False, R_BAD_PLAYER, [])
        if type(t) is not int:
            return Result(False, R_BAD_ACTION, [])
        self.run_until(t)
        try:
            if isinstance(action, Action):
                action = Action(t, seat, action.type, action.args)
            else:
                action = Action.from_json({**action, "t": t, "player": seat})
        except (TypeError, ValueError):
            return Result(False, R_BAD_ACTION, [])  # malformed: not an engine call at all
        if self.waiting(t):
            return Result(False, WAIT_SIGNAL, [])
        mark = len(self.game._log)
        result = self.game.apply(action)
        if self.record is not None:
            self.record.append(Entry(t, "human", action, result.reason, list(result.events)))
        self.actions += 1
        if result.accepted:
            if self.signal_ms and self._restarted(mark):
                self._hold(t)
            else:
                self._after_accept(seat)
        else:
            self._count_rejection(result.reason or "")
            self._plan_missing()
        self._check()
        return result

    def run(self, *, max_actions: int) -> None:
        """Play on until the game ends, nothing is due, or `max_actions` actions were sent
        in all (simulate's loop; the caller decides what a cap or a standstill means)."""
        self._run(max_actions=max_actions)

    # ------------------------------------------------------------------ seats
    def set_seat(self, seat: int, kind: str | Level, at: int | None = None) -> None:
        """Change who plays `seat` from now on: a person (HUMAN) or a bot of a level (the
        site's presence rule: a bot stands in for a person whose connection dropped, and the
        person takes the seat back). A new bot plans from game time `at` (the hand-over's
        moment; default the game's now); a person's seat has no plan. The game itself is
        untouched, so the record still replays."""
        if not (type(seat) is int and 0 <= seat < len(self.seats)):
            raise ValueError(f"no seat {seat!r} in a game of {len(self.seats)}")
        if kind != HUMAN and not isinstance(kind, Level) and kind not in LEVELS:
            raise ValueError(f"unknown seat kind {kind!r}; valid: {HUMAN}, " + ", ".join(LEVELS))
        seats = list(self.seats)
        seats[seat] = kind
        self.seats = tuple(seats)
        game = self.game
        # A generator of its own per hand-over moment: the same snapshot and moment give
        # the same bot, whichever server process makes the change.
        self.bots[seat] = None if kind == HUMAN else Bot(
            seat, kind, random.Random(bot_seed(self.seed, seat) ^ (game.now << 20)), game)
        self._bot_seats = tuple(s for s, bot in enumerate(self.bots) if bot is not None)
        bot = self.bots[seat]
        start = game.now if at is None else at
        if self.waiting(start):  # a stand-in waits for the start signal like every bot
            start = self.signal_at
        self.plans[seat] = None if bot is None or game.over else bot.plan(game, start)

    # ------------------------------------------------------------------ the scheduler
    def _collect(self, run) -> list[Entry]:
        record = self.record
        if record is None:
            self.record = record = []
            try:
                run()
            finally:
                self.record = None
            return record
        mark = len(record)
        run()
        return record[mark:]

    def _run(self, until: int = FOREVER, max_steps: int = FOREVER,
             max_actions: int = FOREVER) -> None:
        """The scheduler's loop (simulate's hot path: counters are locals here)."""
        game = self.game
        plans, bots = self.plans, self.bots
        apply_token, next_deadline = game.apply_token, game.next_deadline
        record, check = self.record, self.check
        actions = self.actions
        signal_ms = self.signal_ms
        mark = 0
        try:
            while max_steps > 0 and actions < max_actions and not game.over:
                max_steps -= 1
                best = None
                for p in plans:
                    if p is not None and (best is None or p[0] < best[0]):
                        best = p
                deadline = next_deadline()
                if signal_ms and deadline is not None and self.waiting(deadline):
                    deadline = self.signal_at  # time's consequences wait for the signal too
                if deadline is not None and (best is None or deadline < best[0]):
                    if deadline > until:
                        return
                    self._pass_deadline(deadline)
                    continue
                if best is None or best[0] > until:
                    return
                t, token, is_call, seat = best
                if record is None:
                    if signal_ms:
                        mark = len(game._log)
                    reason = apply_token(seat, t, token)
                else:
                    mark = len(game._log)
                    reason = apply_token(seat, t, token)
                    record.append(Entry(t, "bot", game.token_action(seat, t, token), reason,
                                        game._events_since(mark)))
                actions += 1
                if check:
                    self._check()
                if reason is None:
                    if is_call:
                        self.calls += 1
                    if signal_ms and self._restarted(mark):
                        self._hold(t)
                    else:
                        self._after_accept(seat)
                else:
                    self._count_rejection(reason)
                    plans[seat] = bots[seat].plan(game, t)  # type: ignore[union-attr]
                    self._plan_missing()
        finally:
            self.actions = actions

    def _pass_deadline(self, t: int) -> None:
        game = self.game
        mark = len(game._log)
        game.advance(t)
        if self.record is not None:
            self.record.append(Entry(t, "clock", None, None, game._events_since(mark)))
        self._check()
        if self.signal_ms and self._restarted(mark):
            self._hold(t)
        else:
            self._after_deadline()

    def _restarted(self, mark: int) -> bool:
        """Whether the engine calls since log position `mark` started play again (the
        variant's signal_events: new cards turned, a new deal)."""
        starts = self.game.signal_events
        return any(record[0] in starts for record in self.game._log[mark:])

    def hold_for_signal(self, t: int) -> None:
        """Count down to a new start signal from game time t (the site resumes a game after a
        pause, so everyone starts again together); nothing without a signal."""
        if self.signal_ms:
            self._hold(max(t, self.game.now))

    def _hold(self, t: int) -> None:
        """Hold the game for the start signal from t: every bot plans from the signal on."""
        game = self.game
        self.signal_at = t + self.signal_ms
        if game.over:
            return
        for s in self._bot_seats:
            self.plans[s] = self.bots[s].plan(game, self.signal_at)  # type: ignore[union-attr]

    def _after_accept(self, actor: int) -> None:
        """Re-plan after `actor`'s accepted action (see the module docstring)."""
        game = self.game
        if game.over:
            return
        plans, bots, holds = self.plans, self.bots, self._holds
        committed = game.now + COMMIT_MS
        phase = None
        for s in self._bot_seats:
            p = plans[s]
            if s != actor and p is not None:
                if p[0] <= committed:
                    continue
                if p[2]:
                    if phase is None:
                        phase = game.phase
                    if bots[s].call_phase == phase:  # type: ignore[union-attr]
                        continue
                if holds is not None and holds(s, p[1]):
                    continue
            plans[s] = bots[s].plan(game)  # type: ignore[union-attr]

    def _after_deadline(self) -> None:
        game = self.game
        if game.over:
            return
        plans, bots, holds = self.plans, self.bots, self._holds
        for s in self._bot_seats:
            p = plans[s]
            if p is not None and holds is not None and holds(s, p[1]):
                continue
            plans[s] = bots[s].plan(game)  # type: ignore[union-attr]

    def _plan_missing(self) -> None:
        """A bot with nothing to do looks again after every engine call."""
        game = self.game
        if game.over:
            return
        plans, bots = self.plans, self.bots
        for s in self._bot_seats:
            if plans[s] is None:
                plans[s] = bots[s].plan(game)  # type: ignore[union-attr]

    def _count_rejection(self, reason: str) -> None:
        self.rejected += 1
        self.reasons[reason] = self.reasons.get(reason, 0) + 1

    def _check(self) -> None:
        if self.check:
            try:
                self.game.check_invariants()
            except InvariantError:
                self.invariant_violations += 1


def replay_record(game: Game, steps: Iterable[Entry | dict]) -> Game:
    """Apply a driver's record (Entries or their to_json() steps) to `game`, a fresh game
    dealt like the recorded one; returns it, now in the recorded game's state."""
    for step in steps:
        data = step.to_json() if isinstance(step, Entry) else step
        if "advance" in data:
            game.advance(data["advance"])
        else:
            game.apply(data)
    return game


def seat_kinds(levels: Sequence[str | Level] | str, players: int) -> list[str | Level]:
    """One seat kind per player from a list that repeats ("club" or "expert,learner")."""
    if isinstance(levels, str):
        levels = [x.strip() for x in levels.split(",") if x.strip()]
    if not levels:
        raise ValueError("give at least one bot level")
    return [levels[s % len(levels)] for s in range(players)]

