"""The public API the site is written against: registry, options, state, views."""

import json

import pytest

from rules_engine import Action, OptionError, PositionError
from rules_engine.registry import (
    METADATA_KEYS,
    VARIANTS,
    UnknownVariant,
    game_from_json,
    game_from_position,
    get_variant,
    new_game,
    to_json,
    validate_options,
)

SPEED = ["stress-se", "stress-de", "stressi-fi"]
SITE_ORDER = ["stress-se", "james-bond", "spit", "stress-de", "stressi-fi"]

CONTENT_OPTION_KEYS = {
    "stress-se": {
        "stacking": None,
        "slap_penalty": ("first-chooses", "slowest-takes-both"),
        "one_empty_stuck": ("one-turns", "give-a-card"),
        "both_empty_stuck": ("take-own-side", "fewer-cards-wins"),
        "gentle": None,
    },
    "stress-de": {
        "jokers": (0, 2, 3, 4),
        "knocking": None,
        "false_call_penalty": None,
        "scoring": None,
        "both_empty_stuck": ("take-own-side", "fewer-cards-wins"),
    },
    "stressi-fi": {
        "after_slap_house_rule": None,
        "both_empty_house_rule": None,
        "ace_low_only": None,
    },
}


def test_registry_keeps_the_sites_display_order():
    assert list(VARIANTS) == [s for s in SITE_ORDER if s in VARIANTS]
    assert set(SPEED) <= set(VARIANTS)


@pytest.mark.parametrize("slug", SPEED)
def test_option_keys_and_choices_match_the_content_readme(slug):
    specs = {s.key: s for s in get_variant(slug).options}
    assert set(specs) == set(CONTENT_OPTION_KEYS[slug])
    for key, choices in CONTENT_OPTION_KEYS[slug].items():
        if choices is None:
            assert specs[key].type == "bool"
        else:
            assert specs[key].choices == choices


def test_option_defaults_follow_the_open_defaults():
    assert validate_options("stress-se", {}) == {
        "stacking": True, "slap_penalty": "first-chooses", "one_empty_stuck": "one-turns",
        "both_empty_stuck": "take-own-side", "gentle": False,
    }
    assert validate_options("stress-de", {})["jokers"] == 0
    assert validate_options("stressi-fi", {}) == {
        "after_slap_house_rule": True, "both_empty_house_rule": True, "ace_low_only": False,
    }


def test_an_unknown_option_names_the_key_and_lists_the_valid_ones():
    with pytest.raises(OptionError) as err:
        validate_options("stress-se", {"stackin": True})
    assert "stackin" in str(err.value) and "slap_penalty" in str(err.value)


def test_a_bad_value_names_the_option_and_lists_the_valid_values():
    with pytest.raises(OptionError) as err:
        validate_options("stress-se", {"slap_penalty": "loudest"})
    assert "slap_penalty" in str(err.value) and "slowest-takes-both" in str(err.value)
    with pytest.raises(OptionError):
        validate_options("stress-de", {"jokers": 1})
    with pytest.raises(OptionError):
        validate_options("stressi-fi", {"ace_low_only": "yes"})


def test_options_from_strings_parse_booleans_and_integers():
    opts = validate_options("stress-de", {"jokers": "3", "knocking": "true"}, from_strings=True)
    assert opts["jokers"] == 3 and opts["knocking"] is True


def test_new_game_validates_options_and_player_count():
    with pytest.raises(OptionError):
        new_game("stress-se", options={"nope": 1})
    with pytest.raises(ValueError):
        new_game("stress-se", players=3)
    with pytest.raises(UnknownVariant):
        get_variant("snap")


@pytest.mark.parametrize("slug", SPEED)
def test_metadata_has_every_dimension_with_code_params_and_section(slug):
    meta = get_variant(slug).metadata
    assert tuple(meta) == METADATA_KEYS
    anchors = {"about", "equipment", "deal", "start", "moves", "equal-ranks", "win-call",
               "deal-end", "stuck", "running-out", "winning", "options"}
    for cell in meta.values():
        assert cell["section"] in anchors
        json.dumps(cell["params"])


