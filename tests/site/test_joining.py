"""Joining a class (#25): a code too long to guess at the limit, wrong codes limited per
client address and per session (in the configured cache), no joining a finished lesson."""

import pytest
from django.core.cache import caches
from teach import joining
from teach.models import CLASS_CODE_DIGITS, Pupil

from .test_teach import finish, start

pytestmark = pytest.mark.django_db
TOO_MANY = "Too many wrong class codes were tried from here."


@pytest.fixture(autouse=True)
def _fresh_counts():
    caches["default"].clear()
    yield
    caches["default"].clear()


def wrong_code(lesson) -> str:
    return "0" * 12 if lesson.class_code != "0" * 12 else "1" * 12


def join(client, code, nickname="Ada", lang="en", address="10.0.0.1"):
    return client.post(f"/{lang}/class/", {"code": code, "nickname": nickname}, REMOTE_ADDR=address)


def test_the_code_is_twelve_digits_shown_in_groups_of_four(client):
    lesson = start(client)
    assert CLASS_CODE_DIGITS == 12 and len(lesson.class_code) == 12
    assert lesson.class_code.isdigit()
    page = client.get(f"/en/teach/{lesson.pk}/").text
    assert joining.format_code(lesson.class_code) in page
    assert joining.format_code("123456789012") == "1234 5678 9012"
    typed = "-".join(joining.format_code(lesson.class_code).split())  # "1234-5678-9012"
    assert join(client.__class__(), typed).status_code == 303


def test_wrong_codes_are_limited_per_session(client):
    lesson = start(client)
    guesser = client.__class__()
    for _ in range(joining.BY_SESSION.tries):
        response = join(guesser, wrong_code(lesson))
        assert response.status_code == 400 and "No class has this code" in response.text
    # Over the limit even the right code is not looked up.
    refused = join(guesser, lesson.class_code)
    assert refused.status_code == 400 and TOO_MANY in refused.text
    assert not Pupil.objects.exists()
    # Another browser at the same address still joins.
    assert join(client.__class__(), lesson.class_code).status_code == 303


def test_wrong_codes_are_limited_per_address_whatever_the_session(client):
    lesson = start(client)
    for _ in range(joining.BY_ADDRESS.tries):  # a fresh session each time: cookies dropped
        assert join(client.__class__(), wrong_code(lesson)).status_code == 400
    refused = join(client.__class__(), lesson.class_code)
    assert refused.status_code == 400 and TOO_MANY in refused.text
    assert join(client.__class__(), lesson.class_code, address="10.0.0.2").status_code == 303


def test_the_limit_message_is_translated(client):
    lesson = start(client)
    guesser = client.__class__()
    for _ in range(joining.BY_SESSION.tries):
        join(guesser, wrong_code(lesson), lang="sv")
    refused = join(guesser, lesson.class_code, lang="sv")
    assert refused.status_code == 400 and "För många fel klasskoder" in refused.text


def test_a_finished_lesson_takes_no_new_pupil(client):
    lesson = start(client)
    finish(lesson)
    response = join(client.__class__(), lesson.class_code)
    assert response.status_code == 400
    assert "This lesson is over: its class can no longer be joined." in response.text
    assert not Pupil.objects.exists()


# ---------------------------------------------------------------------------- the form
def _form(rf, data, lang="en"):
    from django.contrib.sessions.backends.signed_cookies import SessionStore
    from django.utils import translation

    request = rf.post(f"/{lang}/class/", data, REMOTE_ADDR="10.0.0.9")
    request.session = SessionStore()
    with translation.override(lang):
        form = joining.JoinForm(request, data)
        form.is_valid()
        return form, {k: [str(m) for m in v] for k, v in form.errors.items()}


def test_the_join_form_reads_a_code_typed_in_groups_and_a_nickname(client, rf):
    lesson = start(client)
    for typed in (
        lesson.class_code,
        joining.format_code(lesson.class_code),
        "-".join(joining.format_code(lesson.class_code).split()),
    ):
        form, errors = _form(rf, {"code": f" {typed} ", "nickname": "  Ada   Lovelace "})
        assert errors == {} and form.lesson == lesson
        assert form.cleaned_data == {"code": lesson.class_code, "nickname": "Ada Lovelace"}


def test_the_join_form_names_each_wrong_field_in_the_pages_language(client, rf):
    lesson = start(client)
    _, errors = _form(rf, {"code": "", "nickname": ""})
    # An empty code gets the same message (and the same throttle) as a mistyped one.
    assert errors == {
        "code": ["A class code is twelve digits, as the projector shows it."],
        "nickname": ["Choose a nickname (at most 24 characters)."],
    }
    _, errors = _form(rf, {"code": wrong_code(lesson), "nickname": "Bo"}, lang="de")
    assert list(errors) == ["code"] and errors["code"][0].startswith("Keine Klasse")
    _, errors = _form(rf, {"code": "12", "nickname": "\x00"}, lang="fi")
    assert "twelve" not in errors["code"][0] and "Choose" not in errors["nickname"][0]


def test_a_refused_join_shows_the_form_again_with_its_errors_tied_to_the_fields(client):
    response = join(client, "12345", nickname="  Bo  ")
    assert response.status_code == 400
    page = response.text
    assert 'aria-describedby="join-code_error"' in page and 'id="join-code_error"' in page
    assert 'value="12345"' in page and 'value="Bo"' in page  # the nickname as the class sees it
    assert 'id="join-nickname_error"' not in page
    prefilled = client.get("/en/class/?code=1234-5678-9012&nickname=Ada").text
    assert 'value="1234-5678-9012"' in prefilled and 'value="Ada"' in prefilled
    assert "aria-invalid" not in prefilled
