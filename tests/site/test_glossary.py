import pytest

from core.glossary import card_face, card_name, glossary, place_name, term

LANGS = ("sv", "nb", "de", "fi", "en")


@pytest.mark.parametrize(
    ("code", "lang", "name"),
    [
        ("7H", "sv", "hjärter sju"),
        ("7H", "de", "Herz-Sieben"),
        ("7H", "en", "seven of hearts"),
        ("7H", "nb", "hjerter sju"),
        ("7H", "fi", "herttaseiska"),
        ("6S", "fi", "patakuutonen"),
        ("QS", "de", "Pik-Dame"),
        ("AC", "de", "Kreuz-Ass"),
        ("AC", "sv", "klöver ess"),
        ("TD", "en", "ten of diamonds"),
        ("X", "fi", "jokeri"),
    ],
)
def test_cards_are_named_the_way_the_language_writes_them(code, lang, name):
    assert card_face(code, lang).name == name
    assert card_name(code, lang) == name


@pytest.mark.parametrize(
    ("code", "form", "name"),
    [
        ("AH", "gen", "herttaässän"),  # herttaässän päälle
        ("6S", "ill", "patakuutoseen"),
        ("KD", "ade", "ruutukuninkaalla"),
        ("QC", "par", "ristikuningatarta"),
        ("7H", "ela", "herttaseiskasta"),
        ("TS", "all", "patakympille"),
        ("4C", "pl_par", "ristinelosia"),
        ("X", "gen", "jokerin"),
    ],
)
def test_finnish_card_names_inflect_at_the_end_of_the_compound(code, form, name):
    assert card_name(code, "fi", form) == name


def test_german_jack_is_declined_weakly():
    assert card_name("JC", "de", "acc") == "Kreuz-Buben"
    assert card_name("JC", "de") == "Kreuz-Bube"


@pytest.mark.parametrize(("code", "form", "name"), [
    ("JC", "acc_def", "den Kreuz-Buben"),
    ("7H", "acc_def", "die Herz-Sieben"),
    ("AS", "acc_def", "das Pik-Ass"),
    ("KD", "dat_def", "dem Karo-König"),
    ("QH", "dat_def", "der Herz-Dame"),
    ("AS", "gen_def", "des Pik-Asses"),
    ("JC", "nom_def", "der Kreuz-Bube"),
    ("X", "acc_def", "den Joker"),
])
def test_german_card_names_take_the_article_of_their_gender(code, form, name):
    assert card_name(code, "de", form) == name


def test_every_german_rank_has_a_gender():
    genders = glossary("de")["rank_gender"]
    assert set(genders) == set("A23456789TJQK")
    assert set(genders.values()) == {"m", "f", "n"}


@pytest.mark.parametrize("lang", ["sv", "nb", "fi", "en"])
def test_a_language_without_articles_keeps_the_plain_name(lang):
    assert card_name("7H", lang, "acc_def") == card_name("7H", lang, "acc")


def test_a_finnish_object_is_in_the_genitive_form():
    """The total object of a finished action: "pelaa patakolmosen"."""
    assert card_name("3S", "fi", "acc") == "patakolmosen"
    assert place_name("centre_pile", 2, "fi", "acc") == "pelipinon 2"


def test_every_finnish_place_word_has_every_case():
    """Every word that names a place on the table, and "player", in the cases a sentence
    may ask for ("pelipinoon 2", "paikasta 1", "pelaajalle 2")."""
    from presentation.board import KIND_WORDS, VARIANT_WORDS

    words = glossary("fi")["term_forms"]
    cases = {"gen", "par", "ill", "ine", "ela", "ade", "abl", "all"}
    keys = {*KIND_WORDS.values(), *VARIANT_WORDS.values(), "player"}
    assert keys <= set(words)
    assert all(set(words[key]) == cases for key in keys)
    assert set(glossary("fi")["place_names"]["held_pile"]) == cases | {"nom"}


def test_every_finnish_rank_has_every_form():
    forms = glossary("fi")["rank_forms"]
    wanted = set(forms["A"])
    assert wanted >= {"gen", "par", "ill", "ine", "ela", "ade", "abl", "all"}
    assert all(set(forms[rank]) == wanted for rank in "A23456789TJQK")


def test_suits_are_told_apart_without_colour():
    faces = [card_face(f"5{suit}", "en") for suit in "SHDC"]
    assert len({f.suit_symbol for f in faces}) == 4
    assert len({f.suit_letter for f in faces}) == 4


@pytest.mark.parametrize("lang", LANGS)
def test_rank_and_suit_letters_on_card_faces_never_clash(lang):
    """K for king and K for klöver would make the king of clubs read "K ♣ K"."""
    ranks = {card_face(f"{rank}S", lang).rank_label for rank in "A23456789TJQK"}
    suits = {card_face(f"A{suit}", lang).suit_letter for suit in "SHDC"}
    assert len(ranks) == 13
    assert len(suits) == 4
    assert not ranks & suits, ranks & suits


def test_every_language_names_the_same_things():
    from core.glossary import glossary

    keys = {lang: set(glossary(lang)["terms"]) for lang in ("sv", "nb", "de", "fi", "en")}
    assert all(k == keys["en"] for k in keys.values())


def test_term_uses_the_active_language():
    from django.utils import translation

    with translation.override("de"):
        assert term("centre_pile") == "Ablagestapel"


# The glossary words each variant's texts must use for its main things (inflected forms
# count: the stem is matched), so a page never calls one pile two different names.
KEY_TERMS = {
    "stress-se": ["centre_pile", "draw_pile", "play_row"],
    "stressi-fi": ["centre_pile", "draw_pile", "play_row"],
    "stress-de": ["centre_pile", "hand_stack"],
    "spit": ["centre_pile", "layout", "reserve"],
    "james-bond": ["middle", "complete_pile", "held_pile"],
}


@pytest.mark.parametrize("slug", list(KEY_TERMS))
@pytest.mark.parametrize("lang", ["sv", "nb", "de", "fi", "en"])
def test_rules_texts_use_the_glossary_words(settings, slug, lang):
    from core.glossary import glossary

    text = (settings.CONTENT_DIR / slug / f"{lang}.md").read_text(encoding="utf-8").lower()
    for key in KEY_TERMS[slug]:
        word = glossary(lang)["terms"][key].lower()
        assert word[: max(4, len(word) - 2)] in text, (key, word)
