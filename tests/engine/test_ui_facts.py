"""The UI facts (VariantInfo.ui, Game.ui): what the site needs to know about how a game is
played, stated by the engine and true of its rules."""

import itertools

import pytest

from rules_engine import (
    VARIANTS,
    Action,
    OptionError,
    UiFacts,
    VariantInfo,
    get_variant,
    new_game,
)

SPEED = [slug for slug, info in VARIANTS.items() if info.family == "speed"]


def _option_sets(slug):
    """Every combination of the variant's option values (each schema is small)."""
    specs = VARIANTS[slug].options
    values = [(False, True) if s.type == "bool" else s.choices for s in specs]
    for combo in itertools.product(*values):
        yield dict(zip((s.key for s in specs), combo, strict=True))


@pytest.mark.parametrize("slug", list(VARIANTS))
def test_a_games_facts_are_its_variants_facts_for_its_options(slug):
    info = VARIANTS[slug]
    for options in _option_sets(slug):
        try:
            game = new_game(slug, options=options, seed=1)
        except ValueError:
            continue  # an option set that needs another player count
        assert game.ui == info.ui(options)
        assert isinstance(game.ui, UiFacts)


def test_the_facts_follow_the_options_that_change_them():
    assert VARIANTS["stress-se"].ui({"gentle": True}).gesture == "point"
    assert VARIANTS["stress-se"].ui().gesture == "slap"
    assert VARIANTS["stress-de"].ui({"knocking": True}).gesture == "knock"
    assert VARIANTS["stress-de"].ui().gesture == "shout"
    jb = VARIANTS["james-bond"]
    assert jb.ui().grab_limit == 1
    assert jb.ui({"grab_limit": 3}).grab_limit == 1  # only with several cards per grab
    assert jb.ui({"several_per_grab": True, "grab_limit": 3}).grab_limit == 3
    assert jb.ui({"call_word": "atlantis"}).call_word == "atlantis"


def test_bad_options_are_an_option_error():
    with pytest.raises(OptionError):
        VARIANTS["stress-se"].ui({"gentle": "very"})


@pytest.mark.parametrize("slug", SPEED)
def test_refill_is_an_action_exactly_where_the_rules_take_one(slug):
    game = new_game(slug, seed=3)
    result = game.apply(Action(0, 0, "refill", {}))
    if game.ui.refill_is_action:
        assert result.reason != "not-allowed"
    else:
        assert result.reason == "not-allowed"


@pytest.mark.parametrize("slug", SPEED)
def test_ready_exists_exactly_where_the_facts_say(slug):
    game = new_game(slug, seed=3)
    result = game.apply(Action(0, 0, "ready", {}))
    assert (result.reason != "not-allowed") is game.ui.ready_action


@pytest.mark.parametrize("slug", SPEED)
def test_combine_and_whole_stacks_exist_exactly_where_the_facts_say(slug):
    game = new_game(slug, seed=3)
    combine = game.apply(Action(0, 0, "combine", {"from": "row-0", "to": "row-1"}))
    assert (combine.reason != "not-allowed") is game.ui.combine_allowed
    top = game.rows[0][0][-1]
    whole = game.apply(
        Action(0, 0, "play", {"card": top, "from": "row-0", "to": "centre-0", "whole": True})
    )
    assert (whole.reason != "not-allowed") is game.ui.whole_stack_plays


@pytest.mark.parametrize(("options", "gesture"), [({}, "slap"), ({"gentle": True}, "point")])
def test_the_call_event_carries_the_stated_gesture(options, gesture):
    game = new_game("stress-se", seed=1, options=options)
    assert game.ui.gesture == gesture
    assert game.gesture == gesture


