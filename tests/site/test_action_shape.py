"""A hand-made move (#25): the sandbox and the demo read it through one strict check, so a
play with no card, an unknown card, a number or a non-string place is a 400 with the
translated reason, never a 500."""

import json

import pytest

from core.actions import ActionShapeError, read_action

from .test_play_views import move, start

SANDBOX = "/en/stress-se/examples/illegal-plays/try/"
REASON = "That move could not be read, so nothing was changed."
PLAY = {"type": "play", "from": "row-0", "to": "centre-0"}
BAD_ACTIONS = [
    json.dumps({"type": "play"}),
    json.dumps({**PLAY, "card": "ZZ"}),
    json.dumps({**PLAY, "card": "10H"}),
    json.dumps({**PLAY, "card": 5}),
    json.dumps({**PLAY, "card": True}),
    '{"type": "play", "from": "row-0", "to": "centre-0", "card": 1e400}',
    json.dumps({**PLAY, "card": "AS", "from": 5}),
    json.dumps({**PLAY, "card": "AS", "to": ["centre-0"]}),
    json.dumps({**PLAY, "cards": []}),
    json.dumps({**PLAY, "card": "AS", "whole": "yes"}),
    json.dumps({**PLAY, "card": "AS", "n": 10**40}),
    json.dumps({**PLAY, "card": "A\u0000S"}),
]


@pytest.mark.parametrize("raw", BAD_ACTIONS)
def test_the_sandbox_refuses_a_hand_made_action_with_the_reason(client, raw):
    response = client.get(SANDBOX, {"step": 0, "moves": "", "seat": 0, "act": raw})
    assert response.status_code == 400
    assert REASON in response.text


@pytest.mark.django_db
@pytest.mark.parametrize("raw", BAD_ACTIONS)
def test_the_demo_refuses_the_same_action_with_the_reason(client, raw):
    game = start(client)
    data = {"action": raw, "version": str(game.version)}
    response = client.post(f"/en/play/{game.pk}/move/", data, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert REASON in response.text
    game.refresh_from_db()
    assert game.version == 0


@pytest.mark.parametrize("raw", BAD_ACTIONS)
def test_one_check_refuses_them_all(raw):
    with pytest.raises(ActionShapeError):
        read_action(raw)


def test_a_well_formed_action_passes_without_the_server_keys():
    raw = json.dumps({**PLAY, "card": "AS", "t": 5, "player": 1})
    assert read_action(raw) == {**PLAY, "card": "AS"}


@pytest.mark.django_db
def test_a_well_formed_move_still_reaches_the_engine(client):
    game = start(client)
    response = move(client, game, {**PLAY, "card": "AS"})
    assert response.status_code in (200, 409)
