"""Live games across server processes: two ASGI servers (uvicorn) share one database and a
Redis channel layer, as app servers behind a load balancer do. A move made through a socket
of one process reaches a socket held by the other; a process that dies loses only its own
sockets, and the game goes on through the other.

Needs TEST_REDIS_URL (`.ci/run` starts a private Redis); REQUIRE_REDIS=1 makes a missing
one an error instead of a skip."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from contextlib import ExitStack
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.sessions.backends.signed_cookies import SessionStore
from play.access import SESSION_KEY
from websockets.sync.client import connect

from rules_engine import Driver, new_game
from tests.play_human import sensible_action
from tests.private_redis import PrivateRedis

ROOT = Path(__file__).resolve().parents[2]
REDIS = os.environ.get("TEST_REDIS_URL", "")

if not REDIS and os.environ.get("REQUIRE_REDIS"):
    raise pytest.UsageError("REQUIRE_REDIS is set but TEST_REDIS_URL is not")
pytestmark = pytest.mark.skipif(not REDIS, reason="no TEST_REDIS_URL (a Redis server)")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Cluster:
    """Two server processes on one SQLite file and one Redis, with a game of two people."""

    def __init__(self, tmp: Path, table: str = "", redis: str = REDIS) -> None:
        """`table`: more arguments of start_game (a table with presence on); `redis`: the
        channel layer's server."""
        self.db = tmp / "live.sqlite3"
        self.env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test",
                    "SQLITE_PATH": str(self.db), "REDIS_URL": redis,
                    "PYTHONPATH": f"{ROOT / 'site'}:{ROOT}",
                    "TEST_PLAY_PING_MS": "400", "TEST_PLAY_AWAY_GRACE_MS": "500"}
        self.manage("migrate", "--verbosity", "0")
        self.seed = next(s for s in range(100) if new_game("stress-se", players=2,
                                                           seed=s).legal_actions(0))
        self.game_id = self.manage(
            "shell", "-c",
            "from django.utils import timezone; from play import service; "
            f"print(service.start_game('stress-se', ['human', 'human'], seed={self.seed}, "
            f"wall=timezone.now(){table}).pk)").split()[-1]  # after the shell's own banner
        self.servers = [self.serve() for _ in range(2)]

    def manage(self, *args: str) -> str:
        return subprocess.run([sys.executable, str(ROOT / "manage.py"), *args], env=self.env,
                              check=True, capture_output=True, text=True).stdout

    def serve(self) -> tuple[subprocess.Popen, int]:
        port = free_port()
        process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "config.asgi:application", "--port", str(port),
             "--ws", "websockets-sansio", "--lifespan", "off", "--log-level", "warning"],
            env=self.env, cwd=ROOT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                return process, port
            except OSError:
                time.sleep(0.1)
        process.kill()
        raise RuntimeError("a server did not start")

    def socket(self, server: int, seat: int | None = None):
        port = self.servers[server][1]
        headers = {"Origin": f"http://127.0.0.1:{port}"}
        if seat is not None:
            session = SessionStore()
            session[SESSION_KEY] = {self.game_id: seat}
            session.save()
            headers["Cookie"] = f"{settings.SESSION_COOKIE_NAME}={session.session_key}"
        return connect(f"ws://127.0.0.1:{port}/ws/en/play/{self.game_id}/",
                       additional_headers=headers, open_timeout=10)

    def stored(self) -> tuple[int, Driver]:
        with sqlite3.connect(self.db) as db:
            version, snapshot = db.execute("SELECT version, snapshot FROM play_game WHERE id=?",
                                           (self.game_id,)).fetchone()
        return version, Driver.from_json(json.loads(snapshot), record=[])

    def stop(self) -> None:
        for process, _port in self.servers:
            if process.poll() is None:
                process.terminate()
                process.wait(timeout=10)


@pytest.fixture
def cluster(tmp_path):
    running = Cluster(tmp_path)
    yield running
    running.stop()


def move(cluster: Cluster, player, seat: int, rng: random.Random) -> int:
    """The seat's move over its socket; returns the version it was made on."""
    version, driver = cluster.stored()
    action = sensible_action(driver.game, seat, rng)
    assert action is not None
    player.send(json.dumps({"action": json.dumps(action), "version": version}))
    return version


def frame_after(ws, version: int, timeout: float = 10) -> str:
    deadline = time.monotonic() + timeout
    while True:
        frame = ws.recv(timeout=max(0.1, deadline - time.monotonic()))
        head = frame.split(">", 1)[0]
        if int(head.split('data-version="')[1].split('"')[0]) > version:
            return frame


def test_a_move_through_one_process_reaches_a_socket_of_the_other(cluster):
    with cluster.socket(0, seat=0) as player, cluster.socket(1) as watcher:
        version = move(cluster, player, 0, random.Random(1))
        frame = frame_after(watcher, version)
        assert "game__state" in frame
        assert cluster.stored()[0] == version + 1


def test_a_killed_process_loses_only_its_sockets_and_the_game_goes_on(cluster):
    with cluster.socket(1) as watcher:
        with cluster.socket(0, seat=0):
            process, _port = cluster.servers[0]
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=10)
        # The player's page reconnects (to the process that is left, behind a balancer).
        with cluster.socket(1, seat=0) as player:
            version = move(cluster, player, 0, random.Random(2))
            assert "game__state" in frame_after(watcher, version)


