"""A lesson under load (issue #21's lesson figure; a benchmark, not a test: it asserts
nothing and prints figures beside their goals, docs/live.md).

One lesson of bots (teacher mode's "the class watches", Stress with club bots, a deal that
lasts past the run) at 1x pace, followed for --seconds by the projector's socket and
--pupils pupils' sockets (each a pupil of the class, its own signed session), all on one
gunicorn + uvicorn worker with production settings, SQLite and the in-memory layer. The
projector resumes the game over its socket; from then on nobody sends anything: the
server's waker moves the bots on time and every change is pushed.

Figures:
  * server CPU: utime+stime of the server's processes over the run (/proc), in cores;
  * event to every pupil's screen: for each stored log entry, from the wall time it was due
    (its game time on the lesson's clock) to the moment each pupil's socket received a
    frame showing it (data-seq), over all entries and pupils; the server's waker, the store,
    one render for all pupils and the sends are all inside it.

    .venv/bin/python benchmarks/lesson_load.py [--pupils 30] [--seconds 60]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE)]

from live_load import (  # noqa: E402
    PYTHON,
    ROOT,
    cookie,
    cpu_seconds,
    django_over_fresh_database,
    percentile,
    serve,
)

GOALS = {"server CPU (cores)": 0.05, "event to every pupil p99 (ms)": 100}
SEQ = re.compile(r'class="game__state[^"]*" data-version="(\d+)" data-seq="(\d+)"')


def create_lesson(environ: dict, pupils: int, seconds: float) -> dict:
    script = (
        "import json; from django.utils import timezone; from play import service\n"
        "from rules_engine.driver import Driver\n"
        "from teach import questions; from teach.models import Lesson\n"
        "seats = ['club', 'club']\n"
        f"seed = next(s for s in range(100) if not (d := Driver.new('stress-de', seats, seed=s))"
        f".run_until({int(seconds * 1000) + 5000}) or not d.game.over)\n"
        "row = service.start_game('stress-de', seats, seed=seed, wall=timezone.now(),"
        " paused=True)\n"
        "lesson = Lesson.objects.create(game=row, mode=Lesson.WATCH)\n"
        f"ids = [questions.join(lesson, f'Pupil {{n}}').pk for n in range({pupils})]\n"
        "print('LESSON' + json.dumps({'id': row.pk, 'version': row.version, 'pupils': ids}))"
    )
    out = subprocess.run(
        [str(PYTHON), "manage.py", "shell", "-c", script],
        env=environ,
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out.split("LESSON", 1)[1])


class Screen:
    """One page's socket: when it first showed each log length."""

    def __init__(self, url: str, headers: dict) -> None:
        self.url, self.headers = url, headers
        self.seen: dict[int, float] = {}  # log length -> wall time (s) first shown
        self.version = -1
        self.frames = 0
        self.error = ""

    async def follow(
        self, until: float, ready: asyncio.Event, start: asyncio.Event, resume: bool = False
    ) -> None:
        from websockets.asyncio.client import connect

        try:
            async with connect(
                self.url, additional_headers=self.headers, max_size=2**22, open_timeout=60
            ) as ws:
                await ws.send(json.dumps({"since": 0}))
                self.note(await ws.recv())
                ready.set()
                await start.wait()
                if resume:
                    await ws.send(json.dumps({"command": "resume", "version": self.version}))
                while (left := until - time.monotonic()) > 0:
                    try:
                        self.note(await asyncio.wait_for(ws.recv(), left))
                    except TimeoutError:
                        break
        except Exception as error:  # reported with the figures
            self.error = repr(error)
            ready.set()

    def note(self, frame: str) -> None:
        at = time.time()
        self.frames += 1
        match = SEQ.search(frame)
        if match:
            self.version = max(self.version, int(match.group(1)))
            self.seen.setdefault(int(match.group(2)), at)


