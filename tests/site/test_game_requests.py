"""The requests a game page sends are forms: numbers in ASCII digits only, a move as a
checked action, a clock command with its pace; whatever does not validate changes nothing.
A refusal to a browser that does not control a lesson says why (PermissionDenied)."""

import json

import pytest
from django.test import Client
from django.utils import translation
from play.forms import ClockForm, MoveForm, SinceForm
from play.models import Game
from teach.models import Lesson

from presentation.table import PRESENTERS
from rules_engine.registry import VARIANTS

from .test_play_views import legal_action, start, unchanged

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("raw", ["٣", "²", " 3", "3 ", "1_0", "-1", "+1", "1234567890", "x"])
def test_a_version_is_ascii_digits_only(raw):
    assert not MoveForm({"action": '{"type": "call"}', "version": raw}).is_valid()
    assert not ClockForm({"command": "pause", "version": raw}).is_valid()
    assert not SinceForm({"since": raw}).is_valid()


def test_request_forms_share_their_fields_and_keep_their_own_data():
    # A move over a game's socket builds a form per frame: the forms share the fields
    # (Django would copy them for each form), each reads its own request.
    good = MoveForm({"action": '{"type": "call"}', "version": "3"})
    bad = MoveForm({"action": "not json", "version": "4"})
    assert good.fields["action"] is bad.fields["action"] is MoveForm.base_fields["action"]
    assert good.fields is not bad.fields and good.fields is not MoveForm.base_fields
    assert good.is_valid() and not bad.is_valid()
    assert good.cleaned_data == {"action": {"type": "call"}, "version": 3}
    assert list(bad.errors) == ["action"] and bad.cleaned_data == {"version": 4}
    # a form-wide rule still holds (ClockForm: a pace for "speed")
    assert not ClockForm({"command": "speed", "version": "1"}).is_valid()


def test_a_move_form_gives_the_checked_action_and_the_version():
    form = MoveForm({"action": '{"type": "call", "player": 1, "t": 9}', "version": "12"})
    assert form.is_valid()
    # the server fills in the player and the time itself
    assert form.cleaned_data == {"action": {"type": "call"}, "version": 12}


def test_a_speed_command_needs_one_of_the_offered_paces(settings):
    assert not ClockForm({"command": "speed", "version": "1"}).is_valid()
    assert not ClockForm({"command": "speed", "version": "1", "value": "7"}).is_valid()
    form = ClockForm({"command": "speed", "version": "1", "value": "0.5"})
    assert form.is_valid()
    assert form.service_args() == {
        "clock_command": "speed",
        "version": 1,
        "speed": 0.5 * settings.PLAY_CLOCK_SPEED,
    }


@pytest.mark.parametrize("version", ["١", "1_0", " 1"])
def test_a_move_with_a_version_in_other_digits_changes_nothing(client, version):
    game = start(client)
    data = {"action": json.dumps(legal_action(game)), "version": version}
    response = client.post(f"/en/play/{game.pk}/move/", data, HTTP_HX_REQUEST="true")
    assert response.status_code == 400 and unchanged(game)


def test_a_browser_that_does_not_control_a_lesson_is_told_why(client):
    response = client.post(
        "/en/stress-se/teach/",
        {"mode": "watch", "players": "2", "level-1": "club", "level-2": "club"},
    )
    lesson = Lesson.objects.get(pk=response["Location"].rstrip("/").split("/")[-1])
    row = Game.objects.get(pk=lesson.pk)
    response = Client().post(
        f"/en/teach/{lesson.pk}/clock/", {"command": "resume", "version": str(row.version)}
    )
    assert response.status_code == 403
    assert response.text == "Only the teacher&#x27;s browser controls this game."
    sv = Client().post(
        f"/sv/teach/{lesson.pk}/question/",
        {"command": "ask", "seat": "0", "version": str(row.version)},
    )
    assert sv.status_code == 403 and "Only the teacher" not in sv.text  # translated
    assert Game.objects.get(pk=lesson.pk).version == row.version


def test_every_engine_family_has_a_table_presenter():
    assert {info.family for info in VARIANTS.values()} <= set(PRESENTERS)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_options_form_has_one_field_per_option_of_the_engine_schema(variant):
    from core.options import OPTION_PREFIX, options_form

    form = options_form(variant)()
    assert list(form.fields) == [OPTION_PREFIX + spec.key for spec in VARIANTS[variant].options]


def test_the_options_form_takes_what_the_engine_takes_and_names_the_rest():
    from core.options import check_options

    with translation.override("en"):
        options, errors = check_options(
            "stress-de", {"jokers": "2", "knocking": "yes", "scoring": "perhaps", "nope": "1"}
        )
    assert options["jokers"] == 2 and options["knocking"] is True
    assert options["scoring"] is False  # refused, so the engine's default
    assert errors == {
        "opt-scoring": ["Choose one of the values listed here."],
        "options": ["This game has no option called “nope”."],
    }


@pytest.mark.parametrize(
    ("players", "error"),
    [
        ("٣", "Choose the number of players from the list."),
        ("9", "With these rules the game is for 2–4 players."),
        ("3", None),
    ],
)
def test_the_set_up_form_reads_the_players_in_ascii_digits(players, error):
    from django.http import QueryDict
    from play.setup import parse_setup

    with translation.override("en"):
        setup = parse_setup("james-bond", QueryDict(f"players={players}"))
    assert setup.errors.get("players") == error
