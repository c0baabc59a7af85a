"""Class tables' CPU by part (#23), in one thread: the class of class_tables_load (30 pupils,
15 tables, presence on and every phone seen) on a fresh SQLite database, then legal moves at
random tables, each followed by what a server does for it: the two phones' frames
(live.publish.render_frame), the projector's frame and a second-language look-up. Process
CPU per stored change, by part (a tool for finding costs; it asserts nothing).

    .venv/bin/python benchmarks/class_tables_parts.py [--moves 200] [--whole] [--profile]

--whole times the projector's whole overview (as every notice sent it before #23's cut)
instead of the changed table's board; --profile prints the projector's part under cProfile.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE)]

import class_tables_load  # noqa: E402
import live_load  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200, help="stored changes to measure")
    parser.add_argument("--whole", action="store_true")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "parts.sqlite3"
        environ = live_load.env(db, "")
        os.environ.update({k: environ[k] for k in ("DJANGO_SETTINGS_MODULE",
                                                    "DJANGO_SECRET_KEY", "SQLITE_PATH")})
        import django

        django.setup()
        subprocess.run([str(live_load.PYTHON), "manage.py", "migrate", "--verbosity", "0"],
                       env=environ, cwd=live_load.ROOT, check=True)
        setup = class_tables_load.set_up(environ, 30)
        measure(setup, args)


def measure(setup: dict, args: argparse.Namespace) -> None:
    from django.utils import timezone
    from live import tables
    from live.publish import View, render_frame
    from play import presence, service
    from play.models import Game
    from play.page import second_language_of

    lesson, seats = setup["lesson"], setup["seats"]
    sockets = [presence.socket_opened(g, (s,), timezone.now()) for g, s in seats]
    for game_id in {g for g, _s in seats}:
        service.play(game_id, timezone.now())  # every phone seen: the tables play
    _frame, seating, urls = tables.whole(lesson, "en")
    over: frozenset[str] = frozenset()
    parts = dict.fromkeys(("the move", "two phones' frames", "the projector", "second language"),
                          0.0)
    profile = cProfile.Profile(time.process_time) if args.profile else None
    rng = random.Random(1)
    stored = size = 0
    time.sleep(4)  # the tables' start signal: a move before "go" is refused
    for _ in range(10 * args.moves):
        if stored == args.moves:
            break
        game_id, seat = rng.choice(seats)
        for socket in sockets:
            presence.socket_seen(socket, timezone.now())
        row = Game.objects.get(pk=game_id)
        legal = [] if row.over else service.driver_of(row).game.legal_actions(seat)
        if not legal:
            continue
        action = rng.choice(legal).to_json()
        action.pop("t", None)
        action.pop("player", None)
        t0 = time.process_time()
        change = service.play(game_id, timezone.now(), seat=seat, action=action,
                              version=row.version)
        if not change.changed:
            continue
        stored += 1
        t1 = time.process_time()
        for view in (0, 1):
            render_frame(game_id, View(view, "en"), since=row.log_length)
        t2 = time.process_time()
        if profile:
            profile.enable()
        if args.whole:
            frame = tables.overview_frame(lesson, "en") or ""
        else:
            found = tables.changes_frame(seating, urls, "en", frozenset({game_id}), over)
            over = found.over if found else over
            frame = "".join(found.boards.values()) + found.rest if found else ""
        if profile:
            profile.disable()
        t3 = time.process_time()
        second_language_of(change.row)
        t4 = time.process_time()
        size += len(frame)
        for name, spent in zip(parts, (t1 - t0, t2 - t1, t3 - t2, t4 - t3), strict=True):
            parts[name] += spent
    what = "the whole overview" if args.whole else "the changed table's board"
    print(f"class_tables_parts: {stored} stored changes; the projector sent {what},"
          f" {size / max(stored, 1) / 1000:.1f} KB a frame; load average"
          f" {os.getloadavg()[0]:.1f}")
    for name, spent in parts.items():
        print(f"  {name:<22}{1000 * spent / max(stored, 1):8.2f} ms per change")
    if profile:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(30)


if __name__ == "__main__":
    main()
