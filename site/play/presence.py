"""Presence (issue #22): a person whose connection drops keeps the seat for a while.

A game started with an away limit (`Game.away_limit_ms` > 0: friends' and class tables; the
demo's games have 0 and none of this applies) knows which seats a person plays
(`Game.takeover`: the bot level that stands in for each). Every socket of a browser holding
such a seat is a `Socket` row, refreshed with every answer to the server's ping; so the
seats' links to the table are in the database and every server process reads the same
thing. A socket whose process was killed stops answering and counts as closed once it
missed STALE_PINGS pings.

The rule, applied by every catch-up of the game (play.service.compute), so whichever process
or request comes first applies it, once:
  * a person's seat with no live socket for PLAY_AWAY_GRACE_MS (a page reload is quicker)
    is *away*: the game's clock stops for everybody (if it ran) and every page names the
    seat, with the time left;
  * the person back before the limit: the seat is no longer away; when nobody is, the clock
    runs again (only if presence stopped it: a pause a player asked for stays);
  * the limit passed: the seat's bot level plays it (rules_engine.Driver.set_seat) and the
    clock runs again; the person takes the seat back with a button (`change_hands`), never
    by merely reconnecting: a page reconnecting in a pocket must not snatch the seat from
    its bot, nor undo a teacher's hand-over.
The news of a change (who left, came back, was replaced) is kept with the version it made,
so that every page announces it once (play.page).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings

from .clock import Clock
from .models import HUMAN, Game, Socket

#: a socket that answered none of this many pings in a row counts as closed.
STALE_PINGS = 3
#: what a change's news says of a seat.
AWAY, BACK, BOT, PERSON = "away", "back", "bot", "person"


def is_on(row: Game) -> bool:
    return row.away_limit_ms > 0 and any(row.takeover)


def person_seats(row: Game) -> list[int]:
    """The seats a person holds, whoever plays them now (the person or a stand-in)."""
    return [s for s in range(row.players) if row.takeover_level(s)]


def stale_after() -> timedelta:
    return timedelta(milliseconds=STALE_PINGS * settings.PLAY_PING_MS)


def grace() -> timedelta:
    return timedelta(milliseconds=settings.PLAY_AWAY_GRACE_MS)


@dataclass(frozen=True)
class Link:
    """A seat's link to the table at some moment: live (a socket answers; `stale_at`: when
    it counts as closed unless it answers again), or since when it is gone; and the round
    trip of its freshest socket (None: not measured)."""

    live: bool
    gone_at: datetime | None = None
    rtt_ms: int | None = None
    stale_at: datetime | None = None


def links(row: Game, wall: datetime) -> dict[int, Link]:
    """Each person's seat's link at `wall`, from the sockets' rows. A seat that never had a
    socket is gone since the game began."""
    stale = stale_after()
    found: dict[int, Link] = {}
    rows = (
        Socket.objects.using(row._state.db or "default")
        .filter(game_id=row.pk)
        .order_by("seen")
        .values_list("seats", "seen", "closed", "rtt_ms")
    )
    ends: dict[int, datetime] = {}
    for seats, seen, closed, rtt in rows:
        live = closed is None and seen > wall - stale
        for seat in seats if isinstance(seats, list) else ():
            if live:  # the freshest live socket comes last
                found[seat] = Link(True, None, rtt, seen + stale)
            else:
                end = closed or seen + stale
                ends[seat] = max(end, ends.get(seat, end))
    start = row.created or wall
    # A person who took their seat back was at the table then, whatever their sockets say.
    for seat, moment in taken_back(row).items():
        ends[seat] = max(moment, ends.get(seat, moment))
    return {
        seat: found.get(seat) or Link(False, ends.get(seat, start)) for seat in person_seats(row)
    }


# ---------------------------------------------------------------------------- the state
def _ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def _moment(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=UTC)


def away(row: Game) -> dict[int, datetime]:
    """The seats away and since when (the moment the game stopped waiting for them)."""
    return {int(seat): _moment(ms) for seat, ms in (row.presence.get("away") or {}).items()}


def stopped_clock(row: Game) -> bool:
    """Whether presence stopped the game's clock (and starts it again when all are back)."""
    return bool(row.presence.get("paused"))


