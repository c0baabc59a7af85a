"""`make bench`: every performance figure of the project in one run, each beside its goal.

    .venv/bin/python benchmarks/bench.py [--games 100] [--repeat 3] [--rounds 300]

1. the engine: actions per second per variant, as engine_bench.py but counted in this
   process's CPU time (engine_bench.py counts wall-clock time);
2. pages under gunicorn with production settings: server time against the same bytes
   served as a static file, interleaved in one run;
3. the first visit in Chromium: bytes on the wire and DOM elements;
4. the demo's move latency, from benchmarks/demo_load.py once the demo has one.

Lighthouse scores take minutes more: `make lighthouse` (benchmarks/lighthouse.py).
A shared machine is noisy; the ratios of section 2 are measured interleaved for that reason.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

import page_bench  # noqa: E402

from rules_engine.registry import VARIANTS, new_game  # noqa: E402
from rules_engine.simulate import play_game, simulate  # noqa: E402

# Goals from docs/engine.md and docs/engine-spit-james-bond.md: (figure, actions/s).
ENGINE_GOALS = {
    "stress-se": ("bot_vs_bot", 100_000),
    "spit": ("engine_only", 50_000),
    "james-bond": ("engine_only", 50_000),
}
DEMO_LOAD = HERE / "demo_load.py"


def heading(text: str) -> None:
    print(f"\n== {text}")


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        load = "?"
    cores = len(os.sched_getaffinity(0))
    return (
        f"{cpu}, {cores} cores, load average {load}; Python {platform.python_version()}, "
        f"{platform.system()} {platform.release()}"
    )


def _cpu_rate(run) -> float:
    """Actions per second of this process's CPU time: other processes on a shared machine
    take turns on the cores, which wall-clock time would count against the engine."""
    started = time.process_time()
    actions = run()
    return actions / (time.process_time() - started)


def _bot_vs_bot(slug: str, games: int) -> float:
    return _cpu_rate(lambda: simulate(slug, games=games, seed=1, check=False)["actions"])


def _engine_only(slug: str, games: int) -> float:
    streams = []
    for g in range(games):
        record: list = []
        play_game(slug, seed=1 + g, record=record, levels=("club",))
        streams.append(record)

    def replay() -> int:
        for g, stream in enumerate(streams):
            game = new_game(slug, seed=1 + g)
            for kind, item in stream:
                (game.apply if kind == "apply" else game.advance)(item)
        return sum(len(s) for s in streams)

    return _cpu_rate(replay)


def engine(games: int, repeat: int) -> None:
    heading(
        f"Engine: actions per CPU-second on one core, best of {repeat} runs of {games} "
        "club-bot games"
    )
    for slug in VARIANTS:
        figures = {
            "bot_vs_bot": max(_bot_vs_bot(slug, games) for _ in range(repeat)),
            "engine_only": max(_engine_only(slug, games) for _ in range(repeat)),
        }
        for figure, value in figures.items():
            goal = ENGINE_GOALS.get(slug)
            verdict = "(no goal)"
            if goal and goal[0] == figure:
                verdict = f"goal >= {goal[1]:,}  {'ok' if value >= goal[1] else 'MISSED'}"
            label = figure.replace("_", " ")
            print(f"{slug:12} {label:12} {value:10,.0f} actions/s   {verdict}")


def demo() -> None:
    heading("Demo: move latency under load (benchmarks/demo_load.py)")
    if not DEMO_LOAD.exists():
        print("not built yet")
        return
    subprocess.run([sys.executable, str(DEMO_LOAD)], check=False)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=300)
    args = parser.parse_args()
    print("Machine:", machine())
    engine(args.games, args.repeat)
    heading(
        "Pages: server time against the same bytes as a static file "
        "(gunicorn, production settings, interleaved)"
    )
    page_bench.print_times(page_bench.time_pages(args.rounds))
    heading("First visit in Chromium: bytes on the wire (bodies and headers), DOM elements")
    page_bench.print_visits(page_bench.visit_pages())
    demo()


if __name__ == "__main__":
    main()
