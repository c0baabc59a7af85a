import html
import json
import re

import pytest
from django.utils import translation

from examples.library import examples_for, load_example
from examples.sandbox import attempts, game_at_step
from presentation.moves import Calling, describe, refusal
from presentation.narration import narrate_all
from rules_engine.actions import Action
from rules_engine.registry import VARIANTS

VERDICT = re.compile(r'<p class="(accepted|rejected)">')
MOVES = re.compile(r'moves=([0-9:,]*)&amp;seat=')


def first_position_with_a_legal_move(slug):
    for example in examples_for(slug):
        for step in range(example.last + 1):
            game = game_at_step(example, step)
            for seat in range(game.players):
                if not game.is_over and game.legal_actions(seat):
                    return example, step, seat, game
    pytest.skip(f"no example of {slug} has a position with a legal move")


@pytest.mark.parametrize("slug", list(VARIANTS))
def test_a_legal_move_is_accepted_and_kept(client, slug):
    example, step, seat, game = first_position_with_a_legal_move(slug)
    url = f"/en/{slug}/examples/{example.name}/try/?step={step}&seat={seat}"
    page = client.get(url)
    assert page.status_code == 200
    first_legal = game.legal_actions(seat)[0].to_json()
    first_legal.pop("t")
    first_legal.pop("onto", None)
    index = attempts(game, seat).index(first_legal)
    response = client.get(f"{url}&try={index}")
    assert VERDICT.search(response.text).group(1) == "accepted"
    assert MOVES.search(response.text).group(1) == f"{seat}:{index}"
    # what happened, in the story's words, not the button's label again
    result = game.copy().apply(Action.from_json({**first_legal, "t": game.now + 600}))
    with translation.override("en"):
        told = " ".join(narrate_all([e.to_json() for e in result.events],
                                    VARIANTS[slug].family, slug))
    verdict = re.search(r'<p class="accepted">([^<]*)</p>', response.text).group(1)
    assert told and verdict == html.escape(told, quote=True)


def test_an_illegal_move_is_rejected_with_the_reason(client):
    example = load_example("stress-se", "illegal-plays")
    game = game_at_step(example, 0)
    offered = attempts(game, 0)
    for index, action in enumerate(offered):  # noqa: B007 - index is used after the loop
        probe = game.copy()
        result = probe.apply(Action.from_json({"t": game.now + 600, **action}))
        if not result.accepted and result.reason == "not-adjacent":
            break
    else:
        pytest.fail("no illegal play on offer")
    text = client.get(f"/en/stress-se/examples/illegal-plays/try/?step=0&try={index}").text
    assert VERDICT.search(text).group(1) == "rejected"
    verdict = re.search(r'<p class="rejected">(.*?)</p>', text).group(1)
    # who tried what, as a sentence, then the reason: "Player 1 cannot play the ...: ..."
    assert re.sub(r"<[^>]+>", "", verdict).count(":") == 1
    assert verdict.startswith("Player 1 cannot play the ")
    assert verdict.endswith(": the card is not one rank higher or lower "
                            "than the top card.")
    assert MOVES.search(text).group(1) == ""


@pytest.mark.parametrize(
    "query",
    ["moves=zz", "moves=0:9999", "moves=5:0", "try=abc", "try=-1", "seat=9&try=0", "step=x"],
)
def test_bad_sandbox_input_never_breaks(client, query):
    response = client.get(f"/sv/stress-se/examples/illegal-plays/try/?{query}")
    assert response.status_code in (200, 400)
    if response.status_code == 400:
        assert 'role="alert"' in response.text


def test_sandbox_fragment_for_htmx(client):
    response = client.get(
        "/fi/spit/examples/up-down-wrap/try/?step=1", headers={"hx-request": "true"}
    )
    assert response.status_code == 200
    assert "<html" not in response.text
    assert 'id="game"' in response.text and 'class="table"' in response.text


@pytest.mark.parametrize("slug", list(VARIANTS))
def test_a_move_made_on_the_table_is_the_offered_move_it_spells(client, slug):
    example, step, seat, game = first_position_with_a_legal_move(slug)
    legal = game.legal_actions(seat)[0].to_json()
    made = {k: v for k, v in legal.items() if k not in ("t", "player")}  # with "onto"
    url = f"/en/{slug}/examples/{example.name}/try/"
    response = client.get(url, {"step": step, "seat": seat, "act": json.dumps(made)})
    assert response.status_code == 200
    assert VERDICT.search(response.text).group(1) == "accepted"
    index = attempts(game, seat).index({**{k: v for k, v in legal.items() if k not in (
        "t", "onto")}})
    assert f"moves={seat}:{index}&amp;seat=" in response.text


def test_a_call_without_a_pile_on_the_table_is_the_call_on_the_engines_default_pile(client):
    for example in examples_for("stress-se"):
        for step in range(example.last + 1):
            game = game_at_step(example, step)
            if game.phase == "equal-ranks":
                url = f"/en/stress-se/examples/{example.name}/try/"
                response = client.get(url, {"step": step, "seat": 0, "act": '{"type": "call"}'})
                assert VERDICT.search(response.text).group(1) == "accepted"
                return
    pytest.skip("no stress-se example reaches equal tops")


