"""The set-up page, one view for the demo's new game and teacher mode's new lesson: the form
(play.setup's SetupForm, teacher mode's TeachForm beside it), and on a valid post the game
dealt and the browser sent to it. What differs is a SetupKind."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.shortcuts import render
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext as _

from core.catalogue import variant_or_404
from core.glossary import current_lang
from core.options import bound_options
from houserules.optionwords import option_fields
from rules_engine.options import OptionError

from .setup import level_fields, player_choices


@dataclass(frozen=True)
class SetupKind:
    """One kind of set-up page: the demo's or teacher mode's."""

    #: the page's title ("Play %(game)s")
    title: Promise
    #: the form's reading of a query (variant, params, language) -> a set-up with `base`,
    #: `errors` and `ok`
    parse: Callable[[str, QueryDict, str], Any]
    #: deals the game for a valid set-up and returns the address to go to (ValueError or
    #: OptionError when the engine cannot deal it)
    start: Callable[[HttpRequest, Any], str]
    #: the page's own fields (teacher mode's modes, paces, languages)
    extra: Callable[[Any, str], dict] = lambda setup, lang: {}
    teach: bool = False


def setup_view(request: HttpRequest, variant: str, kind: SetupKind) -> HttpResponse:
    lang = current_lang()
    entry = variant_or_404(variant, lang)
    params = request.POST if request.method == "POST" else request.GET
    setup = kind.parse(variant, params, lang)
    status = 200
    if request.method == "POST":
        if setup.ok:
            try:
                return HttpResponseRedirect(kind.start(request, setup), status=303)
            except (ValueError, OptionError):
                setup.errors["players"] = _(
                    "The engine cannot deal this game with these rules and players."
                )
        status = 400
    base = setup.base
    choices = player_choices(base)
    context = {
        "entry": entry,
        "page_title": str(kind.title) % {"game": entry.name},
        "teach": kind.teach,
        "game_page": "" if kind.teach else "1",
        "setup": setup,
        "errors": {**base.errors, **setup.errors},
        "option_fields": option_fields(base.form or bound_options(variant, {}), lang),
        "player_choices": choices if len(choices) > 1 else (),
        "level_fields": level_fields(base),
        "rules_url": reverse("rules", kwargs={"variant": variant}),
        **kind.extra(setup, lang),
    }
    return render(request, "play/setup.html", context, status=status)