def test_metadata_codes_differ_where_the_variants_differ():
    se, de, fi = (get_variant(s).metadata for s in SPEED)
    assert se["equal_ranks"]["code"] == "slap-first-chooses"
    assert de["equal_ranks"]["code"] == fi["equal_ranks"]["code"] == "slower-takes-both"
    assert se["legal_move"]["code"] == de["legal_move"]["code"] == "one-card-adjacent-wrap"
    assert fi["legal_move"]["code"] == "top-or-whole-stack-adjacent"
    assert se["decks"]["code"] != de["decks"]["code"]


def test_registry_json_lists_variants_and_option_schemas():
    data = json.loads(json.dumps(to_json()))
    slugs = [v["slug"] for v in data["variants"]]
    assert slugs[0] == "stress-se"
    se = data["variants"][0]
    assert se["options"][0]["key"] == "stacking" and se["source_language"] == "sv"


@pytest.mark.parametrize("slug", SPEED)
def test_json_round_trip_is_exact_and_keeps_the_rng(slug):
    game = new_game(slug, seed=11)
    for _ in range(30):
        acts = game.legal_actions(0) + game.legal_actions(1)
        if not acts or game.is_over:
            break
        a = acts[0]
        game.apply(Action(game.now + 250, a.player, a.type, a.args))
        game.advance(game.now + 200)
    data = json.loads(json.dumps(game.to_json()))
    twin = game_from_json(data)
    assert twin.to_json() == game.to_json()
    assert twin.rng.random() == game.rng.random()


@pytest.mark.parametrize("slug", SPEED)
def test_position_round_trip(slug):
    game = new_game(slug, seed=5)
    twin = game_from_position(slug, game.position(), options=game.options)
    assert twin.position() == game.position()
    assert twin.board(None)["centre"] == game.board(None)["centre"]


def test_a_malformed_position_is_refused():
    with pytest.raises(PositionError):
        game_from_position("stress-se", {"centre": [["7H"]], "seats": [{}, {}]})
    with pytest.raises(PositionError):
        game_from_position("stress-se", {"centre": [["7H"], ["ZZ"]], "seats": [
            {"draw": [], "row": [["8S"], [], [], []]}, {"draw": [], "row": [["9S"], [], [], []]}]})


@pytest.mark.parametrize("slug", SPEED)
def test_a_rejected_action_changes_nothing(slug):
    game = new_game(slug, seed=2)
    before = game.to_json()
    for bad in (
        Action(game.now + 10, 0, "play", {"card": "QQ", "from": "row-0", "to": "centre-0"}),
        Action(game.now + 10, 0, "fly", {}),
        Action(game.now + 10, 5, "call", {}),
        {"t": "soon", "player": 0, "type": "call"},
    ):
        result = game.apply(bad)
        assert not result.accepted and result.reason
        assert game.to_json() == before


def test_reason_codes_for_malformed_input():
    game = new_game("stress-se", seed=2)
    assert game.apply(Action(10, 0, "fly", {})).reason == "unknown-action"
    assert game.apply({"player": 0}).reason == "bad-action"
    assert game.apply(Action(10, 7, "call", {})).reason == "bad-player"
    assert game.apply(Action(10, 0, "play", {"card": 7})).reason == "bad-action"


@pytest.mark.parametrize("slug", SPEED)
def test_every_legal_action_is_accepted(slug):
    for seed in range(5):
        game = new_game(slug, seed=seed)
        for seat in (0, 1):
            for action in game.legal_actions(seat):
                twin = game.copy()
                assert twin.apply(action).accepted, action


