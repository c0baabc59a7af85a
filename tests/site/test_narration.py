"""Every event the engine can log has words in every language (presentation.narration)."""

import ast
from pathlib import Path

import pytest
from django.utils import translation

from presentation.narration import narrate
from rules_engine.driver import Driver

ENGINE = Path(__file__).resolve().parents[2] / "rules_engine"
LANGS = ["en", "sv", "nb", "de", "fi"]
FAMILY_OF_MODULE = {"speed.py": "speed", "stress_se.py": "speed", "stress_de.py": "speed",
                    "stressi_fi.py": "speed", "spit.py": "spit", "james_bond.py": "swap"}


def emitted_codes() -> dict[str, set[str]]:
    """Event codes per family, read from the engine's source: _emit("code", ...), the hot
    paths' raw log records, and the end of a game (finish_win / finish_draw)."""
    found: dict[str, set[str]] = {"speed": set(), "spit": set(), "swap": set()}
    for path in [ENGINE / "game.py", ENGINE / "speed.py", *ENGINE.glob("variants/*.py")]:
        families = [FAMILY_OF_MODULE[path.name]] if path.name in FAMILY_OF_MODULE else list(
            found)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            first = node.args[0] if node.args else None
            code = None
            if node.func.attr == "_emit" and isinstance(first, ast.Constant):
                code = first.value
            elif node.func.attr == "append" and isinstance(first, ast.Tuple) \
                    and len(first.elts) == 4 and isinstance(first.elts[0], ast.Constant):
                code = first.elts[0].value  # a raw (code, player, data, t) log record
            elif node.func.attr in ("finish_win", "finish_draw"):
                code = "won" if node.func.attr == "finish_win" else "draw"
            if isinstance(code, str):
                for family in families:
                    found[family].add(code)
    return found


def played_events() -> list[tuple[str, dict]]:
    """Real events from bot games of every variant under options that change the events."""
    tables = [("stress-se", 2, {}), ("stress-se", 2, {"gentle": True, "one_empty_stuck":
                                                      "give-a-card", "both_empty_stuck":
                                                      "fewer-cards-wins"}),
              ("stress-de", 2, {"jokers": 2, "false_call_penalty": True, "knocking": True}),
              ("stressi-fi", 2, {}), ("spit", 2, {"repeat_choice": True}),
              ("james-bond", 2, {"say_stikk": True, "best_of_five": True,
                                 "five_second_rule": True}),
              ("james-bond", 6, {"second_deck": True, "several_per_grab": True})]
    events = []
    for slug, players, options in tables:
        for seed in range(2):
            driver = Driver.new(slug, ["learner"] * players, options=options, seed=seed,
                                record=[])
            driver.run(max_actions=20000)
            family = driver.game.variant.family
            events += [(family, e.to_json()) for entry in driver.record for e in entry.events]
    return events


def test_the_source_walk_finds_the_documented_codes():
    codes = emitted_codes()
    assert {"played", "refilled", "stacked", "stress", "won"} <= codes["speed"]
    assert {"uncovered", "locked", "pile-race"} <= codes["spit"]
    assert {"laid", "swapped", "redeal", "deal-won"} <= codes["swap"]


@pytest.mark.parametrize("lang", LANGS)
def test_every_event_code_of_every_variant_has_words(lang):
    with translation.override(lang):
        for family, codes in emitted_codes().items():
            for code in codes:
                text = narrate({"code": code, "player": 0, "t": 0}, family)
                assert text and "%(" not in text, (family, code, lang)


# The label word for a player, which these languages write in lower case inside a sentence.
LABEL_WORDS = {"sv": "Spelare", "nb": "Spiller", "fi": "Pelaaja"}


@pytest.mark.parametrize("lang", LANGS)
def test_real_events_are_told_with_their_cards_and_places(lang):
    seen = set()
    with translation.override(lang):
        for family, event in played_events():
            text = narrate(event, family)
            assert text and "%(" not in text and "None" not in text, (family, event)
            assert text[0] == text[0].upper(), text
            if lang in LABEL_WORDS:
                assert LABEL_WORDS[lang] not in text[1:], text
            seen.add((family, event["code"]))
    assert len(seen) > 30


