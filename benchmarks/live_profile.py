"""Where a live change's server CPU goes (issue #21): live_load's clients drive one uvicorn
process serving config.asgi in-process under cProfile (process CPU time, every thread), and
the profile is written at exit. A tool for finding costs, not a figure: cProfile slows the
server, so read its shares, not its milliseconds.

    .venv/bin/python benchmarks/live_profile.py [--bot-games 20] [--people-games 30]
        [--seconds 30] [--out /tmp/live.pstats] [--top 40]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import pstats
import signal
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "site"), str(ROOT), str(ROOT / "benchmarks")]


#: the server's own functions whose thread CPU --timers adds up (module, name); each runs in
#: a worker thread of its own call, so time.thread_time() is its CPU and nothing else's.
TIMED = [
    ("live.consumers", "_play"),
    ("live.consumers", "_seats"),
    ("live.publish", "render_frame"),
    ("live.consumers", "render_frame"),
    ("live.rooms", "_wake_in_ms"),
    ("live.rooms", "_catch_up"),
    ("play.service", "play"),
    ("play.presence", "socket_seen"),
    ("play.presence", "socket_opened"),
    ("live.publish", "delays_frame"),
    ("tables.lobby", "render_lobby"),
    # a page's whole middleware chain and view, in the page's own thread
    ("core.requestlog", "RequestIdMiddleware.__call__"),
]


def timers(out: str) -> None:
    """Wrap TIMED with thread-CPU counters; write them and the threads' CPU at exit."""
    import atexit
    import functools
    import importlib
    import json
    import threading

    counts: dict[str, list[float]] = {}
    lock = threading.Lock()

    def wrap(name, real):
        @functools.wraps(real)
        def timed(*args, **kwargs):
            start = time.thread_time()
            try:
                return real(*args, **kwargs)
            finally:
                spent = time.thread_time() - start
                label = name
                if name.endswith("render_frame"):
                    label += (
                        " (told)"
                        if kwargs.get("message")
                        else (" (notice)" if kwargs.get("version") is not None else " (asked)")
                    )
                with lock:
                    entry = counts.setdefault(label, [0, 0.0])
                    entry[0] += 1
                    entry[1] += spent

        return timed

    for module_name, name in TIMED:
        owner = importlib.import_module(module_name)
        *path, attribute = name.split(".")
        for part in path:
            owner = getattr(owner, part)
        setattr(owner, attribute, wrap(f"{module_name}.{name}", getattr(owner, attribute)))

    import collections

    from live import consumers

    told = collections.Counter()
    real_outcome = consumers.outcome

    def outcome(turn, action=None):
        reason = turn.refusal or (
            turn.result.reason if turn.result is not None and not turn.result.accepted else ""
        )
        stored = "stored" if turn.result is not None and turn.refusal is None else "not stored"
        told[f"{reason or 'accepted'} ({stored})"] += 1
        return real_outcome(turn, action)

    consumers.outcome = outcome
    passes = collector_passes()

    def write() -> None:
        ticks = os.sysconf("SC_CLK_TCK")

        def cpu(stat: str) -> float:
            fields = Path(stat).read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / ticks

        # The process's CPU counts its ended threads too.
        main = cpu(f"/proc/self/task/{os.getpid()}/stat")
        threads = {"main (event loop)": main, "worker threads": cpu("/proc/self/stat") - main}
        Path(out).write_text(
            json.dumps(
                {
                    "timed": counts,
                    "threads": threads,
                    "outcomes": dict(told),
                    "gc": passes,
                    "lag": LAGS,
                    "late": LATE,
                }
            )
        )

    atexit.register(write)


