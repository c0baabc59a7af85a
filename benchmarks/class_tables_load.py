"""Class tables under load (#23): one class of 30 pupils at 15 tables at once, each pupil a
WebSocket client of the own table's game, plus the projector's overview socket (a
benchmark, not a test: it prints figures beside the issue's goals and asserts nothing).

It starts gunicorn with one uvicorn worker (production settings, the in-memory channel layer
of one process) on a fresh SQLite database, sets up a lesson, 30 pupils and a round of 15
tables of two through teach.seating (presence on, as in class), and then every pupil makes
a move every 0.8-1.6 s, picked from what the own board offers (the engine accepts some,
refuses others; each is a stored change pushed to the table's screens and the projector).

Figures:
  * a move to the opponent's screen: from the send to the first frame of a newer version on
    the other pupil's socket;
  * the projector's overview updated: from the send of a move to the first overview frame
    showing that table at a newer version (so it includes the move itself);
  * server CPU: utime+stime of the server's processes over the run (/proc), in cores;
  * errors: moves whose new board never came (5 s), sockets that failed.

    .venv/bin/python benchmarks/class_tables_load.py [--pupils 30] [--seconds 60]
"""

from __future__ import annotations

import argparse
import asyncio
import html
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE)]

from live_load import (  # noqa: E402
    ATTR,
    PYTHON,
    ROOT,
    VERSION,
    cookie,
    cpu_seconds,
    env,
    percentile,
    serve,
    versions,
)

TABLE = re.compile(r'id="table-\d+" data-game="([^"]+)" data-version="(\d+)"')
GOALS = {"move p99 (ms)": 50, "projector updated p99 (ms)": 250, "errors": 0}


