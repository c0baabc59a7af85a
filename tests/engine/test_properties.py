"""Random legal play under random options: cards are conserved, games terminate (a cap
yields a draw), and a game replays identically from its JSON."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine import Action, game_from_json, get_variant, new_game, play_game

SPEED = ["stress-se", "stress-de", "stressi-fi"]
CAP = 300


def options_for(slug):
    strategies = {}
    for spec in get_variant(slug).options:
        if spec.type == "bool":
            strategies[spec.key] = st.booleans()
        else:
            strategies[spec.key] = st.sampled_from(spec.choices)
    return st.fixed_dictionaries(strategies)


games = st.sampled_from(SPEED).flatmap(
    lambda slug: st.tuples(st.just(slug), options_for(slug), st.integers(0, 10**6)))


def random_play(game, rng, record):
    """Random legal actions from random seats at random times; invariants checked each step
    (the game runs in debug mode)."""
    for _ in range(CAP):
        if game.is_over:
            return
        seat = rng.randrange(game.players)
        actions = game.legal_actions(seat) or game.legal_actions(1 - seat)
        deadline = game.next_deadline()
        if not actions or (deadline is not None and rng.random() < 0.3):
            t = deadline if deadline is not None else game.now + rng.randint(1, 500)
            game.advance(t)
            record.append(("advance", t))
            continue
        chosen = rng.choice(actions)
        action = Action(game.now + rng.randint(0, 400), chosen.player, chosen.type,
                        chosen.args)
        game.apply(action)
        record.append(("apply", action))
    if not game.is_over:
        game.finish_draw("cap")


@settings(max_examples=40, deadline=None)
@given(games)
def test_random_play_conserves_cards_and_terminates(case):
    slug, options, seed = case
    game = new_game(slug, seed=seed, options=options, debug=True)
    random_play(game, random.Random(seed), [])
    game.check_invariants()
    assert game.is_over
    assert game.draw or game.winner in (0, 1)


@settings(max_examples=25, deadline=None)
@given(games)
def test_a_game_replays_identically_from_its_json(case):
    slug, options, seed = case
    game = new_game(slug, seed=seed, options=options)
    record = []
    rng = random.Random(seed)
    random_play(game, rng, record)
    twin = new_game(slug, seed=seed, options=options)
    for kind, item in record:
        twin.apply(item) if kind == "apply" else twin.advance(item)
    if not twin.is_over:
        twin.finish_draw("cap")
    assert twin.to_json() == game.to_json()


@settings(max_examples=25, deadline=None)
@given(games, st.integers(1, 60))
def test_a_game_restored_from_json_mid_play_continues_identically(case, cut):
    slug, options, seed = case
    game = new_game(slug, seed=seed, options=options)
    record = []
    random_play(game, random.Random(seed), record)
    replayed = new_game(slug, seed=seed, options=options)
    head, tail = record[:cut], record[cut:]
    for kind, item in head:
        replayed.apply(item) if kind == "apply" else replayed.advance(item)
    restored = game_from_json(replayed.to_json())
    for kind, item in tail:
        restored.apply(item) if kind == "apply" else restored.advance(item)
    if not restored.is_over:
        restored.finish_draw("cap")
    assert restored.to_json() == game.to_json()


@settings(max_examples=12, deadline=None)
@given(games, st.sampled_from(["learner", "club", "expert"]))
def test_bot_games_end_with_no_invariant_violation(case, level):
    slug, options, seed = case
    game, stats = play_game(slug, seed=seed, options=options, levels=(level,),
                            max_actions=3000, check=True)
    assert game.is_over and stats.invariant_violations == 0


def test_bots_are_deterministic_per_seed():
    a = play_game("stress-se", seed=42, levels=("learner", "expert"))[0].to_json()
    b = play_game("stress-se", seed=42, levels=("learner", "expert"))[0].to_json()
    assert a == b
