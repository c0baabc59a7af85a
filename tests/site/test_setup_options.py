"""One way to offer an engine option (#20): the house-rules configurator and the demo's and
the teacher's set-up pages draw their option controls from the same view-models
(core.choices), built from the one options form generated from the engine's schema."""

import pytest

from core.choices import OptionField
from core.options import bound_options
from houserules.optionwords import option_fields

pytestmark = pytest.mark.django_db

PAGES = ("house-rules/", "play/", "teach/")


def _fields(client, variant, query):
    return [client.get(f"/en/{variant}/{page}?{query}").context["option_fields"] for page in PAGES]


def _selected(field):
    return [c.value for c in field.choices if c.selected]


def test_every_page_offers_the_options_of_one_form_the_same_way(client):
    # "yes" is read as true; "perhaps" is refused: the game would be played with the default.
    query = "opt-gentle=yes&opt-stacking=perhaps&opt-slap_penalty=slowest-takes-both"
    configurator, demo, lesson = _fields(client, "stress-se", query)
    assert configurator == demo == lesson
    assert all(type(f) is OptionField for f in configurator)
    fields = {f.key: f for f in configurator}
    assert _selected(fields["gentle"]) == ["true"]
    assert _selected(fields["slap_penalty"]) == ["slowest-takes-both"]
    assert _selected(fields["stacking"]) == ["true"]  # the default, beside the message
    assert fields["stacking"].errors == ("Choose one of the values listed here.",)
    assert [c.default for c in fields["slap_penalty"].choices] == [True, False]
    assert fields["slap_penalty"].rules_url == "/en/stress-se/#opt-slap_penalty"


def test_the_configurator_marks_the_value_the_game_is_played_with(client):
    page = client.get("/en/stress-se/house-rules/?opt-stacking=perhaps").text
    assert (
        '<input type="radio" id="opt-stacking-true" name="opt-stacking" value="true" checked>'
        in page
    )


def test_the_fields_follow_the_engines_schema_in_its_order(client):
    from rules_engine.registry import VARIANTS

    for variant, info in VARIANTS.items():
        fields = option_fields(bound_options(variant, {}), "en")
        assert [f.key for f in fields] == [s.key for s in info.options]
        assert all(f.input_name == f"opt-{f.key}" and not f.errors for f in fields)
        assert all(sum(c.selected for c in f.choices) == 1 for f in fields)
