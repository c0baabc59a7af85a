"""The rules engine of the Stress card-game family: pure Python, no Django.

The public API is what this package exports (``__all__``); import from here::

    from rules_engine import new_game, Action

    game = new_game("stress-se", players=2, seed=1)
    result = game.apply(Action(t=0, player=0, type="play", args={"card": "5H", "to": "centre-0"}))

The implementation modules (registry, game, actions, driver, ...) stay importable at their
own paths; what is not named here is internal and may change.
"""

from rules_engine import codes
from rules_engine.actions import Action, Event, Result
from rules_engine.bots import Bot, Level
from rules_engine.cards import CardError
from rules_engine.codes import ActionType, Arg, EventCode, Reason, ReasonCode, Vocabulary
from rules_engine.driver import Driver, Entry
from rules_engine.game import SPECTATOR, Game, InvariantError
from rules_engine.notation import Notated
from rules_engine.options import OptionError, OptionSpec
from rules_engine.positions import PositionError
from rules_engine.registry import (
    METADATA_KEYS,
    VARIANTS,
    UnknownVariant,
    game_class,
    game_from_json,
    game_from_notation,
    game_from_position,
    get_variant,
    new_game,
    position_from_notation,
    validate_options,
)
from rules_engine.scenario import Scenario, ScenarioError
from rules_engine.simulate import play_game, simulate
from rules_engine.variant import UiFacts, VariantInfo

__version__ = "0.1.0"

__all__ = [
    "METADATA_KEYS",
    "SPECTATOR",
    "VARIANTS",
    "Action",
    "ActionType",
    "Arg",
    "Bot",
    "CardError",
    "Driver",
    "Entry",
    "Event",
    "EventCode",
    "Game",
    "InvariantError",
    "Level",
    "Notated",
    "OptionError",
    "OptionSpec",
    "PositionError",
    "Reason",
    "ReasonCode",
    "Result",
    "Scenario",
    "ScenarioError",
    "UiFacts",
    "UnknownVariant",
    "VariantInfo",
    "Vocabulary",
    "codes",
    "game_class",
    "game_from_json",
    "game_from_notation",
    "game_from_position",
    "get_variant",
    "new_game",
    "play_game",
    "position_from_notation",
    "simulate",
    "validate_options",
]
