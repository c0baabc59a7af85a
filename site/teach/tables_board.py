"""What the projector shows of class tables (#23): a small board per table (the centre's
top cards, each player's cards left, or completed piles in James Bond), who leads, the
finished tables' winners, and the class leaderboard (wins, then cards left).

Every figure is read from the engine's board of the stored game as anyone at the table sees
it (`board(None)`: no hidden card is shown); a game's board is worked out once per stored
version and kept, so the projector's overview of fifteen tables costs fifteen dictionary
look-ups when nothing changed.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from play import presence, service
from play.models import HUMAN, Game

from presentation.table import level_choice
from presentation.table.cards import card_markup
from rules_engine.registry import VARIANTS

from .models import ClassRound, ClassSeat, Lesson

KEPT_BOARDS = 256
_BOARDS: OrderedDict[tuple[str, int], Board] = OrderedDict()


@dataclass(frozen=True)
class Board:
    """One table's game in figures."""

    #: the centre's cards to show: each pile's top (James Bond: the four open cards)
    centre: tuple[str, ...]
    #: per seat, cards left (James Bond: piles still to complete); fewer is better
    left: tuple[int, ...]
    #: per seat, completed piles (James Bond) and how many piles a seat has
    complete: tuple[int, ...]
    piles: tuple[int, ...]
    swap: bool


def _centre(zones: list[dict]) -> tuple[str, ...]:
    shown: list[str] = []
    for zone in zones:
        cards = [c for c in zone.get("cards", []) if c.get("up") and c.get("card")]
        if zone.get("kind") == "out" or not cards:
            continue
        shown += [c["card"] for c in cards] if zone.get("kind") == "middle" else [cards[-1]["card"]]
    return tuple(shown)


def board_of(row: Game) -> Board:
    key = (row.pk, row.version)
    found = _BOARDS.get(key)
    if found is not None:
        _BOARDS.move_to_end(key)
        return found
    game = service.driver_of(row).game
    board = game.board(None)
    swap = game.variant.family == "swap"
    complete, piles, left = [], [], []
    for seat in board["seats"]:
        zones = seat["zones"]
        done = sum(1 for z in zones if z["kind"] == "complete")
        complete.append(done)
        piles.append(len(zones))
        left.append(len(zones) - done if swap else sum(z["count"] for z in zones))
    found = _BOARDS[key] = Board(
        _centre(board["centre"]), tuple(left), tuple(complete), tuple(piles), swap
    )
    while len(_BOARDS) > KEPT_BOARDS:
        _BOARDS.popitem(last=False)
    return found


def left_words(board: Board, seat: int) -> str:
    if board.swap:
        return ngettext(
            "%(done)s of %(n)s pile complete", "%(done)s of %(n)s piles complete", board.piles[seat]
        ) % {"done": board.complete[seat], "n": board.piles[seat]}
    n = board.left[seat]
    return ngettext("%(n)s card left", "%(n)s cards left", n) % {"n": n}


def leader(board: Board, row: Game) -> int | None:
    """The seat ahead now: the winner of a finished game; else the one with least left
    (None when two are level)."""
    if row.over:
        return row.winner
    best = min(board.left)
    ahead = [s for s, n in enumerate(board.left) if n == best]
    return ahead[0] if len(ahead) == 1 else None


@dataclass(frozen=True)
class SeatView:
    seat: int
    name: str
    pupil_id: int | None
    left: str
    leads: bool
    won: bool
    #: the pupil's phone dropped: the table waits (play.presence)
    away: bool = False
    #: a bot plays the pupil's seat (after the away limit, or handed by the teacher)
    stand_in: bool = False
    #: the teacher handed the seat to its bot: the pupil takes it back once given back
    handed: bool = False


@dataclass(frozen=True)
class TableView:
    number: int
    game_id: str
    row: Game
    centre: tuple[str, ...]
    seats: tuple[SeatView, ...]
    over: bool
    paused: bool
    winner: str


def bot_name(level: str) -> str:
    return _("Bot (%(level)s)") % {"level": level_choice(level)}


