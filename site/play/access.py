"""Who holds which seat of a game (the browser's signed session), and finding a game by the
id in its URL."""

from __future__ import annotations

from collections.abc import Mapping

from django.http import Http404, HttpRequest

from core.params import parse_natural

from .models import Game

SESSION_KEY = "play"
#: games a browser remembers holding (the signed session cookie must stay small).
MAX_HELD = 20
VALID_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def _is_seat(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def held_seats(request: HttpRequest, game_id: str) -> tuple[int, ...]:
    """The seats this browser holds in a game (two at a hot-seat table), first the own."""
    return seats_in(request.session, game_id)


def seats_in(session: Mapping, game_id: str) -> tuple[int, ...]:
    """held_seats from a session as a request or a game's socket (live.consumers) has it."""
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
    return seat_named(request.POST.get("seat", ""), held_seats(request, game_id))


def seat_named(raw: str, held: tuple[int, ...]) -> int | None:
    """acting_seat from the seat a request or a socket frame names and the seats held."""
    if not raw:
        return held[0] if held else None
    seat = parse_natural(raw, digits=2)
    return seat if seat is not None and seat in held else None


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
