"""The table a page draws: one seat with the demo's keys, or two seats at one keyboard, each
with keys of their own (teacher mode's hot seat), where shared piles carry both keys."""

import re

import pytest
from django.utils import translation

from presentation.table import DEMO_KEYS, Keys, build_table, item_html, zone_html
from rules_engine.driver import Driver

LEFT = Keys(places=tuple("1234"), centre=("q", "w"), commands={"call": "a"})
RIGHT = Keys(places=tuple("7890"), centre=("o", "p"), commands={"call": "l"})


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def markup(zones) -> str:
    return "".join(str(zone_html(zone)) for zone in zones)


def test_the_demo_table_acts_for_its_one_seat_with_the_demo_keys():
    game = Driver.new("stress-se", ["human", "club"], seed=2).game
    table = build_table(game, ["human", "club"], 0, interactive=True)
    own = markup(table.own.zones)
    assert 'data-key="1"' in own and "data-seat" not in own
    assert 'data-key="ArrowLeft"' in markup(table.centre)
    assert [c.dom_id for c in table.commands] == ["cmd-call"] and table.commands[0].key == " "
    assert table.key_help and table.interactive


def test_two_seats_at_one_keyboard_each_have_their_own_keys_and_share_the_centre():
    game = Driver.new("stress-se", ["human", "human"], seed=2).game
    table = build_table(game, ["human", "human"], 0, interactive=True, reveal=True,
                        hands={0: LEFT, 1: RIGHT})
    own, other = markup(table.own.zones), markup(table.opponents[0].zones)
    assert re.search(r'data-key="1"[^>]*data-seat="0"', own)
    assert re.search(r'data-key="7"[^>]*data-seat="1"', other)
    assert 'data-keys="q:0 o:1"' in markup(table.centre)
    assert 'aria-keyshortcuts="Q O"' in markup(table.centre)
    assert [(c.dom_id, c.key, c.seat) for c in table.commands] == [
        ("cmd-call-0", "a", 0), ("cmd-call-1", "l", 1)]
    assert table.own.acting and table.opponents[0].acting
    assert not table.key_help  # the page shows its own keys


def test_a_table_nobody_acts_on_has_no_keys_and_its_cards_can_ask_to_be_explained():
    game = Driver.new("spit", ["club", "club"], seed=2).game
    table = build_table(game, ["club", "club"], 0, interactive=True, reveal=True, hands={})
    assert not table.interactive and not table.commands
    item = table.own.zones[0].items[0]
    assert str(item_html(item)).startswith("<div") and "data-key" not in str(item_html(item))
    item.explain = '{"seat":0,"zone":"pile-1"}'
    assert 'data-explain="{&quot;seat&quot;:0,&quot;zone&quot;:&quot;pile-1&quot;}"' in str(
        item_html(item))
    assert str(item_html(item)).startswith('<button type="button"')


def test_james_bond_middle_cards_take_for_each_seat_with_its_own_letter():
    game = Driver.new("james-bond", ["human", "human"], seed=2).game
    left = Keys(places=tuple("123456"), middle=tuple("qwert"), commands={"call": "a"})
    right = Keys(places=tuple("7890ui"), middle=tuple("ophjn"), commands={"call": "l"})
    table = build_table(game, ["human", "human"], 0, interactive=True, reveal=True,
                        hands={0: left, 1: right})
    middle = markup(table.centre)
    assert 'data-keys="q:0 o:1"' in middle and 'data-keys="w:0 p:1"' in middle
    assert 'data-key="u"' in markup(table.opponents[0].zones)


def test_names_and_a_second_language_caption_are_the_callers_to_give():
    game = Driver.new("stress-se", ["club", "club"], seed=2).game
    table = build_table(game, ["club", "club"], 0, interactive=False, reveal=True,
                        names=["Anna", "Bo"])
    assert table.own.name == "Anna" and table.opponents[0].name == "Bo"
    zone = table.centre[0]
    zone.label_alt, zone.lang_alt = "Keskipino 1", "fi"
    assert '<span class="zone__label-alt" lang="fi">Keskipino 1</span>' in str(zone_html(zone))
    assert DEMO_KEYS.centre == ("ArrowLeft", "ArrowRight")