def due_times(db: Path, game_id: str) -> list[tuple[int, float]]:
    """(log length after the entry, the wall time it was due) for each log entry."""
    import sqlite3

    with sqlite3.connect(db) as conn:
        clock_ms, clock_at, speed = conn.execute(
            "SELECT clock_ms, clock_at, speed FROM play_game WHERE id = ?", (game_id,)
        ).fetchone()
        entries = conn.execute(
            "SELECT seq, t FROM play_logentry WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
    base = datetime.fromisoformat(clock_at).timestamp()
    return [(seq + 1, base + (t - clock_ms) / 1000 / speed) for seq, t in entries if t >= clock_ms]


MEASURED: dict[str, float] = {}


async def run(port: int, pid: int, lesson: dict, seconds: float) -> tuple[Screen, list[Screen]]:
    origin = {"Origin": f"http://127.0.0.1:{port}"}
    base = f"ws://127.0.0.1:{port}/ws/en/class/{lesson['id']}/"
    projector = Screen(base + "teacher/", {**origin, "Cookie": cookie({"teach": [lesson["id"]]})})
    pupils = [
        Screen(base, {**origin, "Cookie": cookie({"pupil": {lesson["id"]: pk}})})
        for pk in lesson["pupils"]
    ]
    screens = [projector, *pupils]
    readies = [asyncio.Event() for _ in screens]
    start = asyncio.Event()
    until = time.monotonic() + seconds + 30  # replaced once all are open

    async def go() -> None:
        nonlocal until
        await asyncio.gather(*(r.wait() for r in readies))
        until = time.monotonic() + seconds
        MEASURED["cpu0"], MEASURED["t0"] = cpu_seconds([pid]), time.monotonic()
        start.set()

    starter = asyncio.create_task(go())
    follows = [
        s.follow(float("inf"), r, start, resume=s is projector)
        for s, r in zip(screens, readies, strict=True)
    ]
    tasks = [asyncio.create_task(f) for f in follows]
    await starter
    await asyncio.sleep(seconds)
    for task in tasks:
        task.cancel()
    MEASURED["cpu1"], MEASURED["t1"] = cpu_seconds([pid]), time.monotonic()
    await asyncio.gather(*tasks, return_exceptions=True)
    return projector, pupils


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pupils", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=60)
    args = parser.parse_args()
    with django_over_fresh_database("lesson") as (db, environ):
        lesson = create_lesson(environ, args.pupils, args.seconds)
        process, port = serve(environ, 1)
        try:
            time.sleep(2)  # the worker has started and imported everything
            load_before = os.getloadavg()
            _projector, pupils = asyncio.run(run(port, process.pid, lesson, args.seconds))
            elapsed = MEASURED["t1"] - MEASURED["t0"]
            cpu = MEASURED["cpu1"] - MEASURED["cpu0"]
            due = due_times(db, lesson["id"])
        finally:
            process.terminate()
            process.wait(timeout=20)
    delays = []
    missed = 0
    for length, due_at in due:
        for pupil in pupils:
            shown = [at for seq, at in pupil.seen.items() if seq >= length]
            if shown:
                delays.append((min(shown) - due_at) * 1000)
            else:
                missed += 1
    frames = sum(p.frames for p in pupils)
    print(
        f"lesson_load: one lesson of club bots at 1x, the projector + {args.pupils} pupils'"
        f" sockets, {elapsed:.0f} s, 1 gunicorn x 1 uvicorn worker, in-memory layer, SQLite,"
        f" {os.cpu_count()} cores; load average {' '.join(f'{x:.1f}' for x in load_before)}"
        f" before, {' '.join(f'{x:.1f}' for x in os.getloadavg())} after (a shared machine)"
    )
    failed = [p.error for p in pupils if p.error]
    if failed:
        print(f"  sockets that failed       {len(failed)}: {failed[0]}")
    print(
        f"  log entries pushed        {len(due)}  (frames to pupils: {frames}; pupil x entry "
        f"shown after the run ended: {missed})"
    )
    rows = [
        ("server CPU (cores)", cpu / elapsed),
        ("server CPU per entry (ms)", 1000 * cpu / len(due) if due else float("nan")),
        ("event to every pupil p50 (ms)", percentile(delays, 0.50)),
        ("event to every pupil p95 (ms)", percentile(delays, 0.95)),
        ("event to every pupil p99 (ms)", percentile(delays, 0.99)),
    ]
    for name, value in rows:
        goal = GOALS.get(name)
        print(f"  {name:<31}{value:>10.2f}" + (f"   goal <= {goal}" if goal else ""))


if __name__ == "__main__":
    main()
