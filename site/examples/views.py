"""The step-through viewer: one example, one step, as a page or as an htmx fragment."""

from functools import lru_cache

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from core.catalogue import VariantEntry, variant_or_404
from core.glossary import current_lang
from core.pagecache import cached_page

from .board import board_view
from .library import Example, load_example
from .reasons import reason_text
from .sandbox import (
    SandboxError,
    attempt,
    describe,
    format_moves,
    game_at_step,
    offered,
    parse_moves,
    replay_moves,
    zone_names,
)


def parse_step(raw: str | None, last: int) -> int:
    """?step=N clamped to the example; anything that is not a number means the first step."""
    try:
        step = int(raw or 0)
    except ValueError:
        return 0
    return min(max(step, 0), last)


def step_context(example: Example, index: int, lang: str, *, embedded: bool) -> dict:
    step = example.steps[index]
    action = step.action.to_json() if step.action else None
    url = reverse("example", kwargs={"variant": example.variant, "name": example.name})
    links = {
        "first": 0,
        "prev": max(index - 1, 0),
        "next": min(index + 1, example.last),
        "last": example.last,
    }
    return {
        "example": example,
        "title": example.title(lang),
        "index": index,
        "last": example.last,
        "board": board_view(step.board, action),
        "action": action,
        "rejected": step.result is not None and not step.result.accepted,
        "reason": reason_text(step.result.reason) if step.result else "",
        "narration": example.narration(index, lang),
        "url": url,
        "links": {k: {"step": v, "disabled": v == index} for k, v in links.items()},
        "rule_url": reverse("rules", kwargs={"variant": example.variant})
        + f"#{example.section}",
        "embedded": embedded,
        "dom_id": f"ex-{example.name}",
    }


def embedded_viewer(example: Example, lang: str) -> SafeString:
    """Step 0 of an example as it stands beside its rules section, rendered once per version."""
    return _embedded(example.variant, example.name, example.version, lang)


@lru_cache(maxsize=512)
def _embedded(variant: str, name: str, version: int, lang: str) -> SafeString:
    example = load_example(variant, name)
    with translation.override(lang):
        context = step_context(example, 0, lang, embedded=True)
        return mark_safe(render_to_string("examples/embedded.html", context))


def deferred_viewer(example: Example, lang: str) -> SafeString:
    """A viewer's title and a link to its page; site.js loads the viewer in its place."""
    return _deferred(example.variant, example.name, example.version, lang)


@lru_cache(maxsize=512)
def _deferred(variant: str, name: str, version: int, lang: str) -> SafeString:
    example = load_example(variant, name)
    with translation.override(lang):
        url = reverse("example", kwargs={"variant": variant, "name": name})
        context = {"title": example.title(lang), "url": url, "dom_id": f"ex-{name}"}
        return mark_safe(render_to_string("examples/deferred.html", context))


def _lookup(variant: str, name: str) -> tuple[str, VariantEntry, Example]:
    lang = current_lang()
    entry = variant_or_404(variant, lang)
    example = load_example(variant, name)
    if example is None:
        raise Http404(name)
    return lang, entry, example


@cached_page
def example_page(request: HttpRequest, variant: str, name: str) -> HttpResponse:
    lang, entry, example = _lookup(variant, name)
    index = parse_step(request.GET.get("step"), example.last)
    embedded = request.GET.get("embedded") == "1"
    context = {
        "entry": entry,
        "description": example.narration(0, lang),
        **step_context(example, index, lang, embedded=embedded),
    }
    template = "examples/page.html#viewer" if request.htmx else "examples/page.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response


@cached_page
def try_page(request: HttpRequest, variant: str, name: str) -> HttpResponse:
    """The sandbox: the example's position at ?step=N, then the visitor's own moves."""
    lang, entry, example = _lookup(variant, name)
    index = parse_step(request.GET.get("step"), example.last)
    game = game_at_step(example, index)
    error = ""
    try:
        moves = parse_moves(request.GET.get("moves", ""))
        last_action = replay_moves(game, moves)
    except SandboxError:
        error = _("Those moves do not fit this position, so the example starts again here.")
        game, moves, last_action = game_at_step(example, index), [], None
    seat = parse_step(request.GET.get("seat"), game.players - 1)

    verdict = None
    tried = request.GET.get("try")
    if tried is not None and not error and not game.is_over:
        try:
            action, result = attempt(game, seat, int(tried))
        except (SandboxError, ValueError):
            error = _("That move is not on offer in this position.")
        else:
            verdict = {"accepted": result.accepted, "reason": reason_text(result.reason),
                       "text": describe(action, zone_names(game.board(None)))}
            if result.accepted:
                moves.append((seat, int(tried)))
                last_action = action

    url = reverse("example_try", kwargs={"variant": variant, "name": name})
    context = {
        "entry": entry,
        "example": example,
        "title": example.title(lang),
        "index": index,
        "seat": seat,
        "seats": [{"seat": s, "number": s + 1} for s in range(game.players)],
        "moves": format_moves(moves),
        "move_count": len(moves),
        "board": board_view(game.board(None), last_action),
        "attempts": [] if game.is_over else offered(game, seat),
        "over": game.is_over,
        "winner": None if game.winner is None else game.winner + 1,
        "verdict": verdict,
        "error": error,
        "url": url,
        "example_url": reverse("example", kwargs={"variant": variant, "name": name}),
    }
    template = "examples/try.html#sandbox" if request.htmx else "examples/try.html"
    response = render(request, template, context, status=400 if error else 200)
    patch_vary_headers(response, ["HX-Request"])
    return response
