"""The one-line position notation (Game.notation, position_from_notation): it says exactly
what the position form says, for every variant under every option, and bad text is a
PositionError that names what is wrong."""

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_engine import (
    VARIANTS,
    PositionError,
    game_from_notation,
    game_from_position,
    new_game,
    play_game,
    position_from_notation,
)

DOCS = Path(__file__).resolve().parents[2] / "docs" / "scenarios.md"


def _options(slug):
    specs = VARIANTS[slug].options
    return st.fixed_dictionaries(
        {s.key: st.booleans() if s.type == "bool" else st.sampled_from(s.choices) for s in specs}
    )


@st.composite
def bot_games(draw):
    slug = draw(st.sampled_from(list(VARIANTS)))
    options = draw(_options(slug))
    players = None
    if slug == "james-bond":
        players = draw(st.integers(5, 8) if options["second_deck"] else st.integers(2, 4))
    return slug, options, players, draw(st.integers(0, 10**6))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bot_games())
def test_every_position_of_a_bot_game_round_trips_through_its_notation(case):
    slug, options, players, seed = case
    record = []
    play_game(
        slug,
        seed=seed,
        options=options,
        players=players,
        record=record,
        max_actions=400,
        levels=("learner", "expert"),
    )
    game = new_game(slug, seed=seed, options=options, players=players)
    every = max(1, len(record) // 15)
    for n, entry in enumerate([None, *record]):
        if entry is not None:
            if entry.action is None:
                game.advance(entry.t)
            else:
                game.apply(entry.action)
        if n % every or game.over:
            continue
        text = game.notation()
        assert "\n" not in text
        notated = position_from_notation(text)
        assert (notated.variant, notated.options, notated.position) == (
            slug,
            game.options,
            game.position(),
        ), text
        # Read back, the line sets up what the position form sets up: the same position,
        # which prints the same line (every position a game reaches loads back).
        from_form = game_from_position(slug, game.position(), options=game.options)
        assert game_from_notation(text).notation() == from_form.notation() == text


def _one_option_changed(slug):
    """The defaults, then each option at each of its other values alone (with the players
    the option allows)."""
    cases = [({}, None)]
    for spec in VARIANTS[slug].options:
        values = [True] if spec.type == "bool" else [c for c in spec.choices if c != spec.default]
        cases += [({spec.key: value}, None) for value in values]
    if slug == "james-bond":
        cases = [(o, n) for o, _ in cases for n in ((5, 8) if o.get("second_deck") else (2, 3, 4))]
        cases.append(({"several_per_grab": True, "grab_limit": 3}, 3))
    return cases


@pytest.mark.parametrize(
    ("slug", "options", "players"),
    [(slug, o, n) for slug in VARIANTS for o, n in _one_option_changed(slug)],
)
def test_the_position_taken_at_every_step_of_a_bot_game_loads_back(slug, options, players):
    record = []
    play_game(slug, seed=3, options=options, players=players, record=record, max_actions=500,
              levels=("learner", "club", "expert"))
    game = new_game(slug, seed=3, options=options, players=players)
    for entry in record:
        if entry.action is None:
            game.advance(entry.t)
        else:
            game.apply(entry.action)
        if game.over:
            break
        position = game.position()
        again = game_from_position(slug, position, options=game.options)
        assert again.position() == position, entry
        assert game_from_notation(game.notation()).position() == position, entry


def _doc_examples():
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("## Position notation", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```text\n(.*?)```", section, re.S)
    return [line for block in blocks for line in block.splitlines() if line.strip()]


def test_the_documented_examples_cover_every_variant():
    examples = _doc_examples()
    variants = {line.split()[0].split("[")[0] for line in examples}
    assert variants == set(VARIANTS)


@pytest.mark.parametrize("line", _doc_examples())
def test_each_documented_example_reads_and_prints_back_unchanged(line):
    assert game_from_notation(line).notation() == line


def test_a_notation_reads_like_the_position_it_names():
    game = game_from_position(
        "stress-se",
        {
            "centre": [["3C", "7H"], ["9D", "8S"]],
            "seats": [
                {"draw": ["5C", "6C", "TC"], "row": [["8D"], ["2C"], ["JC"], ["4H"]]},
                {"draw": [], "row": [["QS"], ["3D"], ["KH"], ["5H"]]},
            ],
        },
        options={"slap_penalty": "slowest-takes-both"},
    )
    assert game.notation() == (
        "stress-se[slap_penalty=slowest-takes-both] 3C7H/9D8S "
        "5C6CTC:8D/2C/JC/4H -:QS/3D/KH/5H now=0 seed=0"
    )


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("", "empty notation"),
        ("chess rnbqkbnr/pppppppp", "unknown variant 'chess'"),
        ("stress-se[gentle=very] 3C/9D 5C:8D/2C/JC/4H -:QS/3D/KH/5H now=0 seed=0", "gentle"),
        ("stress-se[gentle=true 3C/9D", "close the bracket"),
        ("stress-se 3C/9D 5C:8D/2C/JC/4H -:QS/3D/KH/5H now=0", "seed= is missing"),
        ("stress-se 3C/9D 5C:8D/2C/JC -:QS/3D/KH/5H now=0 seed=0", "4 piles"),
        ("stress-se 3C/9D 5C:8D/2C/JC/1H -:QS/3D/KH/5H now=0 seed=0", "not a card: '1H'"),
        ("stress-se 3C/9D 5C:8D/2C/JC/4H -:QS/3D/KH/5H now=0 seed=0 colour=red", "colour="),
        ("stress-se 3C/9D 5C:8D/2C/JC/4H now=0 -:QS/3D/KH/5H seed=0", "piles come before"),
        ("stress-se 3C/9D 5C:8D/2C/JC/4H -:QS/3D/KH/5H now=soon seed=0", "now: a whole number"),
        ("stress-se 3C/9D 5C:8D/2C/JC/4H -:QS/3D/KH/5H now=0 now=1 seed=0", "given twice"),
        ("stress-se 3C/9D 5C8D/2C/JC/4H -:QS/3D/KH/5H now=0 seed=0", "seat 0: draw pile, ':'"),
        ("stress-de 3C/9D 5C:8D/2C/JC/4H -:QS/3D/KH/5H now=0 seed=0", "ready= is missing"),
        ("stress-de 3C/9D 5C:8D/2C/JC/4H -:QS/3D/KH/5H ready=2 now=0 seed=0", "ready"),
        ("spit 6H/AD 5S*/-*/-/-/4D*:8C 5H*/4C*/3S*/9S*/JS*:JD now=0 seed=0", "'*' marks"),
        (
            "spit 6H/AD 5S*/-/-/-/4D*:8C 5H*/4C*/3S*/9S*/JS*:JD choices=- now=0 seed=0",
            "one per seat",
        ),
        ("james-bond 4S6H3CJD 4D4C7HKS^:7H:8H:9H:9H 3S3H3D5C now=0 seed=0",
         "piles[:laying[:laid[:gone]]]"),
    ],
)
def test_bad_text_is_a_position_error_that_names_the_problem(text, names):
    with pytest.raises(PositionError, match=re.escape(names)):
        game_from_notation(text)


def test_well_formed_text_of_an_impossible_position_is_the_loaders_position_error():
    # Three seats in a two-player game: the text reads, the position does not load.
    with pytest.raises(PositionError, match="seats"):
        game_from_notation(
            "stress-se 3C/9D 5C:8D/2C/JC/4H -:QS/3D/KH/5H -:2H/2D/2S/2C now=0 seed=0"
        )


def test_not_text_at_all_is_a_position_error():
    with pytest.raises(PositionError):
        position_from_notation(None)
