"""The simulations' fast paths give exactly what the public API gives.

Bots send compact tokens through Game.apply_token, pick with a lazily scored
SpeedAccelerator._bot_pick, and the engine keeps derived state (row top values, fit codes)
and an event log of plain records. Each must agree with the plain path it stands in for,
and every registered Speed game (rules_engine.speed_fast.accelerated) with its rules class
(rules_engine.speed.SpeedGame's readable handlers)."""

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine import Action, Game, InvariantError, new_game, play_game
from tests.engine.test_properties import games

STEPS = 150


def _token_play(slug, options, seed, *, debug=False):
    """Yield (game, seat, t, token) along a random game driven by bot tokens, stale ones
    included (a token kept after the state moved on is what a slow hand sends)."""
    rng = random.Random(seed)
    game = new_game(slug, seed=seed, options=options, debug=debug)
    stale = []
    for _ in range(STEPS):
        if game.is_over:
            return
        seat = rng.randrange(game.players)
        _, tokens = game._bot_scored(seat)
        deadline = game.next_deadline()
        if deadline is not None and rng.random() < 0.3:
            game.advance(deadline)
            continue
        if stale and rng.random() < 0.2:
            seat, token = stale.pop()
        elif tokens:
            token = rng.choice(tokens)
            stale.append((seat, token))
        else:
            game.advance(game.now + rng.randint(1, 300))
            continue
        yield game, seat, game.now + rng.randint(0, 300), token


@settings(max_examples=20, deadline=None)
@given(games)
def test_apply_token_does_exactly_what_apply_does_with_its_action(case):
    slug, options, seed = case
    twin = new_game(slug, seed=seed, options=options)
    steps = 0
    for game, seat, t, token in _token_play(slug, options, seed):
        twin.advance(game.now)  # the time _token_play let pass since the last step
        mark = len(game.log)
        reason = game.apply_token(seat, t, token)
        result = twin.apply(twin.token_action(seat, t, token))
        assert reason == result.reason
        assert game.log[mark:] == result.events
        assert game.position() == twin.position()
        steps += 1
    assert steps
    twin.advance(game.now)
    assert game.to_json() == twin.to_json()


def _rules_twin(game):
    """A game of the plain rules class in the same deal as an accelerated one."""
    rules = type(game).rules
    assert rules is not type(game) and not hasattr(rules, "_bot_tokens")
    twin = rules.new(seed=game.seed, options=game.options)
    assert twin.to_json() == game.to_json()
    return twin


def _same_views(fast, plain):
    assert fast.position() == plain.position() and fast.phase == plain.phase
    assert fast.board(None) == plain.board(None)
    for seat in range(fast.players):
        assert fast.legal_actions(seat) == plain.legal_actions(seat)
        assert fast.bot_candidates(seat) == plain.bot_candidates(seat)


@settings(max_examples=25, deadline=None)
@given(games)
def test_the_accelerated_game_answers_exactly_like_its_rules(case):
    slug, options, seed = case
    fast = new_game(slug, seed=seed, options=options)
    plain = _rules_twin(fast)
    _same_views(fast, plain)
    steps = 0
    for game, seat, t, token in _token_play(slug, options, seed):
        plain.advance(game.now)  # the time _token_play let pass since the last step
        mark = len(game.log)
        reason = game.apply_token(seat, t, token)
        result = plain.apply(game.token_action(seat, t, token))
        assert reason == result.reason
        assert game.log[mark:] == result.events
        _same_views(game, plain)
        # Every row top tried on every pile: the refusals' reasons (equal rank, not
        # adjacent, too slow, frozen ...) are the rules' too.
        row = game.position()["seats"][seat]["row"]
        for k, place in enumerate(row):
            for pile in ("centre-0", "centre-1"):
                if place:
                    play = Action(
                        game.now, seat, "play", {"card": place[-1], "from": f"row-{k}", "to": pile}
                    )
                    assert game.apply(play) == plain.apply(play)  # reason and events
        steps += 1
    assert steps
    plain.advance(game.now)
    assert game.to_json() == plain.to_json()


@pytest.mark.parametrize("slug", ["stress-se", "stress-de", "stressi-fi"])
def test_a_bot_game_of_the_rules_class_is_the_accelerated_one(slug):
    # The same seeded bots, playing the plain rules through Actions, make the same game.
    fast, _ = play_game(slug, seed=5, levels=("learner", "expert"))
    plain, _ = play_game(
        slug, seed=5, levels=("learner", "expert"), game=type(fast).rules.new(seed=5)
    )
    assert plain.to_json() == fast.to_json()


@settings(max_examples=20, deadline=None)
@given(games, st.floats(0.0, 1.0), st.integers(0, 2**32))
def test_the_lazy_bot_pick_draws_and_picks_like_the_plain_one(case, skill, draw_seed):
    slug, options, seed = case
    for game, seat, _t, token in _token_play(slug, options, seed, debug=True):
        for who in range(game.players):
            fast, plain = random.Random(draw_seed), random.Random(draw_seed)
            assert game._bot_pick(who, skill, fast) == Game._bot_pick(game, who, skill, plain)
            assert fast.getstate() == plain.getstate()
        game.apply_token(seat, game.now, token)


def test_a_drifted_fit_code_or_row_value_is_an_invariant_violation():
    game = new_game("stress-se", seed=9, debug=True)
    game.check_invariants()
    drifted = copy.deepcopy(game)
    drifted._fits[0] ^= 1
    try:
        drifted.check_invariants()
    except InvariantError as exc:
        assert "fit codes" in str(exc)
    else:
        raise AssertionError("a wrong fit code went unnoticed")
    drifted = copy.deepcopy(game)
    drifted._row_values[1][2] = 14 if drifted._row_values[1][2] != 14 else 1
    try:
        drifted.check_invariants()
    except InvariantError as exc:
        assert "top values" in str(exc)
    else:
        raise AssertionError("a wrong row value went unnoticed")


def test_a_bad_token_is_rejected_without_changing_the_game():
    spit = new_game("spit", seed=4)
    assert spit.apply_token(0, spit.now, ("dance", {})) == "unknown-action"
    game = new_game("stress-se", seed=4)
    before = game.to_json()
    assert game.apply_token(0, game.now, ("play", 9, 0, False, "7H", None)) == "bad-action"
    assert game.apply_token(5, game.now, ("play", 0, 0, False, "7H", None)) == "bad-player"
    assert game.apply_token(0, game.now, ("dance",)) == "unknown-action"
    assert game.apply_token(0, -1, ("refill", None)) == "out-of-order"
    assert game.to_json() == before


def test_the_speed_games_keep_their_attributes_inline():
    # CPython 3.13 keeps up to 29 instance attributes in the object itself; one more and
    # every self.x in the hot paths becomes a dict lookup (docs/engine.md).
    for slug in ("stress-se", "stress-de", "stressi-fi"):
        assert len(vars(new_game(slug))) <= 29, slug


def test_recorded_bot_streams_replay_through_apply_to_the_same_game():
    for slug in ("stress-se", "stress-de", "stressi-fi", "spit", "james-bond"):
        record = []
        game, _ = play_game(slug, seed=3, record=record)
        twin = new_game(slug, seed=3)
        for entry in record:
            twin.apply(entry.action) if entry.action else twin.advance(entry.t)
        assert twin.to_json() == game.to_json(), slug