def set_up(environ: dict, pupils: int) -> dict:
    script = (
        "import json; from django.utils import timezone; from play import service\n"
        "from teach.models import Lesson; from teach import questions, seating\n"
        "row = service.start_game('stress-se', ['club', 'club'], wall=timezone.now(),"
        " paused=True)\n"
        "lesson = Lesson.objects.create(game=row, mode=Lesson.TABLES)\n"
        f"ps = [questions.join(lesson, f'Pupil {{n}}') for n in range({pupils})]\n"
        "r = seating.start_round(lesson, size=2, level='club', pairing='shuffle',"
        " wall=timezone.now(), away_ms=60000)\n"
        "seats = [[s.table.game_id, s.seat] for s in r.seats.select_related('table')]\n"
        "print('CLASS' + json.dumps({'lesson': lesson.pk, 'seats': seats}))")
    out = subprocess.run([str(PYTHON), "manage.py", "shell", "-c", script], env=environ,
                         cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return json.loads(out.split("CLASS", 1)[1])


class Projector:
    """The projector's overview socket: the version each table shows, as frames come."""

    def __init__(self, port: int, lesson: str) -> None:
        self.port, self.lesson = port, lesson
        self.shown: dict[str, int] = {}
        self.waiting: list[tuple[str, int, float]] = []  # (game, version sent on, sent at)
        self.latencies: list[float] = []
        self.frames = 0
        self.errors = 0

    async def run(self, until: float) -> None:
        from websockets.asyncio.client import connect

        url = f"ws://127.0.0.1:{self.port}/ws/en/class/{self.lesson}/tables/"
        headers = {"Origin": f"http://127.0.0.1:{self.port}",
                   "Cookie": cookie({"teach": [self.lesson]})}
        try:
            async with connect(url, additional_headers=headers, max_size=2**23) as ws:
                while time.monotonic() < until + 5:
                    try:
                        frame = await asyncio.wait_for(ws.recv(), 1)
                    except TimeoutError:
                        continue
                    at = time.perf_counter()
                    self.frames += 1
                    # The whole overview, or only the boards of the tables that changed.
                    self.shown.update((g, int(v)) for g, v in TABLE.findall(frame))
                    still = []
                    for game, version, sent in self.waiting:
                        if self.shown.get(game, -1) > version:
                            self.latencies.append((at - sent) * 1000)
                        else:
                            still.append((game, version, sent))
                    self.waiting = still
        except Exception as error:
            self.errors += 1
            print(f"  projector socket failed: {error!r}", file=sys.stderr)


class Pupil:
    def __init__(self, game: str, seat: int, port: int, projector: Projector) -> None:
        self.game, self.seat, self.port, self.projector = game, seat, port, projector
        self.version = -1
        self.offers: tuple[list, list, list] = ([], [], [])
        self.frames: asyncio.Queue[tuple[float, int | None]] = asyncio.Queue()
        self.opponent: Pupil | None = None
        self.errors = 0  # moves whose new board never reached the opponent, failed sockets
        self.refused = 0  # moves refused with nothing new to show (no other screen hears)
        self.refusal_told = False  # the move in flight was refused with nothing to show
        self.settled = asyncio.Event()  # this pupil's last move has reached the opponent
        self.waits: tuple[str, int, float] | None = None  # the last move's projector entry

    async def run(self, until: float, latencies: list[float], closing: asyncio.Event) -> None:
        """Move until `until`; then keep the socket open (its frames read) until `closing`:
        the opponent's last move is still to reach it, and a socket closed by the benchmark
        is no error of the server's."""
        from websockets.asyncio.client import connect

        url = f"ws://127.0.0.1:{self.port}/ws/en/play/{self.game}/"
        headers = {"Origin": f"http://127.0.0.1:{self.port}",
                   "Cookie": cookie({"play": {self.game: self.seat}})}
        rng = random.Random(f"{self.game}{self.seat}")
        try:
            async with connect(url, additional_headers=headers, max_size=2**22) as ws:
                reader = asyncio.create_task(self.read(ws))
                await ws.send(json.dumps({"since": 0}))
                while time.monotonic() < until:
                    await asyncio.sleep(rng.uniform(0.8, 1.6))
                    action = self.choose(rng)
                    if action is None or self.version < 0 or self.opponent is None:
                        continue
                    self.opponent.drain()
                    sent, version = time.perf_counter(), self.version
                    waits = self.waits = (self.game, version, sent)
                    self.projector.waiting.append(waits)
                    self.refusal_told = False
                    await ws.send(json.dumps({"action": json.dumps(action),
                                              "version": version}))
                    await self.wait_shown(sent, version, latencies)
                self.settled.set()
                await closing.wait()
                reader.cancel()
        except Exception as error:
            self.errors += 1
            print(f"  pupil socket failed: {error!r}", file=sys.stderr)
        finally:
            self.settled.set()

    async def wait_shown(self, sent: float, version: int, latencies: list[float]) -> None:
        """Until the opponent's screen shows a newer board (the move's latency), or this
        socket is told the move was refused with nothing new to show (then no other screen
        hears of it), or 5 s have passed (an error)."""
        while True:
            try:
                at, shown = await asyncio.wait_for(self.opponent.frames.get(), 0.05)
            except TimeoutError:
                shown = None
            if shown is None:  # (or the word from this socket's reader that it was told)
                if self.refusal_told:
                    self.refused += 1
                    return
                if time.perf_counter() > sent + 5:
                    self.errors += 1
                    print(f"  no new board at the opponent of {self.game}/{self.seat}"
                          f" after version {version}", file=sys.stderr)
                    return
                continue
            if shown > version:
                latencies.append((at - sent) * 1000)
                return

    def answered(self, at: float) -> None:
        """The move in flight was refused with nothing to show: the wait for the opponent's
        screen (wait_shown, on the opponent's frames) ends now."""
        if self.opponent is not None:
            self.opponent.frames.put_nowait((at, None))

    def drain(self) -> None:
        while not self.frames.empty():
            self.frames.get_nowait()

    async def read(self, ws) -> None:
        async for frame in ws:
            at = time.perf_counter()
            if frame.startswith('{"ping"'):  # presence: a phone that answers keeps its seat
                await ws.send(json.dumps({"pong": json.loads(frame)["ping"]}))
                continue
            if frame.startswith('{"told"'):
                # the move in flight was refused and showed nothing new: the board stays,
                # and neither the opponent nor the projector hears of it
                shown = json.loads(frame)["told"]
                self.version = max(self.version, shown)
                self.refusal_told = True
                self.answered(at)
                if self.waits and self.waits in self.projector.waiting:
                    self.projector.waiting.remove(self.waits)
                continue
            match = VERSION.match(frame)
            if not match:
                continue
            self.version = max(self.version, int(match.group(1)))
            told = " data-told" in frame[: frame.index(">")]
            # A move refused with no change: nobody else has anything new to show for it.
            if told and self.waits and self.waits[1] == int(match.group(1)):
                self.refusal_told = True
                self.answered(at)
                if self.waits in self.projector.waiting:
                    self.projector.waiting.remove(self.waits)
            picks, drops, sends = [], [], []
            for name, value in ATTR.findall(frame):
                data = json.loads(html.unescape(value))
                {"data-pick": picks, "data-drop": drops, "data-send": sends}[name].append(data)
            self.offers = (picks, drops, sends)
            self.frames.put_nowait((at, int(match.group(1))))

    def choose(self, rng: random.Random) -> dict | None:
        picks, drops, sends = self.offers
        if picks and drops and (not sends or rng.random() < 0.8):
            return {**rng.choice(picks), **rng.choice(drops)}
        return rng.choice(sends) if sends else None


async def load(port: int, setup: dict, seconds: float) -> tuple[list, Projector, int, int]:
    until = time.monotonic() + seconds
    projector = Projector(port, setup["lesson"])
    by_game: dict[str, list[Pupil]] = {}
    for game, seat in setup["seats"]:
        by_game.setdefault(game, []).append(Pupil(game, seat, port, projector))
    for pair in by_game.values():
        if len(pair) == 2:
            pair[0].opponent, pair[1].opponent = pair[1], pair[0]
    pupils = [p for pair in by_game.values() for p in pair]
    latencies: list[float] = []
    watching = asyncio.create_task(projector.run(until))
    await asyncio.sleep(0.5)
    closing = asyncio.Event()

    async def close_when_settled() -> None:
        await asyncio.gather(*(p.settled.wait() for p in pupils))
        closing.set()

    await asyncio.gather(close_when_settled(), *(p.run(until, latencies, closing) for p in pupils))
    await watching
    return latencies, projector, sum(p.errors for p in pupils), sum(p.refused for p in pupils)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pupils", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=60)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "tables.sqlite3"
        environ = env(db, "")
        os.environ.update({k: environ[k] for k in ("DJANGO_SETTINGS_MODULE",
                                                    "DJANGO_SECRET_KEY", "SQLITE_PATH")})
        import django

        django.setup()
        subprocess.run([str(PYTHON), "manage.py", "migrate", "--verbosity", "0"], env=environ,
                       cwd=ROOT, check=True)
        setup = set_up(environ, args.pupils)
        process, port = serve(environ, 1)
        try:
            time.sleep(1)
            cpu0, changes0 = cpu_seconds([process.pid]), versions(db)
            started = time.monotonic()
            latencies, projector, errors, refused = asyncio.run(load(port, setup, args.seconds))
            elapsed = time.monotonic() - started
            cpu, changes = cpu_seconds([process.pid]) - cpu0, versions(db) - changes0
        finally:
            process.terminate()
            process.wait(timeout=20)
    errors += projector.errors
    tables = len({game for game, _seat in setup["seats"]})
    print(f"class_tables_load: {args.pupils} pupils at {tables} tables + the projector,"
          f" {elapsed:.0f} s, 1 uvicorn worker, in-memory layer, SQLite,"
          f" {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    print(f"  moves measured {len(latencies)}, projector frames {projector.frames},"
          f" projector updates measured {len(projector.latencies)},"
          f" moves refused with nothing new to show {refused}")
    rows = [
        ("move p50 (ms)", percentile(latencies, 0.50)),
        ("move p99 (ms)", percentile(latencies, 0.99)),
        ("projector updated p50 (ms)", percentile(projector.latencies, 0.50)),
        ("projector updated p99 (ms)", percentile(projector.latencies, 0.99)),
        ("server CPU (cores)", cpu / elapsed),
        ("stored changes per s", changes / elapsed),
        ("server CPU per change (ms)", 1000 * cpu / changes if changes else float("nan")),
        ("errors", errors),
    ]
    for name, value in rows:
        goal = GOALS.get(name)
        verdict = "" if goal is None else (
            f"   goal <= {goal}  {'ok' if value <= goal else 'MISSED'}")
        print(f"  {name:<28}{value:>10.1f}{verdict}")


if __name__ == "__main__":
    main()