@pytest.mark.parametrize(("lang", "gave", "time_up"), [
    ("en", "Player 1 gives Player 2 a face-down card.", "Time is up: Player 2 turns"),
    ("sv", "Spelare 1 ger spelare 2 ett kort med baksidan upp.", "Tiden är ute: spelare 2 "),
    ("nb", "Spiller 1 gir spiller 2 et kort med baksiden opp.", "Tiden er ute: spiller 2 "),
    ("de", "Spieler 1 gibt Spieler 2 eine verdeckte Karte.", "Die Zeit ist um: Spieler 2 "),
    ("fi", "Pelaaja 1 antaa pelaajalle 2 kortin kuvapuoli alaspäin.", "Aika loppui: pelaaja 2 "),
])
def test_a_player_inside_a_sentence_is_written_as_the_language_writes_it(lang, gave, time_up):
    """A label says "Spelare 2"; inside a sentence Swedish, Norwegian and Finnish write
    "spelare 2", German and English keep the capital."""
    with translation.override(lang):
        assert narrate({"code": "gave", "player": 0, "to": 1}, "speed") == gave
        assert narrate({"code": "time-up", "phase": "reserve-pile", "seats": [1]},
                       "spit").startswith(time_up)


def test_narration_follows_the_page_language():
    event = {"code": "played", "player": 1, "card": "7H", "to": "centre-1", "count": 1}
    with translation.override("en"):
        assert narrate(event, "speed") == "Player 2 plays the seven of hearts onto centre pile 2."
    with translation.override("sv"):
        swedish = narrate(event, "speed")
    assert "hjärter sju" in swedish and "Player" not in swedish and "plays" not in swedish


@pytest.mark.parametrize(("lang", "three", "two"), [
    ("en", "Player 2 lays the nine of clubs, the seven of hearts and the king of spades in the "
           "middle.",
     "Player 1 takes the nine of clubs and the seven of hearts."),
    ("sv", "Spelare 2 lägger klöver nio, hjärter sju och spader kung i mitten.",
     "Spelare 1 tar klöver nio och hjärter sju."),
    ("nb", "Spiller 2 legger kløver ni, hjerter sju og spar konge i midten.",
     "Spiller 1 tar kløver ni og hjerter sju."),
    ("de", "Spieler 2 legt die Kreuz-Neun, die Herz-Sieben und den Pik-König in die Mitte.",
     "Spieler 1 nimmt die Kreuz-Neun und die Herz-Sieben aus der Mitte."),
    ("fi", "Pelaaja 2 laittaa keskelle ristiysin, herttaseiskan ja patakuninkaan.",
     "Pelaaja 1 ottaa keskeltä ristiysin ja herttaseiskan."),
])
def test_several_cards_are_listed_with_and_before_the_last(lang, three, two):
    with translation.override(lang):
        assert narrate({"code": "laid", "player": 1, "cards": ["9C", "7H", "KS"]},
                       "swap") == three
        assert narrate({"code": "swapped", "player": 0, "took": ["9C", "7H"]}, "swap") == two


def test_one_card_or_several_agree_with_their_verb():
    event = {"code": "swap-ended", "player": 0, "pile": "pile-2"}
    with translation.override("en"):
        one = narrate({**event, "took": ["9C"]}, "swap")
        two = narrate({**event, "took": ["9C", "7H"]}, "swap")
    assert one.endswith("and the nine of clubs goes into pile 2.")
    assert two.endswith("and the nine of clubs and the seven of hearts go into pile 2.")