def collector_passes() -> dict[str, list[float]]:
    """The cyclic collector's passes by generation: [count, CPU s, wall s, longest wall s]
    (a pass stops every thread: its wall time is a stall of the whole process)."""
    import gc

    passes: dict[str, list[float]] = {}
    started: list[float] = [0.0, 0.0]

    def callback(phase: str, info: dict) -> None:
        if phase == "start":
            started[:] = [time.thread_time(), time.perf_counter()]
            return
        cpu, wall = time.thread_time() - started[0], time.perf_counter() - started[1]
        entry = passes.setdefault(f"generation {info['generation']}", [0, 0.0, 0.0, 0.0])
        entry[0] += 1
        entry[1] += cpu
        entry[2] += wall
        entry[3] = max(entry[3], wall)

    gc.callbacks.append(callback)
    return passes


#: how late the event loop ran a 10 ms sleep, in ms: its stalls, whatever held it
LAGS: list[float] = []
LAG_TICK_S = 0.01
#: [seconds since the loop started, ms late] of each time it was 50 ms late or more
LATE: list[list[float]] = []


async def measure_lag() -> None:
    loop = asyncio.get_running_loop()
    started = loop.time()
    while True:
        before = loop.time()
        await asyncio.sleep(LAG_TICK_S)
        lag = round((loop.time() - before - LAG_TICK_S) * 1000, 1)
        LAGS.append(lag)
        if lag >= 50:
            LATE.append([round(before - started, 1), lag])


def serve(port: int, out: str, profiled: bool = True) -> None:
    """The server side: uvicorn in this process, profiled until SIGTERM."""
    import cProfile

    import uvicorn

    if not profiled:
        import django

        django.setup()
        timers(out)
    profile = cProfile.Profile(time.process_time)
    config = uvicorn.Config(
        "config.asgi:application",
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="off",
    )
    server = uvicorn.Server(config)
    # uvicorn raises the SIGTERM it caught again once it has stopped, under the handler
    # that was set before it: a harmless one, so that the profile is written.
    signal.signal(signal.SIGTERM, lambda *_: None)
    if profiled:
        profile.enable()

    async def run() -> None:
        lag = None if profiled else asyncio.create_task(measure_lag())
        await server.serve()
        if lag is not None:
            lag.cancel()

    try:
        asyncio.run(run(), loop_factory=config.get_loop_factory())
    finally:
        if profiled:
            profile.disable()
            profile.dump_stats(out)