def test_board_hides_face_down_cards_except_in_the_teaching_view():
    game = new_game("stress-se", seed=4)
    draw = game.board(viewer=0)["seats"][0]["zones"][0]
    assert draw["id"] == "draw" and draw["count"] > 0
    assert all(c == {"card": None, "up": False} for c in draw["cards"])
    teaching = game.board(None)["seats"][0]["zones"][0]
    assert all(c["card"] and c["up"] is False for c in teaching["cards"])
    assert game.observation(1) == game.board(viewer=1)
    board = game.board()
    assert [z["id"] for z in board["centre"]] == ["centre-0", "centre-1"]
    assert [z["id"] for z in board["seats"][1]["zones"]] == [
        "draw", "row-0", "row-1", "row-2", "row-3"]
    assert board["phase"] in ("play", "equal-ranks")



@pytest.mark.parametrize(("slug", "word"), [
    ("stress-se", "stress"), ("stress-de", "stress"), ("stressi-fi", "stressi")])
def test_a_speed_board_names_the_word_its_players_call(slug, word):
    """Stressi's players call "Stressi!" (the Finnish source); the site only shows the word."""
    assert new_game(slug, seed=1).board(viewer=0)["call_word"] == word

def test_action_json_is_flat_and_round_trips():
    a = Action(120, 1, "play", {"card": "7H", "from": "row-2", "to": "centre-0"})
    assert a.to_json() == {"t": 120, "player": 1, "type": "play", "card": "7H",
                           "from": "row-2", "to": "centre-0"}
    assert Action.from_json(a.to_json()) == a


def test_gentle_mode_points_instead_of_slapping():
    from rules_engine.scenario import replay
    steps = replay("tests/engine/scenarios/se-gentle.json")
    call = next(e for s in steps for e in s.events if e.code == "call")
    assert call.data["gesture"] == "point"


def test_stressi_layout_never_leaves_equal_open_cards_apart_at_the_deal():
    for seed in range(30):
        game = new_game("stressi-fi", seed=seed)
        for row in game.rows:
            ranks = [p[-1][0] for p in row if p]
            assert len(ranks) == len(set(ranks)) == 4


def test_stressi_right_hand_piles():
    game = new_game("stressi-fi", seed=1)
    assert game.home_pile(0) == 1 and game.home_pile(1) == 0


def test_stress_de_jokers_are_dealt_one_per_deck():
    game = new_game("stress-de", seed=1, options={"jokers": 2})
    assert game.cards_left(0) + game.cards_left(1) + 2 == 106
    assert sorted(game._all_cards()).count("X") == 2


def test_garbage_arguments_are_bad_actions_not_exceptions():
    game = new_game("stressi-fi", seed=2)
    before = game.to_json()
    for args in ({"pile": ["centre-0"]}, {"card": "7H", "from": ["row-0"], "to": "centre-0"},
                 {"from": {}, "to": "row-1"}):
        for kind in ("call", "play", "combine", "refill"):
            result = game.apply(Action(game.now + 5, 0, kind, args))
            assert not result.accepted
    assert game.apply(Action("5", 0, "call", {})).reason == "bad-action"
    assert game.to_json() == before


def test_a_joker_on_one_centre_pile_makes_a_stress_in_the_other_tops_rank():
    """The event names the rank that counts (the joker takes the other top's), so a story
    never says both piles show "joker" when one shows a seven."""
    from pathlib import Path

    from rules_engine.actions import Action
    from rules_engine.scenario import load

    scenario = load(Path(__file__).parent / "scenarios" / "de-jokers.json")
    game = scenario.new_game()
    result = game.apply(Action.from_json(
        {"t": 400, "player": 0, "type": "play", "card": "X", "from": "row-0", "to": "centre-1"}))
    stress = [e.to_json() for e in result.events if e.code == "stress"]
    assert len(stress) == 1
    assert stress[0]["rank"] == "7" and stress[0]["joker"] is True


