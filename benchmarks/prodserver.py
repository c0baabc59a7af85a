"""The site under gunicorn with production settings, for benchmarks and Lighthouse runs.

Static files are collected (hashed names, brotli and gzip siblings) into a temporary
directory, and the server gets a fresh SQLite database there (the games and saved sheets a
run makes), so nothing lands in the checkout; `extra_static` files are written there first,
which lets a benchmark serve a page's own bytes as a static file from the same server. The
server's log (an access line per request) goes to a file there too, shown if it fails.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def production_env(static_root: Path) -> dict[str, str]:
    environ = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    return {
        **environ,
        "DJANGO_SETTINGS_MODULE": "bench_settings",
        "BENCH_STATIC_ROOT": str(static_root),
        "SQLITE_PATH": str(static_root.parent / "db.sqlite3"),
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        # Plain HTTP on the loopback: production otherwise redirects to https.
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "PYTHONPATH": os.pathsep.join([str(ROOT / "benchmarks"), str(ROOT / "site"), str(ROOT)]),
    }


def _wait_until_up(port: int, process: subprocess.Popen, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("gunicorn exited during start-up")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/en/")
            conn.getresponse().read()
            conn.close()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError("gunicorn did not answer in time")


@contextlib.contextmanager
def production_server(
    extra_static: dict[str, bytes] | None = None, workers: int = 1, port: int | None = None
) -> Iterator[str]:
    """Yields the base URL (http://127.0.0.1:PORT) of a running production server."""
    scratch = Path(tempfile.mkdtemp(prefix="stress-prodserver-"))
    static_root = scratch / "static"
    env = production_env(static_root)
    log = scratch / "server.log"
    try:
        for command in (["collectstatic", "--noinput"], ["migrate"]):
            subprocess.run(
                [str(BIN / "python"), "manage.py", *command, "--verbosity", "0"],
                cwd=ROOT,
                env=env,
                check=True,
            )
        for name, data in (extra_static or {}).items():
            target = static_root / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        port = port or free_port()
        log_file = log.open("wb")
        process = subprocess.Popen(
            [
                str(BIN / "gunicorn"),
                "config.wsgi",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                str(workers),
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
            stdout=log_file,
            stderr=subprocess.STDOUT,
        )
        try:
            _wait_until_up(port, process)
            yield f"http://127.0.0.1:{port}"
        except BaseException:
            print(log.read_text(errors="replace")[-3000:], file=sys.stderr)
            raise
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            log_file.close()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
