"""The long fuzz profile: `make fuzz` (python -m tests.fuzz.campaign --help).

Production settings, a fresh SQLite database and collected static files; the site is crawled
and profiled in this process, then hypothesis draws hostile requests (at least --requests of
them) and sends them to gunicorn over HTTP (--server gunicorn, the default) or through
Django's test client (--server inprocess). Every response is checked as in the quick
profile, and afterwards the server's log is read: no error lines, an access line with a
request id for every request Django answered. Prints a summary; exits 1 on any finding.
"""

import argparse
import json
import logging
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WORK = ROOT / "var" / "fuzz"
HOST_NAME = "localhost"
LOG_LINE = re.compile(r"^\S+ \S+ (?P<level>[A-Z]+) (?P<logger>\S+) \[(?P<id>[^\]]+)\] ", re.M)
GUNICORN_LINE = re.compile(r"^\[[^\]]+\] \[\d+\] \[(?P<level>[A-Z]+)\] (?P<text>.*)$", re.M)


def production_environment(database_url: str = "") -> dict[str, str]:
    """Production settings on a fresh SQLite file, or on `database_url` (an empty
    PostgreSQL database: the campaign migrates it)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    env.pop("DATABASE_URL", None)
    if database_url:
        env["DATABASE_URL"] = database_url
    env.update({
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": f"testserver,{HOST_NAME},127.0.0.1",
        "SQLITE_PATH": str(WORK / "db.sqlite3"),
    })
    return env


def prepare(env: dict[str, str]) -> None:
    """Django set up in this process with the same environment as the server."""
    os.environ.clear()
    os.environ.update(env)
    sys.path[:0] = [str(ROOT), str(ROOT / "site")]
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)


def log_to(path: Path) -> None:
    """This process's log lines (production's stderr handler) go to `path` from now on."""
    stream = path.open("w", encoding="utf-8")
    for logger in [logging.getLogger(), *logging.Logger.manager.loggerDict.values()]:
        for handler in getattr(logger, "handlers", []):
            if isinstance(handler, logging.StreamHandler):
                handler.setStream(stream)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_gunicorn(env: dict[str, str], log: Path, workers: int) -> tuple[subprocess.Popen, int]:
    port = free_port()
    gunicorn = shutil.which("gunicorn", path=str(Path(sys.executable).parent))
    server = subprocess.Popen(
        # As the README serves production: the ASGI application on uvicorn workers.
        [gunicorn, "--pythonpath", "site", "config.asgi:application", "--worker-class",
         "uvicorn_worker.UvicornWorker", "--bind", f"127.0.0.1:{port}",
         "--workers", str(workers), "--timeout", "60"],
        cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT,
    )
    return server, port


def socket_frames(port: int, count: int) -> dict:
    """Hostile frames to the live games' sockets (docs/live.md): every payload as a whole
    frame and in every field of a move, a clock command and a hello, to games of the campaign
    database, as a watcher. Each frame must be answered with a board (the unchanged game and
    its reason), and no socket may be closed by a server error."""
    from play.models import Game
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    from .payloads import PAYLOADS

    games = list(Game.objects.values_list("pk", flat=True)[:5])
    shapes = [
        lambda v: v,
        lambda v: json.dumps({"action": v, "version": 0}),
        lambda v: json.dumps({"action": json.dumps({"type": "play", "card": v, "to": v}),
                              "version": v}),
        lambda v: json.dumps({"command": v, "version": 0, "value": v}),
        lambda v: json.dumps({"since": v}),
    ]
    frames = [shape(p.value) for p in PAYLOADS for shape in shapes]
    frames = [f for f in frames if f and _utf8(f)][:count]
    sent = answered = 0
    failures: list[str] = []
    # A socket may send a burst of 12 frames before the rate limit answers instead of the
    # frame's reader: ten frames a socket, then a new one.
    for n, start in enumerate(range(0, len(frames), 10)):
        game_id = games[n % len(games)]
        url = f"ws://127.0.0.1:{port}/ws/en/play/{game_id}/"
        try:
            with connect(url, additional_headers={"Origin": f"http://{HOST_NAME}"},
                         max_size=2**22, open_timeout=10) as ws:
                for frame in frames[start:start + 10]:
                    ws.send(frame)
                    sent += 1
                    if ws.recv(timeout=10).startswith('<div id="game"'):
                        answered += 1
        except ConnectionClosed as closed:
            failures.append(f"{game_id}: closed {closed.rcvd.code if closed.rcvd else '?'}")
        except (OSError, TimeoutError) as error:
            failures.append(f"{game_id}: {error!r}")
    return {"games": len(games), "sent": sent, "answered": answered, "failures": failures}


def _utf8(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def wait_until_healthy(send, server: subprocess.Popen) -> None:
    from .transport import FuzzRequest

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit("gunicorn exited during start-up; see its log")
        try:
            if send(FuzzRequest("GET", "/healthz")).status == 200:
                return
        except OSError:
            pass
        time.sleep(0.5)
    raise SystemExit("gunicorn did not answer /healthz within 120 s")


def read_log(path: Path) -> dict:
    """Django's lines (production format) and gunicorn's own, counted by level."""
    text = path.read_text(encoding="utf-8", errors="replace")
    django_lines = [m.groupdict() for m in LOG_LINE.finditer(text)]
    server_lines = [m.groupdict() for m in GUNICORN_LINE.finditer(text)]
    access = [line for line in django_lines if line["logger"] == "stress.access"]
    errors = Counter(
        line["logger"] for line in django_lines if line["level"] in ("ERROR", "CRITICAL")
    )
    errors["gunicorn"] += sum(line["level"] in ("ERROR", "CRITICAL") for line in server_lines)
    return {
        "access_lines": len(access),
        "access_lines_without_id": sum(not re.fullmatch("[0-9a-f]{32}", a["id"]) for a in access),
        "django_levels": dict(Counter(line["level"] for line in django_lines)),
        "django_warnings": dict(Counter(
            line["logger"] for line in django_lines if line["level"] == "WARNING")),
        "gunicorn_levels": dict(Counter(line["level"] for line in server_lines)),
        "errors": {name: n for name, n in errors.items() if n},
        "tracebacks": text.count("Traceback (most recent call last)"),
    }


def run(requests: int, seed: int, send, profiles, langs) -> "Tally":  # noqa: F821
    """Stray paths first, then every route's share of the budget, round by round."""
    from .plans import bad_host_plan, edge_plan, method_rounds, plain_http_plan, stray_plan
    from .runner import Tally

    tally = Tally()
    for planned in [*stray_plan(langs), *bad_host_plan(), *plain_http_plan()]:
        tally.send(send, planned)
    for profile in profiles:
        for planned in edge_plan(profile, langs):
            tally.send(send, planned)
    share = (requests - tally.requests) / len(profiles)
    for number, profile in enumerate(profiles):
        goal = tally.requests + share if number < len(profiles) - 1 else requests
        for methods, part in method_rounds(profile):
            fuzz_route(tally, send, profile, langs, methods, int(share * part) + 1, seed)
        fuzz_route(tally, send, profile, langs, tuple(profile.methods), goal - tally.requests,
                   seed)
        print(f"  … {tally.requests} requests ({profile.route.label})", file=sys.stderr)
    return tally


