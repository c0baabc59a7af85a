"""Tables of friends under load, through the real pages (#22; a benchmark, not a test: it
prints figures beside the issue's goals and asserts nothing).

It starts gunicorn with one uvicorn worker (production settings, the in-memory channel layer
of one process; or --workers with --redis-url) on a fresh SQLite database, as
benchmarks/live_load.py does, and then every
visitor is an HTTP client with its own cookies (the signed session, CSRF) and WebSockets,
doing what a browser does:
  * --tables tables of two people: the host opens the friends' set-up form
    (/<lang>/<variant>/play/friends/) and posts it as it comes (the rules' defaults, a friend
    in seat 2) under a name; the guest opens the invite link (/t/<code>/, no language: the
    guest's Accept-Language picks it), takes the seat under a display name; the five
    languages are mixed, host and guest differ. Then, measured: each opens the lobby's socket
    and says ready (an htmx post); the one whose answer or pushed lobby frame shows the new
    round goes to the game (…/play/, then the game page) and plays over the game page's
    socket, answering its presence pings; a finished game is followed by a rematch the same
    way (both say ready again);
  * --bot-games games of one person against a club bot, each started through the demo's
    set-up page (/<lang>/<variant>/play/) and followed by a new one when it ends.
Each person makes a move every 0.8-1.6 s from what the own board offers once the start
signal said "go" (benchmarks/live_load.Person: the engine accepts some and refuses others).

Figures:
  * a move to the opponent's screen: from the send to the first frame showing a newer
    version on the other person's socket (games against a bot: the person's own screen);
  * the pages' answer times (the game's start: ready, …/play/, the game page);
  * server CPU: utime+stime of the server's processes over the measured run (/proc), in
    cores and per stored change (changes: the games' version increments);
  * errors: pages that failed, sockets that failed, moves whose new board never came (5 s).

    .venv/bin/python benchmarks/tables_load.py [--tables 30] [--bot-games 20] [--seconds 60]
        [--redis-url unix:///tmp/r/redis.sock] [--workers 2]
"""

from __future__ import annotations

import argparse
import asyncio
import html
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE)]

from demo_load import TOKEN, Browser  # noqa: E402
from live_load import (  # noqa: E402
    PYTHON,
    ROOT,
    Person,
    cpu_seconds,
    env,
    launch,
    percentile,
    serve,
    versions,
)

LANGS = ["sv", "nb", "de", "fi", "en"]
VARIANTS = ["stress-se", "james-bond", "spit", "stress-de", "stressi-fi"]
GOALS = {
    "move to opponent p99 (ms)": 50,
    "  once every game was on (ms)": 50,
    "server CPU per change (ms)": 3,
    "errors": 0,
}
FORM = re.compile(r'<form class="play-setup".*?</form>', re.S)
SELECT = re.compile(r'<select\b[^>]*\bname="([^"]+)"[^>]*>(.*?)</select>', re.S)
OPTION = re.compile(r'<option value="([^"]*)"([^>]*)>')
INPUT = re.compile(r"<input\b[^>]*>")
ATTRS = re.compile(r'\b(name|value|type|checked)(?:="([^"]*)")?')
WS = re.compile(r'ws-connect="([^"]+)"')
INVITE = re.compile(r'class="lobby__link" href="https?://[^/"]+(/[^"]*)"')
GAME_OVER = "game__state--over"
SIGNAL = re.compile(r'data-signal-in="(\d+)"')


def form_fields(page: str) -> dict[str, str]:
    """The set-up form's values as a browser posts it untouched: each select's chosen
    option, checked radios, hidden and text inputs."""
    form = FORM.search(page).group(0)
    values: dict[str, str] = {}
    for tag in INPUT.findall(form):
        attrs = {k: html.unescape(v or "") for k, v in ATTRS.findall(tag)}
        if attrs.get("type") in ("radio", "checkbox") and "checked" not in attrs:
            continue
        if "name" in attrs:
            values[attrs["name"]] = attrs.get("value", "")
    for name, body in SELECT.findall(form):
        options = OPTION.findall(body)
        chosen = next((v for v, rest in options if "selected" in rest), options[0][0])
        values[name] = html.unescape(chosen)
    return values


