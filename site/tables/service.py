"""What can happen at a table: it is opened, a seat is taken, a player says ready (the last
one deals the game for everyone), the creator removes a player; each stored change is told
to the table's open pages (tables.signals.table_changed).

Two requests at once cannot give one seat twice, one name twice or one browser two seats:
each is a conditional update or a unique constraint of the database, not a check in memory.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from play import presence
from play import service as play_service
from play.models import HUMAN
from teach.nicknames import nickname_key

from .forms import Plan
from .models import FRIEND, Round, Seat, Table
from .signals import table_changed


class Refused(ValueError):
    """A request the table cannot grant; args[0] is the translated reason, args[1] the
    HTTP status."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message, status)
        self.message, self.status = message, status


def changed(table: Table) -> None:
    Table.objects.filter(pk=table.pk).update(updated=timezone.now())
    transaction.on_commit(lambda: table_changed.send(sender=Table, code=table.pk))


def open_table(plan: Plan, who: str, sheet: str = "") -> Table:
    setup = plan.setup
    with transaction.atomic():
        table = Table.objects.create(
            variant=setup.variant,
            options=setup.options,
            players=setup.players,
            creator=who,
            presence_s=plan.presence_s,
            sheet=sheet,
        )
        for number, kind in enumerate(plan.kinds):
            mine = number == 0
            Seat.objects.create(
                table=table,
                number=number,
                kind=kind,
                name=plan.name if mine else "",
                name_key=nickname_key(plan.name) if mine else "",
                holder=who if mine else "",
                takeover=plan.takeover,
            )
    return table


def current_round(table: Table) -> Round | None:
    return table.rounds.select_related("game").order_by("-number").first()


def playing(table: Table) -> bool:
    last = current_round(table)
    return last is not None and not last.game.over


def take_seat(table: Table, who: str, name: str) -> Seat:
    if who in table.removed:
        raise Refused(_("The table's host has removed you from this table."), 403)
    seats = list(table.seats.all())
    if any(seat.holder == who for seat in seats):
        raise Refused(_("You already have a seat at this table."))
    key = nickname_key(name)
    if any(seat.name_key == key for seat in seats if seat.taken):
        raise Refused(_("Someone at this table already has this name: choose another."))
    for seat in seats:
        if not (seat.friend and not seat.taken):
            continue
        try:
            with transaction.atomic():
                took = Seat.objects.filter(pk=seat.pk, holder="").update(
                    holder=who, name=name, name_key=key, ready=False
                )
                if took:
                    changed(table)
        except IntegrityError:  # the same name or browser at once, through another request
            raise Refused(
                _("Someone at this table already has this name: choose another.")
            ) from None
        if took:
            seat.refresh_from_db()
            return seat
    raise Refused(_("This table is full: you can watch the game at this address."))


def set_ready(table: Table, seat: Seat, ready: bool) -> Round | None:
    """The seat's player is ready (or not); when every friend's seat is taken and ready,
    the game is dealt and returned."""
    if playing(table):
        raise Refused(_("The game has started already."))
    with transaction.atomic():
        Seat.objects.filter(pk=seat.pk).update(ready=ready)
        changed(table)
    return start_if_ready(table) if ready else None


def start_if_ready(table: Table) -> Round | None:
    seats = list(table.seats.all())
    if not all(s.taken and s.ready for s in seats if s.friend):
        return None
    kinds = [HUMAN if s.kind == FRIEND else s.kind for s in seats]
    number = (current_round(table).number + 1) if table.rounds.exists() else 1
    # Dealt before the transaction: the write lock is held for the writes alone. A dropped
    # friend's seat waits the creator's limit, then its bot plays it (play.presence); the
    # names are the game's own, shown on every table.
    game = play_service.deal_game(
        table.variant,
        kinds,
        options=table.options,
        wall=timezone.now(),
        away_limit_ms=table.presence_s * 1000,
        takeover=[s.takeover if s.friend else "" for s in seats],
        names=[s.name if s.friend else "" for s in seats],
    )
    try:
        with transaction.atomic():
            # Only the request that clears the ready flags stores its deal: two last
            # "ready"s at once find one set of flags to clear.
            cleared = Seat.objects.filter(table=table, kind=FRIEND, ready=True).update(ready=False)
            if cleared < sum(1 for s in seats if s.friend):
                raise IntegrityError("another request started this round")
            game.save()
            started = Round.objects.create(table=table, number=number, game=game)
            changed(table)
    except IntegrityError:
        return None
    return started


def remove(table: Table, who: str, number: int) -> None:
    """The creator frees a friend's seat in the lobby (that browser may not take one again at
    this table), or during a game hands it to the seat's bot."""
    if who != table.creator:
        raise Refused(_("Only the player who opened this table can remove players."), 403)
    seat = table.seats.filter(number=number).first()
    if seat is None or not seat.friend or not seat.taken or seat.holder == table.creator:
        raise Refused(_("There is no other player in that seat."), 400)
    last = current_round(table)
    if last is not None and not last.game.over:
        # In a game the seat is its stand-in bot's from now on (play.presence).
        if not last.game.takeover_level(number):
            raise Refused(_("A player can be removed before the game or between games."))
        # The creator's choice: the player may not take the seat back until they give it.
        play_service.hand_to_bot(last.game_id, number, timezone.now(), lock=True)
        changed(table)
        return
    with transaction.atomic():
        Table.objects.filter(pk=table.pk).update(removed=[*table.removed, seat.holder][-50:])
        Seat.objects.filter(pk=seat.pk).update(holder="", name="", name_key="", ready=False)
        Seat.objects.filter(table=table).update(ready=False)
        changed(table)


def give_back(table: Table, who: str, number: int) -> None:
    """The creator lets the player they replaced by a bot take their seat back."""
    if who != table.creator:
        raise Refused(_("Only the player who opened this table can remove players."), 403)
    last = current_round(table)
    if last is None or last.game.over or number not in presence.locked(last.game):
        raise Refused(_("That seat has not been handed to a bot."), 400)
    play_service.give_back(last.game_id, number, timezone.now())
    changed(table)
