"""Bots: a reaction-time model on top of each variant's scored candidate actions.

A variant says what is worth doing: the Speed-type games in their own Game methods
(Game.bot_candidates, read through the cheaper Game._bot_scored and Game._bot_pick), spit and
james-bond in a bot module of their own, named by VariantInfo.bot_module
(`candidates(game, seat)` and, optionally, `plan_holds(game, seat, token)`). The imports go
one way: a bot module reads its variant's rules, the rules never import a bot. A level says
how well and how fast a bot plays. Everything random comes from the caller's rng, so a bot
is deterministic for a given seed.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules_engine.actions import Action
from rules_engine.game import Game, pick_scored


@dataclass(frozen=True)
class Level:
    name: str
    #: milliseconds from seeing a chance to the card landing (uniform in this range).
    move_ms: tuple[int, int]
    #: milliseconds from equal tops to the call / slap.
    call_ms: tuple[int, int]
    #: chance of being slow to call, and the extra delay then.
    slow_call_chance: float
    slow_call_extra_ms: tuple[int, int]
    #: chance of taking the best-scored candidate rather than any candidate.
    skill: float


LEVELS: dict[str, Level] = {
    "learner": Level("learner", (1100, 2000), (900, 1700), 0.3, (800, 2000), 0.2),
    "club": Level("club", (500, 900), (400, 800), 0.1, (300, 900), 0.7),
    "expert": Level("expert", (250, 450), (200, 380), 0.0, (0, 0), 1.0),
}


def get_level(level: str | Level) -> Level:
    if isinstance(level, Level):
        return level
    try:
        return LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; valid: {', '.join(LEVELS)}") from None


def _uniform_ms(rng: random.Random, span: tuple[int, int]) -> int:
    # rng.random() arithmetic: several times cheaper than randint in the simulation loop.
    lo, hi = span
    return lo + int(rng.random() * (hi - lo + 1))


def reaction_ms(level: Level, rng: random.Random, *, call: bool) -> int:
    if call:
        delay = _uniform_ms(rng, level.call_ms)
        if level.slow_call_chance and rng.random() < level.slow_call_chance:
            delay += _uniform_ms(rng, level.slow_call_extra_ms)
        return delay
    return _uniform_ms(rng, level.move_ms)


Pick = Callable[[Game, int, float, random.Random], Any]
PlanHolds = Callable[[Game, int, Any], bool]


def _strategy_module(game: Game) -> Any:
    name = game.variant.bot_module
    return None if name is None else importlib.import_module(name)


def candidates(game: Game, seat: int) -> list[tuple[float, Action]]:
    """The bots' scored ideas for this seat now (higher is better; the Actions' t is now)."""
    module = _strategy_module(game)
    return game.bot_candidates(seat) if module is None else module.candidates(game, seat)


def strategy(game: Game) -> tuple[Pick, PlanHolds | None]:
    """How a bot of this game picks its compact action, and (or None) how the driver asks
    whether a plan still holds after another player's move (see rules_engine.driver)."""
    module = _strategy_module(game)
    if module is None:
        return type(game)._bot_pick, None
    scored = module.candidates

    def pick(game: Game, seat: int, skill: float, rng: random.Random) -> Any:
        ideas = scored(game, seat)
        return pick_scored([score for score, _ in ideas], [(a.type, a.args) for _, a in ideas],
                           skill, rng)

    return pick, getattr(module, "plan_holds", None)


def next_bot_action(game: Game, seat: int, level: str | Level, rng: random.Random, *,
                    not_before: int | None = None) -> Action | None:
    """The bot's next action, timestamped now (or not_before) + its reaction time; None when
    it has nothing to do (the engine turns new cards by itself when nobody can move)."""
    plan = Bot(seat, level, rng, game).plan(game, not_before)
    return None if plan is None else game.token_action(seat, plan[0], plan[1])


class Bot:
    """One seat's bot for a whole game: its level, its random generator and its reaction
    times, ready for the simulation loop."""

    __slots__ = ("call_phase", "call_types", "level", "move_lo", "move_span", "pick", "rng",
                 "seat", "skill")

    def __init__(self, seat: int, level: str | Level, rng: random.Random, game: Game) -> None:
        self.seat = seat
        self.level = get_level(level)
        self.rng = rng
        self.skill = self.level.skill
        lo, hi = self.level.move_ms
        self.move_lo, self.move_span = lo, hi - lo + 1
        self.call_types = game.bot_call_types
        self.pick: Pick = strategy(game)[0]
        #: the game's phase when the bot last planned a call (a call plan stays good while
        #: the phase lasts).
        self.call_phase: str | None = None

    def plan(self, game, not_before: int | None = None) -> tuple[int, object, bool, int] | None:
        """(t, compact token for Game.apply_token, whether it is a call, seat) or None: what
        the bot does next and when, after its reaction time from now (or from not_before)."""
        token = self.pick(game, self.seat, self.skill, self.rng)
        if token is None:
            return None
        now = game.now
        start = now if not_before is None or not_before < now else not_before
        if token[0] in self.call_types:
            self.call_phase = game.phase
            return start + reaction_ms(self.level, self.rng, call=True), token, True, self.seat
        return (start + self.move_lo + int(self.rng.random() * self.move_span), token, False,
                self.seat)
