"""Benchmark (not a test) for spit and james-bond: actions/s and games/s on one core.

Two figures per configuration, as in benchmarks/engine_bench.py:
  * bot_vs_bot: rules_engine.simulate end to end (bots planning + engine), no per-action
    invariant check; also how many games hit the action cap (a draw);
  * engine_only: the same games' action streams replayed through Game.apply / advance,
    timing nothing but the engine;
  * random_bots: bots with skill 0 (any of the variant's bot candidates) and
    uniform_random (any legal action of a random seat): how often the action cap ends a
    game as a draw.

    .venv/bin/python benchmarks/bench_spit_james_bond.py [--games 100] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import random
import time

from engine_bench import time_replay

from rules_engine.actions import Action
from rules_engine.bots import Level
from rules_engine.registry import new_game
from rules_engine.simulate import play_game, simulate

#: a bot with no skill: every candidate (every legal move) equally likely.
RANDOM = Level("random", (250, 450), (200, 380), 0.0, (0, 0), 0.0)

CONFIGS = (
    ("spit", 2, {}),
    ("james-bond", 2, {}),
    ("james-bond", 3, {}),
    ("james-bond", 4, {}),
    ("james-bond", 4, {"several_per_grab": True}),
)


def _stream(slug: str, players: int, options: dict, seed: int, levels: tuple) -> list:
    """Play one bot game and return its engine calls: ("apply", Action) / ("advance", t).
    (The bots send compact tokens through apply_token; the driver's record names each as
    the Action it stands for, which is what the replay sends through apply.)"""
    record: list = []
    play_game(slug, seed=seed, options=options, players=players, levels=levels,
              record=record)
    return [("apply", e.action) if e.action else ("advance", e.t) for e in record]


def engine_only(slug: str, players: int, options: dict, games: int, seed: int,
                levels: tuple = ("club",)) -> dict:
    streams = [_stream(slug, players, options, seed + g, levels) for g in range(games)]
    return time_replay(
        streams, lambda g: new_game(slug, players=players, seed=seed + g, options=options)
    )


def random_draw_rate(slug: str, players: int, options: dict, games: int, seed: int,
                     max_actions: int) -> dict:
    """Random bot play: how often a game runs into the action cap (a draw)."""
    capped = actions = 0
    started = time.perf_counter()
    for g in range(games):
        _, st = play_game(slug, seed=seed + g, options=options, players=players,
                          levels=(RANDOM,), max_actions=max_actions)
        capped += st.capped
        actions += st.actions
    return {"games": games, "max_actions": max_actions, "capped_draws": capped,
            "draw_rate": round(capped / games, 3), "actions": actions,
            "seconds": round(time.perf_counter() - started, 2)}


def uniform_random_draw_rate(slug: str, players: int, options: dict, games: int, seed: int,
                             max_actions: int) -> dict:
    """Play with no sense at all: a random seat does a uniformly random legal action. James
    Bond then never collects four of a kind in every pile, so the cap (a draw) ends it."""
    capped = actions = 0
    started = time.perf_counter()
    for g in range(games):
        game = new_game(slug, players=players, seed=seed + g, options=options)
        rng = random.Random(seed + g)
        n = 0
        while not game.over and n < max_actions:
            seat = rng.randrange(players)
            legal = game.legal_actions(seat)
            n += 1
            if not legal:
                game.advance(game.now + 1000)
                continue
            a = rng.choice(legal)
            game.apply(Action(game.now + rng.randint(0, 600), seat, a.type, a.args))
        if not game.over:
            game.finish_draw("cap")
            capped += 1
        actions += n
    return {"games": games, "max_actions": max_actions, "capped_draws": capped,
            "draw_rate": round(capped / games, 3), "actions": actions,
            "seconds": round(time.perf_counter() - started, 2)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="club")
    parser.add_argument("--random-games", type=int, default=30)
    parser.add_argument("--uniform-games", type=int, default=10)
    parser.add_argument("--max-actions", type=int, default=20000)
    args = parser.parse_args()
    levels = tuple(args.bots.split(","))
    for slug, players, options in CONFIGS:
        best_sim = best_eng = None
        for _ in range(args.repeat):
            sim = simulate(slug, games=args.games, seed=args.seed, options=options,
                           players=players, levels=levels, check=False)
            if best_sim is None or sim["actions_per_second"] > best_sim["actions_per_second"]:
                best_sim = sim
            eng = engine_only(slug, players, options, args.games, args.seed, levels)
            if best_eng is None or eng["actions_per_second"] > best_eng["actions_per_second"]:
                best_eng = eng
        assert best_sim is not None
        print(json.dumps({
            "variant": slug, "players": players, "options": options, "games": args.games,
            "bots": list(levels),
            "bot_vs_bot": {k: best_sim[k] for k in (
                "actions", "seconds", "actions_per_second", "games_per_second", "wins",
                "draws", "capped")},
            "engine_only": best_eng,
            "random_bots": random_draw_rate(slug, players, options, args.random_games,
                                            args.seed, args.max_actions),
            "uniform_random": uniform_random_draw_rate(slug, players, options,
                                                       args.uniform_games, args.seed,
                                                       args.max_actions),
        }))


if __name__ == "__main__":
    main()
