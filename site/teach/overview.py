"""The projector's overview of class tables (#23), rendered once per distinct moment.

What the overview shows depends only on the lesson's latest round (its tables' stored game
versions, paused, ended, the large table), its pupils and the language: that is the key of
the rendered bytes kept here, so a projector and any number of other screens asking at the
same moment (or a push to all of them, live) get the same bytes rendered once.
"""

from __future__ import annotations

from collections import OrderedDict

from django.template.loader import render_to_string
from play import service
from play.models import Game

from core.glossary import current_lang
from presentation.table import build_table

from . import seating
from .models import ClassRound, Lesson
from .narration import lines
from .tables_board import family_of, leaderboard, tables_of

KEPT = 64
_RENDERED: OrderedDict[tuple, str] = OrderedDict()
#: story lines of the large table
LARGE_LINES = 8


def moment(lesson: Lesson) -> tuple:
    """Everything the overview's bytes depend on, read in two small queries."""
    latest = seating.current_round(lesson)
    pupils = tuple(lesson.pupils.values_list("pk", "removed"))
    if latest is None:
        return (lesson.pk, None, pupils)
    versions = tuple(
        Game.objects.filter(class_table__round=latest).order_by("pk").values_list("pk", "version")
    )
    return (lesson.pk, latest.pk, latest.paused, latest.ended, latest.large, versions, pupils)


def _large(lesson: Lesson, tables: list, number: int) -> dict | None:
    found = next((t for t in tables if t.number == number), None)
    if found is None:
        return None
    row = found.row
    game = service.driver_of(row).game
    names = [s.name for s in found.seats]
    # As anyone at the table sees it: a pupil's hidden cards stay hidden on the projector.
    table = build_table(game, row.seats, 0, interactive=False, watcher=True, names=names)
    return {"view": found, "table": table, "lines": lines(row, 0, lesson.lang2, limit=LARGE_LINES)}


def context_of(lesson: Lesson, urls: dict[str, str]) -> dict:
    latest = seating.current_round(lesson)
    tables = tables_of(latest) if latest is not None else []
    seated = {s.pupil_id for t in tables for s in t.seats if s.pupil_id is not None}
    pupils = list(lesson.pupils.filter(removed=False).order_by("created", "pk"))
    return {
        "lesson": lesson,
        "round": latest,
        "tables": tables,
        "playing": sum(1 for t in tables if not t.over),
        "standings": leaderboard(lesson),
        "pupils": pupils,
        "waiting": [p for p in pupils if p.pk not in seated] if latest is not None else [],
        "large": _large(lesson, tables, latest.large) if latest and latest.large else None,
        "lang2": lesson.lang2,
        # James Bond counts piles still to complete, the other games cards left
        "swap": family_of(lesson) == "swap",
        **urls,
    }


def table_games(lesson_id: str) -> list[str]:
    """The game ids of the lesson's latest round's tables (a socket listens to each)."""
    latest = ClassRound.objects.filter(lesson_id=lesson_id).order_by("-number").first()
    if latest is None:
        return []
    return list(latest.tables.values_list("game_id", flat=True))


def render_overview(lesson: Lesson, urls: dict[str, str]) -> str:
    key = (*moment(lesson), current_lang())
    found = _RENDERED.get(key)
    if found is not None:
        _RENDERED.move_to_end(key)
        return found
    html = render_to_string("teach/tables.html#overview", context_of(lesson, urls))
    _RENDERED[key] = html
    while len(_RENDERED) > KEPT:
        _RENDERED.popitem(last=False)
    return html
