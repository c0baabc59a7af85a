"""The playable demo: the new-game form, the game page and its board fragment, moves, the
clock, and the finished game in the step-through viewer.

Every request for a game goes through play.service.play: the game is caught up to the
request's arrival time (bots' moves and deadlines due by then), then the human's move is
applied at that time. The browser that started a game holds its seat (the signed session);
anyone else with the link watches.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from core.catalogue import variant_entry
from core.glossary import current_lang
from core.pagecache import cached_page
from presentation.board import Place
from presentation.gamepage import Role, render_game, table_for
from presentation.narration import narrate_all
from presentation.table import Table
from presentation.wording import CardList, CardWord, Words, sentence

from . import service
from .access import check_id, game_or_404, held_seat, hold_seats
from .answers import (
    BadMove,
    Shown,
    act,
    catch_up,
    game_answer,
    parse_since,
    read_clock,
    read_move,
    unchanged,
    unreadable,
)
from .models import Game, LogEntry
from .replay import render_replay
from .setup import Setup, again_pairs, parse_setup
from .setup_page import SetupKind, setup_view
from .summary import summarise

#: how many of the latest events the live region reads out after a change.
ANNOUNCED_EVENTS = 4


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
def _announcements(row: Game, since: int | None, family: str, extra: str = "",
                   fresh: list[LogEntry] | None = None) -> list[str]:
    """What the live region reads out: the latest events since the page's last view, and
    the centre tops after them. `fresh`: the entries this request wrote, which are often
    exactly the ones the page has not seen (then the log is not read again)."""
    lines = [extra] if extra else []
    if since is None or since >= row.log_length:
        return lines
    if fresh and fresh[0].seq <= since:
        entries = [entry for entry in fresh if entry.seq >= since]
    else:
        entries = LogEntry.objects.filter(game=row, seq__gte=max(since, row.log_length - 40))
    events = [e for entry in entries for e in entry.events]
    lines += narrate_all(events[-ANNOUNCED_EVENTS:], family, variant=row.variant)
    return lines


def _centre_line(table: Table) -> str:
    """The centre piles' top cards, as the live region reads them out after a move; with a
    pile empty, each pile by name ("Centre pile 1 shows …; centre pile 2 is empty.")."""
    piles = []
    for zone in table.centre:
        if zone.fanned:
            continue
        top = zone.items[0].top if zone.items else None
        piles.append((Place(zone.id, zone.kind, table.variant),
                      top["card"] if top and top["card"] else None))
    if not piles:
        return ""
    cards = [card for _pile, card in piles]
    if len(piles) > 1 and all(cards) and len(set(cards)) == 1:
        # two decks (German Stress): the same card can top both piles
        return _("Both centre piles show the %(card)s.") % Words({"card": CardWord(cards[0])})
    if all(cards):
        return _("The centre piles show the %(cards)s.") % Words({
            "cards": CardList(tuple(card for _pile, card in piles if card))})
    parts = [_("%(pile)s shows the %(card)s") % Words({"pile": pile, "card": CardWord(card)})
             if card else _("%(pile)s is empty") % Words({"pile": pile}) for pile, card in piles]
    return sentence("; ".join(parts) + ".")


def render_play(request: HttpRequest, shown: Shown) -> HttpResponse:
    """The demo's game page (or its board for htmx): the player's, or a watcher's, who sees
    the table turned to the first person's seat without being that player."""
    row, driver = shown.row, shown.turn.driver
    game = driver.game
    seat = held_seat(request, row.pk)
    holds = seat is not None and seat in row.human_seats
    role = Role.PLAYER if holds else Role.WATCHER
    facing = seat if holds else (row.human_seats[0] if row.human_seats else None)
    table = table_for(role, game, row.seats, seat=facing, paused=row.paused)
    announce = _announcements(row, shown.since, table.family, shown.message, shown.fresh)
    if announce and len(announce) > (1 if shown.message else 0):
        announce.append(_centre_line(table))
    kw = {"game_id": row.pk}
    context = {
        "row": row,
        "entry": variant_entry(row.variant, current_lang()),
        "table": table,
        "holds": holds,
        "message": shown.message,
        "announce": [line for line in announce if line],
        "poll_ms": service.next_poll_ms(row, driver, timezone.now()),
        "game_url": reverse("play_game", kwargs=kw),
        "move_url": reverse("play_move", kwargs=kw),
        "clock_url": reverse("play_clock", kwargs=kw),
        "replay_url": reverse("play_replay", kwargs=kw),
        "setup_url": reverse("play_setup", kwargs={"variant": row.variant}),
        "rules_url": reverse("rules", kwargs={"variant": row.variant}),
        "summary": summarise(game, row.seats, seat if holds else None) if game.over else None,
        "again_pairs": again_pairs(row),
        "again_query": urlencode(again_pairs(row)),
    }
    return render_game(request, role, template="play/game.html", context=context,
                       version=row.version, status=shown.status)


@require_safe
@never_cache
@game_answer
def game_page(request: HttpRequest, game_id: str) -> HttpResponse:
    check_id(game_id)
    return render_play(request, catch_up(game_id, parse_since(request.GET.get("since"))))


@require_POST
@game_answer
def move(request: HttpRequest, game_id: str) -> HttpResponse:
    check_id(game_id)
    try:
        action, version = read_move(request)
    except BadMove:
        return render_play(request, unchanged(game_id, _(
            "That move could not be read, so nothing was changed."), 400))
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
