"""A table's game as play shows it: the players' names and the way back to the table on
the game page (play.page.PAGE_HOOKS), and the table told when its game ends."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _
from play.models import Game

from presentation.table import level_name

from .models import Round, Table
from .signals import table_changed


def seat_label(kind: str, name: str, number: int, you: bool) -> str:
    if kind != "friend":
        return _("Player %(n)s (bot, %(level)s)") % {"n": number + 1, "level": level_name(kind)}
    if you:
        return _("%(name)s (you)") % {"name": name}
    return name or _("Player %(n)s") % {"n": number + 1}


def page_extras(row: Game, seat: int | None) -> dict:
    found = Round.objects.filter(game_id=row.pk).select_related("table").first()
    if found is None:
        return {}
    seats = found.table.seats.all()
    return {
        "table_seats": [seat_label(s.kind, s.name, s.number, s.number == seat) for s in seats],
        "table_url": reverse("tables_table", kwargs={"code": found.table_id}),
    }


def game_over(sender: type, *, row: Game, **kwargs) -> None:
    """A table's game that ended changes the table's page (the result, the rematch)."""
    if not row.over:
        return
    code = Round.objects.filter(game_id=row.pk).values_list("table_id", flat=True).first()
    if code is not None:
        Table.objects.filter(pk=code).update(updated=row.finished or row.updated)
        table_changed.send(sender=Table, code=code)
