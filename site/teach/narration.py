"""The side panel's story: every event of the game told in the page's language (and a second
one beside it), one line per event, generated from the stored log by presentation.narration, the
voice of the step-through examples. A move the engine refused changed no card and logged no
event; its line says who tried what and the engine's reason, because a class watching a
race wants to see the slower hand too."""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass

from django.utils import translation
from django.utils.translation import gettext as _
from play.models import Game, LogEntry

from presentation.board import Place, zone_kind
from presentation.moves import Calling, describe, refusal, tried
from presentation.narration import PlayerWord, narrate
from presentation.wording import Words, seat_names, sentence
from rules_engine.registry import VARIANTS

#: at most this many lines in one page or answer (a long James Bond match has thousands).
MAX_LINES = 400
#: what an engine's zone id looks like (a refused move may name anything at all)
ZONE_ID = re.compile(r"[a-z]+-[0-9]{1,2}|middle")
#: the arguments of an action that name a place
PLACE_KEYS = ("from", "to", "pile")


@dataclass(frozen=True)
class Line:
    id: str
    text: str
    alt: str = ""
    #: an event (False: a refused move, which is not an event)
    event: bool = True


def _zones(action: dict, family: str, variant: str) -> dict[str, Place]:
    """The places a move someone sent names, as this variant names them. A request may name
    anything, and the engine refuses what is not on the table: a place that is no zone id is
    left out here, and told as sent."""
    return {value: Place(value, zone_kind(value, family), variant)
            for value in (action.get(key) for key in PLACE_KEYS)
            if isinstance(value, str) and ZONE_ID.fullmatch(value)}


def move_words(action: dict, family: str, variant: str, calling: Calling | None = None) -> str:
    """A move someone sent, as a button names it (presentation.moves.describe); a call as the
    game makes it (`calling`; by default as the variant's usual rules make it)."""
    return _said(describe, action, family, variant, calling)


def tried_words(action: dict, family: str, variant: str) -> str:
    """A move someone sent, as what they did (presentation.moves.tried): "play the … onto …"."""
    return _said(tried, action, family, variant, None)


def _said(say: Callable[[dict, dict, Calling], str], action: dict, family: str, variant: str,
          calling: Calling | None) -> str:
    """A move in words by `say`; one that cannot be put into words is told as such."""
    calling = calling or Calling.of_variant(variant, {})
    with suppress(KeyError, TypeError, ValueError, AttributeError):
        return say(action, _zones(action, family, variant), calling)
    return _("a move this game does not have")


def _refused(entry: LogEntry, family: str, variant: str, calling: Calling) -> str:
    """A move the engine refused: who tried what, and why it did not count."""
    action = entry.action or {}
    with suppress(KeyError, TypeError, ValueError, AttributeError):
        return refusal(action, entry.reason, _zones(action, family, variant), calling)
    return sentence(_("%(player)s tried a move this game does not have, and it did not "
                      "count.") % Words({"player": PlayerWord(action.get("player"))}))


def _texts(entry: LogEntry, family: str, variant: str,
           calling: Calling) -> list[tuple[str, bool]]:
    texts = [(narrate(event, family, variant), True) for event in entry.events]
    if entry.action is not None and entry.reason and entry.kind != "clock":
        texts.append((_refused(entry, family, variant, calling), False))
    return [(text, is_event) for text, is_event in texts if text]


#: lines told, by game, log length, first entry, languages, limit and the seats' names: a log
#: entry never changes once written, so the pages that tell the same entries in the same
#: languages (the projector's and the pupils' frames of one change: live.lesson_publish)
#: share them. The names are the game's own (a class table's nicknames, fixed when its round
#: is seated), in the key all the same so a line never outlives a name it was told with.
_TOLD: OrderedDict[tuple, list[Line]] = OrderedDict()
KEPT_TOLD = 256


def lines(row: Game, since: int, lang2: str = "", *, limit: int = MAX_LINES,
          fresh: list[LogEntry] | None = None) -> list[Line]:
    """The lines of the log entries from `since` on (the latest `limit` of them). `fresh`:
    the entries the request just wrote; when they reach back to `since`, the log is not
    read again."""
    first = max(since, row.log_length - limit)
    names = tuple(row.names)
    key = (row.pk, row.log_length, first, lang2, translation.get_language(), limit, names)
    told = _TOLD.get(key)
    if told is None:
        # A class table's story calls its players by their nicknames in both languages,
        # as a friends' table's does (a bot's seat, which has no name, stays "Player 2").
        with seat_names(names):
            told = _TOLD[key] = _lines(row, first, lang2, limit, fresh)
        while len(_TOLD) > KEPT_TOLD:
            _TOLD.popitem(last=False)
    return list(told)


def _lines(row: Game, first: int, lang2: str, limit: int,
           fresh: list[LogEntry] | None) -> list[Line]:
    family = VARIANTS[row.variant].family
    if fresh and fresh[0].seq <= first:
        entries = [entry for entry in fresh if entry.seq >= first]
    else:
        entries = list(LogEntry.objects.filter(game=row, seq__gte=first).order_by("seq"))
    calling = Calling.of_variant(row.variant, row.options)  # how this game's call is made
    told = [(entry.seq, _texts(entry, family, row.variant, calling)) for entry in entries]
    alts: list[list[tuple[str, bool]]] = []
    if lang2:
        with translation.override(lang2):
            alts = [_texts(entry, family, row.variant, calling) for entry in entries]
    out = []
    for n, (seq, texts) in enumerate(told):
        for i, (text, is_event) in enumerate(texts):
            alt = alts[n][i][0] if alts else ""
            out.append(Line(f"n-{seq}-{i}", text, alt, is_event))
    return out[-limit:]
