"""spit specifics the scenarios do not show: registry, players, hidden cards, bots."""

import pytest

from rules_engine import (
    METADATA_KEYS,
    Action,
    OptionError,
    game_from_notation,
    get_variant,
    new_game,
    play_game,
    simulate,
)
from rules_engine.bots import candidates


def test_registry_entry_and_option_schema():
    info = get_variant("spit")
    assert (info.players_min, info.players_max, info.decks, info.jokers_max) == (2, 2, 1, 0)
    assert [o.key for o in info.options] == ["repeat_choice"]
    assert info.option("repeat_choice").default is False
    assert tuple(info.metadata) == METADATA_KEYS
    with pytest.raises(OptionError, match="repeat_choice"):
        new_game("spit", options={"repeat": True})


def test_exactly_two_players_and_one_deck():
    with pytest.raises(ValueError):
        new_game("spit", players=3)
    game = new_game("spit", seed=4)
    cards = game._all_cards()
    assert len(cards) == 52 and len(set(cards)) == 52 and "X" not in cards


def test_face_down_cards_are_hidden_except_in_the_omniscient_view():
    game = new_game("spit", seed=2)
    seen = game.board(viewer=0)
    for seat in seen["seats"]:
        for zone in seat["zones"]:
            for card in zone["cards"]:
                assert (card["card"] is None) == (not card["up"])
    full = game.board(None)
    assert all(c["card"] for s in full["seats"] for z in s["zones"] for c in z["cards"])
    assert game.observation(1) == game.board(viewer=1)


def test_every_legal_action_is_accepted():
    game = new_game("spit", seed=9)
    for seat in (0, 1):
        for action in game.legal_actions(seat):
            clone = game.copy()
            result = clone.apply(Action(game.now + 10, seat, action.type, action.args))
            assert result.accepted, (action, result.reason)


def test_bad_actions_are_rejected_without_raising_or_changing_state():
    game = new_game("spit", seed=1)
    before = game.to_json()
    for raw in ({"t": 5, "player": 0, "type": "play"},
                {"t": 5, "player": 0, "type": "play", "from": "pile-9", "to": "centre-0"},
                {"t": 5, "player": 0, "type": "choose", "pile": "centre-0"},
                {"t": 5, "player": 0, "type": "spit", "to": "centre-0"},
                {"t": 5, "player": 0, "type": "move", "from": "pile-1", "to": "pile-1"}):
        assert not game.apply(raw).accepted
    assert game.to_json() == before


@pytest.mark.parametrize("level", ["learner", "club", "expert"])
def test_bots_play_whole_games_deterministically(level):
    summary = simulate("spit", games=4, seed=3, levels=level)
    assert summary["invariant_violations"] == 0
    assert summary["games"] == 4 and sum(summary["wins"]) + summary["draws"] == 4
    again = simulate("spit", games=4, seed=3, levels=level)
    assert again["wins"] == summary["wins"] and again["actions"] == summary["actions"]


def test_the_bot_races_for_the_smaller_pile_and_does_every_kind_of_move():
    # Both hands go for the smaller centre pile (TC): fewer cards to take back.
    game = game_from_notation("spit 4H5H6H/TC 5D*/-/-/-/-:9D 9S*/-/-/-/-:JD "
                              "phase=choose-pile now=0 seed=0")
    for seat in (0, 1):
        best = max(candidates(game, seat), key=lambda c: c[0])[1]
        assert best.type == "choose" and best.args["pile"] == "centre-1"
    # Seat 0 can play (5S onto 6H), turn up pile-4 (no '*': face down) and move into pile-3.
    game = game_from_notation("spit 6H/AD 5S*/9DKH*/-/2CQD/4D7S*:8C "
                              "5H*/4C2S*/3S*/9S9H*/JSQS*:JD now=0 seed=0")
    kinds = {a.type for _, a in candidates(game, 0)}
    assert kinds == {"play", "turn", "move"}
    best = max(candidates(game, 0), key=lambda c: c[0])[1]
    assert best.type == "turn"


@pytest.mark.parametrize("cap", [7, 40, 150, 400])
def test_position_round_trip_at_any_point(cap):
    game, _ = play_game("spit", seed=6, levels=("club",), max_actions=cap)
    position = game.position()
    again = get_variant("spit").game_class.from_position(position)
    assert again.position() == position


#: seat 0 has lone face-up cards and one space (pile-3).
LONE = "spit 2H/9C 3D*/KS*/-/KC*/KH*:4C5C 6S*/6H*/6D*/6C*/QS*:TC7D now=0 seed=0"


def test_a_lone_card_may_move_into_a_space_but_bots_never_do_it():
    game = game_from_notation(LONE, debug=True)
    moves = [a for a in game.legal_actions(0) if a.type == "move"]
    assert {a.args["from"] for a in moves} == {"pile-1", "pile-2", "pile-4", "pile-5"}
    assert all(a.args["to"] == "pile-3" for a in moves)
    assert not any(a.type == "move" for _, a in candidates(game, 0))
    result = game.apply({"t": 100, "player": 0, "type": "move", "from": "pile-2",
                         "to": "pile-3", "card": "KS"})
    assert result.accepted and [e.code for e in result.events] == ["moved"]
    assert game.layout[0][1] == [] and game.layout[0][2] == ["KS"] and game.up[0][2]


def test_a_lone_card_move_is_no_way_out_of_a_stuck_position():
    game = game_from_notation(LONE, debug=True)
    assert not game._stuck()  # 3D still fits on 2H
    game.layout[0][0] = []
    game.up[0][0] = False
    # Spaces and lone face-up cards only, nothing fits: stuck, although a lone card could move.
    assert any(a.type == "move" for a in game.legal_actions(0))
    assert game._stuck()
    game.layout[0][3] = ["QC", "KC"]  # a card below a top: moving KC would uncover it
    assert not game._stuck()


def test_bots_never_move_a_lone_card():
    for level in ("learner", "expert"):
        record: list = []
        play_game("spit", seed=11, levels=(level,), max_actions=4000, record=record)
        game = new_game("spit", seed=11)
        moves = 0
        for entry in record:
            item = entry.action
            if item is None:
                game.advance(entry.t)
                continue
            if item.type == "move" and not game.over:
                source = game.layout[item.player][int(item.args["from"][5:]) - 1]
                assert len(source) > 1, item
                moves += 1
            game.apply(item)
        assert moves > 0
