"""What a pupil's phone shows at a class table (#23) beyond play's own game page: why the
pupil may not take back a seat the teacher handed to its bot (play.answers
.HANDED_OVER_HOOKS)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from play.models import Game

from .models import ClassTable


def handed_over_words(row: Game) -> str:
    """A class table's hand-over is the teacher's ("": not a class table)."""
    if not ClassTable.objects.using(row._state.db or "default").filter(game_id=row.pk).exists():
        return ""
    return _("Your teacher let a bot play your seat: you can take it back when they give it back.")
