"""Bot preferences for spit: scored candidates that rules_engine.bots turns into timed actions.

A strong player turns and uncovers first (a face-down card is a future play), plays cards
that free a face-down card below them, fills spaces (only with a top that has a card
below it: moving a lone card is legal but pointless), and at the end of a deal races for the
smaller centre pile (fewer cards to take back). This module reads the rules
(rules_engine.variants.spit); the rules never import it.
"""

from __future__ import annotations

from rules_engine.actions import Action
from rules_engine.game import CENTRE_INDEX
from rules_engine.variants.spit import PILE_INDEX, SpitGame


def candidates(game: SpitGame, seat: int) -> list[tuple[float, Action]]:
    out: list[tuple[float, Action]] = []
    for action in game.legal_actions(seat):
        kind, args = action.type, action.args
        if kind == "turn":
            score = 5.0
        elif kind == "play":
            pile = game.layout[seat][PILE_INDEX[args["from"]]]
            # Emptying a pile or freeing a face-down card is worth more than a plain play.
            score = 4.0 + (0.5 if len(pile) > 1 else 0.3)
        elif kind == "move":
            if len(game.layout[seat][PILE_INDEX[args["from"]]]) < 2:
                continue  # a lone card into a space uncovers nothing: a pointless move
            score = 3.0
        elif kind == "choose":
            sizes = [len(p) for p in game.centre]
            mine = sizes[CENTRE_INDEX[args["pile"]]]
            score = 4.0 if mine <= min(sizes) else 1.0
        elif kind == "spit":
            # Feed the bigger pile: the smaller one stays worth racing for.
            sizes = [len(p) for p in game.centre]
            mine = sizes[CENTRE_INDEX[args["to"]]]
            score = 3.0 if mine >= max(sizes) else 1.0
        else:
            score = 1.0
        out.append((score, action))
    return out
