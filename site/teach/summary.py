"""The printable class summary of a finished lesson: the variant's short rules (the
house-rules sheet's texts with this game's options) in the lesson's language or two, beside
three moments of this very game that show those rules, with their cards.

Everything comes from somewhere else: the rules from content/<variant>/house-rules/<lang>.toml
through houserules.sheettext, the moments from the game's own events (teach.moments), their
words from presentation.narration, the result from play.summary."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import translation
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from play.models import Game
from play.service import driver_of
from play.summary import duration_in_words

from core.catalogue import variant_entry
from houserules.sheettext import SheetSection, load_sheet_text, render_sections
from presentation.endings import no_winner_why, result_of
from presentation.narration import narrate_all
from presentation.table import seat_name
from presentation.table.cards import card_markup
from presentation.wording import seat_display_name
from rules_engine.game import Game as EngineGame
from rules_engine.registry import VARIANTS

from .models import Lesson
from .moments import Moment, moments

#: the sheet's sections a class summary prints (the usual arguments stay on the sheet)
SECTIONS = ("setup", "move", "special", "stuck", "running-out", "winning")


def seat_names(lesson: Lesson, row: Game) -> list[str]:
    """The players as the lesson names them, in the active language."""
    names = [seat_name(s, row.seats, None) for s in range(row.players)]
    if lesson.mode == Lesson.TEACHER:
        names[0] = _("Player %(n)s (teacher)") % {"n": 1}
    return names


@dataclass(frozen=True)
class Column:
    lang: str
    game_name: str
    result: str
    sections: tuple[SheetSection, ...]
    # The page's headings in this column's language (a two-language lesson's summary names
    # each part in both).
    title: str = ""
    moments_title: str = ""
    rules_title: str = ""


@dataclass(frozen=True)
class Group:
    labels: tuple[tuple[str, str], ...]  # (lang, label)
    cards: tuple[SafeString, ...]


@dataclass(frozen=True)
class MomentView:
    number: int
    when: str
    titles: tuple[tuple[str, str], ...]  # (lang, the rules section it shows)
    stories: tuple[tuple[str, str], ...]  # (lang, what happened)
    groups: tuple[Group, ...]


@dataclass(frozen=True)
class ClassSummary:
    columns: tuple[Column, ...]
    moments: tuple[MomentView, ...]

    @property
    def bilingual(self) -> bool:
        return len(self.columns) > 1


def result_line(game: EngineGame) -> str:
    """The game's result as one sentence: who won, when and how."""
    time = duration_in_words(game.now)
    if game.winner is None:
        ended = _("The game ended without a winner after %(time)s.") % {"time": time}
        return f"{ended} {no_winner_why(game.end_reason)}"
    return result_of(game.end_reason, game.winner, time)


def moment_time(ms: int) -> str:
    """When in the game a moment happened, as its heading says after the rule's title."""
    if ms < 1000:
        return _("(at the start of the game)")
    return _("(%(time)s into the game)") % {"time": duration_in_words(ms)}


def _group_label(what: str, seat: int | None) -> str:
    name = seat_display_name(seat)
    if name:  # a class table's player, by nickname (presentation.wording.seat_names)
        return _named_label(what, name)
    n = (seat or 0) + 1
    labels = {
        "centre": _("Centre piles"),
        "middle": _("The middle"),
        "row": _("Player %(n)s") % {"n": n},
        "gave": _("Player %(n)s lays") % {"n": n},
        "took": _("Player %(n)s takes") % {"n": n},
        "pile": _("Player %(n)s: four of a kind") % {"n": n},
        "complete": _("Player %(n)s: complete piles") % {"n": n},
    }
    return labels[what]


def _named_label(what: str, name: str) -> str:
    labels = {
        "centre": _("Centre piles"),
        "middle": _("The middle"),
        "row": name,
        "gave": _("%(name)s lays") % {"name": name},
        "took": _("%(name)s takes") % {"name": name},
        "pile": _("%(name)s: four of a kind") % {"name": name},
        "complete": _("%(name)s: complete piles") % {"name": name},
    }
    return labels[what]


def _titles(variant: str, languages: list[str]) -> dict[str, dict[str, str]]:
    """Per language, each sheet section's title."""
    out = {}
    for lang in languages:
        text = load_sheet_text(variant, lang) or load_sheet_text(variant, "en")
        out[lang] = {sid: title for sid, title, _text in text.sections} if text else {}
    return out


def _moment_view(number: int, moment: Moment, family: str, variant: str, languages: list[str],
                 titles: dict[str, dict[str, str]], t: int) -> MomentView:
    stories, labels = [], []
    for lang in languages:
        with translation.override(lang):
            stories.append((lang, " ".join(narrate_all(moment.events, family, variant))))
            labels.append([(lang, _group_label(what, seat)) for what, seat, _c in moment.groups])
    groups = tuple(
        Group(tuple(per_lang[k] for per_lang in labels), tuple(card_markup(c) for c in cards))
        for k, (_what, _seat, cards) in enumerate(moment.groups))
    return MomentView(number, moment_time(t),
                      tuple((lang, titles[lang].get(moment.section, "")) for lang in languages),
                      tuple(stories), groups)


def class_summary(lesson: Lesson, row: Game, lang: str) -> ClassSummary:
    languages = [lang] + ([lesson.lang2] if lesson.lang2 and lesson.lang2 != lang else [])
    game = driver_of(row).game
    family = VARIANTS[row.variant].family
    columns = []
    for code in languages:
        text = load_sheet_text(row.variant, code) or load_sheet_text(row.variant, "en")
        with translation.override(code):
            sections = tuple(s for s in render_sections(text, row.options) if s.id in SECTIONS)
            name = variant_entry(row.variant, code).name
            columns.append(
                Column(
                    code,
                    name,
                    result_line(game),
                    sections,
                    title=_("%(game)s: the game we watched") % {"game": name},
                    moments_title=_("Three moments of this game"),
                    rules_title=_("The rules in short"),
                )
            )
    titles = _titles(row.variant, languages)
    times = {e.seq: e.t for e in row.entries.only("seq", "t")}
    views = tuple(_moment_view(n, m, family, row.variant, languages, titles, times.get(m.seq, 0))
                  for n, m in enumerate(moments(row), start=1))
    return ClassSummary(tuple(columns), views)
