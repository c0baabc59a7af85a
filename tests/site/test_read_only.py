"""A read-only database (#25): /healthz says so (503), game pages keep showing the game,
a move is answered "cannot be saved right now" in the move's place, pages that need no
write keep working, and the site recovers by itself once the database is writable again,
although the connection it opened meanwhile stays read-only (CONN_MAX_AGE keeps it).

The database turns read-only for every connection opened from a given moment (SQLite's
`query_only`, PostgreSQL's `default_transaction_read_only`, which is what ALTER DATABASE …
SET does for new sessions); a connection opened then stays read-only, as on a real server.
Runs on SQLite, and on PostgreSQL by test_the_database_tests_pass_on_postgresql below.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connections
from django.db.backends.signals import connection_created
from play.models import Game, LogEntry

from .test_play_views import start

ROOT = Path(__file__).resolve().parents[2]
CANNOT_SAVE = "The game cannot be saved right now, so that was not played."
PICK = {"type": "pick", "pile": "pile-1"}


class Database:
    """Switches the test database between read-only and writable for new connections."""

    def __init__(self) -> None:
        self.read_only = False
        connection_created.connect(self._opened)

    def _opened(self, sender, connection, **kwargs) -> None:
        if self.read_only and connection.alias == "default":
            with connection.cursor() as cursor:
                cursor.execute(
                    "PRAGMA query_only = ON"
                    if connection.vendor == "sqlite"
                    else "SET default_transaction_read_only = on"
                )

    def turn_read_only(self) -> None:
        self.read_only = True
        connections["default"].close()
        with connections["default"].cursor() as cursor:  # a read opens it: read-only now
            cursor.execute("SELECT 1")

    def turn_writable(self) -> None:
        """New connections may write; the open one stays read-only (as a server's would)."""
        self.read_only = False

    def close(self) -> None:
        self.read_only = False
        connection_created.disconnect(self._opened)
        connections["default"].close()


@pytest.fixture
def database():
    switch = Database()
    yield switch
    switch.close()


def move(client, game, action, lang="en"):
    return client.post(
        f"/{lang}/play/{game.pk}/move/",
        {"action": json.dumps(action), "version": str(game.version)},
        HTTP_HX_REQUEST="true",
    )


@pytest.mark.django_db(transaction=True)
def test_healthz_checks_that_it_can_write_and_recovers(client, database):
    assert client.get("/healthz").status_code == 200
    database.turn_read_only()
    response = client.get("/healthz")
    assert response.status_code == 503
    assert json.loads(response.content)["failing"] == ["writes"]
    database.turn_writable()
    assert client.get("/healthz").status_code == 200  # the first probe after recovery


@pytest.mark.django_db(transaction=True)
def test_the_game_is_shown_and_a_move_says_it_cannot_be_saved_where_it_was_made(client, database):
    game = start(client, "james-bond")
    database.turn_read_only()
    page = client.get(f"/en/play/{game.pk}/")
    assert page.status_code == 200 and 'id="game"' in page.text
    board = client.get(f"/en/play/{game.pk}/?since=0", HTTP_HX_REQUEST="true")
    assert board.status_code == 200
    response = move(client, game, PICK)
    # the board fragment with the message in its bar: play.js swaps it in like a refusal
    assert response.status_code == 503
    assert response["X-Game-Version"] == str(game.version)
    assert CANNOT_SAVE in response.text and "game__message" in response.text
    translated = move(client, game, PICK, lang="sv")
    assert "Partiet kan inte sparas just nu" in translated.text
    database.turn_writable()
    assert Game.objects.get(pk=game.pk).version == game.version
    assert not LogEntry.objects.filter(game=game, kind="human").exists()


@pytest.mark.django_db(transaction=True)
def test_pages_that_need_no_write_keep_working(client, database):
    database.turn_read_only()
    for url in ("/en/", "/en/stress-se/", "/en/compare/", "/en/james-bond/play/", "/en/class/"):
        assert client.get(url).status_code == 200, url


@pytest.mark.django_db(transaction=True)
def test_other_writes_answer_a_translated_503_page(client, database):
    database.turn_read_only()
    data = {"players": "2", "level-2": "expert", "seed": "7"}
    response = client.post("/en/james-bond/play/", data)
    assert response.status_code == 503
    assert "Nothing can be saved right now." in response.text
    swedish = client.post("/sv/james-bond/play/", data)
    assert swedish.status_code == 503 and "Ingenting kan sparas just nu." in swedish.text
    assert not Game.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_site_recovers_by_itself_once_the_database_is_writable(client, database):
    game = start(client, "james-bond")
    database.turn_read_only()
    assert move(client, game, PICK).status_code == 503
    database.turn_writable()
    # The worker's connection was opened read-only and would stay so for CONN_MAX_AGE:
    # the very next move is played all the same.
    response = move(client, game, PICK)
    assert response.status_code == 200 and CANNOT_SAVE not in response.text
    assert LogEntry.objects.get(game=game, kind="human").accepted
    database.turn_read_only()
    assert client.post("/en/james-bond/play/", {"players": "2"}).status_code == 503
    database.turn_writable()
    assert client.post("/en/james-bond/play/", {"players": "2"}).status_code == 303


def test_the_database_tests_pass_on_postgresql():
    """The tests of this module and the NUL test, again with PostgreSQL as the site's
    database (TEST_POSTGRES_URL; .ci/run starts a server for it)."""
    url = os.environ.get("TEST_POSTGRES_URL")
    if not url:
        if os.environ.get("REQUIRE_POSTGRES"):
            pytest.fail("REQUIRE_POSTGRES is set but TEST_POSTGRES_URL is not")
        pytest.skip("no PostgreSQL server: set TEST_POSTGRES_URL (.ci/run starts one)")
    env = {**os.environ, "DATABASE_URL": url}
    env.pop("TEST_POSTGRES_URL")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-k",
            "not postgresql",
            "tests/site/test_read_only.py",
            "tests/site/test_json_nul.py",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert " passed" in done.stdout and "skipped" not in done.stdout


@pytest.mark.django_db(transaction=True)
def test_a_pupils_answer_and_a_teachers_question_say_so_in_their_place(client, database):
    """A class answer or question on a read-only database: the page that sent it shows the
    reason where the answer or question goes (503 with the board), nothing is stored, and
    the same post goes through once the database is writable."""
    from teach.models import Answer, Question

    from .test_teach import join, post_clock
    from .test_teach import start as start_lesson

    lesson = start_lesson(client, "stress-se", seed="3")
    for _ in range(3):
        post_clock(client, lesson, "step")
    pupil = client.__class__()
    join(pupil, lesson, "Ada")
    database.turn_read_only()
    asked = client.post(f"/en/teach/{lesson.pk}/question/", {"command": "ask", "seat": "1"},
                        HTTP_HX_REQUEST="true")
    assert asked.status_code == 503 and "Nothing can be saved right now" in asked.text
    assert asked["X-Game-Version"]  # the board, so the page swaps it in
    database.turn_writable()
    asked = client.post(f"/en/teach/{lesson.pk}/question/", {"command": "ask", "seat": "1"},
                        HTTP_HX_REQUEST="true")
    assert asked.status_code == 200 and Question.objects.filter(lesson=lesson).count() == 1
    database.turn_read_only()
    answer = pupil.post(f"/en/teach/{lesson.pk}/answer/1/",
                        {"action": json.dumps({"type": "call"}), "version": "0"},
                        HTTP_HX_REQUEST="true")
    assert answer.status_code == 503 and answer["X-Game-Version"]
    assert "Your answer cannot be saved right now" in answer.text
    assert not Answer.objects.exists()
