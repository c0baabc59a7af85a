"""Class tables (#23): seating a lesson's pupils at tables of its variant and options, and
the teacher's commands that act on every table of a round at once.

A round seats every pupil who joined and was not taken out, as evenly as the table size
allows (a table of two; James Bond two to four); a pupil alone at a table plays a bot of
the teacher's level. Each table is an ordinary demo game (play.service.start_game), so the
pupils' phones play it live like any game (live.consumers); pausing every table is a clock
command per game through play.service, the same path as a player's own pause.
"""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from play import presence, service
from play.models import HUMAN, Game
from play.store import Busy

from rules_engine.bots import LEVELS
from rules_engine.registry import VARIANTS

from .models import ClassRound, ClassSeat, ClassTable, Lesson, Pupil

#: the largest class seated at once (the issue's limit; more pupils wait for a later round)
MAX_PUPILS = 40
DEFAULT_LEVEL = "club"


class SeatingError(ValueError):
    """A round cannot be started as asked; args[0] is a code the view words."""


@dataclass(frozen=True)
class Seated:
    """Where a pupil sits in a round: the table's game and the pupil's seat in it."""

    round: ClassRound
    table: ClassTable
    seat: int


def sizes_allowed(variant: str) -> list[int]:
    """Pupils per table the teacher may choose: two, or up to four where the variant seats
    more (James Bond)."""
    info = VARIANTS[variant]
    return list(range(max(2, info.players_min), min(4, info.players_max) + 1))


def table_sizes(pupils: int, size: int) -> list[int]:
    """How many pupils sit at each table: as few tables as `size` allows, their sizes
    differing by one at most (seven pupils at tables of three: 3, 2, 2)."""
    if pupils <= 0:
        return []
    tables = math.ceil(pupils / size)
    base, extra = divmod(pupils, tables)
    return [base + 1 if n < extra else base for n in range(tables)]


def current_round(lesson: Lesson) -> ClassRound | None:
    return lesson.rounds.order_by("-number").first()


def _last_results(last: ClassRound | None) -> dict[int, tuple[int, int]]:
    """Per pupil of the last round: (0 for a winner else 1, cards or piles left)."""
    if last is None:
        return {}
    from .tables_board import board_of  # the board reads the engine; seating need not

    results: dict[int, tuple[int, int]] = {}
    for seat in last.seats.select_related("table__game"):
        row = seat.table.game
        board = board_of(row)
        won = row.over and row.winner == seat.seat
        results[seat.pupil_id] = (0 if won else 1, board.left[seat.seat])
    return results


def order_pupils(pupils: list[Pupil], pairing: str, last: ClassRound | None) -> list[Pupil]:
    """The pupils in the order they are seated, tables filled in turn: shuffled, or the last
    round's winners first (then by what they had left), so that winners meet winners; a
    pupil who did not play last round comes after those who did."""
    order = list(pupils)
    secrets.SystemRandom().shuffle(order)
    if pairing == ClassRound.WINNERS:
        results = _last_results(last)
        order.sort(key=lambda p: results.get(p.pk, (2, 0)))
    return order


