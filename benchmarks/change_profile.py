"""What one live change costs, part by part (issue #21), in one thread with no server: the
same calls a server process makes for a change of the 50-game run (a person's move through
the socket's path, a bot's move through the waker's, then one render per view holding the
game), timed in CPU time (time.thread_time) per part and profiled with cProfile.

    .venv/bin/python benchmarks/change_profile.py [--changes 400] [--profile 30]
"""

from __future__ import annotations

import argparse
import cProfile
import html
import json
import pstats
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "site"), str(ROOT), str(ROOT / "benchmarks")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=400)
    parser.add_argument("--profile", type=int, default=0, help="print the top N functions")
    args = parser.parse_args()
    import live_load

    with live_load.games_in_this_process(4, 6) as (_db, _environ, games):
        run(games, args.changes, args.profile)


def run(games: list[dict], changes: int, top: int) -> None:
    import asyncio

    from django.utils import timezone
    from live import consumers, publish, rooms
    from live.publish import View, render_frame

    # As in a process holding sockets: the changes it stores are kept for their renders.
    publish.SOCKETS_LOOP = asyncio.new_event_loop()

    parts: dict[str, list[float]] = defaultdict(list)

    def timed(name, call, *a, **kw):
        start = time.thread_time()  # CPU, not wall time: the machine may be shared
        value = call(*a, **kw)
        parts[name].append((time.thread_time() - start) * 1000)
        return value

    rng = random.Random(1)
    seen = {g["id"]: {} for g in games}  # game -> seat -> (version, offers)
    for game in games:  # every page opens: the first frame
        for seat in range(game["people"]):
            seen[game["id"]][seat] = offers(render_frame(game["id"], View(seat, "en"), since=0))
    profile = cProfile.Profile() if top else None
    made = 0
    while made < changes:
        game = rng.choice(games)
        gid = game["id"]
        seat = rng.randrange(game["people"])
        version, (picks, drops, sends) = seen[gid][seat]
        if picks and drops and (not sends or rng.random() < 0.8):
            action = {**rng.choice(picks), **rng.choice(drops)}
        elif sends:
            action = rng.choice(sends)
        else:
            continue
        from play.models import Game

        before = Game.objects.get(pk=gid).version
        if profile:
            profile.enable()
        message, mover, quiet = "", None, False
        if game["people"] == 1 and rng.random() < 0.5:  # the waker: the bot's move, if due
            timed("move: waker's service.play", rooms.service.play, gid, timezone.now())
        else:
            answer = timed(
                "move: socket's _play",
                consumers._play,
                gid,
                "en",
                seat,
                {"action": action, "version": version},
            )
            message, stored, quiet = answer.message, answer.version, answer.quiet
            if quiet:  # the reason alone, and every page keeps its board (no render)
                timed("frame: the reason alone", answer.frame)
                for s, (_version, shown) in seen[gid].items():
                    seen[gid][s] = (answer.now, shown)
            elif message:  # the reason, to the mover's socket alone (live.consumers._tell)
                mover = seat
                seen[gid][seat] = offers(
                    timed(
                        "render: told to the mover",
                        render_frame,
                        gid,
                        View(seat, "en"),
                        since=None,
                        message=message,
                        version=stored,
                    )
                )
        after = Game.objects.get(pk=gid)
        if after.version != before and quiet:
            made += 1
        elif after.version != before:
            since = after.log_length - 1
            for s in range(game["people"]):  # one render per view holding the game
                if s != mover:  # (the mover's page has that board, told)
                    seen[gid][s] = offers(
                        timed(
                            "render: one view",
                            render_frame,
                            gid,
                            View(s, "en"),
                            since=since,
                            version=after.version,
                        )
                    )
            made += 1
        if profile:
            profile.disable()
    print(f"{made} changes in {len(games)} games (4 against a bot, 6 of two people)")
    total = 0.0
    for name, values in parts.items():
        per_change = sum(values) / made
        total += per_change
        print(
            f"  {name:<32} {len(values):>5} calls  mean {statistics.mean(values):6.2f} ms"
            f"  p50 {statistics.median(values):6.2f}  per change {per_change:6.2f} ms"
        )
    print(f"  {'total per change':<32} {total:6.2f} ms")
    if top:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(top)


def offers(rendered) -> tuple[int, tuple[list, list, list]]:
    version, frame = rendered
    picks, drops, sends = [], [], []
    import live_load

    for name, value in live_load.ATTR.findall(frame):
        data = json.loads(html.unescape(value))
        {"data-pick": picks, "data-drop": drops, "data-send": sends}[name].append(data)
    return version, (picks, drops, sends)


if __name__ == "__main__":
    main()
