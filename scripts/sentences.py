"""Every sentence the site assembles for the game, written out per language for a reader.

The live demo, the step-through viewer of a played game and teacher mode tell each engine
event in a sentence (presentation.narration), and a refused move as "Player 1 cannot ...:
<reason>." (presentation.moves, presentation.reasons). Those sentences
are assembled from pieces at run time, so reading the catalogue is not reading them. This
script plays seeded bot games of every variant under the options that change the words, tries
a set of refused moves at points along the way, and writes every distinct sentence to
docs/sentences/<lang>.txt, grouped by event or reason code and variant:

    .venv/bin/python -m scripts.sentences          # rewrite docs/sentences/*.txt

tests/site/test_sentences.py plays a smaller set of the same games and checks that every
code gets a finished sentence in every language.
"""

from __future__ import annotations

import os
import sys
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("en", "sv", "nb", "de", "fi")
OUT = ROOT / "docs" / "sentences"

# (variant, players, options): every option that changes what is said, at least once.
TABLES: tuple[tuple[str, int, dict], ...] = (
    ("stress-se", 2, {}),
    (
        "stress-se",
        2,
        {
            "gentle": True,
            "stacking": False,
            "slap_penalty": "slowest-takes-both",
            "one_empty_stuck": "give-a-card",
            "both_empty_stuck": "fewer-cards-wins",
        },
    ),
    ("stress-de", 2, {}),
    (
        "stress-de",
        2,
        {
            "jokers": 2,
            "false_call_penalty": True,
            "knocking": True,
            "scoring": True,
            "both_empty_stuck": "fewer-cards-wins",
        },
    ),
    ("stressi-fi", 2, {}),
    (
        "stressi-fi",
        2,
        {"after_slap_house_rule": False, "both_empty_house_rule": False, "ace_low_only": True},
    ),
    ("spit", 2, {}),
    ("spit", 2, {"repeat_choice": True}),
    ("james-bond", 2, {}),
    (
        "james-bond",
        2,
        {
            "say_stikk": True,
            "best_of_five": True,
            "five_second_rule": True,
            "call_word": "atlantis",
        },
    ),
    ("james-bond", 4, {"several_per_grab": True, "grab_limit": 3}),
    ("james-bond", 6, {"second_deck": True, "several_per_grab": True}),
)
SEEDS = 3
PROBE_EVERY = 40  # try the refused moves at every n-th engine call of a game
MAX_ACTIONS = 20000


@dataclass(frozen=True)
class Said:
    """One assembled sentence: what kind (event or refusal), its code, the variant, and the
    sentence in every language (the same event or move told five times)."""

    kind: str
    code: str
    variant: str
    texts: dict[str, str]


def _setup() -> None:
    sys.path.insert(0, str(ROOT / "site"))
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
    import django

    django.setup()


def known_options(slug: str, options: dict) -> dict:
    """The options of a table that this variant's schema has (a renamed option is dropped,
    not an error: the script keeps working while the engine changes)."""
    from rules_engine.registry import VARIANTS

    keys = {spec.key for spec in VARIANTS[slug].options}
    return {k: v for k, v in options.items() if k in keys}


def _hostile(game, seat: int) -> list[dict]:
    """Moves a player may well try that the rules refuse, beyond the offered ones: a call
    now, a second call, a move of a card that is not there, a play from the draw pile. Only
    moves the page could send: the variant's own action types with their own arguments, from
    places its table has (a refusal of a move no page sends tells a reader nothing)."""
    types = {str(t): t for t in game.variant.action_types}
    places = {zone["id"] for zone in game.board(None)["seats"][seat]["zones"]}
    return [
        action for action in _tempting(seat)
        if action["type"] in types
        and set(action) - {"player", "type"} <= set(types[action["type"]].args)
        and ("from" not in action or action["from"] in places)
    ]


def _tempting(seat: int) -> list[dict]:
    return [
        {"player": seat, "type": "call"},
        {"player": seat, "type": "call", "pile": "centre-0"},
        {"player": seat, "type": "call", "word": "stress"},
        {"player": seat, "type": "ready"},
        {"player": seat, "type": "refill"},
        {"player": seat, "type": "put-back"},
        {"player": seat, "type": "pick", "pile": "pile-1"},
        {"player": seat, "type": "take", "card": "AS"},
        {"player": seat, "type": "lay", "card": "AS"},
        {"player": seat, "type": "turn", "pile": "pile-1"},
        {"player": seat, "type": "spit", "to": "centre-0"},
        {"player": seat, "type": "choose", "pile": "centre-0"},
        {"player": seat, "type": "play", "card": "AS", "from": "draw", "to": "centre-0"},
    ]


