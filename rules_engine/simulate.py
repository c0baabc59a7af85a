"""Bot-vs-bot games: the driver behind `python -m rules_engine simulate` and the benchmark.

Each bot plans its next action with its reaction time; the earliest plan is applied. After an
accepted action the other bots re-plan, except a plan already under way (due within
COMMIT_MS: the hand is moving and may arrive too slow) or a call while the same phase lasts.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from rules_engine.bots import Bot, get_level
from rules_engine.game import InvariantError
from rules_engine.registry import get_variant, new_game

COMMIT_MS = 150


@dataclass
class GameStats:
    actions: int = 0
    accepted: int = 0
    rejected: int = 0
    calls: int = 0
    winner: int | None = None
    draw: bool = False
    capped: bool = False
    invariant_violations: int = 0
    reasons: dict = field(default_factory=dict)


def play_game(slug: str, *, seed: int = 0, options: dict | None = None,
              players: int | None = None, levels=("club",), max_actions: int = 20000,
              check: bool = False, game=None,
              record: list | None = None) -> tuple[object, GameStats]:
    """Play one bot game to its end (or the action cap, which ends it as a draw).

    With `record`, every engine call is appended as ("apply", action) or ("advance", t), so the
    benchmark can time the engine alone on real bot streams."""
    if game is None:
        game = new_game(slug, players=players, seed=seed, options=options)
    n = game.players
    call_types = game.bot_call_types
    bots = [Bot(s, levels[s % len(levels)], random.Random(seed * 7919 + s), call_types)
            for s in range(n)]
    # Each seat's plan: (t, compact token, is a call, seat) from Bot.plan, or None to plan
    # anew.
    plans: list = [None] * n
    stats = GameStats()
    seats = range(n)
    apply_token, advance, next_deadline = game.apply_token, game.advance, game.next_deadline
    actions = rejected = calls = 0
    while not game.over:
        if actions >= max_actions:
            game.finish_draw("cap")
            stats.capped = True
            break
        best = None
        for s in seats:
            p = plans[s]
            if p is None:
                p = plans[s] = bots[s].plan(game)
                if p is None:
                    continue
            if best is None or p[0] < best[0]:
                best = p
        deadline = next_deadline()
        if deadline is not None and (best is None or deadline < best[0]):
            advance(deadline)
            if record is not None:
                record.append(("advance", deadline))
            plans = [None] * n
            continue
        if best is None:
            game.finish_draw("no-moves")  # a variant left everyone without a move
            break
        t, token, is_call, seat = best
        reason = apply_token(seat, t, token)
        if record is not None:
            record.append(("apply", game.token_action(seat, t, token)))
        actions += 1
        if check:
            try:
                game.check_invariants()
            except InvariantError:
                stats.invariant_violations += 1
        if reason is None:
            plans[seat] = None
            calls += is_call
            committed = game.now + COMMIT_MS
            phase = None
            for s in seats:
                p = plans[s]
                if p is None or p[0] <= committed:
                    continue
                if p[2]:
                    if phase is None:
                        phase = game.phase
                    if bots[s].call_phase == phase:
                        continue
                plans[s] = None
        else:
            rejected += 1
            stats.reasons[reason] = stats.reasons.get(reason, 0) + 1
            plans[seat] = bots[seat].plan(game, t)
    accepted = actions - rejected
    stats.actions, stats.accepted, stats.calls = actions, accepted, calls
    stats.rejected = actions - accepted
    if not check:
        try:
            game.check_invariants()
        except InvariantError:
            stats.invariant_violations += 1
    stats.winner, stats.draw = game.winner, game.draw
    return game, stats


def simulate(slug: str, *, games: int = 100, seed: int = 0, options: dict | None = None,
             players: int | None = None, levels: str | tuple | list = "club",
             max_actions: int = 20000, check: bool = True) -> dict:
    """Run `games` bot games with seeds seed, seed+1, ...; one summary dict."""
    info = get_variant(slug)
    if isinstance(levels, str):
        levels = tuple(x.strip() for x in levels.split(",") if x.strip())
    for level in levels:
        get_level(level)
    if not levels:
        raise ValueError("bots: name at least one level (learner, club, expert)")
    for name, value, low in (("games", games, 0), ("max_actions", max_actions, 1)):
        if type(value) is not int or value < low:
            raise ValueError(f"{name} must be a whole number, at least {low}; got {value!r}")
    n = players if players is not None else info.players_min
    wins = [0] * n
    totals = GameStats()
    capped = 0
    started = time.perf_counter()
    for g in range(games):
        _, st = play_game(slug, seed=seed + g, options=options, players=players,
                          levels=levels, max_actions=max_actions, check=check)
        totals.actions += st.actions
        totals.accepted += st.accepted
        totals.rejected += st.rejected
        totals.calls += st.calls
        totals.invariant_violations += st.invariant_violations
        for reason, count in st.reasons.items():
            totals.reasons[reason] = totals.reasons.get(reason, 0) + count
        capped += st.capped
        if st.winner is not None:
            wins[st.winner] += 1
    seconds = time.perf_counter() - started
    draws = games - sum(wins)
    return {
        "variant": slug,
        "games": games,
        "seed": seed,
        "players": n,
        "bots": list(levels),
        "options": options or {},
        "actions": totals.actions,
        "accepted": totals.accepted,
        "rejected": totals.rejected,
        "rejections": dict(sorted(totals.reasons.items())),
        "seconds": round(seconds, 4),
        "games_per_second": round(games / seconds, 2) if seconds else None,
        "actions_per_second": round(totals.actions / seconds, 1) if seconds else None,
        "wins": wins,
        "draws": draws,
        "capped": capped,
        "calls": totals.calls,
        "invariant_violations": totals.invariant_violations,
        "checked_every_action": check,
    }
