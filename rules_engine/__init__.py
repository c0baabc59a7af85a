"""The rules engine of the Stress card-game family: pure Python, no Django.

Entry points: rules_engine.registry (VARIANTS, new_game, game_from_position),
rules_engine.game.Game, rules_engine.scenario, rules_engine.bots.
"""

__version__ = "0.1.0"