def news(row: Game) -> list[list]:
    """What the change that made the row's current version did to seats: [kind, seat] or
    [BOT, seat, level]; empty when that change was no presence change."""
    latest = row.presence.get("news") or {}
    return list(latest.get("items", [])) if latest.get("v") == row.version else []


def takeover_at(row: Game) -> dict[int, datetime]:
    """When a bot takes each away seat."""
    limit = timedelta(milliseconds=row.away_limit_ms)
    return {seat: since + limit for seat, since in away(row).items()}


def taken_back(row: Game) -> dict[int, datetime]:
    """When each seat was last taken back by its person."""
    return {int(seat): _moment(ms) for seat, ms in (row.presence.get("back") or {}).items()}


def locked(row: Game) -> set[int]:
    """The seats the table's owner handed to their bot: their person may not take them back
    until the owner gives them back (give_back)."""
    return {int(seat) for seat in row.presence.get("locked") or ()}


def _store(row: Game, seats_away: dict[int, datetime], paused: bool, told: list[list]) -> None:
    state: dict = {
        "away": {str(s): _ms(t) for s, t in sorted(seats_away.items())},
        "paused": paused,
    }
    for kept in ("back", "locked"):
        if row.presence.get(kept):
            state[kept] = row.presence[kept]
    latest = {"v": row.version + 1, "items": told} if told else row.presence.get("news")
    if latest:
        state["news"] = latest
    row.presence = state


# ---------------------------------------------------------------------------- the rule
def settle(
    row: Game, driver, clock: Clock, wall: datetime, seen: dict[int, Link]
) -> tuple[Clock, bool]:
    """Apply the rule at `wall` to the unsaved row and its driver (`seen`: links(row,
    wall)); returns the clock and whether anything changed."""
    if not is_on(row) or row.over:
        return clock, False
    seats_away = away(row)
    paused = stopped_clock(row)
    before = (dict(seats_away), paused, list(row.seats), clock)
    told: list[list] = []
    limit = timedelta(milliseconds=row.away_limit_ms)
    for seat, link in seen.items():
        if row.seats[seat] != HUMAN:
            seats_away.pop(seat, None)  # a bot plays it: nobody to wait for
            continue
        if link.live:
            if seats_away.pop(seat, None) is not None:
                told.append([BACK, seat])
            continue
        if seat not in seats_away and link.gone_at is not None and wall >= link.gone_at + grace():
            seats_away[seat] = link.gone_at + grace()
            told.append([AWAY, seat])
        if seat in seats_away and wall >= seats_away[seat] + limit:
            # stopped from the moment it was away until now, then the bot plays on
            clock, paused = _hold(row, driver, clock, wall, seats_away, paused)
            del seats_away[seat]
            _hand_over(row, driver, clock, wall, seat, row.takeover_level(seat))
            told.append([BOT, seat, row.takeover_level(seat)])
    clock, paused = _hold(row, driver, clock, wall, seats_away, paused)
    if not told and (seats_away, paused, row.seats, clock) == before:
        return clock, False
    _store(row, seats_away, paused, told)
    return clock, True


def change_hands(
    row: Game, driver, clock: Clock, wall: datetime, seat: int, to_bot: bool, lock: bool = False
) -> tuple[Clock, bool]:
    """A person's seat handed to its bot now (a teacher's or a table owner's choice; `lock`:
    the owner's, which the person may not undo) or taken back by the person; the clock runs
    again when nobody is away any more (if presence stopped it). False: nothing to change
    (no person's seat, already so, or a take-back of a locked seat)."""
    level = row.takeover_level(seat)
    if row.over or not level:
        return clock, False
    if to_bot and lock and seat not in locked(row):
        # Locked even when a bot plays it already (it stood in for a dropped person).
        row.presence = {**row.presence, "locked": sorted(locked(row) | {seat})}
        if row.seats[seat] != HUMAN:
            return clock, True
    if (row.seats[seat] != HUMAN) is to_bot or (not to_bot and seat in locked(row)):
        return clock, False
    seats_away = away(row)
    seats_away.pop(seat, None)
    _hand_over(row, driver, clock, wall, seat, level if to_bot else HUMAN)
    clock, paused = _hold(row, driver, clock, wall, seats_away, stopped_clock(row))
    if not to_bot:
        row.presence = {
            **row.presence,
            "back": {**row.presence.get("back", {}), str(seat): _ms(wall)},
        }
    _store(row, seats_away, paused, [[BOT, seat, level] if to_bot else [PERSON, seat]])
    return clock, True