def _in_every_language(tell) -> dict[str, str]:
    from django.utils import translation

    texts = {}
    for lang in LANGS:
        with translation.override(lang):
            texts[lang] = str(tell())
    return texts


def refusals(game, slug: str) -> Iterator[Said]:
    """Every move offered or tempting at this moment that the engine refuses, told."""
    from examples.sandbox import STEP_MS, attempts
    from presentation.moves import Calling, refusal, zone_names
    from rules_engine.actions import Action

    calling = Calling.of(game)
    t = game.now + STEP_MS
    for seat in range(len(game.board(None)["seats"])):
        zones = zone_names(game.board(None), seat)
        for action in [*attempts(game, seat), *_hostile(game, seat)]:
            try:
                result = game.copy().apply(Action.from_json({**action, "t": t}))
            except (TypeError, ValueError):
                continue
            if result.accepted:
                continue
            yield Said(
                "refusal",
                result.reason or "",
                slug,
                _in_every_language(
                    lambda a=action, r=result.reason, z=zones: refusal(a, r, z, calling)
                ),
            )


def play(
    slug: str, players: int, options: dict, seed: int, max_calls: int = MAX_ACTIONS
) -> Iterator[Said]:
    """One seeded bot game: every event told, every refused bot move told, and the refused
    moves tried at regular points."""
    from presentation.moves import Calling, refusal, zone_names
    from presentation.narration import narrate
    from rules_engine.driver import Driver

    driver = Driver.new(
        slug, ["learner"] * players, options=known_options(slug, options), seed=seed, record=[]
    )
    family = driver.game.variant.family
    calling = Calling.of(driver.game)
    calls = 0
    while not driver.game.over and calls < max_calls:
        entry = driver.step()
        if entry is None:
            break
        calls += 1
        for event in entry.events:
            data = event.to_json()
            yield Said(
                "event",
                data["code"],
                slug,
                _in_every_language(lambda d=data: narrate(d, family, slug)),
            )
        if entry.action is not None and entry.reason is not None:
            action = entry.action.to_json()
            # the places keep their names through a game, so the board after the refused
            # move names them as the player saw them
            zones = zone_names(driver.game.board(None), action.get("player"))
            yield Said(
                "refusal",
                entry.reason,
                slug,
                _in_every_language(
                    lambda a=action, r=entry.reason, z=zones: refusal(a, r, z, calling)
                ),
            )
        if calls % PROBE_EVERY == 1:
            yield from refusals(driver.game, slug)
    if driver.game.over:
        yield from refusals(driver.game, slug)


def collect(tables=TABLES, seeds: int = SEEDS, max_calls: int = MAX_ACTIONS) -> list[Said]:
    said: list[Said] = []
    for slug, players, options in tables:
        for seed in range(seeds):
            said.extend(play(slug, players, options, seed, max_calls))
    return said


def write(said: list[Said], out: Path = OUT) -> None:
    from django.utils import translation

    from core.catalogue import variant_entry

    out.mkdir(parents=True, exist_ok=True)
    for lang in LANGS:
        groups: dict[tuple[str, str], dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        for s in said:
            groups[(s.kind, s.code)][s.variant].add(s.texts[lang])
        total = sum(len(v) for g in groups.values() for v in g.values())
        with translation.override(lang):
            names = {slug: variant_entry(slug, lang).name for slug in {s.variant for s in said}}
        lines = [
            f"# Every sentence assembled for seeded bot games and refused moves ({lang})",
            "#",
            "# Written by scripts/sentences.py: do not edit by hand. Grouped by event or",
            "# refusal code, then by variant; each distinct sentence once.",
            f"# {total} distinct sentences.",
        ]
        for kind in ("event", "refusal"):
            lines += ["", f"## {'Events' if kind == 'event' else 'Refused moves'}"]
            for (k, code), by_variant in sorted(groups.items()):
                if k != kind:
                    continue
                lines += ["", f"### {code}"]
                for slug in sorted(by_variant):
                    lines.append(f"#### {names[slug]} ({slug})")
                    lines += [f"- {text}" for text in sorted(by_variant[slug])]
        (out / f"{lang}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    _setup()
    said = collect()
    write(said)
    print(f"{len(said)} sentences told, written to {OUT.relative_to(ROOT)}/")


if __name__ == "__main__":
    main()
