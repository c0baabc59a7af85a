"""What a game page shows of presence (play.presence): who the game waits for and how long
until a bot takes their seat, which seats a bot plays for their person, the button that
gives a person their seat back, every seat's connection delay, and the lines the live
region reads out after a presence change. Nothing here for a game with presence off."""

from __future__ import annotations

from datetime import datetime

from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from presentation.table.names import level_name

from . import presence
from .answers import handed_over_text
from .models import HUMAN, Game


def seat_label(row: Game, seat: int) -> str:
    """The seat's name, or "Player 2" when it has none."""
    return row.seat_name(seat) or _("Player %(n)s") % {"n": seat + 1}


def table_names(row: Game, viewer: int | None) -> list[str] | None:
    """The seats' labels on the table when the game names its seats (None: the table's own
    "Player 2 (bot, club player)" labels)."""
    if not any(row.names):
        return None
    labels = []
    for seat, kind in enumerate(row.seats):
        name = seat_label(row, seat)
        if seat == viewer:
            name = _("%(name)s (you)") % {"name": name}
        elif kind != HUMAN:
            name = _("%(name)s (bot, %(level)s)") % {"name": name, "level": level_name(kind)}
        labels.append(name)
    return labels


def news_lines(row: Game) -> list[str]:
    """What the live region reads out after the presence change that made this version."""
    lines = []
    for item in presence.news(row):
        kind, seat = item[0], item[1]
        name = seat_label(row, seat)
        if kind == presence.AWAY:
            lines.append(
                _("%(name)s is not connected: the game is paused until they are back.")
                % {"name": name}
            )
        elif kind == presence.BACK:
            lines.append(_("%(name)s is back.") % {"name": name})
        elif kind == presence.BOT:
            lines.append(
                _("A bot (%(level)s) now plays for %(name)s.")
                % {"name": name, "level": level_name(item[2])}
            )
        elif kind == presence.PERSON:
            lines.append(_("%(name)s plays their own seat again.") % {"name": name})
    if lines and not row.paused:
        lines.append(_("The game goes on."))
    return lines


def delay_rows(row: Game, seen: dict[int, presence.Link]) -> list[dict]:
    """Each person's seat's connection delay, in words: "40 ms", "not connected"."""
    rows = []
    for seat, link in sorted(seen.items()):
        if row.seats[seat] != HUMAN:
            continue
        if not link.live:
            text = _("not connected")
        elif link.rtt_ms is None:
            text = _("not measured yet")
        else:
            text = _("%(ms)s ms") % {"ms": link.rtt_ms}
        rows.append({"seat": seat, "name": seat_label(row, seat), "text": text})
    return rows


def presence_context(row: Game, viewer: int | None, wall: datetime) -> dict | None:
    """The presence part of a game page's context for the browser holding `viewer`."""
    if not presence.is_on(row):
        return None
    seen = presence.links(row, wall)
    takeover = presence.takeover_at(row)
    waiting = [
        {
            "seat": seat,
            "name": seat_label(row, seat),
            "level": level_name(row.takeover_level(seat)),
            "left_ms": max(0, int((at - wall).total_seconds() * 1000)),
        }
        for seat, at in sorted(takeover.items())
    ]
    for entry in waiting:
        seconds = format_html(
            '<span data-countdown-ms="{}">{}</span>', entry["left_ms"], -(-entry["left_ms"] // 1000)
        )
        # The sentence and every value escaped, the countdown's markup kept.
        entry["line"] = mark_safe(
            conditional_escape(
                _(
                    "%(name)s is not connected. A bot (%(level)s) takes their seat in "
                    "%(seconds)s s unless they come back."
                )
            )
            % {
                "name": conditional_escape(entry["name"]),
                "level": conditional_escape(entry["level"]),
                "seconds": seconds,
            }
        )
    stand_ins = [
        {"seat": seat, "name": seat_label(row, seat), "level": level_name(kind)}
        for seat, kind in enumerate(row.seats)
        if kind != HUMAN and row.takeover_level(seat)
    ]
    mine = (
        viewer
        if viewer is not None
        and not row.over
        and row.takeover_level(viewer)
        and row.seats[viewer] != HUMAN
        else None
    )
    # A seat the table's owner handed over is theirs to give back: no button, a reason.
    handed = mine is not None and mine in presence.locked(row)
    return {
        "waiting": waiting,
        "stand_ins": stand_ins,
        "reclaim": None if handed else mine,
        "handed_over": mine if handed else None,
        "handed_text": handed_over_text(row) if handed else "",
        "delays": delay_rows(row, seen),
    }
