"""One set of clock rules for a lesson, whichever route (#25): the teacher's browser holds a
seat in "the teacher against bots", so the demo's /play/<id>/clock/ takes its commands too;
a step there while a class question is open is refused like on the lesson's own route, and
a resume there ends the question as the lesson's does."""

import pytest
from play.models import Game
from teach.models import Question

from .test_teach import start

pytestmark = pytest.mark.django_db
HELD = "Close the question before going on to the next step."


def clock(client, lesson, command, route="play"):
    row = Game.objects.get(pk=lesson.pk)
    prefix = "play" if route == "play" else "teach"
    return client.post(
        f"/en/{prefix}/{lesson.pk}/clock/",
        {"command": command, "version": str(row.version)},
        HTTP_HX_REQUEST="true",
    )


def ask(client, lesson):
    response = client.post(f"/en/teach/{lesson.pk}/question/", {"command": "ask", "seat": "1"})
    assert response.status_code == 200


@pytest.mark.parametrize("route", ["play", "teach"])
def test_no_step_while_a_class_question_is_open_on_either_route(client, route):
    lesson = start(client, mode="teacher")
    ask(client, lesson)
    before = Game.objects.get(pk=lesson.pk)
    refused = clock(client, lesson, "step", route)
    assert refused.status_code == 409 and HELD in refused.text
    after = Game.objects.get(pk=lesson.pk)
    assert (after.version, after.log_length) == (before.version, before.log_length)
    client.post(f"/en/teach/{lesson.pk}/question/", {"command": "close"})
    assert clock(client, lesson, "step", route).status_code == 200


@pytest.mark.parametrize("route", ["play", "teach"])
def test_a_resume_on_either_route_ends_the_question(client, route):
    lesson = start(client, mode="teacher")
    ask(client, lesson)
    assert clock(client, lesson, "resume", route).status_code == 200
    assert Question.objects.get(lesson=lesson).state == Question.CLOSED
    assert not Game.objects.get(pk=lesson.pk).paused


def test_a_demo_game_without_a_lesson_steps_as_before(client):
    from .test_play_views import start as start_demo

    game = start_demo(client, "james-bond")
    pause = client.post(
        f"/en/play/{game.pk}/clock/", {"command": "pause", "version": "0"}, HTTP_HX_REQUEST="true"
    )
    assert pause.status_code == 200
    row = Game.objects.get(pk=game.pk)
    step = client.post(
        f"/en/play/{game.pk}/clock/",
        {"command": "step", "version": str(row.version)},
        HTTP_HX_REQUEST="true",
    )
    assert step.status_code == 200
