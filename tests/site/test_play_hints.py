"""The hint under the table (issue #26): every hint that names a key has a touch-screen form
that names none, and a James Bond newcomer who has not swapped is told why the other player
holds a pile and waits, in every language."""

import re

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from presentation.table import build_table
from rules_engine.registry import game_from_position, new_game

LANGS = ["sv", "nb", "de", "fi", "en"]
#: what a key looks like in a hint, in any language: a key's name, an arrow, "its number"
KEY_WORDS = re.compile(
    r"Space|mellanslag|mellomrom|Leertaste|välilyön|←|→|number|siffra|tallet|Zahl|numero"
    r"|letter|bokstav|Buchstab|kirjain",
    re.I,
)


def waiting_position() -> dict:
    """Player 2 holds a pile and has laid all four middle cards itself: it may take none of
    them back until Player 1 swaps."""
    position = new_game("james-bond", players=2, seed=1).position()
    position["seats"][1]["held"] = "pile-1"
    position["seats"][1]["laid"] = list(position["middle"])
    return position


def hint_of(game, lang: str, seat: int = 0):
    with translation.override(lang):
        table = build_table(game, ["human", "learner"], seat, interactive=True)
        html = render_to_string("table/hint.html", {"table": table})
    return table, html


@pytest.mark.parametrize("lang", LANGS)
def test_a_waiting_bot_is_explained_to_a_newcomer(lang):
    game = game_from_position("james-bond", waiting_position())
    table, html = hint_of(game, lang)
    with translation.override("en"):
        english = build_table(game, ["human", "learner"], 0, interactive=True).hint
    assert english.startswith("Player 2 is waiting for a swap: every card in the middle is one")
    assert "Pick up one of your piles" in english
    if lang != "en":
        assert table.hint != english and "waiting" not in table.hint
    # the explanation comes in both forms, the touch one naming no key
    why = table.hint.split(". ")[0]
    assert table.touch_hint.startswith(why) and "2" in why
    assert not KEY_WORDS.search(table.touch_hint)
    assert 'class="hint-touch"' in html


def test_no_explanation_while_the_other_player_can_swap():
    position = waiting_position()
    position["seats"][1]["laid"] = position["middle"][:3]  # one middle card is free for it
    table, _ = hint_of(game_from_position("james-bond", position), "en")
    assert table.hint == "Pick up one of your piles (tap it or press its number)."


#: positions whose hint names a key: equal tops in each Speed-type variant, a Spit deal's end
EQUAL_TOPS = {
    "stress-se": {"options": {}},
    "stress-se-gentle": {"options": {"gentle": True}},
    "stress-de": {"options": {}},
    "stress-de-knocking": {"options": {"knocking": True}},
    "stressi-fi": {"options": {}},
}


def equal_tops(variant: str, options: dict):
    for seed in range(1, 400):
        game = new_game(variant, players=2, seed=seed, options=options)
        if game.phase == "equal-ranks":
            return game
    raise AssertionError(f"no deal of {variant} opens with equal tops")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("case", list(EQUAL_TOPS))
def test_an_equal_tops_hint_names_no_key_on_a_touch_screen(case, lang):
    variant = case.split("-gentle")[0].split("-knocking")[0]
    game = equal_tops(variant, EQUAL_TOPS[case]["options"])
    table, html = hint_of(game, lang)
    assert KEY_WORDS.search(table.hint), table.hint
    assert table.touch_hint and not KEY_WORDS.search(table.touch_hint), table.touch_hint
    assert f'<span class="hint-keys">{table.hint}</span>' in html.replace("&quot;", '"')
