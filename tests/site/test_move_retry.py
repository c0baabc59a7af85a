"""A killed worker loses only the requests in flight (#25): the page sends a move whose
answer never came once more, with the same version, and the server answers the repeat as
the same move: played once, not a second move, not "an older view" refusal."""

import json

import pytest
from play import service
from play.models import Game, LogEntry

from .test_play_views import start

pytestmark = pytest.mark.django_db
PICK = {"type": "pick", "pile": "pile-1"}


def send(client, game, action, version):
    return client.post(
        f"/en/play/{game.pk}/move/",
        {"action": json.dumps(action), "version": str(version)},
        HTTP_HX_REQUEST="true",
    )


def human_moves(game) -> list[LogEntry]:
    return list(LogEntry.objects.filter(game=game, kind="human"))


def test_a_move_sent_again_with_the_same_version_is_the_same_move(client):
    game = start(client, "james-bond")
    first = send(client, game, PICK, game.version)
    assert first.status_code == 200 and "game__message" not in first.text
    again = send(client, game, PICK, game.version)  # the answer to the first was lost
    assert again.status_code == 200
    assert "game__message" not in again.text  # no refusal, no "older view"
    moves = human_moves(game)
    assert len(moves) == 1 and moves[0].accepted


def test_another_move_from_the_old_view_is_still_refused_as_stale(client):
    game = start(client, "james-bond")
    send(client, game, PICK, game.version)
    other = send(client, game, {"type": "pick", "pile": "pile-2"}, game.version)
    assert other.status_code == 409 and "older view of the table" in other.text
    assert len(human_moves(game)) == 1


def test_the_service_applies_a_repeat_once(client):
    game = start(client, "james-bond")
    row = Game.objects.get(pk=game.pk)
    wall = row.clock_at
    first = service.play(row.pk, wall, seat=0, version=row.version, action=dict(PICK)).value
    assert first.result.accepted and not first.repeated
    again = service.play(row.pk, wall, seat=0, version=row.version, action=dict(PICK)).value
    assert again.repeated and again.refusal is None and again.result is None
    assert len(human_moves(game)) == 1
