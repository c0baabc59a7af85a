"""Engine benchmark (not a test): actions/s and games/s per variant on one core.

Two figures per variant:
  * bot-vs-bot: rules_engine.simulate end to end (bots planning + engine), no per-action
    invariant check;
  * engine only: the same games' recorded action streams replayed through Game.apply /
    Game.advance, timing nothing but the engine.
Best of --repeat runs (the figure), with their median beside it: a shared machine is noisy, and
other load only ever slows a run down.

    .venv/bin/python benchmarks/engine_bench.py [--games 200] [--repeat 5] [--variant V]
"""

from __future__ import annotations

import argparse
import json
import time

from rules_engine.registry import VARIANTS, new_game
from rules_engine.simulate import play_game, simulate


def time_replay(streams: list[list], new) -> dict:
    """Replay recorded engine calls through apply/advance alone: the engine's own speed."""
    total = sum(len(s) for s in streams)
    started = time.perf_counter()
    for g, stream in enumerate(streams):
        game = new(g)
        apply, advance = game.apply, game.advance
        for kind, item in stream:
            if kind == "apply":
                apply(item)
            else:
                advance(item)
    seconds = time.perf_counter() - started
    return {"engine_calls": total, "seconds": round(seconds, 4),
            "actions_per_second": round(total / seconds),
            "games_per_second": round(len(streams) / seconds, 1)}


def engine_only(slug: str, games: int, seed: int) -> dict:
    streams = []
    for g in range(games):
        record: list = []
        play_game(slug, seed=seed + g, record=record, levels=("club",))
        streams.append([("apply", e.action) if e.action else ("advance", e.t)
                        for e in record])
    return time_replay(streams, lambda g: new_game(slug, seed=seed + g))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", action="append")
    args = parser.parse_args()
    for slug in args.variant or list(VARIANTS):
        sims, engs = [], []
        for _ in range(args.repeat):
            sims.append(simulate(slug, games=args.games, seed=args.seed, check=False))
            engs.append(engine_only(slug, args.games, args.seed))
        best_sim = max(sims, key=lambda r: r["actions_per_second"])
        best_eng = max(engs, key=lambda r: r["actions_per_second"])
        print(json.dumps({
            "variant": slug,
            "games": args.games,
            "bot_vs_bot": {k: best_sim[k] for k in (
                "actions", "seconds", "actions_per_second", "games_per_second", "draws",
                "capped", "calls")}
            | {"median_actions_per_second": _median(r["actions_per_second"] for r in sims)},
            "engine_only": best_eng
            | {"median_actions_per_second": _median(r["actions_per_second"] for r in engs)},
        }))


def _median(values) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


if __name__ == "__main__":
    main()
