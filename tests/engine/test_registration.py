"""A variant is registered in one place: the `register(VariantInfo(...))` call at the end of
its module; the registry, the Game class and the bots all read that one record."""

import importlib

import pytest

from rules_engine import VARIANTS
from rules_engine.bots import candidates
from rules_engine.registry import new_game
from rules_engine.variant import register, registered


def test_the_registry_is_what_the_variant_modules_registered():
    assert registered() == VARIANTS
    for slug, info in VARIANTS.items():
        assert info.game_class.variant is info, slug


def test_a_slug_registers_once():
    with pytest.raises(ValueError, match="registered twice"):
        register(VARIANTS["spit"])


def test_a_variant_binds_its_own_game_class_only():
    stress = VARIANTS["stress-se"].game_class
    with pytest.raises(ValueError, match="game_class"):
        stress.bind(VARIANTS["spit"])
    assert stress.variant is VARIANTS["stress-se"]


@pytest.mark.parametrize("slug", list(VARIANTS))
def test_the_bots_find_their_heuristics_through_the_registration(slug):
    info = VARIANTS[slug]
    if info.bot_module is not None:
        module = importlib.import_module(info.bot_module)
        game = new_game(slug, seed=1)
        assert candidates(game, 0) == module.candidates(game, 0)
    else:
        assert info.family == "speed"  # the Speed games score their own candidates
