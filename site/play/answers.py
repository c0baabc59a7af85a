"""A request to a game, read and carried out: a move or a clock command through
play.service, and what the page then shows (`Shown`), for whichever page draws the game
(the demo's, teacher mode's projector). A busy or missing game gets its answer from
`game_answer`."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.dbwrite import CannotSave
from presentation.reasons import reason_text

from . import presence, service
from .access import acting_seat, game_or_404, held_seats, seat_named
from .forms import ClockForm, MoveForm, SinceForm
from .models import Game, LogEntry
from .service import (
    AWAY,
    FORGED,
    HELD,
    NOT_YOUR_SEAT,
    PAUSED,
    RUNNING,
    STALE,
    TABLES_HELD,
    Turn,
)
from .store import Busy
from .told import told


class BadMove(ValueError):
    """A move request that cannot even be read (not JSON, not an action, no version)."""


@dataclass
class Shown:
    """What a page shows after a request: the game, what the request made of it, and the
    message and status of the answer. `since`: the log position the page had seen;
    `fresh`: the log entries this request wrote."""

    row: Game
    turn: Turn
    message: str = ""
    status: int = 200
    since: int | None = None
    fresh: list[LogEntry] | None = None


def parse_since(raw: str | None) -> int | None:
    form = SinceForm({"since": raw or ""})
    return form.cleaned_data["since"] if form.is_valid() else None


def read_move(request: HttpRequest) -> tuple[dict, int]:
    return move_from(request.POST)


def move_from(values: Mapping[str, str]) -> tuple[dict, int]:
    """A move as posted, or as sent over the game's socket (live.consumers)."""
    form = MoveForm(values)
    if not form.is_valid():
        raise BadMove(*form.errors)
    return form.cleaned_data["action"], form.cleaned_data["version"]


def read_clock(request: HttpRequest) -> dict:
    return clock_from(request.POST)


def clock_from(values: Mapping[str, str]) -> dict:
    """A clock command as play.service.compute takes it (ClockForm), posted or sent over
    the game's socket."""
    form = ClockForm(values)
    if not form.is_valid():
        raise BadMove("clock")
    return form.service_args()


REFUSALS = {
    NOT_YOUR_SEAT: (
        403,
        gettext_lazy("You are watching this game: only the player who started it can move."),
    ),
    STALE: (
        409,
        gettext_lazy(
            "That move was made on an older view of the table, so it was "
            "not played. Look again and play on."
        ),
    ),
    FORGED: (400, gettext_lazy("That move does not belong to this game, so nothing was changed.")),
    PAUSED: (409, gettext_lazy("The game is paused: resume it to play on.")),
    RUNNING: (
        409,
        gettext_lazy("Pause the game first: you can only step through it while it is paused."),
    ),
    HELD: (409, gettext_lazy("Close the question before going on to the next step.")),
    AWAY: (409, gettext_lazy("The game waits for a player who is not connected: it goes on "
                             "when they are back, or when a bot takes their seat.")),
    TABLES_HELD: (409, gettext_lazy("The teacher has paused every table: the game goes on "
                                    "when the teacher resumes it.")),
}

CANNOT_SAVE = gettext_lazy("The game cannot be saved right now, so that was not played. "
                           "Try again in a moment.")


def act(request: HttpRequest, game_id: str, **request_args) -> Shown:
    """A move or clock command through play.service (Busy and Game.DoesNotExist pass up to
    `game_answer`)."""
    since = parse_since(request.POST.get("since"))
    try:
        change = service.play(
            game_id, timezone.now(), seat=acting_seat(request, game_id), **request_args
        )
    except CannotSave:  # a read-only database: the move's place says so
        return unchanged(game_id, told(CANNOT_SAVE), 503, since)
    row, turn = change.row, change.value
    status, message = outcome(turn, request_args.get("action"))
    if turn.refusal:
        return Shown(row, turn, message, status, since)
    return Shown(row, turn, message, since=since, fresh=change.entries)


NOT_YOUR_PERSONS_SEAT = gettext_lazy("Only the person whose seat a bot plays can take it back.")
HANDED_OVER = gettext_lazy(
    "The table's host has given your seat to a bot: you can play it again once the host hands "
    "it back."
)
#: Who handed a seat to its bot, in another app's words (teach: "Your teacher …"), from the
#: row ("": not that app's game); registered in an AppConfig.ready().
HANDED_OVER_HOOKS: list[Callable[[Game], str]] = []


def handed_over_text(row: Game) -> str:
    """Why the person may not take their seat back: its owner handed it to the bot."""
    for hook in HANDED_OVER_HOOKS:
        text = hook(row)
        if text:
            return text
    return str(HANDED_OVER)


def take_back(request: HttpRequest, game_id: str) -> Shown:
    """The person takes back the seat a bot plays for them (play.presence), if this browser
    holds it; the seat named in the request (a hot-seat table holds two) or its own."""
    since = parse_since(request.POST.get("since"))
    seat = seat_named(request.POST.get("seat", ""), held_seats(request, game_id))
    if seat is None:
        return unchanged(game_id, told(NOT_YOUR_PERSONS_SEAT), 403, since)
    row = game_or_404(game_id)
    if seat in presence.locked(row):
        # The owner's hand-over stands (presence.change_hands refuses it all the same).
        return unchanged(game_id, told(lambda: handed_over_text(row)), 403, since)
    try:
        change = service.take_back(game_id, seat, timezone.now())
    except CannotSave:
        return unchanged(game_id, told(CANNOT_SAVE), 503, since)
    return Shown(change.row, change.value, since=since, fresh=change.entries)


def outcome(turn: Turn, action: dict | None = None) -> tuple[int, str]:
    """The status and the message (empty when all went well) for what a move or a clock
    command made of the game, over HTTP or over the game's socket (live.consumers)."""
    if turn.refusal:
        status, text = REFUSALS[turn.refusal]
        return status, told(text)
    if turn.result is not None and not turn.result.accepted:
        reason, move = turn.result.reason, (action or {}).get("type")
        return 200, told(
            lambda: _("That did not count: %(reason)s.") % {"reason": reason_text(reason, move)}
        )
    return 200, ""


def catch_up(game_id: str, since: int | None) -> Shown:
    """The game caught up to now (bots' moves and deadlines due by then); on a read-only
    database, caught up but not saved."""
    try:
        change = service.play(game_id, timezone.now())
    except CannotSave as unsaved:
        change = unsaved.change
    return Shown(change.row, change.value, since=since, fresh=change.entries)


def unchanged(game_id: str, message: str, status: int, since: int | None = None) -> Shown:
    """The game as it stands, with the message why nothing was changed."""
    row = game_or_404(game_id)
    return Shown(row, service.as_it_stands(row, timezone.now()), message, status, since)


def unreadable(game_id: str) -> Shown:
    """The game unchanged, with the message that the request could not be read (400)."""
    return unchanged(
        game_id, told(lambda: _("That request could not be read, so nothing was changed.")), 400
    )


def game_answer(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A view of one game: a game that is not there is a 404, one too busy to answer now a
    503 (the page asks again)."""

    @functools.wraps(view)
    def answer(request: HttpRequest, game_id: str, *args, **kwargs) -> HttpResponse:
        try:
            return view(request, game_id, *args, **kwargs)
        except Game.DoesNotExist:
            raise Http404(game_id) from None
        except Busy:
            return HttpResponse(
                _("The server is busy just now; try again in a moment."), status=503
            )

    return answer
