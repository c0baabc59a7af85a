"""james-bond specifics: players and decks, the hidden-information view, bots."""

from collections import Counter

import pytest

from rules_engine import (
    METADATA_KEYS,
    Action,
    PositionError,
    game_from_json,
    game_from_notation,
    get_variant,
    new_game,
    play_game,
    simulate,
)
from rules_engine.variants.james_bond import removed_groups


def test_registry_entry_and_option_schema():
    info = get_variant("james-bond")
    assert [o.key for o in info.options] == [
        "several_per_grab", "grab_limit", "say_stikk", "call_word", "best_of_five",
        "five_second_rule", "second_deck"]
    # The Norwegian source calls «Stress»; «James Bond» is one of the other words.
    assert info.option("call_word").default == "stress"
    assert info.option("grab_limit").default == 2
    assert tuple(info.metadata) == METADATA_KEYS


@pytest.mark.parametrize(("players", "piles"), [(2, 6), (3, 4), (4, 3)])
def test_one_deck_deal(players, piles):
    game = new_game("james-bond", players=players, seed=1)
    assert game.n_piles == piles and len(game.middle) == 4
    assert all(len(p) == 4 for ps in game.piles for p in ps)
    assert sorted(game._all_cards()) == sorted(r + s for r in "A23456789TJQK" for s in "SHDC")


@pytest.mark.parametrize(("players", "options"), [
    (5, {}), (9, {"second_deck": True}), (4, {"second_deck": True}), (1, {})])
def test_player_counts_outside_the_rules_are_refused(players, options):
    with pytest.raises(ValueError):
        new_game("james-bond", players=players, options=options)


@pytest.mark.parametrize("players", [5, 6, 7, 8])
def test_second_deck_deal_comes_out_even_and_every_rank_counts_fours(players):
    game = new_game("james-bond", players=players, seed=3, options={"second_deck": True})
    assert game.n_piles == 25 // players
    assert len(game.removed) == {5: 0, 6: 4, 7: 16, 8: 4}[players]
    assert game.removed == removed_groups(players, True)
    in_play = Counter(c[0] for c in game._all_cards()) - Counter(
        c[0] for c in game.removed)
    assert all(n % 4 == 0 for n in in_play.values())


def test_observation_shows_only_own_hand_middle_complete_piles_and_counts():
    position = {
        "middle": ["4S", "6H", "3C", "JD"],
        "seats": [
            {"piles": [["4D", "4C", "7H", "KS"], ["9S", "9H", "9D", "9C"]],
             "complete": ["pile-2"], "held": "pile-1"},
            {"piles": [["KH", "KD", "KC", "2D"], ["3S", "3H", "3D", "5C"]], "held": "pile-2"},
        ],
    }
    game = get_variant("james-bond").game_class.from_position(position)
    obs = game.observation(0)
    assert obs["held"] == {"pile": "pile-1", "cards": ["4D", "4C", "7H", "KS"]}
    assert obs["middle"] == ["4S", "6H", "3C", "JD"]
    assert obs["complete"] == [{"seat": 0, "pile": "pile-2", "cards": ["9S", "9H", "9D", "9C"]}]
    assert obs["face_down"][1] == {"seat": 1, "piles": 1, "holding": True, "hand_count": 4}
    text = repr(obs)
    for hidden in ("KH", "3S", "5C"):
        assert hidden not in text
    board = game.board(viewer=1)
    zones = {z["id"]: z for z in board["seats"][0]["zones"]}
    assert [c["card"] for c in zones["pile-1"]["cards"]] == [None] * 4
    assert [c["card"] for c in zones["pile-2"]["cards"]] == ["9S", "9H", "9D", "9C"]
    own = {z["id"]: z for z in board["seats"][1]["zones"]}
    assert own["pile-2"]["kind"] == "hand" and own["pile-2"]["cards"][0]["card"] == "3S"
    assert own["pile-1"]["cards"][0] == {"card": None, "up": False}


def test_every_legal_action_is_accepted():
    game = new_game("james-bond", players=3, seed=9)
    game.apply(Action(100, 0, "pick", {"pile": "pile-1"}))
    game.apply(Action(200, 0, "lay", {"card": game.hand(0)[0]}))
    for seat in range(3):
        for action in game.legal_actions(seat):
            clone = game.copy()
            result = clone.apply(Action(game.now + 10, seat, action.type, action.args))
            assert result.accepted, (action, result.reason)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("level", ["learner", "club", "expert"])
