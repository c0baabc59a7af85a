"""The step-through viewer: one example, one step, as a page or as an htmx fragment."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_vary_headers

from core.catalogue import variant_or_404
from core.glossary import current_lang

from .board import board_view
from .library import Example, load_example
from .reasons import reason_text


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


def example_page(request: HttpRequest, variant: str, name: str) -> HttpResponse:
    lang = current_lang()
    entry = variant_or_404(variant, lang)
    example = load_example(variant, name)
    if example is None:
        raise Http404(name)
    index = parse_step(request.GET.get("step"), example.last)
    embedded = request.GET.get("embedded") == "1"
    context = {"entry": entry, **step_context(example, index, lang, embedded=embedded)}
    template = "examples/page.html#viewer" if request.htmx else "examples/page.html"
    response = render(request, template, context)
    patch_vary_headers(response, ["HX-Request"])
    return response