@pytest.mark.parametrize("limit", [1, 2, 3, 4])
def test_a_lay_may_move_up_to_the_grab_limit_and_no_more(limit):
    options = {"several_per_grab": limit > 1, "grab_limit": max(limit, 2)}
    game = new_game("james-bond", seed=2, options=options)
    assert game.ui.grab_limit == limit == game.grab_max()
    pile = game.board(0)["seats"][0]["zones"][0]["id"]
    assert game.apply(Action(0, 0, "pick", {"pile": pile})).accepted
    hand = list(game.hand(0))
    if limit < len(hand):
        assert game.apply(Action(1, 0, "lay", {"cards": hand[: limit + 1]})).reason == "too-many"
    assert game.apply(Action(1, 0, "lay", {"cards": hand[:limit]})).accepted


def test_the_old_class_switches_say_what_the_facts_say():
    for slug in SPEED:
        game = new_game(slug, seed=1)
        ui = game.ui
        assert game.auto_refill is not ui.refill_is_action
        assert (game.whole_stack_plays, game.combine_allowed, game.ready_action) == (
            ui.whole_stack_plays,
            ui.combine_allowed,
            ui.ready_action,
        )
        assert game.call_word == ui.call_word == game.board(None)["call_word"]


def _info(**changes):
    spit = VARIANTS["spit"]
    fields = {
        k: getattr(spit, k)
        for k in (
            "slug",
            "family",
            "players_min",
            "players_max",
            "decks",
            "jokers_max",
            "cards_per_player",
            "source_file",
            "source_language",
            "options",
            "metadata",
            "game_class",
        )
    }
    return VariantInfo(**(fields | changes))


@pytest.mark.parametrize(
    "changes",
    [
        {"gesture": "slap"},  # only Speed-type games have a call gesture
        {"call_word": "spit"},  # Spit calls nothing
        {"refill_is_action": True},
        {"grab_limit": 2},
        {"grab_limit": 0},
        {"family": "speed", "call_word": "stress", "gesture": "wave"},
        {"family": "speed", "call_word": "stress", "gesture": "shout", "slap_own_pile_only": True},
        {"own_pile_across": True},  # only Speed-type games have piles of their own
        {"ui_by_options": lambda options: {"grab_limit": 3}},  # not the defaults' facts
        {"whole_stack_plays": 1},  # not a bool
    ],
)
def test_impossible_facts_are_refused_when_the_variant_is_declared(changes):
    with pytest.raises(ValueError):
        _info(**changes)


def test_the_registry_json_carries_the_default_facts():
    data = VARIANTS["stressi-fi"].to_json()
    assert data["ui"]["slap_own_pile_only"] is True
    assert data["ui"]["own_pile_across"] is True
    assert data["ui"]["call_word"] == "stressi"


@pytest.mark.parametrize("slug", SPEED)
@pytest.mark.parametrize("seat", [0, 1])
def test_a_call_naming_no_pile_goes_on_the_own_pile_the_facts_name(slug, seat):
    position = {
        "centre": [["5C"], ["5D"]],  # equal tops: the call is on
        "seats": [
            {"draw": ["2C", "3C"], "row": [["9H"], ["JH"], ["KS"], ["2S"]]},
            {"draw": ["2D", "3D"], "row": [["9C"], ["JC"], ["KC"], ["2H"]]},
        ],
    }
    game = get_variant(slug).game_class.from_position(position)
    across = game.ui.own_pile_across
    assert across == (slug == "stressi-fi")  # Stressi's own pile is the right-hand one
    result = game.apply(Action(100, seat, "call", {}))
    assert result.accepted, result.reason
    call = next(e for e in result.events if e.code == "call")
    assert call.data["pile"] == f"centre-{1 - seat if across else seat}"


@pytest.mark.parametrize(("options", "gesture"), [({}, "slap"), ({"gentle": True}, "point")])
def test_the_equal_tops_event_names_the_tables_gesture(options, gesture):
    """Round 7 (#24): the narration of equal tops says "slap a pile" or "point at a pile" by the
    table's own gesture, which only the game knows (Gentle Stress is an option)."""
    game = new_game("stress-se", seed=1, options=options)
    game._start_equal_ranks()
    code, _player, data, _t = game._log[-1]
    assert code == "stress" and data["gesture"] == gesture
