"""The playable demo: the new-game form, the game page and its board fragment, moves, the
clock, and the finished game in the step-through viewer.

Every request for a game goes through play.service.play: the game is caught up to the
request's arrival time (bots' moves and deadlines due by then), then the human's move is
applied at that time. The browser that started a game holds its seat (the signed session);
anyone else with the link watches.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from typing import Protocol
from urllib.parse import urlencode

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from core.actions import ActionShapeError, read_action
from core.catalogue import variant_entry, variant_or_404
from core.glossary import current_lang
from core.options import OPTION_PREFIX, value_key
from core.pagecache import cached_page
from examples.views import parse_step, step_context
from presentation.board import Place
from presentation.narration import narrate_all
from presentation.reasons import reason_text
from presentation.wording import CardList, CardWord, Words, sentence
from rules_engine.options import OptionError

from . import service
from .clock import PACE_VALUES
from .models import Game, LogEntry
from .replay import game_example
from .service import CLOCK_COMMANDS, FORGED, NOT_YOUR_SEAT, PAUSED, RUNNING, STALE, Turn
from .setup import level_fields, option_fields, parse_setup, player_choices
from .store import Busy
from .summary import summarise
from .table import build_table

SESSION_KEY = "play"
#: games a browser remembers holding (the signed session cookie must stay small).
MAX_HELD = 20
#: how many of the latest events the live region reads out after a change.
ANNOUNCED_EVENTS = 4
VALID_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


class BadMove(ValueError):
    """A move request that cannot even be read (not JSON, not an action, no version)."""


# ---------------------------------------------------------------------------- seats
def _is_seat(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def held_seats(request: HttpRequest, game_id: str) -> tuple[int, ...]:
    """The seats this browser holds in a game (two at a hot-seat table), first the own."""
    return seats_in(request.session, game_id)


def seats_in(session: Mapping, game_id: str) -> tuple[int, ...]:
    """held_seats from a session as a request or a socket (live.consumers) carries it."""
    held = session.get(SESSION_KEY, {}).get(game_id)
    if _is_seat(held):
        return (held,)
    if isinstance(held, list) and all(_is_seat(s) for s in held):
        return tuple(held)
    return ()


def held_seat(request: HttpRequest, game_id: str) -> int | None:
    seats = held_seats(request, game_id)
    return seats[0] if seats else None


def hold_seats(request: HttpRequest, game_id: str, seats: list[int]) -> None:
    held = dict(request.session.get(SESSION_KEY, {}))
    held.pop(game_id, None)  # the newest game goes last, so the oldest is forgotten first
    held[game_id] = seats[0] if len(seats) == 1 else list(seats)
    request.session[SESSION_KEY] = dict(list(held.items())[-MAX_HELD:])


def acting_seat(request: HttpRequest, game_id: str) -> int | None:
    """The seat a move is made for: the one the request names (a hot-seat table holds two),
    None if this browser does not hold it; without a name, the browser's own seat."""
    raw = request.POST.get("seat", "")
    held = held_seats(request, game_id)
    if not raw:
        return held[0] if held else None
    if raw.isascii() and raw.isdigit() and len(raw) < 3 and int(raw) in held:
        return int(raw)
    return None


def check_id(game_id: str) -> None:
    """A 404 for anything that cannot be a game id, before the database is asked."""
    if not (10 <= len(game_id) <= 32 and set(game_id) <= VALID_ID_CHARS):
        raise Http404(game_id)


def game_or_404(game_id: str) -> Game:
    check_id(game_id)
    try:
        return Game.objects.get(pk=game_id)
    except Game.DoesNotExist:
        raise Http404(game_id) from None


# ---------------------------------------------------------------------------- new game
@require_http_methods(["GET", "HEAD", "POST"])
@cached_page
def setup_page(request: HttpRequest, variant: str) -> HttpResponse:
    lang = current_lang()
    entry = variant_or_404(variant, lang)
    params = request.POST if request.method == "POST" else request.GET
    setup = parse_setup(variant, params)
    status = 200
    if request.method == "POST":
        if setup.ok:
            try:
                row = service.start_game(variant, setup.seats, options=setup.options,
                                         seed=setup.seed, wall=timezone.now())
            except (ValueError, OptionError):
                setup.errors["players"] = _("The engine cannot deal this game with these "
                                            "rules and players.")
            else:
                hold_seats(request, row.pk, [0])
                url = reverse("play_game", kwargs={"game_id": row.pk})
                return HttpResponseRedirect(url, status=303)
        status = 400
    context = {
        "entry": entry,
        "page_title": _("Play %(game)s") % {"game": entry.name},
        "setup": setup,
        "option_fields": option_fields(setup, lang),
        "player_choices": player_choices(setup) if len(player_choices(setup)) > 1 else (),
        "level_fields": level_fields(setup),
        "errors": setup.errors,
        "rules_url": reverse("rules", kwargs={"variant": variant}),
    }
    return render(request, "play/setup.html", context, status=status)


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