@pytest.mark.parametrize("variant", ["stress-se", "stress-de", "stressi-fi"])
def test_the_key_list_names_every_command_key_the_table_carries(variant):
    # Stressi's list once left out R (refill) and W (whole stack) though both worked.
    game = Driver.new(variant, ["human", "club"], seed=2).game
    table = build_table(game, ["human", "club"], 0, interactive=True)
    listed = {key for key, _what in table.key_help}
    carried = {"Space" if c.key == " " else c.key.upper() for c in table.commands}
    assert carried <= listed
    assert {"1–4", "← →", "Esc"} <= listed


def test_an_empty_place_you_must_refill_yourself_is_pointed_out():
    assert build_table(emptied_place("stressi-fi"), ["human", "club"], 0,
                       interactive=True).hint == ""  # a full row: nothing to point out
    game = emptied_place("stressi-fi", play=True)
    hint = build_table(game, ["human", "club"], 0, interactive=True).hint
    assert hint.startswith("A place in your row is empty. In this game you refill it yourself")
    # Swedish Stress refills by itself: no such hint there.
    game = emptied_place("stress-se", play=True)
    assert build_table(game, ["human", "club"], 0, interactive=True).hint == ""


def emptied_place(variant: str, play: bool = False):
    """A new deal of `variant`; with `play`, Player 1 has played a one-card place out."""
    from rules_engine.actions import Action

    for seed in range(1, 200):
        game = Driver.new(variant, ["human", "club"], seed=seed).game
        if not play:
            return game
        for zone in game.board(0)["seats"][0]["zones"]:
            if zone["kind"] != "row" or zone["count"] != 1:
                continue
            for pile in ("centre-0", "centre-1"):
                result = game.apply(Action.from_json({
                    "type": "play", "player": 0, "card": zone["cards"][0]["card"],
                    "from": zone["id"], "to": pile, "t": game.now + 600}))
                if result.accepted:
                    return game
    raise AssertionError("no deal lets Player 1 play a one-card place out")


def test_a_tap_on_a_centre_pile_during_equal_tops_slaps_it():
    """The hint promises that tapping a pile calls while the tops are equal: the pile must
    send the call, not wait for a card to be dropped on it."""
    from rules_engine import Action, game_from_position

    game = game_from_position("stress-se", {
        "centre": [["3C", "7H"], ["9D", "8S"]],
        "seats": [{"draw": ["5C", "6C", "TC"], "row": [["8D"], ["2C"], ["JC"], ["4H"]]},
                  {"draw": ["2D", "4D", "9H"], "row": [["QS"], ["3D"], ["KH"], ["5H"]]}]})
    result = game.apply(Action(500, 0, "play", {"card": "8D", "from": "row-0",
                                                 "to": "centre-0"}))
    assert result.accepted and game.board(0)["phase"] == "equal-ranks"
    table = build_table(game, ["human", "club"], 0, interactive=True)
    piles = [zone.items[0] for zone in table.centre]
    assert [pile.send for pile in piles] == [
        '{"type":"call","pile":"centre-0"}', '{"type":"call","pile":"centre-1"}']
    assert not any(pile.drop for pile in piles)


def test_a_zone_drawn_from_the_store_is_the_zone_the_template_draws():
    # zone_markup keeps zones by language and content: along a game every zone's markup is
    # what the template's zone partial draws now, in either language.
    from presentation.table.render import zone_markup
    from rules_engine import play_game

    record = []
    play_game("james-bond", seed=4, players=3, record=record, max_actions=60)
    replay = Driver.new("james-bond", ["human", "club", "club"], seed=4).game
    seen = set()
    for entry in record:
        replay.apply(entry.action) if entry.action else replay.advance(entry.t)
        for lang in ("en", "sv"):
            with translation.override(lang):
                table = build_table(replay, ["human", "club", "club"], 0, interactive=True)
                for zone in [*table.centre, *(z for s in table.seats for z in s.zones)]:
                    drawn = zone_markup(zone)
                    assert drawn == zone_html(zone)
                    seen.add(str(drawn))
    assert len(seen) > 20  # the store told many zones apart


def test_the_zone_store_tells_apart_what_changes_the_markup():
    from presentation.table.render import zone_markup

    game = Driver.new("stress-se", ["human", "club"], seed=2).game
    table = build_table(game, ["human", "club"], 0, interactive=True)
    zone = table.own.zones[0]
    before = zone_markup(zone)
    with translation.override("sv"):
        assert zone_markup(zone) != before and zone_markup(zone) == zone_html(zone)
    zone.items[0].keys.append(("x", None))
    assert zone_markup(zone) != before and zone_markup(zone) == zone_html(zone)
