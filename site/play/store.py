"""Changing a stored game without ever losing an update.

Requests for one game may arrive at once (a player's move, a watcher's poll, several app
processes). Each change is computed from the row as read and written only over that same
version:
  * on a database with SELECT ... FOR UPDATE (PostgreSQL) the row is locked while the change
    is computed, so requests for one game queue up and the write cannot fail;
  * on SQLite (no row locks) the row is read without a lock and written with a
    version-checked UPDATE; if another request wrote first, the change is computed again
    from the new row.
The log entries of a change are inserted in the same transaction as the row's update, so
the row and its log never disagree.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field

from django.db import DatabaseError, connections, transaction
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import timezone

from core.dbwrite import CannotSave, is_busy, written

from .models import Game, LogEntry

ATTEMPTS = 100
#: fields a change may set on the row (version and log_length are the store's own).
CHANGED_FIELDS = ("snapshot", "acted", "human_ms", "clock_ms", "clock_at", "speed", "paused",
                  "over", "winner", "end_reason", "finished", "seats", "presence")


class Busy(RuntimeError):
    """The row kept changing under every attempt (a game flooded with requests), or another
    writer held the database past its busy timeout."""


@dataclass
class Change[T]:
    """What a computation made of a row: `row` with its new field values (unsaved), the new
    log entries, whether anything changed at all, and whatever the caller wants back."""

    row: Game
    value: T
    changed: bool = False
    entries: list[LogEntry] = field(default_factory=list)


def change_game[T](game_id: str, compute: Callable[[Game], Change[T]], *,
                using: str = "default") -> Change[T]:
    """Run `compute` on the current row and store its change; Game.DoesNotExist for an
    unknown id. `compute` may run more than once (SQLite, after a conflict): it must
    depend on nothing but the row it is given.

    A read-only database: the write is tried once more on a fresh connection (the refused
    one may date from before the database became writable again), then CannotSave carries
    the change computed from the row as read, unsaved."""
    try:
        return written(lambda: _change_game(game_id, compute, using), using)
    except CannotSave:
        raise CannotSave(compute(Game.objects.using(using).get(pk=game_id))) from None
    except DatabaseError as error:
        if is_busy(error):  # another writer held the database past the busy timeout
            raise Busy(game_id) from error
        raise


def _change_game[T](game_id: str, compute: Callable[[Game], Change[T]],
                    using: str) -> Change[T]:
    if connections[using].features.has_select_for_update:
        with transaction.atomic(using=using):
            row = read_row(game_id, using, lock=True)
            change = compute(row)
            if change.changed and not _write(change, row.version, row.log_length, using):
                raise RuntimeError(f"game {game_id} changed under its row lock")
            return change
    for attempt in range(ATTEMPTS):
        row = read_row(game_id, using)
        change = compute(row)
        if not change.changed:
            return change
        with transaction.atomic(using=using):
            if _write(change, row.version, row.log_length, using):
                return change
        time.sleep(0.0005 * (attempt % 8))  # let the other writer's readers go first
    raise Busy(game_id)


@dataclass(frozen=True)
class _Select:
    sql: str
    names: list[str]  # the columns' attribute names, in the model's field order
    converters: list[tuple[int, list, object]]  # (position, converters, expression)


#: each database connection's SELECT of one game row (plain and locked), as the ORM writes it
#: (connections are per thread, and so are the converters bound to them).
_SELECTS: weakref.WeakKeyDictionary[BaseDatabaseWrapper, dict[bool, _Select]] = (
    weakref.WeakKeyDictionary()
)


def read_row(game_id: str, using: str = "default", *, lock: bool = False) -> Game:
    """`Game.objects.using(using).get(pk=game_id)` (`lock`: select_for_update(), inside the
    caller's transaction), with the SQL and its converters built once per connection: every
    move of every game reads its row, and the ORM built the query anew each time, a fifth
    of the move's CPU (#21). Game.DoesNotExist for an unknown id."""
    connection = connections[using]
    selects = _SELECTS.setdefault(connection, {})
    select = selects.get(lock)
    if select is None:
        query = Game.objects.using(using).filter(pk=game_id)
        if lock:
            query = query.select_for_update()
        compiler = query.query.get_compiler(using)
        sql, params = compiler.as_sql()
        if list(params) != [game_id]:  # not the one-parameter query this expects
            return query.get()
        columns = [column for column, _sql, _alias in compiler.select]
        select = selects[lock] = _Select(
            sql,
            [column.target.attname for column in columns],
            [(pos, convs, expr) for pos, (convs, expr) in compiler.get_converters(columns).items()],
        )
    with connection.cursor() as cursor:
        cursor.execute(select.sql, [game_id])
        found = cursor.fetchone()
    if found is None:
        raise Game.DoesNotExist(f"no game {game_id}")
    values = list(found)
    for pos, convs, expression in select.converters:
        value = values[pos]
        for convert in convs:
            value = convert(value, expression, connection)
        values[pos] = value
    return Game.from_db(using, select.names, values)


#: each database connection's SELECT of a game's log events from a position on
_EVENT_SELECTS: weakref.WeakKeyDictionary[BaseDatabaseWrapper, _Select] = (
    weakref.WeakKeyDictionary()
)


def read_events(game_id: str, since: int, using: str = "default") -> list[list[dict]]:
    """The events of the game's log entries from position `since` on, entry by entry in
    order: `LogEntry.objects.filter(game_id=..., seq__gte=since).values_list("events")`,
    with the SQL and its converter built once per connection, as for read_row. A board's
    story lines are told from them; the ORM built the query for every board, which cost
    a board drawn in a process that did not store the change a fifth of its CPU (#21)."""
    connection = connections[using]
    select = _EVENT_SELECTS.get(connection)
    if select is None:
        query = (LogEntry.objects.using(using).filter(game_id=game_id, seq__gte=since)
                 .order_by("seq").values_list("events"))
        compiler = query.query.get_compiler(using)
        sql, params = compiler.as_sql()
        if list(params) != [game_id, since]:  # not the two-parameter query this expects
            return [events for (events,) in query]
        columns = [column for column, _sql, _alias in compiler.select]
        select = _EVENT_SELECTS[connection] = _Select(
            sql, [], [(pos, convs, expr)
                      for pos, (convs, expr) in compiler.get_converters(columns).items()])
    with connection.cursor() as cursor:
        cursor.execute(select.sql, [game_id, since])
        found = cursor.fetchall()
    converters = [convs for pos, convs, _expr in select.converters if pos == 0]
    expression = next((expr for pos, _convs, expr in select.converters if pos == 0), None)
    events = []
    for (value,) in found:
        for convs in converters:
            for convert in convs:
                value = convert(value, expression, connection)
        events.append(value)
    return events


def _update_sql(using: str) -> str:
    """The version-checked UPDATE of a change, as the ORM's .update() would write it, built
    once per database: every move of every game runs it, and building it through the ORM
    cost more CPU than the rest of the write (#21)."""
    sql = _UPDATE_SQL.get(using)
    if sql is None:
        quote = connections[using].ops.quote_name
        meta = Game._meta
        sets = ", ".join(f"{quote(meta.get_field(name).column)} = %s"
                         for name in (*CHANGED_FIELDS, "updated"))
        version, log_length = (quote(meta.get_field(name).column)
                               for name in ("version", "log_length"))
        sql = _UPDATE_SQL[using] = (
            f"UPDATE {quote(meta.db_table)} SET {version} = {version} + 1, "
            f"{log_length} = {log_length} + %s, {sets} "
            f"WHERE {quote(meta.pk.column)} = %s AND {version} = %s")
    return sql


_UPDATE_SQL: dict[str, str] = {}


def _write(change: Change, version: int, log_length: int, using: str) -> bool:
    row = change.row
    row.updated = timezone.now()
    count = len(change.entries)
    connection = connections[using]
    # Each value prepared by its field, as the ORM's UPDATE does (JSON, datetimes).
    values = [Game._meta.get_field(name).get_db_prep_save(getattr(row, name), connection)
              for name in (*CHANGED_FIELDS, "updated")]
    with connection.cursor() as cursor:
        cursor.execute(_update_sql(using), [count, *values, row.pk, version])
        written = cursor.rowcount
    if written != 1:
        return False
    for seq, entry in enumerate(change.entries, start=log_length):
        entry.game_id, entry.seq = row.pk, seq
    _insert(change.entries, connection, using)
    row.version, row.log_length = version + 1, log_length + count
    return True


#: the log's columns a change writes (the id is the database's)
LOG_FIELDS = ("game_id", "seq", "t", "kind", "action", "reason", "events")
_INSERT_SQL: dict[tuple[str, int], str] = {}


def _insert(entries: list[LogEntry], connection, using: str) -> None:
    """The change's log entries in one INSERT, as bulk_create writes it, with the SQL built
    once per database and number of entries (bulk_create compiled it for every move, #21).
    The entries keep no id: nothing reads one from a change's entries (their seq is the
    game's own order)."""
    for start in range(0, len(entries), INSERT_BATCH):
        _insert_batch(entries[start:start + INSERT_BATCH], connection, using)


#: entries per INSERT (SQLite allows 32,766 parameters, or 999 before 3.32; 7 per entry)
INSERT_BATCH = 100


def _insert_batch(entries: list[LogEntry], connection, using: str) -> None:
    sql = _INSERT_SQL.get((using, len(entries)))
    if sql is None:
        quote = connection.ops.quote_name
        meta = LogEntry._meta
        columns = ", ".join(quote(meta.get_field(name).column) for name in LOG_FIELDS)
        row = "(" + ", ".join(["%s"] * len(LOG_FIELDS)) + ")"
        sql = _INSERT_SQL[(using, len(entries))] = (
            f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES "
            + ", ".join([row] * len(entries)))
    fields = [LogEntry._meta.get_field(name) for name in LOG_FIELDS]
    values = [field.get_db_prep_save(getattr(entry, field.attname), connection)
              for entry in entries for field in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, values)
    for entry in entries:
        entry._state.adding, entry._state.db = False, using
