"""A NUL inside a move's or a class answer's JSON (#25): PostgreSQL's jsonb cannot store
`\\u0000`, so such a move answered 500 there. It is refused as unreadable (400, translated),
on every database, and nothing is stored.

Run on PostgreSQL with DATABASE_URL=$TEST_POSTGRES_URL (.ci/run does): the 500 only shows
there; on SQLite the same tests fail without the fix because the move is judged (200)
instead of refused."""

import json

import pytest
from play.models import LogEntry
from teach.models import Answer

from . import test_teach
from .test_play_views import start

pytestmark = pytest.mark.django_db
# Each escapes to `\u0000` in the JSON text: no NUL byte in the form field itself.
WITH_NUL = [
    {"type": "pick\u0000", "pile": "pile-1"},
    {"type": "pick", "pile": "pile-1\u0000"},
    {"type": "pick", "pile": "pile-1", "note\u0000": True},
    {"type": "play", "from": "row-0", "to": "centre-0", "cards": ["AS", "2S\u0000"]},
    {"type": "put-back", "extra": ["\u0000"]},
]
DEMO_REASON = {
    "en": "That move could not be read, so nothing was changed.",
    "sv": "Draget gick inte att läsa, så ingenting ändrades.",
}


@pytest.mark.parametrize("action", WITH_NUL)
def test_a_nul_in_a_demo_move_is_unreadable_and_stores_nothing(client, action):
    game = start(client, "james-bond")
    raw = json.dumps(action)
    assert "\\u0000" in raw and "\x00" not in raw
    response = client.post(
        f"/en/play/{game.pk}/move/", {"action": raw, "version": "0"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 400
    assert DEMO_REASON["en"] in response.text
    game.refresh_from_db()
    assert game.version == 0 and not LogEntry.objects.filter(game=game).exists()


def test_the_reason_is_translated(client):
    game = start(client, "james-bond", lang="sv")
    response = client.post(
        f"/sv/play/{game.pk}/move/",
        {"action": json.dumps(WITH_NUL[1]), "version": "0"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 400
    assert DEMO_REASON["sv"] in response.text


@pytest.mark.parametrize("action", WITH_NUL)
def test_a_nul_in_a_class_answer_is_unreadable_and_stores_nothing(client, action):
    lesson = test_teach.start(client)
    client.post(f"/en/teach/{lesson.pk}/question/", {"command": "ask", "seat": "0"})
    pupil = client.__class__()
    test_teach.join(pupil, lesson, "Ada")
    response = pupil.post(
        f"/en/teach/{lesson.pk}/answer/1/",
        {"action": json.dumps(action), "version": "0"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 400
    assert "That answer could not be read, so nothing was changed." in response.text
    assert not Answer.objects.exists()