def test_an_illegal_move_on_the_table_gets_the_engines_reason_and_changes_nothing(client):
    url = "/en/stress-se/examples/illegal-plays/try/"
    game = game_at_step(load_example("stress-se", "illegal-plays"), 0)
    top = game.board(None)["seats"][0]["zones"][1]["cards"][-1]["card"]
    made = {"type": "play", "from": "row-0", "card": top, "to": "centre-0"}
    response = client.get(url, {"step": 0, "seat": 0, "act": json.dumps(made)})
    assert response.status_code == 200
    assert VERDICT.search(response.text).group(1) == "rejected"
    assert "moves=&amp;seat=" in response.text


@pytest.mark.parametrize("raw", ["", "nonsense", "[]", '{"type": 3}', "{" * 700])
def test_an_unreadable_table_move_is_a_400(client, raw):
    response = client.get("/en/stress-se/examples/illegal-plays/try/", {"step": 0, "act": raw})
    assert response.status_code == 400


@pytest.mark.parametrize("lang", ["sv", "nb", "de", "fi", "en"])
def test_the_lead_speaks_of_the_start_not_of_step_zero(client, lang):
    url = f"/{lang}/stress-se/examples/illegal-plays/try/?step="
    leads = [re.search(r'<p class="lead">([^<]*)</p>', client.get(url + n).text).group(1)
             for n in ("0", "2")]
    assert re.findall(r"\d+", leads[0]) == [] and re.findall(r"\d+", leads[1]) == ["2"]


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Lay the nine of clubs and the seven of hearts in the middle"),
    ("sv", "Lägg ut klöver nio och hjärter sju i mitten"),
    ("nb", "Legg kløver ni og hjerter sju i midten"),
    ("de", "Die Kreuz-Neun und die Herz-Sieben in die Mitte legen"),
    ("fi", "Laita ristiysi ja herttaseiska keskelle"),
])
def test_a_move_of_several_cards_lists_them_with_and(lang, text):
    with translation.override(lang):
        assert describe({"player": 0, "type": "lay", "cards": ["9C", "7H"]}, {}) == text


@pytest.mark.parametrize(("action", "lang", "text"), [
    ({"type": "play", "card": "TH", "from": "row-0", "to": "centre-1"}, "fi",
     "Pelaa herttakymppi paikasta 1 pelipinoon 2"),
    ({"type": "play", "card": "JC", "from": "row-0", "to": "centre-1"}, "de",
     "Den Kreuz-Buben von Platz 1 auf Ablagestapel 2 legen"),
    ({"type": "play", "card": "JC", "from": "row-0", "to": "centre-1"}, "en",
     "Play the jack of clubs from place 1 onto centre pile 2"),
    ({"type": "combine", "from": "row-2", "to": "row-3"}, "fi",
     "Siirrä paikan 3 kortit paikkaan 4"),
    ({"type": "move", "card": "5C", "from": "pile-2", "to": "pile-4"}, "fi",
     "Siirrä pinon 2 päällimmäinen kortti pinon 4 tyhjään paikkaan"),
    ({"type": "call", "pile": "centre-0"}, "fi", "Huuda ja lyö pelipinoa 1"),
    ({"type": "take", "card": "KS"}, "de", "Den Pik-König aus der Mitte nehmen"),
])
def test_a_move_names_its_card_and_places_in_the_form_the_sentence_needs(action, lang, text):
    """Finnish moves from a place (elative) onto a pile (illative), with no arrow; German
    buttons give the card its article."""
    with translation.override(lang):
        assert describe({"player": 0, **action}, {}) == text


@pytest.mark.parametrize(("lang", "text"), [
    ("en", "Player 1 cannot play the jack of clubs from place 1 onto centre pile 2: the card "
           "is not one rank higher or lower than the top card."),
    ("sv", "Spelare 1 försökte lägga klöver knekt från plats 1 på spelhög 2, men det gick "
           "inte: kortet är inte en valör högre eller lägre än det översta kortet."),
    ("nb", "Spiller 1 prøvde å legge kløver knekt fra plass 1 på midtbunke 2, men det telte "
           "ikke: kortet er ikke én valør høyere eller lavere enn toppkortet."),
    ("de", "Spieler 1 will den Kreuz-Buben von Platz 1 auf Ablagestapel 2 legen, aber "
           "daraus wird nichts – die Karte ist nicht genau einen Wert höher oder tiefer als die "
           "oberste Karte."),
    ("fi", "Pelaaja 1 yritti pelata ristijätkän paikasta 1 pelipinoon 2, mutta turhaan: "
           "kortti ei ole yhden arvon päässä pinon päällimmäisestä kortista."),
])
def test_a_refused_move_says_who_tried_what_and_why_in_one_sentence(lang, text):
    """Not a quoted button label ("tries “Play the …”: not played, …")."""
    action = {"player": 0, "type": "play", "card": "JC", "from": "row-0", "to": "centre-1"}
    with translation.override(lang):
        assert refusal(action, "not-adjacent", {}) == text


@pytest.mark.parametrize("seat", [0, 1])
def test_stressis_call_is_offered_on_the_callers_right_hand_pile_only(seat):
    # The engine states which pile is a seat's own (UiFacts.own_pile_across); the sandbox
    # reads it there, never from the game's internals.
    game = game_at_step(examples_for("stressi-fi")[0], 0)
    assert Calling.of(game).own_pile(seat) == f"centre-{1 - seat}"
    calls = [a for a in attempts(game, seat) if a["type"] == "call"]
    assert calls == [{"player": seat, "type": "call", "pile": f"centre-{1 - seat}"}]
