"""The step-through viewer: one example, one step, as a page or as an htmx fragment."""


from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _

from core.actions import ActionShapeError, read_action
from core.catalogue import VariantEntry, variant_or_404
from core.glossary import current_lang
from core.methods import allow
from core.pagecache import cached_page
from core.params import parse_natural
from presentation.board import board_view
from presentation.gamepage import Role, table_for
from presentation.moves import Calling, refusal, zone_names
from presentation.narration import narrate_all
from rules_engine.actions import Action
from rules_engine.driver import HUMAN

from . import sandbox
from .library import Example, load_example
from .sandbox import (
    STEP_MS,
    SandboxError,
    attempt,
    find_attempt,
    format_moves,
    game_at_step,
    offered,
    parse_moves,
    replay_moves,
)
from .viewer import parse_step, step_context


def _lookup(variant: str, name: str) -> tuple[str, VariantEntry, Example]:
    lang = current_lang()
    entry = variant_or_404(variant, lang)
    example = load_example(variant, name)
    if example is None:
        raise Http404(name)
    return lang, entry, example


@allow("GET")
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


@allow("GET")
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
    limit = sandbox.MAX_MOVES

    verdict = None
    tried = request.GET.get("try")
    acted = request.GET.get("act")
    # At the limit a further move is not made (the page says why); the moves so far stay.
    if (acted is not None and tried is None and not error and not game.is_over
            and len(moves) < limit):
        # A move made on the table itself (a card tapped or dragged onto a pile).
        action = table_action(acted)
        offer = None if action is None else find_attempt(game, seat, action)
        if action is None:
            error = _("That move could not be read, so nothing was changed.")
        elif offer is not None:
            tried = str(offer)
        else:
            result = game.copy().apply(Action.from_json(
                {**action, "t": game.now + STEP_MS, "player": seat}))
            if result.accepted:
                error = _("That move is not on offer in this position.")
            else:
                verdict = {"accepted": False, "text": refusal(
                    {**action, "player": seat}, result.reason,
                    zone_names(game.board(None), seat), Calling.of(game))}
    if tried is not None and not error and not game.is_over and len(moves) < limit:
        choice = parse_natural(tried)
        try:
            if choice is None:
                raise SandboxError(tried[:20])
            names, calling = zone_names(game.board(None), seat), Calling.of(game)
            action, result = attempt(game, seat, choice)
        except SandboxError:
            error = _("That move is not on offer in this position.")
        else:
            verdict = {"accepted": result.accepted, "text": " ".join(narrate_all(
                [e.to_json() for e in result.events], game.variant.family, variant))
                if result.accepted else refusal(action, result.reason, names, calling)}
            if result.accepted:
                moves.append((seat, choice))
                last_action = action
    at_limit = len(moves) >= limit

    url = reverse("example_try", kwargs={"variant": variant, "name": name})
    here = f"{url}?step={index}&moves={format_moves(moves)}&seat={seat}"
    context = {
        "entry": entry,
        "example": example,
        "title": example.title(lang),
        "index": index,
        "seat": seat,
        "seats": [{"seat": s, "number": s + 1} for s in range(game.players)],
        "moves": format_moves(moves),
        "move_count": len(moves),
        "max_moves": limit,
        "at_limit": at_limit and not game.is_over,
        "board": board_view(game.board(None), last_action),
        "table": table_for(Role.SANDBOX, game, [HUMAN] * game.players, seat=seat,
                           interactive=not game.is_over and not at_limit),
        "here": here,
        "attempts": [] if game.is_over or at_limit else offered(game, seat),
        "over": game.is_over,
        "winner": None if game.winner is None else game.winner + 1,
        "verdict": verdict,
        "error": error,
        "url": url,
        "example_url": reverse("example", kwargs={"variant": variant, "name": name}),
    }
    template = "examples/try.html#sandbox" if request.htmx else "examples/try.html"
    response = render(request, template, context, status=400 if error else 200)
    if request.htmx and acted is not None:
        response["HX-Push-Url"] = here
    patch_vary_headers(response, ["HX-Request"])
    return response


def table_action(raw: str) -> dict | None:
    """A move made on the sandbox's table: a checked action (core.actions), or None."""
    try:
        return read_action(raw)
    except ActionShapeError:
        return None
