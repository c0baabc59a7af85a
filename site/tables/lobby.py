"""What a table's page shows to one browser, in its own language: the seats and who is
ready, its own form (a name to take a seat, ready, the creator's remove buttons), the game
under way, or the last game's result with the match score and the rematch.

The same context serves the page over HTTP (tables.views) and each frame pushed over the
table's socket (live.lobby), rendered with no request.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.html import format_html
from play import presence
from play import service as play_service
from play.summary import summarise

from core.catalogue import variant_entry
from core.options import OPTION_PREFIX, value_key
from houserules.optionwords import option_words
from presentation.wording import seat_names

from .access import my_seat
from .ingame import seat_label
from .models import Round, Seat, Table
from .service import current_round


@dataclass(frozen=True)
class SeatLine:
    number: int
    label: str
    friend: bool
    taken: bool
    ready: bool
    mine: bool
    removable: bool
    wins: int
    #: a friend's seat that a bot plays now (they dropped, or the creator handed it over)
    stand_in: bool = False
    #: the creator handed it to its bot: the creator may give it back to its player
    returnable: bool = False


def chosen_rules(table: Table, lang: str) -> list[tuple[str, str]]:
    """Each option of the table with its chosen value, in the reader's language."""
    chosen = []
    for words in option_words(table.variant, lang):
        value = table.options.get(words.spec.key)
        label = next(
            (text for v, text in words.values if value_key(v) == value_key(value)), value_key(value)
        )
        chosen.append((words.name, label))
    return chosen


def wins(table: Table) -> dict[int, int]:
    """The match score: games won per seat over the table's finished rounds."""
    score: dict[int, int] = {}
    for winner in Round.objects.filter(table=table, game__over=True).values_list(
        "game__winner", flat=True
    ):
        if winner is not None:
            score[winner] = score.get(winner, 0) + 1
    return score


def new_table_query(table: Table) -> str:
    pairs = [("players", str(table.players))]
    pairs += [(f"seat-{s.number + 1}", s.kind) for s in table.seats.all() if s.number]
    pairs += [(OPTION_PREFIX + key, value_key(value)) for key, value in table.options.items()]
    return urlencode(pairs)


def lobby_context(table: Table, who: str, lang: str) -> dict:
    seats: list[Seat] = list(table.seats.all())
    mine = my_seat(table, who)
    mine_n = mine.number if mine else None
    creator = bool(who) and who == table.creator
    last = current_round(table)
    running = last is not None and not last.game.over
    score = wins(table)
    handed = presence.locked(last.game) if running else set()
    lines = [
        SeatLine(
            s.number,
            seat_label(s.kind, s.name, s.number, s.number == mine_n),
            s.friend,
            s.taken,
            s.ready,
            s.number == mine_n,
            creator
            and s.friend
            and s.taken
            and s.number != mine_n
            and (not running or s.number in last.game.human_seats),
            score.get(s.number, 0),
            running and s.friend and s.number not in last.game.human_seats,
            creator and s.number in handed,
        )
        for s in seats
    ]
    free = sum(1 for s in seats if s.friend and not s.taken)
    waiting = [line.label for line in lines if line.friend and line.taken and not line.ready]
    result = None
    if last is not None and last.game.over:
        driver = play_service.driver_of(last.game)
        kinds = ["human" if s.friend else s.kind for s in seats]
        with seat_names(last.game.names):
            result = summarise(driver.game, kinds, mine_n)
        names = {s.number: line.label for s, line in zip(seats, lines, strict=True)}
        result.seats[:] = [type(r)(names[n], r.left, r.winner) for n, r in enumerate(result.seats)]
    code = {"code": table.pk}
    return {
        "table": table,
        "entry": variant_entry(table.variant, lang),
        "seats": lines,
        "mine": mine,
        "creator": creator,
        "free": free,
        "may_join": mine is None and free > 0 and who not in table.removed,
        "removed": bool(who) and who in table.removed,
        "waiting": waiting,
        "running": running,
        "round": last,
        "result": result,
        "match": bool(score),
        "rules": chosen_rules(table, lang),
        "join_url": reverse("tables_join", kwargs=code),
        "ready_url": reverse("tables_ready", kwargs=code),
        "remove_url": reverse("tables_remove", kwargs=code),
        "give_back_url": reverse("tables_give_back", kwargs=code),
        "play_url": reverse("tables_play", kwargs=code),
        "game_url": reverse("play_game", kwargs={"game_id": last.game_id}) if last else "",
        "replay_url": reverse("play_replay", kwargs={"game_id": last.game_id}) if last else "",
        "new_url": reverse("tables_new", kwargs={"variant": table.variant})
        + "?"
        + new_table_query(table),
        "rules_url": reverse("rules", kwargs={"variant": table.variant}),
    }


def seen_mark(table: Table) -> str:
    """The table's last change as a page saw it: its socket sends a first frame only when the
    table changed since (a frame replacing a form someone is filling in loses their click)."""
    return str(int(table.updated.timestamp() * 1_000_000))


def render_lobby(code: str, who: str, lang: str, unless_seen: str = "") -> str | None:
    """The lobby as `who` sees it, as an out-of-band swap of the page's #lobby (None: the
    table is gone; "": unchanged since the page's `unless_seen` mark)."""
    table = Table.objects.filter(pk=code).first()
    if table is None:
        return None
    if unless_seen and seen_mark(table) == unless_seen:
        return ""
    with translation.override(lang):
        context = lobby_context(table, who, lang)
        inner = render_to_string("tables/table.html#lobby", context)
    return format_html('<div id="lobby" hx-swap-oob="innerHTML">{}</div>', inner)
