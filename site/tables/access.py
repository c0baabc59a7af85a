"""Who a browser is at a table: a random token in its signed session, of which tables keep
only a hash (the creator's, each seat holder's); finding a table by its code; how many
tables a browser may open in an hour, and how many tries at a seat a table, a browser and an
address may make."""

from __future__ import annotations

import hashlib
import secrets

from django.http import Http404, HttpRequest

from core.clientip import client_ip
from core.throttle import Limit

from .models import Seat, Table

SESSION_KEY = "tables"
VALID_CODE_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
#: new tables per browser and per client address in an hour (a family behind one address
#: shares the second)
BY_SESSION = Limit("tables-session", tries=10, seconds=3600)
BY_ADDRESS = Limit("tables-address", tries=60, seconds=3600)
#: tries to take a seat at one table in ten minutes, whoever makes them and however they end
#: (a refused name counts): a table has at most a handful of seats, so only a script trying
#: names reaches it
JOINS = Limit("tables-joins", tries=30, seconds=600)
#: tries to take a seat at any table in ten minutes, per browser and per client address: a
#: person joins a table or two, so a script going from table to table is stopped here (an
#: address is shared by a household or a school, hence its larger count)
JOINS_BY_SESSION = Limit("tables-joins-session", tries=20, seconds=600)
JOINS_BY_ADDRESS = Limit("tables-joins-address", tries=100, seconds=600)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def me(request: HttpRequest) -> str:
    """This browser's hash at tables (its token made on first use)."""
    token = request.session.get(SESSION_KEY)
    if not isinstance(token, str) or len(token) != 32:
        token = secrets.token_hex(16)
        request.session[SESSION_KEY] = token
    return token_hash(token)


def me_in(session) -> str:
    """`me` from a session as a socket has it (read only: no token, no one)."""
    token = session.get(SESSION_KEY) if session is not None else None
    return token_hash(token) if isinstance(token, str) and len(token) == 32 else ""


def check_code(code: str) -> None:
    if not (10 <= len(code) <= 32 and set(code) <= VALID_CODE_CHARS):
        raise Http404(code)


def table_or_404(code: str) -> Table:
    check_code(code)
    table = Table.objects.filter(pk=code).first()
    if table is None:
        raise Http404(code)
    return table


def my_seat(table: Table, who: str) -> Seat | None:
    if not who:
        return None
    return next((seat for seat in table.seats.all() if seat.holder == who), None)


def may_open(request: HttpRequest) -> bool:
    """Whether this browser may open one more table now."""
    counted = [(BY_SESSION, me(request)), (BY_ADDRESS, client_ip(request))]
    return not any(limit.exceeded(who) for limit, who in counted)


def join_limit(request: HttpRequest, table: Table) -> str:
    """Which limit refuses one more try at a seat now: "table" (this table has taken its
    tries), "browser" (this browser or address has made its tries at any table), or "" (none:
    the try is counted against all three)."""
    if JOINS.exceeded(table.pk):
        return "table"
    counted = [(JOINS_BY_SESSION, me(request)), (JOINS_BY_ADDRESS, client_ip(request))]
    if any(limit.exceeded(who) for limit, who in counted):
        return "browser"
    for limit, who in [(JOINS, table.pk), *counted]:
        limit.count(who)
    return ""


def count_opened(request: HttpRequest) -> None:
    BY_SESSION.count(me(request))
    BY_ADDRESS.count(client_ip(request))
