"""Load on the playable demo: concurrent games over HTTP against gunicorn (a benchmark, not a
test; it asserts nothing and prints figures).

It starts gunicorn with the production settings (2 sync workers by default) on a fresh SQLite
database (or on --database-url), then plays --games games at once for --seconds, one thread
per game, each behaving like a browser with a person at it:
  * it asks for the board again when the last answer says (the page's
    hx-trigger="load delay:…" moment: the next bot move, at most a second away);
  * the person makes a move every 0.5-1.2 s: a card picked and dropped on a pile, or a pile
    tapped, chosen at random from what the board offers (data-pick, data-drop, data-send),
    so the engine accepts some and refuses others, as with a real player;
  * a finished game is followed by a new one, so that --games games are always running.
Figures: request counts, latency percentiles of moves (POST …/move/) and of board requests
(GET, the polls), errors (any answer but 200, or a failed connection).

    .venv/bin/python benchmarks/demo_load.py [--games 20] [--seconds 60] [--workers 2]
        [--database-url postgres://…] [--port 8799]
"""

from __future__ import annotations

import argparse
import html
import http.client
import json
import os
import platform
import random
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
PYTHON = ROOT / ".venv" / "bin" / "python"
VARIANTS = ["stress-se", "james-bond", "spit", "stress-de", "stressi-fi"]
ATTR = re.compile(r'\b(id|data-pick|data-drop|data-send)="([^"]*)"')
ITEM = re.compile(r"<(?:button|div)\b[^>]*\bdata-(?:pick|drop|send)=[^>]*>")
VERSION = re.compile(r'data-version="(\d+)"')
SEQ = re.compile(r'data-seq="(\d+)"')
DELAY = re.compile(r'hx-trigger="load delay:(\d+)ms"')
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
HEADER_TOKEN = re.compile(r'"x-csrftoken": "([^"]+)"')