class Visitor:
    """One browser: its HTTP client (cookies kept by hand: the production cookies are
    Secure, and this speaks plain HTTP on the loopback) and the answer times it saw."""

    def __init__(self, port: int, lang: str, times: dict[str, list[float]], errors: list[str]):
        self.browser = Browser(port)
        self.browser.language = lang
        self.port, self.lang, self.times, self.errors = port, lang, times, errors

    def call(
        self,
        kind: str,
        method: str,
        path: str,
        body: dict | None = None,
        htmx: bool = False,
        ok: tuple[int, ...] = (200,),
    ) -> tuple[dict, str]:
        if body is not None:
            body = {"csrfmiddlewaretoken": self.browser.token, **body}
        status, headers, text, seconds = self.browser.request(method, path, body, htmx=htmx)
        self.times.setdefault(kind, []).append(seconds * 1000)
        if status not in ok:
            self.errors.append(f"{kind} {method} {path}: {status}")
            raise RuntimeError(f"{kind}: {status}")
        token = TOKEN.search(text)
        if token:
            self.browser.token = token.group(1)
        return headers, text

    def follow(self, kind: str, path: str) -> tuple[str, str]:
        """GET `path`, following redirects as a browser does: (the last path, its page)."""
        for _ in range(4):
            headers, text = self.call(kind, "GET", path, ok=(200, 302, 303))
            if "Location" not in headers:
                return path, text
            path = headers["Location"]
        raise RuntimeError(f"{kind}: too many redirects")

    def cookie(self) -> str:
        return "; ".join(f"{k}={v}" for k, v in self.browser.cookies.items())

    def socket_headers(self) -> dict:
        return {"Origin": f"http://127.0.0.1:{self.port}", "Cookie": self.cookie()}


class Player(Person):
    """live_load's person on a game page it reached through the pages: its own cookies and
    the page's socket address; it answers the presence pings, and stops with the game."""

    def __init__(self, visitor: Visitor, game_page: str, seat: int, people: int) -> None:
        ws_path = html.unescape(WS.search(game_page).group(1))
        super().__init__({"id": ws_path, "people": people}, seat, visitor.port)
        self.visitor, self.ws_path = visitor, ws_path
        self.go_at = 0.0  # a person waits for the start signal's "go", as the page shows it

    def choose(self, rng):
        return None if time.monotonic() < self.go_at else super().choose(rng)

    def address(self) -> tuple[str, dict]:
        return f"ws://127.0.0.1:{self.port}{self.ws_path}", self.visitor.socket_headers()

    async def read(self, ws) -> None:
        await super().read(self.answered(ws))

    async def answered(self, ws):
        async for frame in ws:
            if frame.startswith('{"ping"'):
                await ws.send(json.dumps({"pong": json.loads(frame)["ping"]}))
                continue
            if frame.startswith('<div id="game"'):
                self.over = self.over or GAME_OVER in frame[:1500]
                signal = SIGNAL.search(frame)
                if signal:
                    self.go_at = time.monotonic() + int(signal.group(1)) / 1000
            yield frame


class Table:
    """Two friends at one table: set up before the clock starts, then rounds while it runs."""

    def __init__(self, n: int, port: int, times: dict, errors: list[str]) -> None:
        self.n = n
        self.variant = VARIANTS[n % len(VARIANTS)]
        self.host = Visitor(port, LANGS[n % len(LANGS)], times, errors)
        self.guest = Visitor(port, LANGS[(n + 2) % len(LANGS)], times, errors)
        self.path = ""  # the host's table page
        self.rounds = 0
        self.finished = 0
        self.playing_from: float | None = None  # perf_counter once its first game's pages came

    def open(self) -> None:
        host, guest = self.host, self.guest
        form = f"/{host.lang}/{self.variant}/play/friends/"
        _path, page = host.follow("set-up form", form)
        values = {**form_fields(page), "name": f"Åsa {self.n}", "seat-2": "friend"}
        headers, _text = host.call("open table", "POST", form, values, ok=(303,))
        self.path, page = host.follow("table page", headers["Location"])
        invite = html.unescape(INVITE.search(page).group(1))
        guest_path, _page = guest.follow("invite link", invite)
        assert guest_path.startswith(f"/{guest.lang}/table/"), guest_path
        guest.call(
            "join", "POST", guest_path + "join/", {"name": f"Gäst <i>{self.n}</i>"}, ok=(303,)
        )
        self.code = guest_path.split("/")[3]

    async def to_game(self, who: Visitor, number: int) -> str:
        """`who` on the table page says ready and goes to round `number`'s game when the
        answer or the lobby's pushed frame shows it; the game page."""
        from websockets.asyncio.client import connect

        table = f"/{who.lang}/table/{self.code}/"
        _path, page = await asyncio.to_thread(who.follow, "table page", table)
        lobby = html.unescape(WS.search(page).group(1))
        go = f'data-go data-round="{number}"'
        async with connect(
            f"ws://127.0.0.1:{who.port}{lobby}", additional_headers=who.socket_headers()
        ) as ws:
            _h, answer = await asyncio.to_thread(
                who.call, "ready", "POST", table + "ready/", {"ready": "yes"}, True
            )
            while go not in answer:
                answer = await asyncio.wait_for(ws.recv(), 30)
        _path, game = await asyncio.to_thread(who.follow, "game page", table + "play/")
        return game

    async def play(self, until: float, latencies: list[float], errors: list[str]) -> list:
        people: list[Player] = []
        while time.monotonic() < until:
            self.rounds += 1
            try:
                pages = await asyncio.gather(
                    self.to_game(self.host, self.rounds), self.to_game(self.guest, self.rounds)
                )
            except Exception as exc:  # counted, and the table stops
                errors.append(f"table {self.n} round {self.rounds}: {type(exc).__name__} {exc}")
                break
            self.playing_from = self.playing_from or time.perf_counter()
            pair = [
                Player(v, page, seat, 2)
                for seat, (v, page) in enumerate(zip((self.host, self.guest), pages, strict=True))
            ]
            pair[0].opponent, pair[1].opponent = pair[1], pair[0]
            await asyncio.gather(*(p.run(until, latencies) for p in pair))
            people += pair
            self.finished += any(p.over for p in pair)
        return people


