"""A table of friends (#22): the new table's form, the language-free invite link, the
table's page (lobby, game under way, result), taking a seat, ready, removing a player,
and going to the game with the seat held by this browser's own session."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from play.access import hold_seats
from play.setup import level_fields, player_choices

from core.catalogue import all_variants, variant_or_404
from core.glossary import current_lang
from core.methods import allow
from core.options import OPTION_PREFIX, bound_options, value_key
from houserules.models import HouseRules
from houserules.optionwords import option_fields
from houserules.sheet import qr_svg
from presentation.table import level_choice
from rules_engine.bots import LEVELS
from rules_engine.options import OptionError

from . import service
from .access import count_opened, join_limit, may_open, me, my_seat, table_or_404
from .forms import PRESENCE_CHOICES, JoinForm, Plan, SeatForm, parse_plan
from .lobby import lobby_context, seen_mark
from .models import FRIEND, Table
from .service import Refused


@allow("GET")
def index(request: HttpRequest) -> HttpResponse:
    return render(request, "tables/index.html", {"variants": all_variants(current_lang())})


def _new_table_page(
    request: HttpRequest, variant: str, plan: Plan, status: int, message: str = ""
) -> HttpResponse:
    lang = current_lang()
    setup = plan.setup
    return render(
        request,
        "tables/new.html",
        {
            "entry": variant_or_404(variant, lang),
            "plan": plan,
            "message": message,
            "errors": {
                key.replace("-", "_"): text for key, text in {**setup.errors, **plan.errors}.items()
            },
            "option_fields": option_fields(setup.form or bound_options(variant, {}), lang),
            "player_choices": player_choices(setup),
            "seat_fields": [
                (
                    f.number,
                    f.hidden,
                    plan.kinds[f.number - 1] if f.number <= len(plan.kinds) else FRIEND,
                )
                for f in level_fields(setup)
            ],
            "levels": [(level, level_choice(level)) for level in LEVELS],
            "presence_choices": PRESENCE_CHOICES,
            "rules_url": reverse("rules", kwargs={"variant": variant}),
        },
        status=status,
    )


@allow("GET", "POST")
@never_cache
def new_table(request: HttpRequest, variant: str) -> HttpResponse:
    variant_or_404(variant, current_lang())
    posted = request.method == "POST"
    plan = parse_plan(variant, request.POST if posted else request.GET, named=posted)
    if not posted:
        return _new_table_page(request, variant, plan, 200)
    if not plan.ok:
        return _new_table_page(request, variant, plan, 400)
    if not may_open(request):
        return _new_table_page(
            request,
            variant,
            plan,
            429,
            _("You have opened many tables in the last hour. Use one of them, or try again later."),
        )
    try:
        sheet = request.POST.get("sheet", "")[:16]
        known = bool(sheet) and HouseRules.objects.filter(code=sheet).exists()
        table = service.open_table(plan, me(request), sheet=sheet if known else "")
    except (ValueError, OptionError):
        plan.errors["players"] = _("The engine cannot deal this game with these rules and players.")
        return _new_table_page(request, variant, plan, 400)
    count_opened(request)
    return HttpResponseRedirect(reverse("tables_table", kwargs={"code": table.pk}), status=303)


@allow("GET")
def invite(request: HttpRequest, code: str) -> HttpResponse:
    """The link the creator shares: it names no language, each guest reads their own."""
    table = table_or_404(code)
    lang = translation.get_language_from_request(request)
    with translation.override(lang):
        return HttpResponseRedirect(reverse("tables_table", kwargs={"code": table.pk}))


def _page(request: HttpRequest, table: Table, status: int = 200, message: str = "") -> HttpResponse:
    context = lobby_context(table, me(request), current_lang())
    context["message"] = message
    if request.htmx:
        return render(request, "tables/table.html#lobby", context, status=status)
    link = request.build_absolute_uri(reverse("tables_invite", kwargs={"code": table.pk}))
    context.update(invite=link, qr=qr_svg(link), seen=seen_mark(table))
    return render(request, "tables/table.html", context, status=status)


@allow("GET")
@never_cache
def table_page(request: HttpRequest, code: str) -> HttpResponse:
    response = _page(request, table_or_404(code))
    response["Vary"] = "HX-Request"
    return response


def _after(request: HttpRequest, table: Table) -> HttpResponse:
    if request.htmx:
        return _page(request, table)
    return HttpResponseRedirect(reverse("tables_table", kwargs={"code": table.pk}), status=303)


@allow("POST")
def join(request: HttpRequest, code: str) -> HttpResponse:
    table = table_or_404(code)
    limit = join_limit(request, table)
    if limit == "table":
        return _page(
            request,
            table,
            429,
            _("Too many tries to take a seat at this table. Wait a few minutes and try again."),
        )
    if limit:
        return _page(
            request,
            table,
            429,
            _(
                "You have tried to take many seats at tables in the last few minutes. Wait a "
                "few minutes and try again."
            ),
        )
    form = JoinForm(request.POST)
    if not form.is_valid():
        return _page(request, table, 400, " ".join(form.errors["name"]))
    try:
        service.take_seat(table, me(request), form.cleaned_data["name"])
    except Refused as refused:
        return _page(request, table, refused.status, refused.message)
    return _after(request, table)


@allow("POST")
def ready(request: HttpRequest, code: str) -> HttpResponse:
    table = table_or_404(code)
    seat = my_seat(table, me(request))
    if seat is None:
        return _page(request, table, 403, _("Take a seat first: only players say ready."))
    try:
        service.set_ready(table, seat, request.POST.get("ready") != "no")
    except Refused as refused:
        return _page(request, table, refused.status, refused.message)
    return _after(request, table)


def _on_a_seat(request: HttpRequest, code: str, act) -> HttpResponse:
    """The creator's command on a seat the form names (remove it, give it back)."""
    table = table_or_404(code)
    form = SeatForm(request.POST)
    if not form.is_valid():
        return _page(request, table, 400, " ".join(form.errors["seat"]))
    try:
        act(table, me(request), form.cleaned_data["seat"])
    except Refused as refused:
        return _page(request, table, refused.status, refused.message)
    return _after(request, table)


