import ast
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


# The slots whose words the generated sentences give in every form (presentation.wording.Words).
INFLECTED = {"card", "cards", "pile", "place", "from", "to", "player", "other", "rank"}
GETTEXT = {"_", "gettext", "ngettext"}


def _is_words(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Words"


def msgids_filled_with_words() -> set[str]:
    """The msgids the code formats with a Words mapping (`_("…") % Words({…})`, or kept in
    a table typed WordsSentences), read from the source: only their translations may ask
    for grammatical forms."""
    found = set()
    for path in (settings.BASE_DIR / "site").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {target.id for node in ast.walk(tree)
                 if isinstance(node, ast.Assign) and _is_words(node.value)
                 for target in node.targets if isinstance(target, ast.Name)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.AnnAssign) and node.value is not None
                    and "WordsSentences" in ast.unparse(node.annotation)):
                found |= {arg.value for call in ast.walk(node.value) if isinstance(call, ast.Call)
                          for arg in call.args
                          if isinstance(arg, ast.Constant) and isinstance(arg.value, str)}
            if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod)
                    and isinstance(node.left, ast.Call)
                    and getattr(node.left.func, "id", None) in GETTEXT):
                continue
            if _is_words(node.right) or (isinstance(node.right, ast.Name)
                                         and node.right.id in names):
                found |= {arg.value for arg in node.left.args
                          if isinstance(arg, ast.Constant) and isinstance(arg.value, str)}
        for function in ast.walk(tree):
            if isinstance(function, ast.FunctionDef):
                found |= _chosen_then_filled(function)
    return found


def _chosen_then_filled(function: ast.FunctionDef) -> set[str]:
    """`text = _("…")` in branches, then `text % Words(…)`: the sentences of one function
    that are picked first and filled later."""
    chosen: dict[str, set[str]] = {}
    for node in ast.walk(function):
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                and getattr(node.value.func, "id", None) in GETTEXT):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    chosen.setdefault(target.id, set()).update(
                        arg.value for arg in node.value.args
                        if isinstance(arg, ast.Constant) and isinstance(arg.value, str))
    filled = set()
    for node in ast.walk(function):
        if (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod)
                and isinstance(node.left, ast.Name) and node.left.id in chosen
                and _is_words(node.right)):
            filled |= chosen[node.left.id]
    return filled


WITH_FORMS = msgids_filled_with_words()


def allowed_placeholders(entry: polib.POEntry) -> set[str]:
    """The msgid's placeholders and, where the code fills the sentence with Words, the
    grammatical forms of its cards, places, players and ranks ("card_acc", "pile_ill")."""
    names = set(PLACEHOLDER.findall(entry.msgid + entry.msgid_plural))
    if entry.msgid not in WITH_FORMS:
        return names
    # an English msgid may itself ask for a form ("from %(from_ela)s"): the slot is "from"
    slots = {name.split("_")[0] for name in names} & INFLECTED
    return names | slots | {f"{slot}_{form}" for slot in slots for form in FORMS}


def test_the_source_walk_finds_the_sentences_filled_with_words():
    assert {"%(player)s plays the %(card)s onto %(pile)s.", "hand on %(pile)s",
            "Play the %(card)s from %(from_ela)s onto %(to)s", "%(player)s won",
            # chosen in branches, then filled once (play.summary._why_player)
            "%(player)s had fewer cards left when nobody could play on."} <= WITH_FORMS
    assert "Player %(n)s (bot, %(level)s)" not in WITH_FORMS  # a seat's plain label


@pytest.mark.parametrize("lang", CATALOGUES)
def test_a_translation_uses_only_its_msgids_placeholders_and_their_forms(lang):
    wrong = []
    for entry in CATALOGUES[lang]:
        texts = [entry.msgstr, *entry.msgstr_plural.values()]
        used = {name for text in texts for name in PLACEHOLDER.findall(text)}
        wrong += [(entry.msgid, name) for name in used - allowed_placeholders(entry)]
    assert wrong == []
