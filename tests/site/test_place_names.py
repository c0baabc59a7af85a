"""Places on the table in words: one pattern per kind of place and language, a capital on
captions and at the start of a sentence, the language's own case inside a sentence."""

import re

import pytest
from django.utils import translation

from presentation.board import Place, zone_label
from rules_engine.registry import new_game

LANGS = ["en", "sv", "nb", "de", "fi"]


@pytest.mark.parametrize(("lang", "label"), [
    ("en", "Held pile 4"),
    ("sv", "Hög 4 (i handen)"),
    ("nb", "Bunke 4 (på hånden)"),
    ("de", "Stapel 4 (in der Hand)"),
    ("fi", "Kädessä oleva pino 4"),
])
def test_a_held_pile_is_numbered_where_the_language_puts_the_number(lang, label):
    """Not "Bunken på hånden 4" / "Stapel in der Hand 4": the number is a slot in a pattern."""
    with translation.override(lang):
        assert zone_label("pile-4", "hand") == label


def every_place():
    for slug in ("stress-se", "stress-de", "stressi-fi", "spit", "james-bond"):
        board = new_game(slug, seed=1).board(None)
        zones = board["centre"] + [z for seat in board["seats"] for z in seat["zones"]]
        for zone in zones:
            yield Place(zone["id"], zone["kind"], slug)
        if slug == "james-bond":
            yield Place("pile-2", "hand", slug)
            yield Place("pile-3", "complete", slug)


@pytest.mark.parametrize("lang", LANGS)
def test_captions_open_with_a_capital_and_sentences_use_the_languages_case(lang):
    with translation.override(lang):
        for place in every_place():
            name, label = str(place), place.label
            assert label == name[:1].upper() + name[1:]
            assert label[0].isupper(), label
            if lang == "de":  # German nouns keep their capital inside a sentence
                assert name == label or name.startswith("aussortierte"), name
            else:
                assert name[0].islower(), name


def sandbox_moves(client, url: str) -> list[str]:
    return re.findall(r'name="try" value="\d+">([^<]*)<', client.get(url).text)


def test_sandbox_buttons_name_places_in_lower_case_mid_sentence(client):
    moves = sandbox_moves(client, "/nb/stress-se/examples/illegal-plays/try/?step=0")
    assert "Legg spar sju fra plass 1 på midtbunke 2" in moves
    assert not [m for m in moves if re.search(r"\b(Plass|Midtbunke)\b", m)]


@pytest.mark.parametrize(("lang", "note"), [
    ("en", "hand on centre pile 2"),
    ("nb", "hånden på midtbunke 2"),
    ("de", "Hand auf Ablagestapel 2"),
    ("fi", "käsi pelipinon 2 päällä"),
])
def test_a_note_about_a_pile_names_it_as_a_sentence_does(client, lang, note):
    # Spit, end of a deal: player 2 has already put a hand on the right-hand centre pile.
    page = client.get(f"/{lang}/spit/examples/choice-tie/try/?step=2&seat=0").text
    assert re.findall(r'seat__note">· ([^<]*)<', page) == [note]
