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
