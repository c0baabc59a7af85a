"""The playable demo: the new-game form, the game page and its board fragment, moves, the
clock, and the finished game in the step-through viewer.

Every request for a game goes through play.service.play: the game is caught up to the
request's arrival time (bots' moves and deadlines due by then), then the human's move is
applied at that time. The browser that started a game holds its seat (the signed session);
anyone else with the link watches.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import HttpResponseClientRefresh

from core.pagecache import cached_page
from presentation.gamepage import render_game

from . import presence, service
from .access import check_id, game_or_404, held_seat, held_seats, hold_seats
from .answers import (
    BadMove,
    Shown,
    act,
    catch_up,
    game_answer,
    parse_since,
    read_clock,
    read_move,
    take_back,
    unchanged,
    unreadable,
)
from .page import play_context
from .replay import render_replay
from .setup import Setup, parse_setup
from .setup_page import SetupKind, setup_view
from .told import told


# ---------------------------------------------------------------------------- new game
def _start(request: HttpRequest, setup: Setup) -> str:
    row = service.start_game(setup.variant, setup.seats, options=setup.options,
                             seed=setup.seed, wall=timezone.now())
    hold_seats(request, row.pk, [0])
    return reverse("play_game", kwargs={"game_id": row.pk})


DEMO = SetupKind(title=gettext_lazy("Play %(game)s"),
                 parse=lambda variant, params, _lang: parse_setup(variant, params), start=_start)


@require_http_methods(["GET", "HEAD", "POST"])
@cached_page
def setup_page(request: HttpRequest, variant: str) -> HttpResponse:
    return setup_view(request, variant, DEMO)


# ---------------------------------------------------------------------------- the game
def render_play(request: HttpRequest, shown: Shown) -> HttpResponse:
    """The demo's game page (or its board for htmx), as play.page draws it for this browser."""
    role, context = play_context(shown, held_seat(request, shown.row.pk))
    return render_game(request, role, template="play/game.html", context=context,
                       version=shown.row.version, status=shown.status)


@require_safe
@never_cache
@game_answer
def game_page(request: HttpRequest, game_id: str) -> HttpResponse:
    check_id(game_id)
    since = parse_since(request.GET.get("since"))
    shown = catch_up(game_id, since)
    # A page asking for its board again (its socket closed) is at the table all the same.
    held = held_seats(request, game_id)
    if since is not None and held and presence.seen_over_http(shown.row, held, timezone.now()):
        shown = catch_up(game_id, since)
    return render_play(request, shown)


@require_POST
@game_answer
def move(request: HttpRequest, game_id: str) -> HttpResponse:
    check_id(game_id)
    try:
        action, version = read_move(request)
    except BadMove:
        return render_play(request, unchanged(game_id, told(lambda: _(
            "That move could not be read, so nothing was changed.")), 400))
    return render_play(request, act(request, game_id, action=action, version=version))


@require_POST
@game_answer
def clock(request: HttpRequest, game_id: str) -> HttpResponse:
    check_id(game_id)
    try:
        request_args = read_clock(request)
    except BadMove:
        return render_play(request, unreadable(game_id))
    return render_play(request, act(request, game_id, **request_args))


@require_POST
@game_answer
def take_seat_back(request: HttpRequest, game_id: str) -> HttpResponse:
    """"Take my seat back" (play.presence): the page is then a player's page again, so it
    is loaded afresh (htmx: HX-Refresh; a plain form: a redirect to it)."""
    check_id(game_id)
    shown = take_back(request, game_id)
    if shown.status != 200:
        return render_play(request, shown)
    if request.headers.get("HX-Request"):
        return HttpResponseClientRefresh()
    return HttpResponseRedirect(reverse("play_game", kwargs={"game_id": game_id}), status=303)


# ---------------------------------------------------------------------------- replay
@require_safe
def replay_page(request: HttpRequest, game_id: str) -> HttpResponse:
    row = game_or_404(game_id)
    game_url = reverse("play_game", kwargs={"game_id": row.pk})
    if not row.over:
        # The step-through of a game still running would give its hidden cards away.
        return HttpResponseRedirect(game_url)
    return render_replay(request, row, url=reverse("play_replay", kwargs={"game_id": row.pk}),
                         game_url=game_url)