def serve_command(port: int, out: str, timers: bool) -> list[str]:
    """This script serving on `port`, writing what it measured to `out` at exit."""
    import live_load

    return [
        str(live_load.PYTHON),
        __file__,
        "--serve",
        str(port),
        "--out",
        out,
        *(["--timers"] if timers else []),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot-games", type=int, default=20)
    parser.add_argument("--people-games", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--out", default="/tmp/live.pstats")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument(
        "--timers",
        action="store_true",
        help="no cProfile: the thread CPU of the server's main functions",
    )
    parser.add_argument(
        "--servers", type=int, default=1, help="server processes (with --redis-url)"
    )
    parser.add_argument("--redis-url", default="", help="the channel layer (unix://…)")
    parser.add_argument("--serve", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.out, profiled=not args.timers)
        return

    if args.servers > 1 and not args.redis_url:
        parser.error("several servers share their notices through --redis-url")
    import live_load

    outs = [args.out] if args.servers == 1 else [f"{args.out}.{i}" for i in range(args.servers)]
    with live_load.games_in_this_process(args.bot_games, args.people_games) as (db, environ, games):
        environ["REDIS_URL"] = args.redis_url
        servers = [
            live_load.launch(lambda port, out=out: serve_command(port, out, args.timers), environ)
            for out in outs
        ]
        ports = [port for _, port in servers]
        try:
            asyncio.run(live_load.warm_up(ports, games[0]["id"]))
            changes0 = live_load.versions(db)
            latencies, errors, _unchanged = asyncio.run(live_load.load(games, ports, args.seconds))
            changes = live_load.versions(db) - changes0
        finally:
            for server, _ in servers:
                server.send_signal(signal.SIGTERM)
            for server, _ in servers:
                server.wait(timeout=60)
    print(f"{changes} stored changes, {len(latencies)} moves measured, {errors} errors")
    if args.timers:
        merge(outs, args.out)
        outs = [args.out]
    report(outs, changes, args.timers, args.top)


def merge(outs: list[str], into: str) -> None:
    """Several servers' timers added up into one file (one server: nothing to do)."""
    import json

    if outs == [into]:
        return
    merged: dict = {"timed": {}, "threads": {}, "outcomes": {}, "gc": {}, "lag": [], "late": []}
    for out in outs:
        found = json.loads(Path(out).read_text())
        for part in ("timed", "threads", "outcomes", "gc"):
            for name, value in found[part].items():
                known = merged[part].get(name)
                if known is None:
                    merged[part][name] = value
                elif isinstance(value, list):  # counts and sums; a longest pass is a max
                    merged[part][name] = [
                        max(a, b) if part == "gc" and i == 3 else a + b
                        for i, (a, b) in enumerate(zip(known, value, strict=True))
                    ]
                else:
                    merged[part][name] = known + value
        merged["lag"] += found["lag"]
        merged["late"] += found["late"]
    Path(into).write_text(json.dumps(merged))


def report(outs: list[str], changes: int, timers: bool, top: int = 40) -> None:
    """What the servers wrote at exit, per stored change (timers: one merged file)."""
    out = outs[0]
    if timers:
        import json

        found = json.loads(Path(out).read_text())
        total = sum(found["threads"].values())
        print(
            f"server CPU {total:.2f} s (warm-up included), {1000 * total / changes:.2f} ms"
            " per change; by thread:"
        )
        for name, seconds in sorted(found["threads"].items(), key=lambda kv: -kv[1]):
            print(f"  {name:<40} {1000 * seconds / changes:7.2f} ms per change")
        print("thread CPU of the server's functions:")
        for name, (calls, seconds) in sorted(found["timed"].items(), key=lambda kv: -kv[1][1]):
            print(
                f"  {name:<40} {calls:6d} calls {1000 * seconds / calls:6.2f} ms each"
                f" {1000 * seconds / changes:7.2f} ms per change"
            )
        print("moves over the sockets, by outcome:")
        for name, count in sorted(found["outcomes"].items(), key=lambda kv: -kv[1]):
            print(f"  {name:<40} {count:6d}")
        print("the collector's passes (every thread stopped meanwhile):")
        for name, (count, cpu, wall, longest) in sorted(found["gc"].items()):
            print(
                f"  {name:<14} {count:6d} passes  CPU {1000 * cpu:8.1f} ms  wall"
                f" {1000 * wall:8.1f} ms  longest {1000 * longest:6.1f} ms"
            )
        lags = sorted(found["lag"])
        if lags:

            def at(share: float) -> float:
                return lags[min(len(lags) - 1, int(share * len(lags)))]

            late = [lag for lag in lags if lag >= 50]
            print(
                f"the event loop, late to a {LAG_TICK_S * 1000:.0f} ms sleep: p50"
                f" {at(0.5):.1f} / p99 {at(0.99):.1f} / max {lags[-1]:.1f} ms;"
                f" {len(late)} times 50 ms or more, {sum(late) / 1000:.2f} s in all"
            )
            buckets: dict[int, list[float]] = {}
            for at_s, lag in found["late"]:
                buckets.setdefault(int(at_s // 5) * 5, []).append(lag)
            for start in sorted(buckets):
                print(
                    f"  {start:4d}-{start + 5:<4d} s after the server started:"
                    f" {len(buckets[start]):3d} times, {sum(buckets[start]):7.0f} ms"
                )
        return
    stats = pstats.Stats(*outs)
    print(
        f"profiled CPU {stats.total_tt:.2f} s, {1000 * stats.total_tt / max(changes, 1):.2f}"
        " ms per change (warm-up and profiling overhead included)"
    )
    stats.sort_stats("tottime").print_stats(top)


if __name__ == "__main__":
    main()
