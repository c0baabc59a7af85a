"""Writes the database refuses because it is read-only, and getting over them by itself.

A database turns read-only under the site (a full disk, a failover to a replica, PostgreSQL's
`default_transaction_read_only` for maintenance). A connection opened meanwhile stays
read-only after the database is writable again (a SQLite file opened read-only, a
PostgreSQL session that took the read-only default), and the site keeps its connections
for CONN_MAX_AGE: so the connection that met the refusal is closed at once, and the next
query opens a fresh one. Pages that need no write keep being served; a write is answered
with "cannot be saved right now" (503) where the user made it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import DatabaseError, connections
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

#: PostgreSQL's "cannot execute … in a read-only transaction"
READ_ONLY_SQLSTATE = "25006"
#: PostgreSQL's lock not available (lock_timeout), deadlock detected, serialization failure
BUSY_SQLSTATES = {"55P03", "40P01", "40001"}


class CannotSave(RuntimeError):
    """A change the read-only database refused; `change` is what would have been stored
    (a page that only shows it may still show it)."""

    def __init__(self, change: object = None) -> None:
        super().__init__("the database is read-only")
        self.change = change


def is_read_only(error: BaseException) -> bool:
    """Whether the database refused a write because it is read-only (any connection)."""
    if isinstance(error, CannotSave):
        return True
    if not isinstance(error, DatabaseError):
        return False
    cause = error.__cause__
    if getattr(cause, "sqlstate", None) == READ_ONLY_SQLSTATE:
        return True
    return "readonly database" in str(error) or "read-only transaction" in str(error)


def is_busy(error: BaseException) -> bool:
    """Whether a write gave up waiting for another writer: SQLite's busy timeout ran out
    ("database is locked"), or PostgreSQL's lock wait did. Nothing was written; the same
    write a moment later may pass."""
    if not isinstance(error, DatabaseError):
        return False
    if getattr(error.__cause__, "sqlstate", None) in BUSY_SQLSTATES:
        return True
    return "database is locked" in str(error) or "database table is locked" in str(error)


def forget_connection(using: str = "default") -> None:
    """Close the connection that met a read-only refusal (not inside a transaction, which
    its owner rolls back first): the next query connects afresh and sees the database as
    it is then."""
    connection = connections[using]
    if not connection.in_atomic_block:
        connection.close()


def written[T](write: Callable[[], T], using: str = "default") -> T:
    """`write()`, tried once more on a fresh connection if the database refuses it as
    read-only (the refused connection may date from before the database became writable
    again); CannotSave if it is refused again."""
    for attempt in range(2):
        try:
            return write()
        except DatabaseError as error:
            if not is_read_only(error):
                raise
            forget_connection(using)
            if attempt or connections[using].in_atomic_block:
                break
    raise CannotSave()


class ReadOnlyMiddleware:
    """Any other write the database refuses as read-only (a new game, a pupil joining, a
    saved sheet): 503 with the translated page instead of a 500, and a fresh connection
    for the next request. A write that gave up waiting for another writer (a burst of
    tables starting at once on SQLite) is answered the same way, sooner again."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if is_read_only(exception):
            for connection in connections.all(initialized_only=True):
                forget_connection(connection.alias)
            retry_after = "10"
        elif is_busy(exception):
            retry_after = "2"
        else:
            return None
        response = render(request, "503.html", status=503)
        response["Retry-After"] = retry_after
        return response
