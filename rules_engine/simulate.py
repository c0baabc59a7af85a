"""Bot-vs-bot games: `python -m rules_engine simulate` and the benchmarks.

The scheduling is rules_engine.driver's (the same one the site plays on); this module adds
the action cap and the summary figures.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from rules_engine.bots import get_level
from rules_engine.driver import Driver, Entry, seat_kinds
from rules_engine.game import InvariantError
from rules_engine.registry import get_variant, new_game


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
              record: list[Entry] | None = None) -> tuple[object, GameStats]:
    """Play one bot game to its end (or the action cap, which ends it as a draw).

    With `record`, every engine call is appended as a driver Entry, so the benchmark can
    time the engine alone on real bot streams and the tests can replay them."""
    if game is None:
        game = new_game(slug, players=players, seed=seed, options=options)
    driver = Driver(game, seat_kinds(levels, game.players), seed=seed, record=record,
                    check=check)
    driver.run(max_actions=max_actions)
    stats = GameStats()
    if not game.over:
        if driver.actions >= max_actions:
            game.finish_draw("cap")
            stats.capped = True
        else:
            game.finish_draw("no-moves")  # a variant left every bot without a move
    stats.actions, stats.rejected, stats.calls = driver.actions, driver.rejected, driver.calls
    stats.accepted = driver.actions - driver.rejected
    stats.reasons = dict(driver.reasons)
    stats.invariant_violations = driver.invariant_violations
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
    if not levels:
        raise ValueError("give at least one bot level")
    if games < 0:
        raise ValueError(f"games must be 0 or more, got {games}")
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