def fuzz_route(tally, send, profile, langs, methods, count, seed) -> None:
    from hypothesis import HealthCheck, Phase, given
    from hypothesis import seed as fixed_seed
    from hypothesis import settings as hypothesis_settings

    from .plans import planned_requests

    goal = tally.requests + int(count)
    round_seed = seed
    while tally.requests < goal:

        @fixed_seed(round_seed)
        @hypothesis_settings(
            max_examples=goal - tally.requests, database=None, deadline=None,
            phases=[Phase.generate], suppress_health_check=list(HealthCheck),
        )
        @given(planned_requests(profile, langs, methods))
        def fuzz(planned):
            tally.send(send, planned)

        fuzz()
        round_seed += 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=10_000)
    parser.add_argument("--server", choices=["gunicorn", "inprocess"], default="gunicorn")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--frames", type=int, default=600,
                        help="hostile WebSocket frames after the requests (gunicorn only)")
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--database-url", default=os.environ.get("FUZZ_DATABASE_URL", ""),
                        help="an empty PostgreSQL database to run on (FUZZ_DATABASE_URL); "
                             "a fresh SQLite file otherwise")
    args = parser.parse_args()

    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    env = production_environment(args.database_url)
    app_log = WORK / ("gunicorn.log" if args.server == "gunicorn" else "app.log")
    prepare(env)
    log_to(WORK / "discovery.log")

    from django.conf import settings

    from .discovery import profile_site
    from .sessions import session_profiles
    from .transport import InProcess, OverHttp

    started = time.perf_counter()
    profiles = profile_site() + session_profiles(InProcess(secure=True).send)
    langs = [code for code, _name in settings.LANGUAGES]
    print(f"profiled {len(profiles)} routes in {time.perf_counter() - started:.1f} s:")
    for p in profiles:
        print(f"  {p.route.label}: {len(p.samples)} samples, query {p.query}, form {p.form}")

    server = None
    if args.server == "gunicorn":
        server, port = start_gunicorn(env, app_log, args.workers)
        http = OverHttp("127.0.0.1", port, HOST_NAME)
        wait_until_healthy(http.send, server)
        # A page with a form: the home page carries no token since it posts nothing.
        http.prime_csrf("/en/class/")
        if not http.csrf_token:
            raise SystemExit("no CSRF token on /en/class/: the POSTs would all be 403")
        send = http.send
    else:
        log_to(app_log)
        send = InProcess(secure=True).send
    try:
        wall = time.perf_counter()
        tally = run(args.requests, args.seed, send, profiles, langs)
        if server is not None:
            frames = socket_frames(port, args.frames)
        wall = time.perf_counter() - wall
    finally:
        if server is not None:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=60)
    log = read_log(app_log)

    database = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    print(f"\nlong fuzz profile: {args.server}, production settings on {database}, "
          f"seed {args.seed}")
    print(tally.summary())
    if server is not None:
        print(f"socket frames: {frames['sent']} to {frames['games']} games, "
              f"{frames['answered']} answered, failures: {frames['failures'][:5]}")
    print(f"wall time: {wall:.1f} s")
    print(f"log: {log['access_lines']} access lines ({log['access_lines_without_id']} without "
          f"a request id); Django lines {log['django_levels']} (warnings by logger "
          f"{log['django_warnings']}); gunicorn lines {log['gunicorn_levels']}; error lines "
          f"{log['errors']}; tracebacks {log['tracebacks']}")
    for finding in tally.findings[:20]:
        print(f"\n{str(finding)[:2000]}")
    result = {
        "server": args.server, "database": database, "seed": args.seed,
        "requests": tally.requests,
        "statuses": dict(tally.statuses), "server_errors": tally.server_errors,
        "findings": len(tally.findings), "seconds": round(wall, 1), "log": log,
    }
    (WORK / "result.json").write_text(json.dumps(result, indent=2))
    if server is not None:
        result["socket_frames"] = frames
    failed = (tally.findings or log["errors"] or log["tracebacks"]
              or (server is not None and frames["failures"]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
