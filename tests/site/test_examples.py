import json
import re
import subprocess
import sys

import pytest
from django.utils import translation
from django.utils.translation import gettext as _

from examples.library import examples_dir, examples_for, load_example
from presentation.moves import refusal
from presentation.reasons import REASONS, reason_text
from rules.rulebook import load_rulebook
from rules_engine.registry import VARIANTS

from .pages import LANGS

EXAMPLES = [(slug, e.name) for slug in VARIANTS for e in examples_for(slug)]


def test_there_are_examples():
    assert EXAMPLES


def test_every_example_replays_through_the_cli():
    files = [str(p) for slug in VARIANTS for p in sorted(examples_dir(slug).glob("*.json"))]
    done = subprocess.run(
        [sys.executable, "-m", "rules_engine", "replay", *files],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]


@pytest.mark.parametrize(("slug", "name"), EXAMPLES)
def test_example_is_narrated_in_every_language_and_linked(slug, name):
    example = load_example(slug, name)
    assert example.failures == ()
    for lang in LANGS:
        assert example.title(lang) and example.titles.get(lang)
        for index in range(len(example.steps)):
            texts = example.intro if index == 0 else example.steps[index].say
            assert texts and texts.get(lang), (name, index, lang)
        assert example.section in load_rulebook(slug, lang).all_anchors()


@pytest.mark.parametrize(("slug", "name"), EXAMPLES)
def test_every_step_renders_as_page_and_fragment(client, slug, name):
    example = load_example(slug, name)
    for index in range(example.last + 1):
        url = f"/de/{slug}/examples/{name}/?step={index}"
        page = client.get(url)
        assert page.status_code == 200
        assert "<html" in page.text
        fragment = client.get(url, headers={"hx-request": "true"})
        assert fragment.status_code == 200
        assert "<html" not in fragment.text
        assert 'class="board"' in fragment.text
        assert "HX-Request" in fragment["Vary"]


@pytest.mark.parametrize(("raw", "expected"), [("-3", 0), ("abc", 0), ("999", "last"), ("", 0)])
def test_step_out_of_range_is_clamped(client, raw, expected):
    slug, name = EXAMPLES[0]
    example = load_example(slug, name)
    response = client.get(f"/en/{slug}/examples/{name}/?step={raw}")
    assert response.status_code == 200
    if expected == "last":
        assert f"Step {example.last} of {example.last}" in response.text
    else:
        assert f"Starting position ({example.last} steps)" in response.text


COUNTER = re.compile(r'<p class="example-viewer__counter"[^>]*>([^<]*)</p>')


@pytest.mark.parametrize("lang", LANGS)
def test_the_counter_names_the_starting_position_and_counts_moves_from_one(client, lang):
    # "Step 0 of 3" before the first move: nobody counts from zero.
    slug, name = EXAMPLES[0]
    last = load_example(slug, name).last
    url = f"/{lang}/{slug}/examples/{name}/?step="
    counters = [COUNTER.search(client.get(url + str(n)).text).group(1) for n in (0, 1, last)]
    assert [re.findall(r"\d+", c) for c in counters] == [[str(last)], ["1", str(last)],
                                                          [str(last), str(last)]]


def test_unknown_example_is_404(client):
    assert client.get("/en/stress-se/examples/no-such-example/").status_code == 404
    assert client.get("/en/stress-se/examples/..%2Fsv/").status_code == 404


def test_rejected_step_shows_the_translated_reason(client):
    for slug, name in EXAMPLES:
        example = load_example(slug, name)
        for step in example.steps:
            if step.result is not None and not step.result.accepted:
                text = client.get(
                    f"/en/{slug}/examples/{name}/?step={step.index}"
                ).text
                assert 'class="rejected"' in text
                return
    pytest.skip("no example shows a rejected action yet")


def test_examples_stand_beside_their_sections(client):
    slug, name = EXAMPLES[0]
    example = load_example(slug, name)
    text = client.get(f"/sv/{slug}/").text
    assert f'id="ex-{name}"' in text
    assert json.dumps(example.section)[1:-1] in text


def test_every_engine_reason_code_has_words():
    import importlib
    import pkgutil

    import rules_engine

    codes = set()
    for module_info in pkgutil.walk_packages(rules_engine.__path__, "rules_engine."):
        if module_info.name.endswith("__main__"):
            continue
        module = importlib.import_module(module_info.name)
        codes |= {v for k, v in vars(module).items() if k.startswith("R_") and isinstance(v, str)}
    assert codes, "found no reason codes"
    assert codes <= set(REASONS), sorted(codes - set(REASONS))


@pytest.mark.parametrize("lang", LANGS)
def test_a_reason_in_its_frame_reads_with_at_most_one_colon(lang):
    # "Not played: too slow: someone ..." glued two clauses with two colons.
    with translation.override(lang):
        lines = [
            line
            for code in REASONS
            for line in (_("That did not count: %(reason)s.") % {"reason": reason_text(code)},
                         f"{_('It did not count:')} {reason_text(code)}",
                         refusal({"type": "call", "player": 0}, code, {}))
        ]
    # (German sets the reason off with a dash: a full sentence after a colon would need a capital)
    assert [line for line in lines if line.count(":") > 1] == []


def test_english_reasons_use_the_perfect_for_what_has_just_happened():
    simple_past = re.compile(r"\b(was|were) (just|already)\b|\byou just\b|\balready ready\b")
    with translation.override("en"):
        assert [c for c in REASONS if simple_past.search(reason_text(c))] == []


@pytest.mark.parametrize("slug", list(VARIANTS))
def test_every_section_that_describes_play_has_an_example(slug):
    from rules.rulebook import SPECIAL_SECTION

    wanted = ["deal", "start", "moves", SPECIAL_SECTION[VARIANTS[slug].family], "stuck",
              "running-out", "winning"]
    shown = {example.section for example in examples_for(slug)}
    assert [s for s in wanted if s not in shown] == []


@pytest.mark.parametrize("slug", list(VARIANTS))
def test_every_option_has_an_example(slug):
    shown = {example.section for example in examples_for(slug)}
    options = {f"opt-{spec.key}" for spec in VARIANTS[slug].options}
    assert options - shown == set()
