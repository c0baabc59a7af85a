"""The configurator, the sheet, saving and the short links.

The configurator and the sheet read the configuration from the query string and keep no
state; saving writes one immutable row and answers with its short link.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
    QueryDict,
)
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import replace_url

from core.catalogue import all_variants, variant_or_404
from core.glossary import current_lang
from core.options import OPTION_PREFIX, bound_options
from core.pagecache import cached_page
from rules_engine.registry import VARIANTS

from .config import (
    LANGUAGE_CODES,
    MAX_OWN_RULES,
    HouseRulesConfig,
    Parsed,
    parse_config,
)
from .form import language_choices, name_inputs, own_rule_inputs
from .models import HouseRules
from .optionwords import option_fields
from .sheet import Sheet, build_sheet, qr_svg


def _sheet_or_error(parsed: Parsed, link: str = "") -> Sheet | None:
    if not parsed.ok:
        return None
    sheet = build_sheet(parsed.config, link=link)
    if sheet is None:
        parsed.errors["lang"] = [_("There is no sheet text in that language yet.")]
        parsed.config = None
    return sheet


def _error_slots(variant: str, parsed: Parsed) -> list[tuple[str, list[str]]]:
    """Every place a message can appear, so that a live update also clears old ones."""
    info = VARIANTS[variant]
    slots = ["options", *(OPTION_PREFIX + spec.key for spec in info.options), "names"]
    slots += [f"name-{i}" for i in range(1, info.players_max + 1)]
    slots += ["place", "date", "lang", "lang2", "paper", "own"]
    slots += [f"own-{i}" for i in range(1, MAX_OWN_RULES + 1)]
    return [(slot, parsed.errors.get(slot, [])) for slot in slots]


def _form_context(
    request: HttpRequest, variant: str, parsed: Parsed, sheet: Sheet | None, query: str = ""
) -> dict:
    lang = current_lang()
    entry = variant_or_404(variant, lang)
    if parsed.config:
        query = parsed.config.query_string()
    return {
        "entry": entry,
        "page_title": _("House rules: %(game)s") % {"game": entry.name},
        "parsed": parsed,
        "errors": parsed.errors,
        "sheet": sheet,
        "query": query,
        "option_fields": option_fields(parsed.options_form or bound_options(variant, {}), lang),
        "name_inputs": name_inputs(variant, parsed),
        "own_inputs": own_rule_inputs(parsed),
        "languages": language_choices(),
        "form_url": reverse("houserules_form", kwargs={"variant": variant}),
        "sheet_url": reverse("houserules_sheet", kwargs={"variant": variant}),
        "save_url": reverse("houserules_save", kwargs={"variant": variant}),
        "error_count": len(parsed.errors),
        "error_slots": _error_slots(variant, parsed),
    }


@require_safe
@cached_page
def index(request: HttpRequest) -> HttpResponse:
    return render(request, "houserules/index.html", {"variants": all_variants(current_lang())})


@require_safe
@cached_page
def configurator(request: HttpRequest, variant: str) -> HttpResponse:
    parsed = parse_config(variant, request.GET, current_lang())
    sheet = _sheet_or_error(parsed)
    context = _form_context(request, variant, parsed, sheet)
    return render(request, "houserules/form.html", context, status=400 if parsed.errors else 200)


@require_safe
@cached_page
def sheet_page(request: HttpRequest, variant: str) -> HttpResponse:
    """The sheet alone (to print), or for htmx the live preview beside the form."""
    parsed = parse_config(variant, request.GET, current_lang())
    sheet = _sheet_or_error(parsed)
    if request.htmx:
        context = _form_context(request, variant, parsed, sheet)
        # htmx swaps only 2xx answers: the preview shows the errors beside the fields.
        response = render(request, "houserules/form.html#preview", context)
        replace_url(response, f"{context['form_url']}?{context['query']}")
    elif sheet is None:
        context = _form_context(request, variant, parsed, sheet)
        response = render(request, "houserules/form.html", context, status=400)
    else:
        response = render(
            request,
            "houserules/sheet_page.html",
            {"sheet": sheet, "entry": variant_or_404(variant, current_lang()),
             "edit_url": reverse("houserules_form", kwargs={"variant": variant})
             + "?" + sheet.config.query_string()},
        )
    patch_vary_headers(response, ("HX-Request",))
    return response


@require_POST
def save(request: HttpRequest, variant: str) -> HttpResponse:
    params = QueryDict(request.POST.get("q", "")[:8000])
    parsed = parse_config(variant, params, current_lang())
    sheet = _sheet_or_error(parsed)
    if sheet is None:
        context = _form_context(request, variant, parsed, sheet)
        return render(request, "houserules/form.html", context, status=400)
    config = parsed.config
    row = HouseRules.objects.create(
        variant=config.variant,
        options=config.options,
        names=list(config.names),
        place=config.place,
        date=config.date,
        own_rules=list(config.own_rules),
        languages=list(config.languages),
        paper=config.paper,
    )
    return HttpResponseRedirect(reverse("houserules_short", kwargs={"code": row.code}), status=303)


def row_config(row: HouseRules) -> Parsed:
    """A stored row read back through the same checks as a query string."""
    params = QueryDict(mutable=True)
    stored = HouseRulesConfig(
        variant=row.variant,
        options=row.options,
        names=tuple(row.names),
        place=row.place,
        date=row.date,
        languages=tuple(row.languages),
        paper=row.paper,
        own_rules=tuple(row.own_rules),
    )
    for key, value in stored.query_pairs():
        params.appendlist(key, value)
    languages = tuple(row.languages) or ("en",)
    return parse_config(row.variant, params, languages[0])


@require_safe
def short_link(request: HttpRequest, code: str) -> HttpResponse:
    row = get_object_or_404(HouseRules, code=code)
    parsed = row_config(row)
    if not parsed.ok:
        raise Http404(code)
    config = parsed.config
    wanted = request.GET.get("lang", "")
    if wanted in LANGUAGE_CODES:
        config = config.with_languages((wanted,))
    play = request.build_absolute_uri(reverse("houserules_play", kwargs={"code": row.code}))
    friends = request.build_absolute_uri(reverse("tables_from_sheet",
                                                 kwargs={"code": row.code}))
    sheet = build_sheet(config, link=play)
    if sheet is None:
        raise Http404(code)
    # A saved sheet opens in the language it was saved in (the one its table reads), not
    # the browser's, unless the visitor chose another (?lang=).
    lang = wanted if wanted in LANGUAGE_CODES else parsed.config.languages[0]
    with translation.override(lang):
        edit_url = (
            reverse("houserules_form", kwargs={"variant": row.variant})
            + "?" + config.query_string()
        )
    names = dict(language_choices())
    sheet_languages = [
        (f"?lang={code}", code, names[code].capitalize(), config.languages == (code,))
        for code in LANGUAGE_CODES
    ]
    if len(parsed.config.languages) > 1:
        saved = parsed.config.languages
        sheet_languages.append(
            ("?", "", " | ".join(names[c].capitalize() for c in saved),
             config.languages == saved)
        )
    with translation.override(lang):
        request.LANGUAGE_CODE = lang
        return render(
            request,
            "houserules/sheet_page.html",
            {
                "sheet": sheet,
                "entry": variant_or_404(row.variant, lang),
                "code": row.code,
                "edit_url": edit_url,
                "sheet_languages": sheet_languages,
                "friends_url": friends,
                "friends_qr": qr_svg(friends),
            },
        )


@require_safe
def play(request: HttpRequest, code: str) -> HttpResponse:
    """Where the printed QR code leads: a new game of the variant against the bots, with
    exactly these rules filled in (the demo's form reads the same `opt-<key>` pairs)."""
    row = get_object_or_404(HouseRules, code=code)
    parsed = row_config(row)
    if not parsed.ok:
        raise Http404(code)
    config = parsed.config
    visitor = current_lang()
    lang = visitor if visitor in config.languages else config.languages[0]
    with translation.override(lang):
        url = reverse("play_setup", kwargs={"variant": row.variant})
    query = urlencode([p for p in config.query_pairs() if p[0].startswith(OPTION_PREFIX)])
    return HttpResponseRedirect(f"{url}?{query}")