class BotGame:
    def __init__(self, n: int, port: int, times: dict, errors: list[str]) -> None:
        self.n = n
        self.variant = VARIANTS[n % len(VARIANTS)]
        self.visitor = Visitor(port, LANGS[(n + 1) % len(LANGS)], times, errors)
        self.rounds = 0
        self.finished = 0
        self.playing_from: float | None = None

    def start(self) -> str:
        setup = f"/{self.visitor.lang}/{self.variant}/play/"
        _path, page = self.visitor.follow("demo set-up", setup)
        headers, _text = self.visitor.call(
            "start demo", "POST", setup, form_fields(page), ok=(303,)
        )
        return self.visitor.follow("game page", headers["Location"])[1]

    async def play(self, until: float, latencies: list[float], errors: list[str]) -> list:
        people: list[Player] = []
        while time.monotonic() < until:
            self.rounds += 1
            try:
                page = await asyncio.to_thread(self.start)
            except Exception as exc:
                errors.append(f"bot game {self.n}: {type(exc).__name__} {exc}")
                break
            self.playing_from = self.playing_from or time.perf_counter()
            person = Player(self.visitor, page, 0, 1)
            await person.run(until, latencies)
            people.append(person)
            self.finished += person.over
        return people


async def load(port: int, args: argparse.Namespace, pid: int, db: Path) -> dict:
    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(4 * args.tables + 60))
    times: dict[str, list[float]] = {}
    errors: list[str] = []
    tables = [Table(n, port, times, errors) for n in range(args.tables)]
    bots = [BotGame(n, port, times, errors) for n in range(args.bot_games)]
    started = time.monotonic()
    await asyncio.gather(*(asyncio.to_thread(t.open) for t in tables))
    set_up = time.monotonic() - started
    await asyncio.sleep(1)
    cpu0, changes0, load0 = cpu_seconds([pid]), versions(db), os.getloadavg()[0]
    started = time.monotonic()
    until = started + args.seconds
    to_opponent: list[float] = []
    to_self: list[float] = []
    people = await asyncio.gather(
        *(t.play(until, to_opponent, errors) for t in tables),
        *(b.play(until, to_self, errors) for b in bots),
    )
    elapsed = time.monotonic() - started
    return {
        "set_up": set_up,
        "started": started,
        "elapsed": elapsed,
        "times": times,
        "errors": errors,
        "to_opponent": to_opponent,
        "to_self": to_self,
        "people": [p for group in people for p in group],
        "table_people": [p for group in people[: len(tables)] for p in group],
        "all_playing": max(
            (g.playing_from for g in (*tables, *bots) if g.playing_from), default=0.0
        ),
        "cpu": cpu_seconds([pid]) - cpu0,
        "changes": versions(db) - changes0,
        "load": (load0, os.getloadavg()[0]),
        "rounds": sum(t.rounds for t in tables),
        "finished": sum(t.finished for t in tables),
        "bot_rounds": sum(b.rounds for b in bots),
        "bot_finished": sum(b.finished for b in bots),
    }