def test_after_the_layers_redis_restarts_a_move_still_reaches_the_other_process(tmp_path):
    """The layer is Redis's publish/subscribe: a process's subscriptions must come back by
    themselves when Redis does (nothing else would tell its sockets of later moves)."""
    redis = PrivateRedis(tmp_path)
    cluster = Cluster(tmp_path, redis=redis.url)
    try:
        with cluster.socket(0, seat=0) as player, cluster.socket(1) as watcher:
            version = move(cluster, player, 0, random.Random(4))
            assert "game__state" in frame_after(watcher, version)
            redis.stop()
            redis.start()
            # Each process's reader finds its connection gone, waits a second and
            # subscribes again; a notice sent before that is lost (the row is the truth).
            deadline = time.monotonic() + 20
            while True:
                version = move(cluster, player, 0, random.Random(5))
                try:
                    assert "game__state" in frame_after(watcher, version, timeout=2)
                    break
                except TimeoutError:
                    assert time.monotonic() < deadline, "no notice reached the other process"
    finally:
        cluster.stop()
        redis.stop()


class Page:
    """A page's socket read in a thread of its own, answering the server's pings as
    static/js/play.js does; the boards it was sent are kept."""

    def __init__(self, ws) -> None:
        self.ws, self.boards = ws, []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for frame in self.ws:
                if frame.startswith('{"ping"'):
                    self.ws.send(json.dumps({"pong": json.loads(frame)["ping"]}))
                elif frame.startswith("<div"):
                    self.boards.append(frame)
        except Exception:  # the socket closed
            return

    def wait_for(self, text: str, timeout: float, after: int = 0) -> float:
        """Seconds until a board after the first `after` says `text`."""
        start = time.monotonic()
        while not any(text in board for board in self.boards[after:]):
            assert time.monotonic() - start < timeout, f"no board with {text!r}"
            time.sleep(0.05)
        return time.monotonic() - start


def test_a_killed_process_drops_its_seats_and_the_table_waits_for_them(tmp_path):
    """#22: the process holding Ben's socket is killed (SIGKILL: nothing is closed); the
    other process's waker finds Ben's link stale after three missed pings and the grace,
    and Anna's page is told the game waits for him."""
    cluster = Cluster(tmp_path, table=", away_limit_ms=60000, takeover=['club', 'club'], "
                                      "names=['Anna', 'Ben']")
    try:
        with cluster.socket(0, seat=0) as anna_ws, cluster.socket(1, seat=1) as ben_ws:
            anna, _ben = Page(anna_ws), Page(ben_ws)
            anna_ws.send(json.dumps({"since": 0}))
            time.sleep(1.5)  # both seated (the game waited for them from its start)
            assert anna.boards and "is not connected" not in anna.boards[-1]
            seen = len(anna.boards)
            process, _port = cluster.servers[1]
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=10)
            waited = anna.wait_for("Ben is not connected", timeout=15, after=seen)
            # Stale after 3 pings of 0.4 s, then the grace of 0.5 s: not before.
            assert waited > 1.0
    finally:
        cluster.stop()


def test_a_class_question_asked_in_another_process_reaches_the_pupils_sockets(cluster):
    """#21 teacher mode: a lesson's change (teach.signals.lesson_changed) made in a process
    that holds no socket (a management shell here; an HTTP worker in production) reaches
    the pupils' sockets of both servers through Redis."""
    made = cluster.manage(
        "shell", "-c",
        "from django.utils import timezone; from play import service; "
        "from teach import questions; from teach.models import Lesson\n"
        "row = service.start_game('stress-de', ['expert', 'expert'], seed=3, "
        "wall=timezone.now(), paused=True)\n"
        "lesson = Lesson.objects.create(game=row, mode=Lesson.WATCH)\n"
        "print('LESSON', row.pk, *[questions.join(lesson, n).pk for n in ('Ada', 'Bo')])")
    lesson_id, *pupils = made.split("LESSON", 1)[1].split()
    with ExitStack() as stack:
        sockets = []
        for server, pupil in enumerate(pupils):
            port = cluster.servers[server][1]
            session = SessionStore()
            session["pupil"] = {lesson_id: int(pupil)}
            session.save()
            sockets.append(stack.enter_context(connect(
                f"ws://127.0.0.1:{port}/ws/en/class/{lesson_id}/", open_timeout=10,
                additional_headers={"Origin": f"http://127.0.0.1:{port}",
                                    "Cookie": f"{settings.SESSION_COOKIE_NAME}="
                                              f"{session.session_key}"})))
        time.sleep(0.5)  # both sockets have joined the lesson's group
        cluster.manage("shell", "-c",
                       "from teach import questions; from teach.models import Lesson\n"
                       f"lesson = Lesson.objects.get(pk='{lesson_id}')\n"
                       "questions.ask(lesson, lesson.game, 0)")
        for ws in sockets:
            frame = ws.recv(timeout=10)
            assert 'class="question question--pupil"' in frame
            assert 'data-clock="' not in frame