def _centre_line(table) -> str:
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


#: what differs between two answers showing the same game: the next request's delay, the
#: lines for the live region (read out once, from the answer that brought them) and the
#: per-request token and nonce
PER_REQUEST = re.compile(r'<div class="poll"[^>]*></div>|<div hidden data-announce>.*?</div>'
                         r'|name="csrfmiddlewaretoken" value="[^"]*"|nonce="[^"]*"', re.S)


def state_digest(state: str) -> str:
    """A fingerprint of what a board answer shows: equal for two answers that would look
    the same, so the page keeps its board (and the focus and choice on it) for a poll
    that brings nothing new (static/js/play.js)."""
    return hashlib.blake2b(PER_REQUEST.sub("", state).encode(), digest_size=12).hexdigest()


def _parse_since(raw: str | None) -> int | None:
    if raw and raw.isascii() and raw.isdigit() and len(raw) < 10:
        return int(raw)
    return None


def game_context(row: Game, turn: Turn, *, seat: int | None, message: str = "",
                 since: int | None = None, fresh: list[LogEntry] | None = None) -> dict:
    """What the game's board shows to the browser holding `seat` (None: a watcher), in the
    active language: the same for every screen of that view, so live.publish renders it once
    and sends the bytes to every socket of the view."""
    holds = seat is not None and seat in row.human_seats
    # A watcher sees the table turned to the first person's seat, but is not that player.
    facing = seat if holds else (row.human_seats[0] if row.human_seats else None)
    you = seat if holds else None
    driver = turn.driver
    game = driver.game
    table = build_table(game, row.seats, facing, interactive=holds and not row.paused,
                        watcher=not holds)
    announce = _announcements(row, since, table.family, message, fresh)
    if announce and len(announce) > (1 if message else 0):
        announce.append(_centre_line(table))
    return {
        "row": row,
        "table": table,
        "holds": holds,
        "message": message,
        "announce": [line for line in announce if line],
        "poll_ms": service.next_poll_ms(row, driver, timezone.now()),
        "game_url": reverse("play_game", kwargs={"game_id": row.pk}),
        "move_url": reverse("play_move", kwargs={"game_id": row.pk}),
        "clock_url": reverse("play_clock", kwargs={"game_id": row.pk}),
        "replay_url": reverse("play_replay", kwargs={"game_id": row.pk}),
        "setup_url": reverse("play_setup", kwargs={"variant": row.variant}),
        "rules_url": reverse("rules", kwargs={"variant": row.variant}),
        "summary": summarise(game, row.seats, you) if game.over else None,
        "again_pairs": again_pairs(row),
        "again_query": urlencode(again_pairs(row)),
    }


def _render_game(request: HttpRequest, row: Game, turn: Turn, *, message: str = "",
                 status: int = 200, fragment: bool | None = None,
                 since: int | None = None, fresh: list[LogEntry] | None = None) -> HttpResponse:
    lang = current_lang()
    context = game_context(row, turn, seat=held_seat(request, row.pk), message=message,
                           since=since, fresh=fresh)
    context["entry"] = variant_entry(row.variant, lang)
    if fragment is None:
        fragment = bool(request.htmx)
    context["fragment"] = fragment
    # The board is rendered once: it is the whole answer to a board request, and the full
    # page puts the same string in its place.
    state = render_to_string("play/game.html#game", context, request)
    context["state_digest"] = state_digest(state)
    if fragment:
        response = HttpResponse(state, status=status)
    else:
        response = render(request, "play/game.html", {**context, "state": state},
                          status=status)
    response["X-Game-Version"] = str(row.version)
    response["X-Game-Digest"] = context["state_digest"]
    patch_vary_headers(response, ["HX-Request"])
    return response


def again_pairs(row: Game) -> list[tuple[str, str]]:
    pairs = [("players", str(row.players))]
    pairs += [(f"level-{s + 1}", kind) for s, kind in enumerate(row.seats) if s > 0]
    pairs += [(OPTION_PREFIX + key, value_key(value)) for key, value in row.options.items()]
    return pairs


@require_safe
@never_cache
def game_page(request: HttpRequest, game_id: str) -> HttpResponse:
    check_id(game_id)
    try:
        change = service.play(game_id, timezone.now())
    except Game.DoesNotExist:
        raise Http404(game_id) from None
    except Busy:
        return HttpResponse(_("This game is very busy; try again in a moment."), status=503)
    since = _parse_since(request.GET.get("since"))
    return _render_game(request, change.row, change.value, since=since, fresh=change.entries)


def read_move(request: HttpRequest) -> tuple[dict, int]:
    return move_from(request.POST)


def move_from(values: Mapping[str, str]) -> tuple[dict, int]:
    """A move as posted (a form) or sent over the game's socket (live.consumers)."""
    raw, version = values.get("action", ""), values.get("version", "")
    if not (version.isascii() and version.isdigit() and len(version) < 10):
        raise BadMove("version")
    try:
        action = read_action(raw)
    except ActionShapeError as error:
        raise BadMove(*error.args) from None
    return action, int(version)


