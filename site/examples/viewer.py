"""The step-through viewer's context, and the viewers a rules page embeds beside its
sections (rendered once per example version); the replay of a played game draws its steps
with the same viewer."""

from functools import lru_cache

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from core.params import parse_natural
from presentation.board import board_view
from presentation.reasons import reason_text

from .library import Example, load_example


def parse_step(raw: str | None, last: int) -> int:
    """?step=N clamped to the example; anything that is not a number means the first step."""
    step = parse_natural(raw)
    return 0 if step is None else min(step, last)


def step_context(
    example: Example,
    index: int,
    lang: str,
    *,
    embedded: bool,
    url: str | None = None,
    try_url: str | None = None,
) -> dict:
    """One step of the viewer. `url` is the viewer's own address (an example's by default;
    a played game's replay passes its own), `try_url` the sandbox's (empty: none)."""
    step = example.steps[index]
    action = step.action.to_json() if step.action else None
    if url is None:
        url = reverse("example", kwargs={"variant": example.variant, "name": example.name})
        try_url = url + "try/" if try_url is None else try_url
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
        "try_url": try_url or "",
        "links": {k: {"step": v, "disabled": v == index} for k, v in links.items()},
        "rule_url": reverse("rules", kwargs={"variant": example.variant})
        + (f"#{example.section}" if example.section else ""),
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
