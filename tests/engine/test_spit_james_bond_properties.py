"""Property tests for spit and james-bond: random legal play under random options conserves
cards and pile shapes (debug mode checks after every action), terminates (an action cap ends
the game as a draw) and replays identically from its JSON and from its action stream."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine import Action, game_from_json, new_game

CAP = 300

jb_options = st.fixed_dictionaries({
    "several_per_grab": st.booleans(),
    "grab_limit": st.sampled_from([2, 3, 4]),
    "say_stikk": st.booleans(),
    "call_word": st.sampled_from(["james-bond", "stress", "atlantis"]),
    "best_of_five": st.booleans(),
    "five_second_rule": st.booleans(),
})


def random_play(game, rng: random.Random, cap: int = CAP) -> list:
    """Random legal actions from random seats at random times; returns the engine calls."""
    stream = []
    for _ in range(cap):
        if game.is_over:
            break
        seats = list(range(game.players))
        rng.shuffle(seats)
        t = game.now + rng.choice((0, 20, 80, 150, 400, 1200))
        if rng.random() < 0.05:
            stream.append(("advance", t + 3000))
            game.advance(t + 3000)
            continue
        for seat in seats:
            legal = game.legal_actions(seat)
            if legal:
                a = rng.choice(legal)
                action = Action(t, seat, a.type, a.args)
                stream.append(("apply", action.to_json()))
                result = game.apply(action)
                # What legal_actions offers at the current time is always accepted, unless
                # time passing (a deadline before t) changed the state first.
                assert result.accepted or result.events or result.reason == "game-over", (
                    result.reason)
                break
        else:
            stream.append(("advance", t + 5000))
            game.advance(t + 5000)
    if not game.is_over:
        game.finish_draw("cap")
    return stream


def replayed(slug, players, seed, options, stream):
    game = new_game(slug, players=players, seed=seed, options=options)
    for kind, item in stream:
        if kind == "apply":
            game.apply(item)
        else:
            game.advance(item)
    if not game.is_over:
        game.finish_draw("cap")
    return game


def _check(slug, players, seed, options, play_seed):
    game = new_game(slug, players=players, seed=seed, options=options, debug=True)
    stream = random_play(game, random.Random(play_seed))
    game.check_invariants()
    assert game.is_over and (game.draw or game.winner is not None)
    state = game.to_json()
    assert game_from_json(state).to_json() == state
    assert replayed(slug, players, seed, options, stream).to_json() == state


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), play_seed=st.integers(0, 10**6),
       repeat=st.booleans())
def test_spit_random_play_conserves_terminates_and_replays(seed, play_seed, repeat):
    _check("spit", 2, seed, {"repeat_choice": repeat}, play_seed)


@settings(max_examples=15, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 10**6),
       play_seed=st.integers(0, 10**6), options=jb_options)
def test_james_bond_random_play_conserves_terminates_and_replays(players, seed, play_seed,
                                                                   options):
    _check("james-bond", players, seed, options, play_seed)


@settings(max_examples=4, deadline=None)
@given(players=st.sampled_from([5, 6, 7, 8]), seed=st.integers(0, 10**6),
       play_seed=st.integers(0, 10**6))
def test_james_bond_second_deck_random_play(players, seed, play_seed):
    _check("james-bond", players, seed, {"second_deck": True}, play_seed)


def test_json_round_trip_mid_game_continues_identically():
    for slug, players in (("spit", 2), ("james-bond", 3)):
        game = new_game(slug, players=players, seed=11)
        random_play(game, random.Random(5), cap=60)
        if game.is_over:
            continue
        clone = game_from_json(game.to_json())
        rng_a, rng_b = random.Random(9), random.Random(9)
        random_play(game, rng_a, cap=200)
        random_play(clone, rng_b, cap=200)
        assert game.to_json() == clone.to_json()
