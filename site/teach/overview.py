"""The projector's overview of class tables (#23), rendered once per distinct moment.

What the overview shows depends only on the lesson's latest round (its tables' stored game
versions, paused, ended, the large table), its pupils and the language: that is the key of
the rendered bytes kept here, so a projector and any number of other screens asking at the
same moment (or a push to all of them, live.tables) get the same bytes rendered once.
Within a new moment only what changed is rendered again: each table's small board is kept
by its game's version, the leaderboard and the pupils by the finished games and the pupils.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Collection, Hashable
from dataclasses import dataclass

from django.template.loader import render_to_string
from play import service
from play.models import Game

from core.glossary import current_lang
from presentation.table import build_table

from . import seating
from .models import ClassRound, Lesson, Question
from .narration import lines
from .tables_board import (
    Pupils,
    TableView,
    family_of,
    leaderboard,
    seated_pupils,
    table_view,
    tables_of,
)

TEMPLATE = "teach/tables.html"
#: story lines of the large table
LARGE_LINES = 8


class Kept:
    """Rendered bytes by key, the newest `size` of them."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.items: OrderedDict[Hashable, str] = OrderedDict()

    def get(self, key: Hashable, render: Callable[[], str]) -> str:
        found = self.items.get(key)
        if found is None:
            found = self.items[key] = render()
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        else:
            self.items.move_to_end(key)
        return found

    def clear(self) -> None:
        self.items.clear()


OVERVIEWS = Kept(64)
TABLEAUX = Kept(512)
SIDES = Kept(64)


def moment(lesson: Lesson) -> tuple:
    """Everything the overview's bytes depend on, read in two small queries."""
    latest = seating.current_round(lesson)
    pupils = tuple(lesson.pupils.values_list("pk", "removed"))
    if latest is None:
        return (lesson.pk, None, pupils)
    versions = tuple(
        Game.objects.filter(class_table__round=latest).order_by("pk").values_list("pk", "version")
    )
    asking = lesson.questions.exclude(state=Question.CLOSED).filter(game__isnull=False).exists()
    return (
        lesson.pk,
        latest.pk,
        latest.paused,
        latest.ended,
        latest.large,
        versions,
        pupils,
        asking,
    )


def table_games(lesson_id: str) -> list[str]:
    """The game ids of the lesson's latest round's tables (a socket listens to each)."""
    latest = ClassRound.objects.filter(lesson_id=lesson_id).order_by("-number").first()
    if latest is None:
        return []
    return list(latest.tables.values_list("game_id", flat=True))


def _large(lesson: Lesson, tables: list[TableView], number: int) -> dict | None:
    found = next((t for t in tables if t.number == number), None)
    if found is None:
        return None
    row = Game.objects.get(pk=found.game_id)
    game = service.driver_of(row).game
    names = [s.name for s in found.seats]
    # As anyone at the table sees it: a pupil's hidden cards stay hidden on the projector.
    table = build_table(game, row.seats, 0, interactive=False, watcher=True, names=names)
    return {
        "view": found,
        "table": table,
        "lines": lines(row, 0, lesson.lang2, limit=LARGE_LINES),
        # the class is answering a question about this table (teach.questions)
        "asking": lesson.questions.exclude(state=Question.CLOSED).filter(game_id=row.pk).exists(),
    }


def _tableau(
    t: TableView, round_: ClassRound, urls: dict[str, str], lang: str, oob: bool = False
) -> str:
    key = (
        t.game_id,
        t.row.version,
        round_.large == t.number,
        round_.ended is None,
        t.paused,
        lang,
        oob,
    )
    context = {"t": t, "round": round_, "oob": oob, **urls}

    def render() -> str:
        html = render_to_string(f"{TEMPLATE}#tableau", context)
        return html.strip() if oob else html

    return TABLEAUX.get(key, render)


def _side(
    lesson: Lesson,
    tables: list[TableView],
    pupils: list,
    urls: dict[str, str],
    latest: ClassRound | None,
    lang: str,
    oob: bool = False,
) -> str:
    seated = {s.pupil_id for t in tables for s in t.seats if s.pupil_id is not None}
    waiting = [p for p in pupils if p.pk not in seated] if latest is not None else []
    finished = tuple(
        Game.objects.filter(class_table__round__lesson=lesson, over=True).values_list(
            "pk", flat=True
        )
    )
    key = (
        lesson.pk,
        tuple(p.pk for p in pupils),
        tuple(p.pk for p in waiting),
        tuple(sorted(finished)),
        lang,
        oob,
    )

    def render() -> str:
        context = {
            "standings": leaderboard(lesson),
            "pupils": pupils,
            "waiting": waiting,
            "swap": family_of(lesson) == "swap",
            "oob": oob,
            **urls,
        }
        return render_to_string(f"{TEMPLATE}#side", context)

    return SIDES.get(key, render)


