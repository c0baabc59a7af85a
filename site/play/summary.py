"""The end of a game in words: who won and why, how long it took, what was left."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from presentation.endings import no_winner_why, why_won
from presentation.narration import PlayerWord
from presentation.table import seat_name
from presentation.wording import Words, and_list, sentence
from rules_engine.game import Game as EngineGame


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


def duration_in_words(ms: int) -> str:
    """A length of time as a sentence says it ("1 minute and 57 seconds"); `duration` is the
    short form for a table cell."""
    minutes, seconds = divmod(max(0, ms) // 1000, 60)
    parts = []
    if minutes:
        parts.append(ngettext("%(n)s minute", "%(n)s minutes", minutes) % {"n": minutes})
    if seconds or not minutes:
        parts.append(ngettext("%(n)s second", "%(n)s seconds", seconds) % {"n": seconds})
    return and_list(parts)


def _left(game: EngineGame, board: dict, seat: int) -> str:
    match = board.get("match") or {}
    if match.get("best_of_five"):
        # After a match, what counts is the deals each player won, not the last deal's piles.
        wins = match["wins"][seat]
        return ngettext("%(n)s deal won", "%(n)s deals won", wins) % {"n": wins}
    zones = board["seats"][seat]["zones"]
    if game.variant.family == "swap":
        done = sum(1 for z in zones if z["kind"] == "complete")
        return ngettext("%(done)s of %(n)s pile complete", "%(done)s of %(n)s piles complete",
                        len(zones)) % {"done": done, "n": len(zones)}
    count = sum(z["count"] for z in zones)
    return ngettext("%(n)s card left", "%(n)s cards left", count) % {"n": count}


def summarise(game: EngineGame, seats: list[str], you: int | None,
              names: list[str] | None = None) -> Summary:
    """The end of `game` told to `you`, the seat the reader plays (None: a watcher);
    `names`: the seats' labels when the game names its seats (a friends' table)."""
    board = game.board(None)
    winner = game.winner
    reason = game.end_reason
    if winner is None:
        title, why = _("The game ended without a winner"), no_winner_why(reason)
    elif winner == you:
        title, why = _("You won!"), why_won(reason, winner, you)
    else:
        title = sentence(_("%(player)s won") % Words({"player": PlayerWord(winner)}))
        why = why_won(reason, winner, you)
    results = [SeatResult(names[s] if names else seat_name(s, seats, you),
                          _left(game, board, s), s == winner) for s in range(game.players)]
    return Summary(title=title, why=why, length=duration(game.now), seats=results)
