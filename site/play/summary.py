"""The end of a game in words: who won and why, how long it took, what was left."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules_engine.game import Game as EngineGame

from .table import seat_name


@dataclass(frozen=True)
class SeatResult:
    name: str
    left: str
    winner: bool


@dataclass(frozen=True)
class Summary:
    title: str
    why: str
    length: str
    seats: list[SeatResult]


def duration(ms: int) -> str:
    seconds = max(0, ms) // 1000
    minutes, seconds = divmod(seconds, 60)
    if minutes:
        return _("%(m)s min %(s)s s") % {"m": minutes, "s": seconds}
    return _("%(s)s s") % {"s": seconds}


def _why(game: EngineGame, winner: str) -> str:
    reason = game.end_reason
    if reason == "out-of-cards":
        return _("%(player)s played out every card.") % {"player": winner}
    if reason == "fewer-cards":
        return _("%(player)s had fewer cards left when nobody could play on.") % {
            "player": winner}
    if reason == "call":
        return _("%(player)s made the win call with every pile complete.") % {"player": winner}
    if reason == "best-of-five":
        return _("%(player)s won three deals of the best of five.") % {"player": winner}
    if reason == "equal-cards":
        return _("Both had as many cards left when nobody could play on.")
    if reason == "no-moves":
        return _("Nobody could move any more.")
    return _("The game went on too long.")


def _left(game: EngineGame, board: dict, seat: int) -> str:
    zones = board["seats"][seat]["zones"]
    if game.variant.family == "swap":
        done = sum(1 for z in zones if z["kind"] == "complete")
        return ngettext("%(done)s of %(n)s pile complete", "%(done)s of %(n)s piles complete",
                        len(zones)) % {"done": done, "n": len(zones)}
    count = sum(z["count"] for z in zones)
    return ngettext("%(n)s card left", "%(n)s cards left", count) % {"n": count}


def summarise(game: EngineGame, seats: list[str], viewer: int | None) -> Summary:
    board = game.board(None)
    winner = game.winner
    if winner is None:
        title = _("The game ended without a winner")
    elif winner == viewer:
        title = _("You won!")
    else:
        title = _("%(player)s won") % {"player": seat_name(winner, seats, viewer)}
    results = [SeatResult(seat_name(s, seats, viewer), _left(game, board, s), s == winner)
               for s in range(game.players)]
    name = seat_name(winner, seats, viewer) if winner is not None else ""
    return Summary(title=title, why=_why(game, name), length=duration(game.now), seats=results)