def seat_names(row: Game, seated: dict[int, str]) -> list[str]:
    """The table's players: the pupils by nickname, a bot by its level."""
    return [seated.get(s, bot_name(kind)) for s, kind in enumerate(row.seats)]


def tables_of(round_: ClassRound) -> list[TableView]:
    # A game's snapshot is read only for a version not seen yet (board_of).
    tables = list(round_.tables.select_related("game").defer("game__snapshot"))
    seats = ClassSeat.objects.filter(round=round_).select_related("pupil")
    by_table: dict[int, dict[int, tuple[int, str]]] = {}
    for seat in seats:
        by_table.setdefault(seat.table_id, {})[seat.seat] = (seat.pupil_id, seat.pupil.nickname)
    views = []
    for table in tables:
        row = table.game
        board = board_of(row)
        pupils = by_table.get(table.pk, {})
        names = seat_names(row, {s: name for s, (_pid, name) in pupils.items()})
        ahead = leader(board, row)
        gone = presence.away(row) if not row.over else {}
        handed = presence.locked(row) if not row.over else set()
        views.append(
            TableView(
                number=table.number,
                game_id=row.pk,
                row=row,
                centre=tuple(card_markup(code) for code in board.centre),
                seats=tuple(
                    SeatView(
                        s,
                        names[s],
                        pupils.get(s, (None, ""))[0],
                        left_words(board, s),
                        ahead == s and not row.over,
                        row.over and row.winner == s,
                        away=s in gone,
                        stand_in=bool(row.takeover_level(s)) and row.seats[s] != HUMAN,
                        handed=s in handed,
                    )
                    for s in range(row.players)
                ),
                over=row.over,
                paused=row.paused and not row.over,
                winner=names[row.winner] if row.over and row.winner is not None else "",
            )
        )
    return views


@dataclass(frozen=True)
class Standing:
    place: int
    pupil_id: int
    nickname: str
    wins: int
    played: int
    left: int


def leaderboard(lesson: Lesson) -> list[Standing]:
    """Every pupil still in the class, by wins (finished games of every round), then by what
    they had left at the end of those games (fewer first)."""
    totals: dict[int, list[int]] = {}
    names: dict[int, str] = {}
    for pupil in lesson.pupils.filter(removed=False):
        totals[pupil.pk] = [0, 0, 0]
        names[pupil.pk] = pupil.nickname
    seats = (
        ClassSeat.objects.filter(round__lesson=lesson, table__game__over=True, pupil__removed=False)
        .select_related("table__game")
        .defer("table__game__snapshot")
    )
    for seat in seats:
        row = seat.table.game
        wins, played, left = totals[seat.pupil_id]
        totals[seat.pupil_id] = [
            wins + (row.winner == seat.seat),
            played + 1,
            left + board_of(row).left[seat.seat],
        ]
    # A pupil with no finished game yet comes after those level with them on wins.
    order = sorted(
        totals.items(),
        key=lambda item: (-item[1][0], not item[1][1], item[1][2], names[item[0]].casefold()),
    )
    standings, place, previous = [], 0, None
    for n, (pupil_id, (wins, played, left)) in enumerate(order, start=1):
        if (wins, not played, left) != previous:
            place, previous = n, (wins, not played, left)
        standings.append(Standing(place, pupil_id, names[pupil_id], wins, played, left))
    return standings


def family_of(lesson: Lesson) -> str:
    return VARIANTS[lesson.game.variant].family


def table_seat_names(row: Game) -> list[str]:
    """A class table's seats by name: its pupils' nicknames, its bots by level."""
    seated = dict(
        ClassSeat.objects.filter(table__game_id=row.pk).values_list("seat", "pupil__nickname")
    )
    return seat_names(row, seated)


def table_language(row: Game) -> str:
    """A class table's second language: its lesson's (play.page.SECOND_LANGUAGE_HOOKS)."""
    lessons = Lesson.objects.filter(rounds__tables__game_id=row.pk)
    return lessons.values_list("lang2", flat=True).first() or ""
