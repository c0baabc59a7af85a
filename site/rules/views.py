"""Rules pages: one variant's rulebook in the visitor's language, optionally beside another."""

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import get_language_info, gettext_lazy
from django.utils.translation import gettext as _

from core.catalogue import all_variants, variant_or_404
from core.glossary import current_lang
from core.methods import allow
from core.pagecache import cached_page
from examples.library import examples_for
from examples.viewer import deferred_viewer, embedded_viewer
from houserules.display import house_rules_box

from .comparison import build_rows, differences
from .figures import figure_charts, load_figures
from .rulebook import Rulebook, load_rulebook

LANGUAGE_CODES = [code for code, _ in settings.LANGUAGES]
# Viewers drawn in the page itself; the rest arrive as a link that loads its viewer as it
# nears the screen. Two cover the first screen on phones and desktops (no layout shift) and
# keep a rules page with twenty examples under 1,500 elements.
EAGER_VIEWERS = 2

# One whole sentence per source language: a language name inside a sentence is inflected or
# lower-cased differently in every language ("på svenska", "ruotsiksi", "auf Schwedisch").
ORIGINAL_IN = {
    "sv": gettext_lazy("The source of these rules is in Swedish."),
    "nb": gettext_lazy("The source of these rules is in Norwegian."),
    "de": gettext_lazy("The source of these rules is in German."),
    "fi": gettext_lazy("The source of these rules is in Finnish."),
    "en": gettext_lazy("The source of these rules is in English."),
}


def embedded_viewers(book: Rulebook, lang: str) -> dict[str, list[str]]:
    """Step 0 of each example beside the section (or option) it illustrates, in page order."""
    owner = {}
    for section in book.sections:
        owner[section.anchor] = section.anchor
        for sub in section.sub_anchors:
            owner[sub] = section.anchor
    examples: dict[str, list] = {}
    for example in examples_for(book.variant):
        anchor = owner.get(example.section)
        if anchor is not None:
            examples.setdefault(anchor, []).append(example)
    viewers: dict[str, list[str]] = {}
    shown = 0
    for section in book.sections:
        for example in examples.get(section.anchor, []):
            draw = embedded_viewer if shown < EAGER_VIEWERS else deferred_viewer
            viewers.setdefault(section.anchor, []).append(draw(example, lang))
            shown += 1
    return viewers


@allow("GET")
@cached_page
def rules_page(request: HttpRequest, variant: str) -> HttpResponse:
    lang = current_lang()
    entry = variant_or_404(variant, lang)
    book = load_rulebook(variant, lang)
    if book is None:
        raise Http404(variant)

    pair_code = request.GET.get("pair", "")
    pair_book = None
    if pair_code in LANGUAGE_CODES and pair_code != lang:
        pair_book = load_rulebook(variant, pair_code)
    source_lang = entry.info.source_language
    viewers = embedded_viewers(book, lang)
    pair_rows = None
    if pair_book is not None:
        # Side by side, each section's examples follow both texts, in the page's language.
        pair_rows = [(section, pair_book.section(section.anchor),
                      viewers.get(section.anchor, [])) for section in book.sections]
    # A printed house-rules sheet links here with its options: the page lists them on top.
    house_rules = house_rules_box(variant, request.GET, lang)
    return render(
        request,
        "rules/page.html",
        {
            "entry": entry,
            "book": book,
            "pair_book": pair_book,
            "sections": [(section, viewers.get(section.anchor, [])) for section in book.sections],
            "pair_rows": pair_rows,
            "pair_requested": bool(pair_code) and pair_book is None,
            "pair_choices": [
                (code, get_language_info(code)["name_local"])
                for code in LANGUAGE_CODES
                if code != lang
            ],
            "is_original": source_lang == lang,
            "source_lang": source_lang,
            "original_in": ORIGINAL_IN[source_lang],
            "house_rules": house_rules,
        },
        status=400 if house_rules and house_rules.error else 200,
    )


@allow("GET")
@cached_page
def compare(request: HttpRequest) -> HttpResponse:
    lang = current_lang()
    variants = all_variants(lang)
    names = {v.slug: v.name for v in variants}
    a, b = request.GET.get("a"), request.GET.get("b")
    pair = a is not None or b is not None
    error = ""
    if pair and (a not in names or b not in names or a == b):
        error = _("Choose two different variants to compare.")
        pair = False
    shown = [v for v in variants if v.slug in (a, b)] if pair else variants
    if pair:
        shown.sort(key=lambda v: (v.slug != a))
    rows = build_rows([v.slug for v in shown])
    figures = load_figures()
    return render(
        request,
        "rules/compare.html",
        {
            "variants": variants,
            "shown": shown,
            "rows": rows,
            "pair": pair,
            "a": a if pair else variants[0].slug,
            "b": b if pair else variants[1].slug,
            "error": error,
            "differences": differences(rows, names) if pair else [],
            "figures": figures,
            "charts": figure_charts(figures, names) if figures else [],
        },
        status=400 if error else 200,
    )
