"""Class tables on the printable class summary (#23): the latest round's tables, each with
its players' results and one moment of its game (teach.moments, the first one chosen), and
a link to its step-through replay."""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from django.utils.translation import gettext as _
from play.models import Game

from presentation.wording import seat_names as named_seats
from rules_engine.registry import VARIANTS

from . import seating
from .models import ClassSeat, Lesson
from .moments import moments
from .summary import MomentView, _moment_view, _titles
from .tables_board import board_of, left_words, seat_names


@dataclass(frozen=True)
class PlayerResult:
    name: str
    left: str
    won: bool


@dataclass(frozen=True)
class TableResult:
    number: int
    players: tuple[PlayerResult, ...]
    result: str
    moment: MomentView | None
    replay_url: str


def _moment(row: Game, languages: list[str], titles: dict) -> MomentView | None:
    found = moments(row)
    if not found:
        return None
    first = found[0]
    times = {e.seq: e.t for e in row.entries.filter(seq=first.seq).only("seq", "t")}
    family = VARIANTS[row.variant].family
    # its story and its card groups call the players by their nicknames, as its lines do
    with named_seats(row.names):
        return _moment_view(
            1, first, family, row.variant, languages, titles, times.get(first.seq, 0)
        )


def table_results(lesson: Lesson, lang: str) -> tuple[int | None, list[TableResult]]:
    """The latest round's number and its tables' results (no round: None, [])."""
    latest = seating.current_round(lesson)
    if latest is None:
        return None, []
    languages = [lang] + ([lesson.lang2] if lesson.lang2 and lesson.lang2 != lang else [])
    titles = _titles(lesson.game.variant, languages)
    seated: dict[int, dict[int, str]] = {}
    for seat in ClassSeat.objects.filter(round=latest).select_related("pupil"):
        seated.setdefault(seat.table_id, {})[seat.seat] = seat.pupil.nickname
    results = []
    for table in latest.tables.select_related("game"):
        row = table.game
        board = board_of(row)
        names = seat_names(row, seated.get(table.pk, {}))
        if row.over and row.winner is not None:
            result = _("Winner: %(name)s") % {"name": names[row.winner]}
        elif row.over:
            result = _("No winner")
        else:
            result = _("Stopped before the end")
        results.append(
            TableResult(
                number=table.number,
                players=tuple(
                    PlayerResult(names[s], left_words(board, s), row.over and row.winner == s)
                    for s in range(row.players)
                ),
                result=result,
                moment=_moment(row, languages, titles) if row.over else None,
                replay_url=reverse("play_replay", kwargs={"game_id": row.pk}),
            )
        )
    return latest.number, results


def has_results(lesson: Lesson) -> bool:
    """Whether any table of the lesson has finished (the summary is worth printing)."""
    return Game.objects.filter(class_table__round__lesson=lesson, over=True).exists()
