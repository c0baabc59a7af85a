"""Another writer holding an SQLite database past the busy timeout (a burst of tables
starting at once, a long write elsewhere): the write that gave up is answered "busy, try
again" (503), nothing is half-stored, and the same write passes once the database is free.
Never a 500."""

from __future__ import annotations

import json
import sqlite3
from contextlib import contextmanager

import pytest
from django.db import connections
from play.models import Game, LogEntry

from .test_play_views import start

pytestmark = pytest.mark.django_db(transaction=True)
PICK = {"type": "pick", "pile": "pile-1"}


@contextmanager
def held_by_another_writer(timeout_s: float = 0.2):
    """A second connection holds the write lock; the site's connections wait `timeout_s`."""
    connection = connections["default"]
    if connection.vendor != "sqlite":
        pytest.skip("SQLite's busy timeout")
    options = connection.settings_dict["OPTIONS"]
    saved = options["timeout"]
    options["timeout"] = timeout_s
    connection.close()  # reopened with the short timeout
    other = sqlite3.connect(connection.settings_dict["NAME"], isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()
        options["timeout"] = saved
        connection.close()


def move(client, game, action):
    return client.post(
        f"/en/play/{game.pk}/move/",
        {"action": json.dumps(action), "version": str(game.version)},
        HTTP_HX_REQUEST="true",
    )


def test_a_move_that_waited_too_long_is_told_busy_and_counts_once_sent_again(client):
    game = start(client)
    entries = LogEntry.objects.filter(game=game).count()
    with held_by_another_writer():
        response = move(client, game, PICK)
    assert response.status_code == 503
    assert "busy" in response.text
    game.refresh_from_db()
    assert LogEntry.objects.filter(game=game).count() == entries
    response = move(client, game, PICK)
    assert response.status_code == 200
    assert Game.objects.get(pk=game.pk).version == game.version + 1


def test_a_page_that_cannot_write_in_time_answers_503_with_retry_after(client):
    with held_by_another_writer():
        response = client.post(
            "/en/stress-se/play/", {"players": "2", "level-2": "expert", "seed": "7"}
        )
    assert response.status_code == 503
    assert response["Retry-After"] == "2"
    assert "Please try again in a moment." in response.text
    assert not Game.objects.exists()
    start(client)  # the same form passes once the database is free
