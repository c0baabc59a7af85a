import re

import polib
import pytest
from django.conf import settings

from .pages import all_pages

CATALOGUES = {
    lang: polib.pofile(str(settings.BASE_DIR / "locale" / lang / "LC_MESSAGES" / "django.po"))
    for lang in ("sv", "nb", "de", "fi")
}
TAGS = re.compile(r"<[^>]+>")


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
