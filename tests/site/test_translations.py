import re

import polib
import pytest
from django.conf import settings

from core.glossary import FORMS

from .pages import all_pages

CATALOGUES = {
    lang: polib.pofile(str(settings.BASE_DIR / "locale" / lang / "LC_MESSAGES" / "django.po"))
    for lang in ("sv", "nb", "de", "fi")
}
TAGS = re.compile(r"<[^>]+>")
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


@pytest.mark.parametrize("lang", CATALOGUES)
def test_catalogue_is_complete(lang):
    po = CATALOGUES[lang]
    assert po.untranslated_entries() == []
    assert po.fuzzy_entries() == []


@pytest.mark.parametrize(("lang", "url"), [p for p in all_pages() if p[0] != "en"])
def test_no_untranslated_interface_text_on_the_page(client, lang, url):
    text = TAGS.sub(" ", client.get(url).text)
    english = [
        e.msgid for e in CATALOGUES[lang]
        if " " in e.msgid and "%" not in e.msgid and e.msgstr and e.msgstr != e.msgid
    ]
    shown = [msgid for msgid in english if msgid in text]
    assert shown == []


# The slots whose words the generated sentences give in every form (examples.wording.Words).
INFLECTED = {"card", "cards", "pile", "place", "from", "to", "player", "other", "rank"}


def allowed_placeholders(entry: polib.POEntry) -> set[str]:
    """The msgid's placeholders and, for a card, place, player or rank, its grammatical
    forms ("card" → "card_acc", "pile" → "pile_ill", …)."""
    names = set(PLACEHOLDER.findall(entry.msgid + entry.msgid_plural))
    return names | {f"{slot}_{form}" for slot in names & INFLECTED for form in FORMS}


@pytest.mark.parametrize("lang", CATALOGUES)
def test_a_translation_uses_only_its_msgids_placeholders_and_their_forms(lang):
    wrong = []
    for entry in CATALOGUES[lang]:
        texts = [entry.msgstr, *entry.msgstr_plural.values()]
        used = {name for text in texts for name in PLACEHOLDER.findall(text)}
        wrong += [(entry.msgid, name) for name in used - allowed_placeholders(entry)]
    assert wrong == []
