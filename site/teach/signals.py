"""Signals of teacher mode: who else needs to know that a lesson changed.

`lesson_changed` is sent once a change to a lesson's class question, its answers or its
pupils is stored (on commit), with `lesson_id` (the lesson's game id) and `views`: the roles
whose pages show the change (teach.signals.ALL, or only the projector's TEACHER for an answer
or a pupil joining, which change nothing a pupil sees). A change to the lesson's game itself
is play.signals.game_changed. live.publish tells the lesson's open sockets; teach itself
needs none of it.
"""

from __future__ import annotations

from django.db import transaction
from django.dispatch import Signal

lesson_changed = Signal()

TEACHER = ("teacher",)
ALL = ("teacher", "follower", "pupil")


def announce(lesson_id: str, views: tuple[str, ...] = ALL) -> None:
    """Send `lesson_changed` once the current transaction (if any) is committed: a socket
    that reads the lesson then finds the change."""
    transaction.on_commit(
        lambda: lesson_changed.send(sender=None, lesson_id=lesson_id, views=views)
    )
