import pytest

from core.glossary import card_face, term


@pytest.mark.parametrize(
    ("code", "lang", "name"),
    [
        ("7H", "sv", "hjärter sju"),
        ("7H", "de", "Herz Sieben"),
        ("7H", "en", "seven of hearts"),
        ("7H", "nb", "hjerter sju"),
        ("7H", "fi", "hertta seiska"),
        ("QS", "de", "Pik Dame"),
        ("AC", "sv", "klöver ess"),
        ("TD", "en", "ten of diamonds"),
        ("X", "fi", "jokeri"),
    ],
)
def test_cards_are_named_in_the_page_language(code, lang, name):
    assert card_face(code, lang).name == name


def test_suits_are_told_apart_without_colour():
    faces = [card_face(f"5{suit}", "en") for suit in "SHDC"]
    assert len({f.suit_symbol for f in faces}) == 4
    assert len({f.suit_letter for f in faces}) == 4


def test_every_language_names_the_same_things():
    from core.glossary import glossary

    keys = {lang: set(glossary(lang)["terms"]) for lang in ("sv", "nb", "de", "fi", "en")}
    assert all(k == keys["en"] for k in keys.values())


def test_term_uses_the_active_language():
    from django.utils import translation

    with translation.override("de"):
        assert term("centre_pile") == "Mittelstapel"