def test_bots_finish_games(players, level):
    summary = simulate("james-bond", games=3, seed=1, players=players, levels=level)
    assert summary["invariant_violations"] == 0
    assert sum(summary["wins"]) + summary["draws"] == 3


def test_bots_are_deterministic_and_cap_gives_a_draw():
    a = simulate("james-bond", games=2, seed=8, players=2, levels="club")
    b = simulate("james-bond", games=2, seed=8, players=2, levels="club")
    assert a["actions"] == b["actions"] and a["wins"] == b["wins"]
    capped = simulate("james-bond", games=1, seed=8, players=2, max_actions=10)
    assert capped["draws"] == 1 and capped["capped"] == 1


@pytest.mark.parametrize("cap", [3, 17, 60, 200])
@pytest.mark.parametrize("options", [{}, {"several_per_grab": True, "grab_limit": 3}])
def test_position_round_trip_at_any_point(cap, options):
    game, _ = play_game("james-bond", seed=6, players=3, levels=("club",), max_actions=cap,
                        options=options)
    position = game.position()
    again = get_variant("james-bond").game_class.from_position(position, options=options)
    assert again.position() == position


PARTIAL = {
    "middle": ["6S", "6H", "6C", "2D", "7C"],
    "seats": [{"piles": [["4D", "4C", "4H", "4S"], ["9S", "9H", "9D", "9C"]],
               "complete": ["pile-1", "pile-2"]},
              {"piles": [["KH", "KD", "KC", "KS"], ["3S", "3H", "3D", "3C"]],
               "complete": ["pile-1", "pile-2"]},
              {"piles": [["2S", "2H", "7D"], ["5S", "5H", "5D", "8C"]], "held": "pile-1",
               "laying": ["7C"]}],
}


def _two_calls(seed, gap=50):
    game = get_variant("james-bond").game_class.from_position({**PARTIAL, "seed": seed},
                                                               debug=True)
    before = Counter(game._all_cards())
    assert game.apply({"t": 1000, "player": 0, "type": "call"}).accepted
    result = game.apply({"t": 1000 + gap, "player": 1, "type": "call"})
    assert result.accepted
    return game, before, [e.code for e in result.events]


def test_a_redeal_from_a_partial_position_deals_exactly_the_cards_in_play():
    game, before, codes = _two_calls(seed=3)
    assert codes == ["call", "redeal", "dealt"]
    assert Counter(game._all_cards()) == before and sum(before.values()) == 28
    assert len(game.middle) == 4 and game.n_piles == 2
    assert all(len(p) == 4 for ps in game.piles for p in ps)
    assert game.held == [None, None, None] and game.laying == [[], [], []]
    assert all(st == "table" for sts in game.status for st in sts)
    assert game.removed == [] and game.deal_no == 2 and game.redeals == 1
    game.check_invariants()


def test_a_redeal_is_shuffled_by_the_seeded_rng_kept_in_the_state():
    a, _, _ = _two_calls(seed=3)
    b, _, _ = _two_calls(seed=3)
    assert a.position() == b.position()
    others = {str(_two_calls(seed=s)[0].position()["seats"]) for s in range(4, 10)}
    assert len(others) > 1
    # Through JSON half way: the RNG state travels with the game.
    game = get_variant("james-bond").game_class.from_position({**PARTIAL, "seed": 3})
    game.apply({"t": 1000, "player": 0, "type": "call"})
    again = game_from_json(game.to_json())
    again.apply({"t": 1050, "player": 1, "type": "call"})
    assert again.position()["seats"] == a.position()["seats"]
    assert again.middle == a.middle


def test_calls_a_tie_window_apart_are_not_simultaneous():
    game = get_variant("james-bond").game_class.from_position(PARTIAL, debug=True)
    game.apply({"t": 1000, "player": 0, "type": "call"})
    result = game.apply({"t": 1100, "player": 1, "type": "call"})
    assert not result.accepted and game.over and game.winner == 0