def context_of(lesson: Lesson, urls: dict[str, str]) -> dict:
    lang = current_lang()
    latest = seating.current_round(lesson)
    tables = tables_of(latest) if latest is not None else []
    pupils = list(lesson.pupils.filter(removed=False).order_by("created", "pk"))
    return {
        "lesson": lesson,
        "round": latest,
        "tableaux": [_tableau(t, latest, urls, lang) for t in tables] if latest else [],
        "side": _side(lesson, tables, pupils, urls, latest, lang),
        "playing": sum(1 for t in tables if not t.over),
        "pupils": pupils,
        "large": _large(lesson, tables, latest.large) if latest and latest.large else None,
        "lang2": lesson.lang2,
        **urls,
    }


def render_overview(lesson: Lesson, urls: dict[str, str]) -> str:
    key = (*moment(lesson), current_lang())
    return OVERVIEWS.get(
        key, lambda: render_to_string(f"{TEMPLATE}#overview", context_of(lesson, urls))
    )


@dataclass(frozen=True)
class Seating:
    """What a table's small board needs beside its game's row, as it stands until the lesson
    next changes (a lesson's notice: a round started, paused, ended, a table shown large, a
    pupil removed): the latest round, each table's number and who sits where."""

    round: ClassRound | None
    numbers: dict[str, int]
    pupils: dict[str, Pupils]
    #: the round's finished games
    over: frozenset[str]
    #: each table's game version as read with the seating
    versions: dict[str, int]


def seating_of(lesson_id: str) -> Seating:
    latest = ClassRound.objects.filter(lesson_id=lesson_id).order_by("-number").first()
    if latest is None:
        return Seating(None, {}, {}, frozenset(), {})
    tables = latest.tables.values_list("game_id", "number", "game__over", "game__version")
    numbers = {game_id: number for game_id, number, _over, _version in tables}
    over = frozenset(game_id for game_id, _number, over, _version in tables if over)
    versions = {game_id: version for game_id, _number, _over, version in tables}
    return Seating(latest, numbers, seated_pupils(latest), over, versions)


def table_versions(game_ids: Collection[str]) -> dict[str, int]:
    """The stored version of each game of `game_ids`, in one small query."""
    return dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "version"))


@dataclass(frozen=True)
class Changes:
    """What the projector is sent after changes at some tables (live.tables): each changed
    table's small board as an out-of-band swap of its own <li>, and, once a table has
    finished, the round's line and the leaderboard too."""

    #: game id -> the table's board (an out-of-band swap)
    boards: dict[str, str]
    #: the round's line and the leaderboard ("": no table finished since `over`)
    rest: str
    #: the games of the round that have finished, as far as the changed tables tell
    over: frozenset[str]
    #: the version of each board in `boards`
    versions: dict[str, int]


def changes(
    seating: Seating, game_ids: Collection[str], over: frozenset[str], urls: dict[str, str]
) -> Changes | None:
    """The boards of the changed tables (of the games `game_ids`; a game not of `seating`'s
    round is left out), read in one query, and the leaderboard when one of them finished
    since `over` (the games known finished). None: the whole overview must be sent (a
    changed table is the one shown large, whose story is on the overview too)."""
    lang = current_lang()
    latest = seating.round
    ids = [game_id for game_id in game_ids if game_id in seating.numbers]
    if latest is None or not ids:
        return Changes({}, "", over, {})
    if latest.large and any(seating.numbers[game_id] == latest.large for game_id in ids):
        return None
    tables = [
        table_view(seating.numbers[row.pk], row, seating.pupils.get(row.pk, {}))
        for row in Game.objects.filter(pk__in=ids)
    ]
    boards = {t.game_id: _tableau(t, latest, urls, lang, oob=True) for t in tables}
    versions = {t.game_id: t.row.version for t in tables}
    finished = frozenset(t.game_id for t in tables if t.over)
    if not finished - over:
        return Changes(boards, "", over | finished, versions)
    lesson = Lesson.objects.select_related("game").filter(pk=latest.lesson_id).first()
    if lesson is None:
        return None
    everyone = tables_of(latest)  # who is seated (the side's waiting pupils), games' state
    pupils = list(lesson.pupils.filter(removed=False).order_by("created", "pk"))
    playing = sum(1 for t in everyone if not t.over)
    line = render_to_string(
        f"{TEMPLATE}#round_line", {"round": latest, "playing": playing, "oob": True}
    )
    side = _side(lesson, everyone, pupils, urls, latest, lang, oob=True).strip()
    over = frozenset(t.game_id for t in everyone if t.over)
    return Changes(boards, line + side, over, versions)
