"""What one move request costs the engine (a benchmark, not a test).

The demo's server keeps no game in memory: each move request reads the driver's snapshot,
applies the human's action (catching the bots up first) and writes the snapshot back. This
times exactly that, `json.loads` + `Driver.from_json` + `submit` + `to_json` + `json.dumps`,
at the start, the middle and near the end of a long bot game of each variant (the longest of
--seeds games; seat 0 becomes the human), and prints the median milliseconds of --repeat
runs and the snapshot's size.

    .venv/bin/python benchmarks/driver_bench.py [--seeds 20] [--repeat 200]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from rules_engine.driver import HUMAN, Driver

TABLES = (
    ("stress-se", 2, {}),
    ("stress-de", 2, {}),
    ("stressi-fi", 2, {}),
    ("spit", 2, {}),
    ("james-bond", 2, {"best_of_five": True}),
    ("james-bond", 4, {}),
    ("james-bond", 8, {"second_deck": True}),
)
SEATS = ("club", "expert", "learner")


def _driver(slug: str, players: int, options: dict, seed: int) -> Driver:
    return Driver.new(slug, [SEATS[s % 3] for s in range(players)], options=options, seed=seed)


def longest_game(slug: str, players: int, options: dict, seeds: int) -> tuple[int, int]:
    best = (0, 1)
    for seed in range(1, seeds + 1):
        driver = _driver(slug, players, options, seed)
        driver.run(max_actions=20000)
        best = max(best, (driver.actions, seed))
    return best


def snapshots(slug: str, players: int, options: dict, seed: int, length: int) -> dict:
    """Snapshots (as the server stores them: JSON text, seat 0 a human) at three points."""
    driver = _driver(slug, players, options, seed)
    out = {}
    for name, at in (("start", 0), ("middle", length // 2), ("end", max(0, length - 5))):
        driver.run(max_actions=at)
        data = driver.to_json()
        data["seats"][0] = HUMAN
        data["bots"][0] = None
        data["plans"][0] = None
        out[name] = json.dumps(data)
    return out


def request(text: str) -> tuple[float, float, float]:
    """One move request; returns the ms of load (JSON + from_json), submit, and save."""
    t0 = time.perf_counter()
    driver = Driver.from_json(json.loads(text))
    t1 = time.perf_counter()
    game = driver.game
    legal = game.legal_actions(0)
    action = legal[0].to_json() if legal else {"type": "pick", "pile": "pile-1"}
    driver.submit(0, game.now + 100, action)
    t2 = time.perf_counter()
    json.dumps(driver.to_json())
    t3 = time.perf_counter()
    return (t1 - t0) * 1000, (t2 - t1) * 1000, (t3 - t2) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    for slug, players, options in TABLES:
        length, seed = longest_game(slug, players, options, args.seeds)
        row: dict = {"variant": slug, "players": players, "options": options, "seed": seed,
                     "game_actions": length}
        for name, text in snapshots(slug, players, options, seed, length).items():
            runs = [request(text) for _ in range(args.repeat)]
            row[name] = {
                "median_ms": round(statistics.median(sum(r) for r in runs), 3),
                "load_ms": round(statistics.median(r[0] for r in runs), 3),
                "submit_ms": round(statistics.median(r[1] for r in runs), 3),
                "save_ms": round(statistics.median(r[2] for r in runs), 3),
                "snapshot_bytes": len(text),
            }
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