REFUSALS = {
    NOT_YOUR_SEAT: (403, gettext_lazy("You are watching this game: only the player who "
                                      "started it can move.")),
    STALE: (409, gettext_lazy("That move was made on an older view of the table, so it was "
                              "not played. Look again and play on.")),
    FORGED: (400, gettext_lazy("That move does not belong to this game, so nothing was "
                               "changed.")),
    PAUSED: (409, gettext_lazy("The game is paused: resume it to play on.")),
    RUNNING: (409, gettext_lazy("Pause the game first: you can only step through it while "
                                "it is paused.")),
}


def _refusal(code: str) -> tuple[int, str]:
    status, text = REFUSALS[code]
    return status, str(text)


class Render(Protocol):
    def __call__(self, request: HttpRequest, row: Game, turn: Turn, *, message: str = "",
                 status: int = 200, since: int | None = None,
                 fresh: list[LogEntry] | None = None) -> HttpResponse: ...


def act(request: HttpRequest, game_id: str, *, render: Render | None = None,
        **request_args) -> HttpResponse:
    """A move or clock command through play.service, answered by `render` (the game page's
    fragment unless another page, e.g. teacher mode's projector, draws the game)."""
    render = render or _render_game
    since = _parse_since(request.POST.get("since"))
    wall = timezone.now()
    try:
        change = service.play(game_id, wall, seat=acting_seat(request, game_id),
                              **request_args)
    except Busy:
        return HttpResponse(_("This game is very busy; try again in a moment."), status=503)
    except Game.DoesNotExist:
        raise Http404(game_id) from None
    row, turn = change.row, change.value
    status, message = outcome(turn)
    if turn.refusal:
        return render(request, row, turn, message=message, status=status, since=since)
    return render(request, row, turn, message=message, since=since, fresh=change.entries)


def outcome(turn: Turn) -> tuple[int, str]:
    """The status and the message (empty when all went well) for what a move or a clock
    command made of the game, over HTTP or over the game's socket (live.consumers)."""
    if turn.refusal:
        return _refusal(turn.refusal)
    if turn.result is not None and not turn.result.accepted:
        return 200, _("That did not count: %(reason)s.") % {
            "reason": reason_text(turn.result.reason)}
    return 200, ""


@require_POST
def move(request: HttpRequest, game_id: str) -> HttpResponse:
    check_id(game_id)
    try:
        action, version = read_move(request)
    except BadMove:
        row = game_or_404(game_id)
        turn = Turn(service.driver_of(row), row.clock.now_ms(timezone.now()))
        return _render_game(request, row, turn, status=400, message=_(
            "That move could not be read, so nothing was changed."))
    return act(request, game_id, action=action, version=version)


def read_clock(request: HttpRequest) -> dict:
    return clock_from(request.POST)


def clock_from(values: Mapping[str, str]) -> dict:
    """A clock command as play.service.compute takes it: pause, resume, step, or speed with
    one of the offered paces (a factor of the site's clock speed)."""
    command = values.get("command", "")
    version = values.get("version", "")
    if command not in CLOCK_COMMANDS or not (version.isascii() and version.isdigit()
                                             and len(version) < 10):
        raise BadMove("clock")
    request_args: dict = {"clock_command": command, "version": int(version)}
    if command == "speed":
        pace = PACE_VALUES.get(values.get("value", ""))
        if pace is None:
            raise BadMove("pace")
        request_args["speed"] = pace * settings.PLAY_CLOCK_SPEED
    return request_args


def unreadable(request: HttpRequest, game_id: str, render: Render | None = None) -> HttpResponse:
    """The game unchanged, with the message that the request could not be read (400)."""
    row = game_or_404(game_id)
    turn = Turn(service.driver_of(row), row.clock.now_ms(timezone.now()))
    return (render or _render_game)(request, row, turn, status=400, message=_(
        "That request could not be read, so nothing was changed."))


@require_POST
def clock(request: HttpRequest, game_id: str) -> HttpResponse:
    check_id(game_id)
    try:
        request_args = read_clock(request)
    except BadMove:
        return unreadable(request, game_id)
    return act(request, game_id, **request_args)


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


def render_replay(request: HttpRequest, row: Game, *, url: str, game_url: str) -> HttpResponse:
    """A finished game in the step-through viewer; `url` is the viewer's own address and
    `game_url` the page of the game it links back to (teacher mode shows it its own way)."""
    lang = current_lang()
    example = game_example(row, lang)
    index = parse_step(request.GET.get("step"), example.last)
    context = {
        "entry": variant_entry(row.variant, lang),
        "row": row,
        "game_url": game_url,
        **step_context(example, index, lang, embedded=False, url=url, try_url=""),
    }
    template = "examples/page.html#viewer" if request.htmx else "play/replay.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response