def start_round(
    lesson: Lesson, *, size: int, level: str, pairing: str, wall: datetime, away_ms: int = 0
) -> ClassRound:
    """End the running round (if any) and seat every pupil at a new table."""
    row = lesson.game
    if size not in sizes_allowed(row.variant):
        raise SeatingError("size")
    if level not in LEVELS:
        raise SeatingError("level")
    if pairing not in dict(ClassRound.PAIRINGS):
        raise SeatingError("pairing")
    away_ms = away_ms or settings.PLAY_AWAY_LIMIT_MS
    pupils = list(lesson.pupils.filter(removed=False).order_by("created", "pk")[:MAX_PUPILS])
    if not pupils:
        raise SeatingError("empty")
    last = current_round(lesson)
    if last is not None and last.ended is None:
        end_round(last, wall)
    order = order_pupils(pupils, pairing, last)
    with transaction.atomic():
        number = (lesson.rounds.aggregate(n=Max("number"))["n"] or 0) + 1
        new = ClassRound.objects.create(
            lesson=lesson,
            number=number,
            size=size,
            bot_level=level,
            pairing=pairing,
            away_ms=away_ms,
        )
        at = 0
        for n, count in enumerate(table_sizes(len(order), size), start=1):
            pupils = order[at : at + count]
            bot = [level] if count == 1 else []
            # Presence (play.presence): a pupil's dropped phone pauses the table; after
            # away_ms a bot of the teacher's level plays the seat until the pupil is back.
            game = service.start_game(
                row.variant,
                [HUMAN] * count + bot,
                options=row.options,
                wall=wall,
                speed=settings.PLAY_CLOCK_SPEED,
                away_limit_ms=away_ms,
                takeover=[level] * count + [""] * len(bot),
                names=[pupil.nickname for pupil in pupils] + [""] * len(bot),
            )
            table = ClassTable.objects.create(round=new, number=n, game=game)
            ClassSeat.objects.bulk_create(
                ClassSeat(round=new, table=table, pupil=pupil, seat=seat)
                for seat, pupil in enumerate(pupils)
            )
            at += count
    return new


def _clock_all(tables: list[ClassTable], command: str, wall: datetime) -> None:
    for table in tables:
        game = Game.objects.filter(pk=table.game_id).only("version", "over").first()
        if game is None or game.over:
            continue
        for _attempt in range(3):  # a table busy with its players' moves is asked again
            try:
                service.play(
                    table.game_id, wall, clock_command=command, version=game.version, controls=True
                )
                break
            except Busy:
                continue


def pause_all(round_: ClassRound, wall: datetime) -> None:
    ClassRound.objects.filter(pk=round_.pk).update(paused=True)
    round_.paused = True
    _clock_all(list(round_.tables.all()), "pause", wall)


def resume_all(round_: ClassRound, wall: datetime) -> None:
    ClassRound.objects.filter(pk=round_.pk).update(paused=False)
    round_.paused = False
    _clock_all(list(round_.tables.all()), "resume", wall)


def end_round(round_: ClassRound, wall: datetime) -> None:
    """Every table stops where it is (a table still playing has no winner)."""
    pause_all(round_, wall)
    ClassRound.objects.filter(pk=round_.pk).update(ended=wall)
    round_.ended = wall


def seat_of(lesson: Lesson, pupil: Pupil) -> Seated | None:
    """Where `pupil` sits in the lesson's latest round (None: not seated in it)."""
    latest = current_round(lesson)
    if latest is None:
        return None
    seat = ClassSeat.objects.select_related("table").filter(round=latest, pupil=pupil).first()
    return None if seat is None else Seated(latest, seat.table, seat.seat)


def hand_to_bot(table: ClassTable, seat: int, wall: datetime) -> None:
    """A pupil's seat played by its bot from now on, by the teacher's choice: the pupil
    may not take it back until the teacher gives it back (`give_back`)."""
    for _attempt in range(3):
        try:
            service.hand_to_bot(table.game_id, seat, wall, lock=True)
            return
        except Busy:
            continue


def give_back(table: ClassTable, seat: int, wall: datetime) -> None:
    """The teacher lets the pupil take back the seat handed to its bot (SeatingError
    "not-handed": the teacher handed no such seat, or its game is over)."""
    row = Game.objects.filter(pk=table.game_id).only("presence", "over").first()
    if row is None or row.over or seat not in presence.locked(row):
        raise SeatingError("not-handed")
    for _attempt in range(3):
        try:
            service.give_back(table.game_id, seat, wall)
            return
        except Busy:
            continue


def remove_pupil(lesson: Lesson, pupil_id: int, wall: datetime) -> Pupil | None:
    """Take a pupil out of the class tables: seated in no later round, gone from the board;
    a bot plays the pupil's seat of a table still playing, so the others play on."""
    pupil = lesson.pupils.filter(pk=pupil_id).first()
    if pupil is not None and not pupil.removed:
        pupil.removed = True
        pupil.save(update_fields=["removed"])
        seated = seat_of(lesson, pupil)
        if seated is not None and seated.round.ended is None:
            hand_to_bot(seated.table, seated.seat, wall)
    return pupil
