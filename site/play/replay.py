"""A stored game as a scenario, for the step-through viewer of the examples.

The log's accepted actions and the deadlines that passed become the scenario's steps; an
action the engine refused changed nothing, so it is left out (when time itself changed the
table before the refusal, that is kept as a clock step). The narration of each step is made
from its events (presentation.narration), never written by hand.
"""

from __future__ import annotations

from functools import lru_cache

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _

from core.catalogue import variant_entry
from core.glossary import current_lang
from examples.library import Example
from examples.viewer import parse_step, step_context
from presentation.narration import narrate_all
from presentation.wording import seat_names
from rules_engine.scenario import load, replay

from .models import Game, LogEntry


def scenario_of(row: Game, entries: list[LogEntry]) -> dict:
    steps: list[dict] = []
    for entry in entries:
        if entry.action is None or (entry.reason and entry.events):
            steps.append({"advance": entry.t})
        elif not entry.reason:
            steps.append(dict(entry.action))
    return {"variant": row.variant, "options": row.options, "players": row.players,
            "seed": row.seed, "actions": steps}


def game_example(row: Game, lang: str) -> Example:
    return _example(row.pk, row.log_length, lang)


@lru_cache(maxsize=16)
def _example(game_id: str, length: int, lang: str) -> Example:
    row = Game.objects.get(pk=game_id)
    entries = list(LogEntry.objects.filter(game=row, seq__lt=length))
    scenario = load(scenario_of(row, entries))
    steps = replay(scenario, debug=False)
    family = scenario.new_game(debug=False).variant.family
    with translation.override(lang), seat_names(row.names):
        for step in steps[1:]:
            step.say = {lang: " ".join(narrate_all([e.to_json() for e in step.events], family,
                                                     variant=row.variant))}
        name = variant_entry(row.variant, lang).name
        title = _("%(game)s as it was played") % {"game": name}
        opening = " ".join(narrate_all([e.to_json() for e in steps[0].events], family,
                                         variant=row.variant))
        intro = " ".join(filter(None, [
            _("The whole game, one step for each move and each moment that changed the "
              "table."), opening]))
    return Example(variant=row.variant, name=row.pk, section="", titles={lang: title},
                   intro={lang: intro}, steps=tuple(steps), failures=(), version=length)


def render_replay(request: HttpRequest, row: Game, *, url: str, game_url: str) -> HttpResponse:
    """A finished game in the step-through viewer; `url` is the viewer's own address and
    `game_url` the page of the game it links back to (teacher mode shows it its own way)."""
    lang = current_lang()
    example = game_example(row, lang)
    index = parse_step(request.GET.get("step"), example.last)
    context = {
        "entry": variant_entry(row.variant, lang),
        "row": row,
        "game_url": game_url,
        **step_context(example, index, lang, embedded=False, url=url, try_url=""),
    }
    template = "examples/page.html#viewer" if request.htmx else "play/replay.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response
