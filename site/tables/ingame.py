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
    """The way back to the table (its result and rematch) and the race note; the names are
    the game's own (play.presence_page.table_names)."""
    code = Round.objects.filter(game_id=row.pk).values_list("table_id", flat=True).first()
    if code is None:
        return {}
    return {"table_url": reverse("tables_table", kwargs={"code": code})}


def game_over(sender: type, *, row: Game, **kwargs) -> None:
    """A table's game that ended changes the table's page (the result, the rematch)."""
    if not row.over:
        return
    code = Round.objects.filter(game_id=row.pk).values_list("table_id", flat=True).first()
    if code is not None:
        Table.objects.filter(pk=code).update(updated=row.finished or row.updated)
        table_changed.send(sender=Table, code=code)