@pytest.mark.parametrize("name", ["fi-stress.json", "fi-stress-tie.json", "de-jokers.json"])
def test_a_player_taking_centre_piles_is_told_the_centre_cards_only(name):
    """Mixed into the taker's draw pile, the count once included that draw pile too."""
    from pathlib import Path

    from rules_engine.actions import Action
    from rules_engine.scenario import STEP_KEYS, load

    scenario = load(Path(__file__).parent / "scenarios" / name)
    game = scenario.new_game()
    told = 0
    for raw in scenario.steps:
        sizes = {pile["id"]: pile["count"] for pile in game.board(None)["centre"]}
        if "advance" in raw:
            events = game.advance(raw["advance"])
        else:
            events = game.apply(Action.from_json(
                {k: v for k, v in raw.items() if k not in STEP_KEYS})).events
            if raw["type"] != "call":
                continue  # a play changes the piles before any taking: sizes are stale
        for event in (e.to_json() for e in events):
            if event["code"] in ("took", "penalty") and "piles" in event:
                assert event["count"] == sum(sizes[p] for p in event["piles"]), event
                told += 1
    assert told


def test_a_call_just_after_a_settled_stress_is_too_slow_only_for_the_one_who_did_not_call():
    """The caller who won it is told they already called, not that someone was first."""
    from pathlib import Path

    from rules_engine.actions import Action
    from rules_engine.scenario import load
    from rules_engine.speed import LATE_CALL_MS, TIE_WINDOW_MS

    game = load(Path(__file__).parent / "scenarios" / "fi-stress.json").new_game()
    play = {"type": "play", "card": "8D", "from": "row-0", "to": "centre-0"}
    assert game.apply(Action.from_json({"t": 500, "player": 0, **play})).accepted
    call = {"type": "call", "pile": "centre-1"}
    assert game.apply(Action.from_json({"t": 900, "player": 0, **call})).accepted
    settled = 900 + TIE_WINDOW_MS
    game.advance(settled)
    assert game.board(None)["phase"] != "equal-ranks"
    late = settled + LATE_CALL_MS // 2
    again = game.copy().apply(Action.from_json({"t": late, "player": 0, **call}))
    other = game.copy().apply(Action.from_json({"t": late, "player": 1, **call}))
    assert (again.accepted, again.reason) == (False, "already-called")
    assert (other.accepted, other.reason) == (False, "too-slow")


def test_the_package_exports_its_public_api():
    import typing

    import rules_engine
    from rules_engine import registry

    assert sorted(rules_engine.__all__) == sorted(set(rules_engine.__all__))
    for name in rules_engine.__all__:
        assert hasattr(rules_engine, name), name
    # The entry points say what they return (a Game, not Any).
    for fn in (registry.new_game, registry.game_from_position, registry.game_from_json):
        assert typing.get_type_hints(fn)["return"] is rules_engine.Game
    assert typing.get_type_hints(registry.game_class)["return"] == type[rules_engine.Game]
    assert issubclass(rules_engine.game_class("spit"), rules_engine.Game)


def test_equal_actions_hash_equal_and_key_a_set():
    from rules_engine import Action

    a = Action(5, 0, "play", {"card": "5H", "to": "centre-0"})
    b = Action(5, 0, "play", {"to": "centre-0", "card": "5H"})
    c = Action(5, 0, "play", {"card": "6H", "to": "centre-0"})
    nested = Action(0, 1, "x", {"cards": ["5H", "6H"], "where": {"pile": 1}})
    assert a == b and hash(a) == hash(b)
    assert len({a, b, c}) == 2
    assert {nested: 1}[Action(0, 1, "x", {"where": {"pile": 1}, "cards": ["5H", "6H"]})] == 1
    assert hash(nested) != hash(Action(0, 1, "x", {"cards": ("5H",), "where": {"pile": 1}}))


@pytest.mark.parametrize("slug", list(VARIANTS))
def test_repr_says_variant_phase_and_centre_tops(slug):
    game = new_game(slug, seed=1)
    tops = [z["cards"][-1]["card"] for z in game.board(None)["centre"] if z["cards"]]
    text = repr(game)
    assert slug in text and f"phase={game.phase}" in text
    assert tops and all(card in text for card in tops)