@allow("POST")
def remove(request: HttpRequest, code: str) -> HttpResponse:
    return _on_a_seat(request, code, service.remove)


@allow("POST")
def give_back(request: HttpRequest, code: str) -> HttpResponse:
    return _on_a_seat(request, code, service.give_back)


@allow("GET")
@never_cache
def play(request: HttpRequest, code: str) -> HttpResponse:
    """To the table's game, with this browser's seat held in its own session (a watcher's
    browser holds none)."""
    table = table_or_404(code)
    last = service.current_round(table)
    if last is None:
        return HttpResponseRedirect(reverse("tables_table", kwargs={"code": table.pk}))
    seat = my_seat(table, me(request))
    if seat is not None:
        hold_seats(request, last.game_id, [seat.number])
    return HttpResponseRedirect(reverse("play_game", kwargs={"game_id": last.game_id}))


@allow("GET")
def from_sheet(request: HttpRequest, code: str) -> HttpResponse:
    """Where a saved house-rules sheet's "with friends" QR code leads: a new table with
    exactly its rules, in the visitor's language."""
    sheet = HouseRules.objects.filter(code=code).first()
    if sheet is None:
        raise Http404(code)
    lang = translation.get_language_from_request(request)
    with translation.override(lang):
        url = reverse("tables_new", kwargs={"variant": sheet.variant})
    pairs = [("sheet", sheet.code)]
    pairs += [(OPTION_PREFIX + key, value_key(value)) for key, value in sheet.options.items()]
    return HttpResponseRedirect(f"{url}?{urlencode(pairs)}")