# A laid card another hand takes before the layer has finished its swap: the layer still owes
# one card, but the card is no longer its own (a position taken then could not be loaded).
RACE = {
    "middle": ["4S", "6H", "3C", "JD"],
    "seats": [
        {"piles": [["JS", "2C", "5D", "8H"], ["9S", "9H", "9D", "9C"]], "held": "pile-1",
         "complete": ["pile-2"]},
        {"piles": [["QS", "QH", "QD", "7S"], ["KH", "KD", "KC", "2D"]], "held": "pile-1"},
        {"piles": [["AS", "AH", "AD", "5C"], ["3S", "3H", "3D", "5H"]], "held": "pile-1"},
    ],
}


def _race(options=None):
    game = get_variant("james-bond").game_class.from_position(RACE, options=options,
                                                               debug=True)
    for t, seat, kind, card in ((100, 0, "lay", "JS"), (200, 1, "lay", "7S"),
                                (300, 1, "take", "JS")):
        result = game.apply(Action(t, seat, kind, {"card": card}))
        assert result.accepted, (kind, card, result.reason)
    return game


def test_a_laid_card_another_hand_took_is_gone_from_the_swap_and_the_position_loads():
    game = _race()
    seat = game.position()["seats"][0]
    assert (seat["laying"], seat["gone"]) == (["JS"], ["JS"])
    again = get_variant("james-bond").game_class.from_position(game.position())
    assert again.position() == game.position()
    assert game_from_notation(game.notation()).position() == game.position()
    # Seat 0 still owes one card: any middle card but its own.
    assert {a.args["card"] for a in game.legal_actions(0)} == {"4S", "6H", "3C", "JD", "7S"}


def test_the_taken_card_laid_again_belongs_to_its_new_layer():
    game = _race()
    assert game.apply(Action(400, 1, "lay", {"card": "JS"})).accepted
    # The JS in the middle is seat 1's now: seat 0 may race for it like any other card.
    assert game.apply(Action(500, 0, "take", {"card": "JS"})).accepted
    assert game.laid[0] == [] and game.hand(0).count("JS") == 1
    game.check_invariants()


def test_a_swap_the_five_second_rule_ends_takes_no_card_that_is_no_longer_its_own():
    game = _race({"five_second_rule": True})
    assert game.apply(Action(400, 1, "lay", {"card": "JS"})).accepted
    events = game.advance(5100)  # seat 0 has not swapped for five seconds
    ended = next(e for e in events if e.code == "swap-ended" and e.player == 0)
    # JS is seat 1's card of its own swap: seat 0 gets the middle card lying longest instead.
    assert ended.data["gave"] == ["JS"] and ended.data["took"] == ["4S"]
    assert "JS" in game.middle and "JS" not in game.piles[0][0]
    game.check_invariants()


def test_a_position_whose_own_cards_are_not_in_the_middle_is_refused():
    bad = {**RACE, "seats": [{**RACE["seats"][0], "laid": ["7S"]}, *RACE["seats"][1:]]}
    with pytest.raises(PositionError, match="must lie in the middle"):
        get_variant("james-bond").game_class.from_position(bad)
    gone = {**RACE, "middle": [*RACE["middle"], "JS"],
            "seats": [{**RACE["seats"][0], "piles": [["2C", "5D", "8H"], RACE["seats"][0][
                "piles"][1]], "laying": ["JS"], "gone": ["7S"]}, *RACE["seats"][1:]]}
    with pytest.raises(PositionError, match="gone cards must be among the laying cards"):
        get_variant("james-bond").game_class.from_position(gone)


def test_a_complete_pile_is_refused_as_complete_while_another_pile_is_in_hand():
    """Round 7 (#24): "a pile is already in hand; it has to go back first" was the reason given
    for picking up a complete pile, though putting the held pile back would not help."""
    game = new_game("james-bond", players=2, seed=9)
    game.status[0][1] = "complete"
    assert game.apply(Action(100, 0, "pick", {"pile": "pile-1"})).accepted
    assert game.apply(Action(200, 0, "pick", {"pile": "pile-2"})).reason == "pile-complete"
    assert game.apply(Action(300, 0, "pick", {"pile": "pile-3"})).reason == "already-holding"
