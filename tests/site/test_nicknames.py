"""One pupil per browser per lesson, and nicknames that read the same are one pupil (#25):
a browser could join 30 times under 30 names and stuff the tally; "Ada" in Cyrillic letters,
with a non-breaking hyphen or with combining accents passed as a different pupil."""

import pytest
from django.core.cache import caches
from teach.models import Pupil
from teach.nicknames import nickname_key

from .test_teach import start

pytestmark = pytest.mark.django_db

SAME_AS_ADA = [
    "ADA",
    "ada",
    " Ada ",
    "\u0410da",  # Cyrillic capital A
    "Ad\u0430",  # Cyrillic small a
    "\u0391da",  # Greek capital alpha
    "A\u0301da",  # combining acute accent
    "Ádá",
    "\uff21\uff44\uff41",  # full-width
]
SAME_AS_JO_ANN = ["Jo Ann", "Jo\u2011Ann", "Jo\u2013Ann", "jo_ann", "J\u043e-Ann", "Jo\u00a0Ann"]


@pytest.mark.parametrize("name", SAME_AS_ADA)
def test_look_alikes_of_ada_have_adas_key(name):
    assert nickname_key(name) == nickname_key("Ada") == "ada"


@pytest.mark.parametrize("name", SAME_AS_JO_ANN)
def test_dash_and_space_variants_are_one_name(name):
    assert nickname_key(name) == nickname_key("Jo-Ann")


@pytest.mark.parametrize(
    "a, b", [("Ada", "Ida"), ("Bo", "Bob"), ("Ann", "Anna"), ("Åsa", "Asa1"), ("Lee", "Leo")]
)
def test_different_names_stay_different(a, b):
    assert nickname_key(a) != nickname_key(b)


@pytest.fixture(autouse=True)
def _fresh_counts():
    caches["default"].clear()


def join(client, lesson, nickname):
    return client.post("/en/class/", {"code": lesson.class_code, "nickname": nickname})


@pytest.mark.parametrize("name", [*SAME_AS_ADA[1:], "\u0410\u0434\u0430"])
def test_a_look_alike_of_a_taken_nickname_is_taken(client, name):
    lesson = start(client)
    assert join(client.__class__(), lesson, "Ada").status_code == 303
    taken = join(client.__class__(), lesson, name)
    assert taken.status_code == 400 and "already has this nickname" in taken.text
    assert Pupil.objects.filter(lesson=lesson).count() == 1


def test_one_browser_is_one_pupil_whatever_names_it_joins_under(client):
    lesson = start(client)
    phone = client.__class__()
    for n in range(30):
        assert join(phone, lesson, f"Pupil {n}").status_code == 303
    pupils = Pupil.objects.filter(lesson=lesson)
    assert pupils.count() == 1
    assert pupils.get().nickname == "Pupil 29"  # the last name chosen is the one shown


def test_a_browser_cannot_rename_itself_to_a_nickname_taken_by_another(client):
    lesson = start(client)
    join(client.__class__(), lesson, "Ada")
    phone = client.__class__()
    join(phone, lesson, "Bo")
    again = join(phone, lesson, "\u0430da")
    assert again.status_code == 400 and "already has this nickname" in again.text
    assert sorted(Pupil.objects.values_list("nickname", flat=True)) == ["Ada", "Bo"]


def test_a_nickname_of_marks_and_dashes_only_is_no_nickname(client):
    lesson = start(client)
    response = join(client.__class__(), lesson, "\u0301\u2011 -")
    assert response.status_code == 400 and "Choose a nickname" in response.text
