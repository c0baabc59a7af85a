"""stress-se: Swedish Stress (source 000, Swedish). One deck, 26 cards each, auto refill."""

from __future__ import annotations

from rules_engine.cards import full_deck, shuffle
from rules_engine.options import OptionSpec
from rules_engine.speed import SpeedEvent, SpeedGame
from rules_engine.speed_fast import accelerated
from rules_engine.variant import VariantInfo, dim, register

OPTIONS = (
    OptionSpec("stacking", "bool", True, source="source"),
    OptionSpec("slap_penalty", "choice", "first-chooses",
               ("first-chooses", "slowest-takes-both"), source="source"),
    OptionSpec("one_empty_stuck", "choice", "one-turns", ("one-turns", "give-a-card"),
               source="source"),
    OptionSpec("both_empty_stuck", "choice", "take-own-side",
               ("take-own-side", "fewer-cards-wins"), source="open"),
    OptionSpec("gentle", "bool", False, source="source"),
)


class StressSE(SpeedGame):
    def _stacking(self) -> bool:
        return self.options["stacking"]

    def _one_empty_mode(self) -> str:
        return self.options["one_empty_stuck"]

    def _both_empty_mode(self) -> str:
        return self.options["both_empty_stuck"]

    def _call_pile(self, seat: int) -> int:
        # The slapped pile stays in the middle and the other goes to the opponent: slap the
        # smaller one so the opponent gets the bigger.
        a, b = len(self.centre[0]), len(self.centre[1])
        return 0 if a <= b else 1

    def _deck(self) -> list[list[str]]:
        deck = full_deck()
        shuffle(self.rng, deck)
        return [deck[:26], deck[26:]]

    def _stress_outcome(self, first: int, pile: int, tie: bool) -> None:
        if tie:
            return  # Open default: a true tie costs nobody anything; new cards are turned.
        loser = 1 - first
        if self.options["slap_penalty"] == "first-chooses":
            # The slapped pile stays; the other one goes under the opponent's draw pile.
            piles: tuple[int, ...] = (1 - pile,)
        else:
            piles = (0, 1)
        self._take_centre(loser, piles, mix=False, code=SpeedEvent.PENALTY, why="stress")


METADATA = {
    "players": dim("exactly-two", "equipment", min=2, max=2),
    "decks": dim("one-deck", "equipment", decks=1, jokers=0),
    "cards_per_player": dim("half-deck", "deal", cards=26),
    "in_front": dim("draw-pile-and-row-stacked", "deal", row=4, stacking="option"),
    "start": dim("both-turn-at-once", "start", centre_piles=2),
    "legal_move": dim("one-card-adjacent-wrap", "moves", wrap=True),
    "equal_ranks": dim("slap-first-chooses", "equal-ranks",
                       alternative="slowest-takes-both", tie="no-penalty"),
    "stuck": dim("both-turn-own-side", "stuck"),
    "running_out": dim("one-turns-alone", "running-out", alternative="give-a-card",
                       both_empty="take-own-side"),
    "end": dim("first-out-wins", "winning"),
    "scoring": dim("none", "winning"),
    "options": dim("option-list", "options", keys=[o.key for o in OPTIONS]),
}

INFO = register(VariantInfo(
    slug="stress-se",
    family="speed",
    players_min=2,
    players_max=2,
    decks=1,
    jokers_max=0,
    cards_per_player=26,
    source_file="000_aca2bf3adec065e3.txt",
    source_language="sv",
    options=OPTIONS,
    metadata=METADATA,
    game_class=accelerated(StressSE),
    call_word="stress",
    gesture="slap",
    # Snäll Stress changes the gesture on the sheet, never the mechanics.
    ui_by_options=lambda options: {"gesture": "point" if options["gentle"] else "slap"},
))
