"""What the demo's game page shows to one browser: the table turned to its seat (or a
watcher's), the story lines since the page's last view, the summary of a finished game.

The same context serves the page over HTTP (play.views) and every frame pushed over the
game's socket (live.publish), which is rendered once per view, with no request.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from urllib.parse import urlencode

from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from core.catalogue import variant_entry
from core.glossary import current_lang
from presentation.board import Place
from presentation.gamepage import Role, table_for
from presentation.narration import narrate_all
from presentation.table import Table, second_language
from presentation.wording import CardList, CardWord, Words, seat_names, sentence

from . import presence, service
from .answers import Shown
from .models import Game, LogEntry
from .presence_page import news_lines, presence_context, table_names
from .setup import again_pairs
from .store import read_events
from .summary import summarise
from .told import in_language

#: how many of the latest events the live region reads out after a change.
ANNOUNCED_EVENTS = 4

#: What other apps add to a game's page (tables: the players' names, the way back to the
#: table), each from the row and the seat the viewer plays, or holds while a bot plays it
#: (None: a watcher); registered in an AppConfig.ready(). Asked only about a game dealt for
#: a table (`for_a_table`).
PAGE_HOOKS: list[Callable[[Game, int | None], dict]] = []

#: The second language other apps show a game in beside the active one ("": none), from
#: the row (teach: a class table of a two-language lesson); registered in a ready(). Asked
#: only about a game dealt for a table (`for_a_table`).
SECOND_LANGUAGE_HOOKS: list[Callable[[Game], str]] = []


def for_a_table(row: Game) -> bool:
    """Whether the game was dealt for a table (a friends' or a class table: each seat has
    its stand-in, `takeover`). Only such a game has anything for the hooks above to add,
    and every board of every change asks them (a query each), so the demo's games, which
    are most of the boards drawn, skip them (#21)."""
    return bool(row.takeover)


def second_language_of(row: Game) -> str:
    lang = current_lang()
    for hook in SECOND_LANGUAGE_HOOKS if for_a_table(row) else ():
        lang2 = hook(row)
        if lang2 and lang2 != lang:
            return lang2
    return ""


def _announcements(row: Game, since: int | None, family: str, extra: str = "",
                   fresh: list[LogEntry] | None = None) -> list[str]:
    """What the live region reads out: the latest events since the page's last view, and
    the centre tops after them. `fresh`: the entries this request wrote, which are often
    exactly the ones the page has not seen (then the log is not read again)."""
    lines = [extra] if extra else []
    if since is None or since >= row.log_length:
        return lines
    if fresh and fresh[0].seq <= since:
        logged = [entry.events for entry in fresh if entry.seq >= since]
    else:
        logged = read_events(row.pk, max(since, row.log_length - 40), row._state.db or "default")
    events = [e for entry_events in logged for e in entry_events]
    lines += narrate_all(events[-ANNOUNCED_EVENTS:], family, variant=row.variant)
    return lines


@functools.lru_cache(maxsize=1024)
def game_urls(game_id: str, variant: str, lang: str, prefix: str,
              urlconf: str | None) -> dict[str, str]:
    """A game's page's URLs in `lang` (the active language): the same for every board of
    the game, so reversed once per game and language, not for every view of every change
    (#21). `prefix` and `urlconf` are the ones `reverse` uses; they key the cache too."""
    kw = {"game_id": game_id}
    return {
        "game_url": reverse("play_game", kwargs=kw),
        "move_url": reverse("play_move", kwargs=kw),
        "clock_url": reverse("play_clock", kwargs=kw),
        "replay_url": reverse("play_replay", kwargs=kw),
        "setup_url": reverse("play_setup", kwargs={"variant": variant}),
        "rules_url": reverse("rules", kwargs={"variant": variant}),
        "seat_url": reverse("play_seat", kwargs=kw),
    }


def _centre_line(table: Table) -> str:
    """The centre piles' top cards, as the live region reads them out after a move; with a
    pile empty, each pile by name ("Centre pile 1 shows …; centre pile 2 is empty.")."""
    piles = []
    for zone in table.centre:
        if zone.fanned:
            continue
        top = zone.items[0].top if zone.items else None
        piles.append((Place(zone.id, zone.kind, table.variant),
                      top["card"] if top and top["card"] else None))
    if not piles:
        return ""
    cards = [card for _pile, card in piles]
    if len(piles) > 1 and all(cards) and len(set(cards)) == 1:
        # two decks (German Stress): the same card can top both piles
        return _("Both centre piles show the %(card)s.") % Words({"card": CardWord(cards[0])})
    if all(cards):
        return _("The centre piles show the %(cards)s.") % Words({
            "cards": CardList(tuple(card for _pile, card in piles if card))})
    parts = [_("%(pile)s shows the %(card)s") % Words({"pile": pile, "card": CardWord(card)})
             if card else _("%(pile)s is empty") % Words({"pile": pile}) for pile, card in piles]
    return sentence("; ".join(parts) + ".")


def play_context(shown: Shown, seat: int | None) -> tuple[Role, dict]:
    """The role and the page's context for the browser holding `seat` (None, or a seat that
    is not a person's: a watcher, who sees the table turned to the first person's seat
    without being that player), in the active language; the story and the end of the game
    call the seats by the names chosen at the table, if any."""
    with seat_names(shown.row.names):
        return _play_context(shown, seat)


def _play_context(shown: Shown, seat: int | None) -> tuple[Role, dict]:
    row, driver = shown.row, shown.turn.driver
    game = driver.game
    holds = seat is not None and seat in row.human_seats
    role = Role.PLAYER if holds else Role.WATCHER
    stood_in = seat is not None and bool(row.takeover_level(seat))  # a bot plays it now
    facing = seat if holds or stood_in else (row.human_seats[0] if row.human_seats else None)
    names = table_names(row, seat if holds else None)
    table = table_for(role, game, row.seats, seat=facing, paused=row.paused, names=names)
    announce = _announcements(row, shown.since, table.family, shown.message, shown.fresh)
    if announce and len(announce) > (1 if shown.message else 0):
        announce.append(_centre_line(table))
    lang2 = second_language_of(row)
    table2, announce2, message2 = None, [], ""
    if lang2:
        # The same table once more in the second language: its captions, names and hint
        # beside the first language's, and the live region's lines read in both.
        with translation.override(lang2):
            names2 = table_names(row, seat if holds else None)
            table2 = table_for(role, game, row.seats, seat=facing, paused=row.paused, names=names2)
            announce2 = _announcements(row, shown.since, table.family, "", shown.fresh)
            if announce2:
                announce2.append(_centre_line(table2))
            # a move the game refused, why (a message of its own, e.g. a stale page: once)
            message2 = in_language(shown.message, lang2)
        second_language(table, lang2, names2)
    context = {
        "row": row,
        "entry": variant_entry(row.variant, current_lang()),
        "table": table,
        "holds": holds,
        "message": shown.message,
        "announce": [line for line in announce if line],
        "lang2": lang2,
        "table2": table2,
        "announce2": [line for line in announce2 if line],
        "message2": message2,
        "poll_ms": service.next_poll_ms(row, driver, timezone.now()),
        "countdown": service.countdown(row, driver, timezone.now()),
        **game_urls(row.pk, row.variant, translation.get_language(), get_script_prefix(),
                    get_urlconf()),
        "presence": presence_context(row, seat, timezone.now()),
        "news": news_lines(row) if presence.is_on(row) else [],
        "summary": (summarise(game, row.seats, seat if holds else None, names)
                    if game.over else None),
        "again_pairs": again_pairs(row),
        "again_query": urlencode(again_pairs(row)),
    }
    for hook in PAGE_HOOKS if for_a_table(row) else ():
        context.update(hook(row, seat if holds or stood_in else None))
    return role, context