def give_back(row: Game, seat: int) -> bool:
    """The owner lets the person take their seat back ("Take my seat back" is offered again);
    False: the seat was not locked."""
    if row.over or seat not in locked(row):
        return False
    rest = sorted(locked(row) - {seat})
    row.presence = {k: v for k, v in row.presence.items() if k != "locked"}
    if rest:
        row.presence["locked"] = rest
    return True


def _hand_over(row: Game, driver, clock: Clock, wall: datetime, seat: int, kind: str) -> None:
    at = max(driver.game.now, clock.now_ms(wall))
    driver.set_seat(seat, kind, at)
    row.seats = [kind if s == seat else k for s, k in enumerate(row.seats)]
    if kind == HUMAN:
        row.human_ms = at  # the idle pause counts afresh for the person


def _hold(
    row: Game, driver, clock: Clock, wall: datetime, seats_away: dict[int, datetime], paused: bool
) -> tuple[Clock, bool]:
    """Stop the clock while a seat is away (from the moment it was), run it again when
    nobody is and presence had stopped it; returns the clock and whether presence holds
    it stopped."""
    if seats_away and not clock.paused:
        since = min(seats_away.values())
        return clock.pause(wall, at_ms=max(driver.game.now, clock.now_ms(since))), True
    if not seats_away and paused:
        if clock.paused:
            clock = clock.resume(wall)
            row.human_ms = clock.now_ms(wall)  # the idle pause counts afresh from here
            # Everyone starts again together: the start signal counts down once more.
            driver.hold_for_signal(row.human_ms)
        return clock, False
    return clock, paused


def wake_moments(row: Game, wall: datetime, seen: dict[int, Link]) -> list[datetime]:
    """When the rule may next change the game by itself: a gone seat's grace ending, an
    away seat's limit, a live socket going stale (its process killed)."""
    if not is_on(row) or row.over:
        return []
    moments = list(takeover_at(row).values())
    seats_away = away(row)
    for seat, link in seen.items():
        if row.seats[seat] != HUMAN or seat in seats_away:
            continue
        if link.live:
            moments.append(link.stale_at or wall + stale_after())
        elif link.gone_at is not None:
            moments.append(link.gone_at + grace())
    return moments


# ---------------------------------------------------------------------------- sockets
def socket_opened(game_id: str, seats: tuple[int, ...], wall: datetime) -> int | None:
    """A socket of a browser holding `seats` opened: its row's id (None: the game has
    presence off, or the browser holds no person's seat, so nothing is kept). Rows closed
    long ago are forgotten on the way."""
    row = Game.objects.filter(pk=game_id).only("away_limit_ms", "takeover", "players").first()
    if row is None or not is_on(row) or not any(row.takeover_level(s) for s in seats):
        return None
    old = wall - max(stale_after(), grace()) * 10 - timedelta(milliseconds=row.away_limit_ms)
    Socket.objects.filter(game_id=game_id, seen__lt=old).delete()
    return Socket.objects.create(game_id=game_id, seats=list(seats), opened=wall, seen=wall).pk


def socket_seen(socket_id: int, wall: datetime, rtt_ms: int | None = None) -> None:
    """The socket answered a ping (`rtt_ms`: the round trip it took)."""
    values: dict = {"seen": wall}
    if rtt_ms is not None:
        values["rtt_ms"] = rtt_ms
    Socket.objects.filter(pk=socket_id, closed__isnull=True).update(**values)


def seen_over_http(row: Game, seats: tuple[int, ...], wall: datetime) -> bool:
    """A board request from a page whose socket is closed, holding `seats`: its requests
    keep its seats at the table as a socket's pongs do. True if one of the seats was away
    (a catch-up now lets the game go on)."""
    if not is_on(row) or not any(row.takeover_level(s) for s in seats):
        return False
    sockets = Socket.objects.using(row._state.db or "default")
    if not sockets.filter(game_id=row.pk, over_http=True, seats=list(seats)).update(seen=wall):
        sockets.create(game_id=row.pk, seats=list(seats), opened=wall, seen=wall, over_http=True)
    return any(seat in away(row) for seat in seats)


def socket_closed(socket_id: int, wall: datetime) -> None:
    Socket.objects.filter(pk=socket_id, closed__isnull=True).update(closed=wall)