class Browser:
    """One visitor: a connection, cookies, and what the last board offered."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookies: dict[str, str] = {}
        self.token = ""
        self.language = "en"  # the browser's Accept-Language

    def request(self, method: str, path: str, body: dict | None = None,
                htmx: bool = False) -> tuple[int, dict, str, float]:
        headers = {"Host": "localhost", "Accept-Language": self.language}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        data = None
        if body is not None:
            data = urlencode(body)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["X-CSRFToken"] = self.token
            headers["Referer"] = f"https://localhost{path}"
        if htmx:
            headers["HX-Request"] = "true"
        started = time.perf_counter()
        for attempt in range(2):
            try:
                self.conn.request(method, path, body=data, headers=headers)
                response = self.conn.getresponse()
                text = response.read().decode()
                break
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                if attempt:
                    raise
        elapsed = time.perf_counter() - started
        for value in response.headers.get_all("Set-Cookie") or []:
            # The production cookies are Secure; this client speaks plain HTTP to gunicorn
            # on the loopback, so it keeps them by hand.
            for name, morsel in SimpleCookie(value).items():
                self.cookies[name] = morsel.value
        return response.status, dict(response.headers), text, elapsed


def offers(board: str) -> list[dict]:
    """What the board lets the player do: each action a tap or a pick-and-drop would send."""
    picks, drops, sends = [], [], []
    for tag in ITEM.findall(board):
        attrs = {k: html.unescape(v) for k, v in ATTR.findall(tag)}
        if attrs.get("data-pick"):
            picks.append(json.loads(attrs["data-pick"]))
        if attrs.get("data-drop"):
            drops.append(json.loads(attrs["data-drop"]))
        if attrs.get("data-send"):
            sends.append(json.loads(attrs["data-send"]))
    moves = [{**p, **d} for p in picks for d in drops if p != d] + sends
    return moves


class Game(threading.Thread):
    def __init__(self, number: int, port: int, until: float, results: dict,
                 lock: threading.Lock) -> None:
        super().__init__(daemon=True)
        self.variant = VARIANTS[number % len(VARIANTS)]
        self.port, self.until, self.results, self.lock = port, until, results, lock
        self.rng = random.Random(number)

    def record(self, kind: str, status: int, seconds: float) -> None:
        with self.lock:
            self.results.setdefault(kind, []).append(seconds)
            if status != 200:
                self.results.setdefault("errors", []).append(f"{kind} {status}")

    def start_game(self, browser: Browser) -> tuple[str, str]:
        status, _h, page, seconds = browser.request("GET", f"/en/{self.variant}/play/")
        self.record("setup page", status, seconds)
        browser.token = TOKEN.search(page).group(1)
        form = {"csrfmiddlewaretoken": browser.token, "players": "2", "level-2": "club"}
        status, headers, _t, seconds = browser.request("POST", f"/en/{self.variant}/play/",
                                                       form)
        self.record("start", 200 if status == 303 else status, seconds)
        url = headers["Location"]
        status, _h, page, seconds = browser.request("GET", url)
        self.record("game page", status, seconds)
        browser.token = HEADER_TOKEN.search(page).group(1)
        return url, page

    def run(self) -> None:
        browser = Browser(self.port)
        try:
            url, board = self.start_game(browser)
            now = time.monotonic()
            next_move = now + self.rng.uniform(0.5, 1.2)
            while now < self.until:
                if "summary__title" in board:
                    with self.lock:
                        self.results["games finished"] = self.results.get(
                            "games finished", 0) + 1
                    url, board = self.start_game(browser)
                    next_move = time.monotonic() + self.rng.uniform(0.5, 1.2)
                delay = DELAY.search(board)
                poll_at = now + (int(delay.group(1)) / 1000 if delay else 1.0)
                wake = min(poll_at, next_move)
                time.sleep(max(0.0, wake - time.monotonic()))
                version = VERSION.search(board).group(1)
                moves = offers(board)
                if wake == next_move and moves:
                    action = self.rng.choice(moves)
                    status, _h, text, seconds = browser.request(
                        "POST", url + "move/", {"action": json.dumps(action),
                                                "version": version}, htmx=True)
                    self.record("move", status, seconds)
                    next_move = time.monotonic() + self.rng.uniform(0.5, 1.2)
                else:
                    seq = SEQ.search(board).group(1)
                    status, _h, text, seconds = browser.request(
                        "GET", f"{url}?since={seq}", htmx=True)
                    self.record("poll", status, seconds)
                    if wake == next_move:
                        next_move = time.monotonic() + self.rng.uniform(0.5, 1.2)
                if status in (200, 400, 409):
                    board = text
                now = time.monotonic()
        except Exception as exc:
            with self.lock:
                self.results.setdefault("errors", []).append(f"{type(exc).__name__}: {exc}")


def percentiles(values: list[float]) -> dict:
    ms = sorted(v * 1000 for v in values)
    if not ms:
        return {}
    q = statistics.quantiles(ms, n=100, method="inclusive") if len(ms) > 1 else ms * 99
    return {"count": len(ms), "mean": round(statistics.fmean(ms), 1),
            "p50": round(q[49], 1), "p95": round(q[94], 1), "p99": round(q[98], 1),
            "max": round(ms[-1], 1)}


def machine() -> dict:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": model, "cores": os.cpu_count(), "python": platform.python_version(),
            "sqlite": sqlite3.sqlite_version, "system": platform.platform(),
            "load_before": os.getloadavg()}


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and its children (gunicorn's workers)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    pids = [pid]
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        pids += [int(c) for c in children]
    except OSError:
        pass
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def serve(args, env: dict) -> subprocess.Popen:
    manage = [str(PYTHON), str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "--verbosity", "0"], env=env, check=True)
    subprocess.run([*manage, "collectstatic", "--noinput", "--verbosity", "0"], env=env,
                   check=True)
    # The site's own log (a line per request, errors with their traceback) stays out of the
    # report; its tail is printed if anything failed.
    with open(args.server_log, "wb") as log:
        server = subprocess.Popen(
            [str(ROOT / ".venv" / "bin" / "gunicorn"), "--pythonpath", "site", "config.wsgi",
             "--bind", f"127.0.0.1:{args.port}", "--workers", str(args.workers),
             "--log-level", "warning", "--access-logfile", args.access_log,
             "--access-logformat", '%(m)s %(U)s %(s)s %(M)s'], cwd=ROOT, env=env, stderr=log)
    for _ in range(100):
        try:
            http.client.HTTPConnection("127.0.0.1", args.port, timeout=1).request("HEAD", "/")
            return server
        except OSError:
            time.sleep(0.1)
    server.terminate()
    raise SystemExit("gunicorn did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--port", type=int, default=8799)
    parser.add_argument("--database-url", default="")
    args = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="demo-load-")
    args.access_log = str(Path(scratch) / "access.log")
    args.server_log = str(Path(scratch) / "server.log")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.production",
           "DJANGO_SECRET_KEY": "benchmark-only-" + "x" * 40,
           "DJANGO_ALLOWED_HOSTS": "localhost,127.0.0.1", "DJANGO_SECURE_SSL_REDIRECT": "false",
           "DJANGO_CSRF_TRUSTED_ORIGINS": "https://localhost"}
    if args.database_url:
        env["DATABASE_URL"] = args.database_url
    else:
        env.pop("DATABASE_URL", None)
        env["SQLITE_PATH"] = str(Path(scratch) / "demo.sqlite3")
    info = machine()
    server = serve(args, env)
    results: dict = {}
    lock = threading.Lock()
    try:
        until = time.monotonic() + args.seconds
        games = [Game(n, args.port, until, results, lock) for n in range(args.games)]
        server_cpu = cpu_seconds(server.pid)
        client_cpu = time.process_time()
        started = time.perf_counter()
        for game in games:
            game.start()
        for game in games:
            game.join()
        wall = time.perf_counter() - started
        server_cpu = cpu_seconds(server.pid) - server_cpu
        client_cpu = time.process_time() - client_cpu
    finally:
        server.terminate()
        server.wait(timeout=10)
    requests = sum(len(v) for k, v in results.items() if isinstance(v, list) and k != "errors")
    # The time gunicorn's workers spent on each request, without the wait in its queue.
    served: dict[str, list[float]] = {"move": [], "poll": []}
    for line in Path(args.access_log).read_text().splitlines():
        method, path, _status, ms = line.split()
        kind = "move" if path.endswith("/move/") else "poll" if method == "GET" and \
            "/play/" in path and path.count("/") == 4 else None
        if kind:
            served[kind].append(int(ms) / 1000)
    report = {
        "games": args.games, "seconds": args.seconds, "workers": args.workers,
        "database": "postgresql" if args.database_url else "sqlite",
        "requests": requests, "requests_per_second": round(requests / wall, 1),
        "games_finished": results.get("games finished", 0),
        "move": percentiles(results.get("move", [])),
        "poll": percentiles(results.get("poll", [])),
        "move_in_worker": percentiles(served["move"]),
        "poll_in_worker": percentiles(served["poll"]),
        "start": percentiles(results.get("start", [])),
        "game_page": percentiles(results.get("game page", [])),
        # CPU time does not depend on how busy the machine is; latency does.
        "server_cpu_ms_per_request": round(1000 * server_cpu / max(requests, 1), 2),
        "server_cpu_share": round(server_cpu / wall, 2),
        "client_cpu_share": round(client_cpu / wall, 2),
        "load_after": os.getloadavg(),
        "errors": len(results.get("errors", [])),
        "error_samples": sorted(set(results.get("errors", [])))[:10],
        "server_log": args.server_log,
        "machine": info,
    }
    print(json.dumps(report, indent=2))
    if report["errors"]:
        print(Path(args.server_log).read_text(errors="replace")[-3000:], file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