# Sentences whose translation asks for grammatical forms of its cards, places and players
# (presentation.wording): the object, the target, the instrument, the one given to.
FORMED = [
    ({"code": "played", "player": 1, "card": "3S", "to": "centre-0", "count": 1}, "speed", {
        "fi": "Pelaaja 2 pelaa patakolmosen pelipinoon 1.",
        "de": "Spieler 2 legt die Pik-Drei auf Ablagestapel 1.",
        "sv": "Spelare 2 lägger spader tre på spelhög 1."}),
    ({"code": "played", "player": 0, "card": "JC", "to": "centre-1", "count": 1}, "speed", {
        "fi": "Pelaaja 1 pelaa ristijätkän pelipinoon 2.",
        "de": "Spieler 1 legt den Kreuz-Buben auf Ablagestapel 2."}),
    ({"code": "refilled", "player": 1, "card": "7D", "to": "row-3"}, "speed", {
        "fi": "Pelaaja 2 täyttää paikan 4 ruutuseiskalla.",
        "de": "Spieler 2 füllt Platz 4 mit der Karo-Sieben auf."}),
    ({"code": "turned", "player": 0, "card": "AS", "pile": "centre-0"}, "spit", {
        "fi": "Pelaaja 1 kääntää pataässän pelipinoon 1.",
        "de": "Spieler 1 legt das Pik-Ass offen auf Ablagestapel 1."}),
    ({"code": "uncovered", "player": 0, "card": "2S", "pile": "pile-4"}, "spit", {
        "fi": "Pelaaja 1 kääntää pinon 4 päällimmäisen kortin: se on patakakkonen.",
        "de": "Spieler 1 deckt die Pik-Zwei auf Stapel 4 auf."}),
    ({"code": "combined", "player": 1, "from": "row-2", "to": "row-3", "count": 2}, "speed", {
        "fi": "Pelaaja 2 yhdistää pinot: paikan 3 kortit siirtyvät paikkaan 4.",
        "en": "Player 2 stacks the 2 cards from place 3 onto the matching cards in place 4.",
        "de": "Spieler 2 legt die 2 Karten von Platz 3 mit Platz 4 zu einem Päckchen zusammen."}),
    ({"code": "call", "player": 1, "pile": "centre-0"}, "speed", {
        "fi": "Pelaaja 2 huutaa ja lyö pelipinoa 1."}),
    ({"code": "completed", "player": 1, "pile": "pile-6", "rank": "K"}, "swap", {
        "fi": "Pelaaja 2 saa pinon 6 valmiiksi: siinä on neljä kuningasta."}),
    ({"code": "won", "player": 1, "reason": "fewer-cards"}, "speed", {
        "fi": "Pelaajalla 2 on vähemmän kortteja jäljellä, joten hän voittaa."}),
    ({"code": "swap-ended", "player": 0, "took": ["9C"], "pile": "pile-2"}, "swap", {
        "fi": "Viisi sekuntia ilman vaihtoa: pelaajan 1 vaihto viedään loppuun hänen "
              "puolestaan, ja ristiysi menee pinoon 2.",
        "de": "Fünf Sekunden ohne Tausch: Der Tausch von Spieler 1 wird zu Ende gebracht, "
              "die Kreuz-Neun kommt in Stapel 2."}),
]


@pytest.mark.parametrize(("event", "family", "lang", "text"), [
    (event, family, lang, text) for event, family, texts in FORMED
    for lang, text in texts.items()])
def test_cards_places_and_players_take_the_form_the_sentence_needs(event, family, lang, text):
    """Finnish "pelaa patakolmosen pelipinoon 1", not "pelaa kortin patakolmonen
    (pelipino 1)"; German "legt den Kreuz-Buben auf …", not "legt auf …: Kreuz-Bube"."""
    with translation.override(lang):
        assert narrate(event, family) == text


@pytest.mark.parametrize(("event", "text"), [
    ({"code": "stress", "rank": "7"},
     "Both centre piles show the same rank (seven): the first call wins."),
    # German Stress with jokers: a joker on one pile takes the other top's rank
    ({"code": "stress", "rank": "2", "joker": True},
     "A joker takes the rank of the other top (two): the first call wins."),
])
def test_equal_tops_name_the_rank_that_counts(event, text):
    with translation.override("en"):
        assert narrate(event, "speed") == text


def test_a_call_naming_no_pile_says_the_word_not_who_was_first():
    """German Stress's call: both callers of a tie were told "calls first"."""
    event = {"code": "call", "player": 1, "pile": "centre-0", "gesture": "shout",
             "false": False}
    with translation.override("en"):
        assert narrate(event, "speed", "stress-de") == "Player 2 calls “Stress!”"
    with translation.override("sv"):
        assert narrate(event, "speed", "stress-de") == "Spelare 2 ropar ”Stress!”"


@pytest.mark.parametrize(("event", "text"), [
    ({"code": "took", "player": 0, "piles": ["centre-1"], "count": 17},
     "Player 1 takes centre pile 2 (17 cards)."),
    ({"code": "took", "player": 1, "piles": ["centre-0", "centre-1"], "count": 1},
     "Player 2 takes both centre piles (1 card)."),
])
def test_taking_centre_cards_says_which_pile(event, text):
    """Once "Player 1 takes 17 cards from the centre.": which pile, and the count."""
    with translation.override("en"):
        assert narrate(event, "speed") == text