def report(args: argparse.Namespace, r: dict) -> None:
    moves_lost = sum(p.errors for p in r["people"])
    # The moves sent after the last of the run's first games had come to its players' pages:
    # before that the server is also dealing, seating and serving the start pages of 50 games.
    steady = [ms for p in r["table_people"] for sent, ms in p.moves if sent >= r["all_playing"]]
    errors = len(r["errors"]) + moves_lost
    print(
        f"tables_load: {args.tables} tables of two people + {args.bot_games} games against"
        f" bots, through the pages, {r['elapsed']:.0f} s measured, {args.workers} uvicorn"
        f" worker(s), {'Redis' if args.redis_url else 'in-memory'} layer, SQLite,"
        f" {os.cpu_count()} cores, load average {r['load'][0]:.1f} at the start,"
        f" {r['load'][1]:.1f} at the end"
    )
    print(f"  set-up before the clock (open, invite, join): {r['set_up']:.1f} s")
    print(
        f"  tables' games started {r['rounds']} (finished {r['finished']}), bot games"
        f" started {r['bot_rounds']} (finished {r['bot_finished']})"
    )
    print(
        f"  moves measured: to the opponent {len(r['to_opponent'])}, against bots"
        f" {len(r['to_self'])}; pages/sockets failed {len(r['errors'])}, moves lost (no new"
        f" board in 5 s, or the socket failed) {moves_lost}"
    )
    for line in r["errors"][:5]:
        print(f"    {line}")
    slow: dict[int, int] = {}
    for p in r["table_people"]:
        for sent, ms in p.moves:
            if ms > 50:
                bucket = int((sent - r["started"]) // 5) * 5
                slow[bucket] = slow.get(bucket, 0) + 1
    print(
        f"  every game on {r['all_playing'] - r['started']:.1f} s into the run; moves to the"
        " opponent over 50 ms, by 5 s of the run: "
        + (", ".join(f"{b}-{b + 5} s: {n}" for b, n in sorted(slow.items())) or "none")
    )
    rows = [
        ("move to opponent p50 (ms)", percentile(r["to_opponent"], 0.50)),
        ("move to opponent p95 (ms)", percentile(r["to_opponent"], 0.95)),
        ("move to opponent p99 (ms)", percentile(r["to_opponent"], 0.99)),
        ("  once every game was on (ms)", percentile(steady, 0.99)),
        ("move vs bot, own p99 (ms)", percentile(r["to_self"], 0.99)),
        *[
            (f"page {kind} p99 (ms)", percentile(r["times"].get(kind, []), 0.99))
            for kind in ("ready", "game page", "start demo")
        ],
        ("server CPU (cores)", r["cpu"] / r["elapsed"]),
        ("stored changes per s", r["changes"] / r["elapsed"]),
        (
            "server CPU per change (ms)",
            1000 * r["cpu"] / r["changes"] if r["changes"] else float("nan"),
        ),
        ("errors", errors),
    ]
    for name, value in rows:
        goal = GOALS.get(name)
        verdict = (
            "" if goal is None else (f"   goal <= {goal}  {'ok' if value <= goal else 'MISSED'}")
        )
        digits = 2 if name.endswith("per change (ms)") else 1  # 3.04 must not read as 3.0
        print(f"  {name:<30}{value:>10.{digits}f}{verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--bot-games", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--redis-url", default="", help="the channel layer (unix://…)")
    parser.add_argument(
        "--workers", type=int, default=0, help="uvicorn workers; default 2 with --redis-url, else 1"
    )
    parser.add_argument(
        "--profile",
        default="",
        help="serve from one uvicorn process under benchmarks/live_profile.py, writing here",
    )
    parser.add_argument(
        "--timers", action="store_true", help="with --profile: thread CPU, no cProfile"
    )
    args = parser.parse_args()
    if args.workers > 1 and not args.redis_url:
        parser.error("several workers share their sockets' notices through --redis-url")
    args.workers = args.workers or (2 if args.redis_url else 1)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "tables.sqlite3"
        # Pages need their static files' manifest: collected into the run's directory.
        environ = {
            **env(db, args.redis_url),
            "DJANGO_SETTINGS_MODULE": "bench_settings",
            "BENCH_STATIC_ROOT": str(Path(tmp) / "static"),
            "PYTHONPATH": f"{HERE}:{ROOT / 'site'}:{ROOT}",
        }
        for command in ("migrate", "collectstatic"):
            subprocess.run(
                [str(PYTHON), "manage.py", command, "--noinput", "--verbosity", "0"],
                env=environ,
                cwd=ROOT,
                check=True,
            )
        if args.profile:
            process, port = profiled_server(environ, args.profile, args.timers)
        else:
            process, port = serve(environ, args.workers)
        try:
            result = asyncio.run(load(port, args, process.pid, db))
        finally:
            process.terminate()
            process.wait(timeout=60)
    report(args, result)
    if args.profile:
        import live_profile

        live_profile.report([args.profile], result["changes"], args.timers)


def profiled_server(environ: dict, out: str, timers: bool) -> tuple[subprocess.Popen, int]:
    """benchmarks/live_profile.py's server: one uvicorn process, profiled until SIGTERM."""
    import live_profile

    return launch(lambda port: live_profile.serve_command(port, out, timers), environ)


if __name__ == "__main__":
    main()
