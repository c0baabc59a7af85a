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
from collections.abc import Collection
from dataclasses import dataclass

from django.db import connections
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
    return [seated[s] if s in seated else bot_name(kind) for s, kind in enumerate(row.seats)]


#: per seat of a table, its pupil: (pupil id, nickname); a seat not in it is a bot's
Pupils = dict[int, tuple[int, str]]


def seated_pupils(round_: ClassRound, game_ids: Collection[str] | None = None) -> dict[str, Pupils]:
    """Per game of the round's tables (`game_ids`: of these only), who sits where."""
    seats = ClassSeat.objects.filter(round=round_)
    if game_ids is not None:
        seats = seats.filter(table__game_id__in=game_ids)
    by_game: dict[str, Pupils] = {}
    for game_id, seat, pupil_id, nickname in seats.values_list(
        "table__game_id", "seat", "pupil_id", "pupil__nickname"
    ):
        by_game.setdefault(game_id, {})[seat] = (pupil_id, nickname)
    return by_game


def tables_of(round_: ClassRound, game_ids: Collection[str] | None = None) -> list[TableView]:
    """The round's tables (`game_ids`: only the tables of these games), in two queries."""
    # A game's snapshot is read only for a version not seen yet (board_of).
    tables = round_.tables.select_related("game").defer("game__snapshot")
    if game_ids is not None:
        tables = tables.filter(game_id__in=game_ids)
    pupils = seated_pupils(round_, game_ids)
    return [table_view(t.number, t.game, pupils.get(t.game_id, {})) for t in tables]


def table_view(number: int, row: Game, pupils: Pupils) -> TableView:
    """One table's small board, from its game's row and who sits where."""
    board = board_of(row)
    names = seat_names(row, {s: name for s, (_pid, name) in pupils.items()})
    ahead = leader(board, row)
    gone = presence.away(row) if not row.over else {}
    handed = presence.locked(row) if not row.over else set()
    return TableView(
        number=number,
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


#: the second-language query's SQL by database alias, built once: the look-up runs for every
#: frame of every game's page, and building the query through the ORM cost some fifty times
#: running it. Nothing of its answer is kept: a lesson's second language is read as stored
#: (a game's table row may come after its first page; a lesson's language may change).
_LANGUAGE_SQL: dict[str, str] = {}
_GAME = "game id"


def table_language(row: Game) -> str:
    """A class table's second language: its lesson's (play.page.SECOND_LANGUAGE_HOOKS)."""
    using = row._state.db or "default"
    sql = _LANGUAGE_SQL.get(using)
    if sql is None:
        query = (
            Lesson.objects.using(using)
            .filter(rounds__tables__game_id=_GAME)
            .values_list("lang2", flat=True)[:1]
        )
        sql, params = query.query.get_compiler(using).as_sql()
        if params != (_GAME,):
            raise RuntimeError(f"the second language's query takes {params!r}")
        _LANGUAGE_SQL[using] = sql
    with connections[using].cursor() as cursor:
        cursor.execute(sql, [row.pk])
        found = cursor.fetchone()
    return found[0] if found and found[0] else ""
