"""stress-de: German Stress with two decks (source 003, German). A whole deck per player,
refilling is the player's own action, and new cards are turned when both are ready."""

from __future__ import annotations

from rules_engine.cards import JOKER, full_deck, shuffle
from rules_engine.options import OptionSpec
from rules_engine.speed import SpeedEvent, SpeedGame
from rules_engine.speed_fast import accelerated
from rules_engine.variant import VariantInfo, dim, register

OPTIONS = (
    OptionSpec("jokers", "int", 0, (0, 2, 3, 4), source="source"),
    OptionSpec("knocking", "bool", False, source="source"),
    OptionSpec("false_call_penalty", "bool", False, source="source"),
    OptionSpec("scoring", "bool", False, source="source"),
    OptionSpec("both_empty_stuck", "choice", "take-own-side",
               ("take-own-side", "fewer-cards-wins"), source="open"),
)


class StressDE(SpeedGame):
    def _jokers_wild(self) -> bool:
        return self.options["jokers"] > 0

    def _exact_tie_only(self) -> bool:
        return self.options["knocking"]

    def _false_call_penalty(self) -> bool:
        return self.options["false_call_penalty"]

    def _lend_last_card(self) -> bool:
        # variants.md: "A player without hand cards takes a face-down card from the
        # opponent's hand stack" when new cards are turned, with no minimum: even the
        # opponent's last card, which the taker then turns alone.
        return True

    def _both_empty_mode(self) -> str:
        return self.options["both_empty_stuck"]

    def _deck(self) -> list[list[str]]:
        hands = [full_deck(), full_deck()]
        for j in range(self.options["jokers"]):
            hands[j % 2].append(JOKER)  # one joker per deck, extras alternate
        for hand in hands:
            shuffle(self.rng, hand)
        return hands

    def _stress_outcome(self, first: int, pile: int, tie: bool) -> None:
        if tie:
            return  # Open default: nobody was slower, nobody pays; new cards are turned.
        self._take_centre(1 - first, (0, 1), mix=True, code=SpeedEvent.PENALTY, why="stress")

    def _score(self) -> None:
        if self.options["scoring"] and self.winner is not None:
            self.scores = [0] * self.players
            for s in range(self.players):
                if s != self.winner:
                    self.scores[s] = self.cards_left(s)


METADATA = {
    "players": dim("exactly-two", "equipment", min=2, max=2),
    "decks": dim("deck-per-player", "equipment", decks=2, jokers=[0, 2, 3, 4]),
    "cards_per_player": dim("whole-deck", "deal", cards=52),
    "in_front": dim("hand-stack-and-four-open", "deal", row=4, stacking=False),
    "start": dim("both-turn-on-command", "start", centre_piles=2),
    "legal_move": dim("one-card-adjacent-wrap", "moves", wrap=True, jokers="option"),
    "equal_ranks": dim("slower-takes-both", "equal-ranks", tie="no-penalty",
                       knocking="option", false_call_penalty="option"),
    "stuck": dim("both-ready-then-turn", "stuck"),
    "running_out": dim("takes-from-opponent", "running-out", both_empty="take-own-side"),
    "end": dim("first-out-wins", "winning"),
    "scoring": dim("loser-cards-option", "winning"),
    "options": dim("option-list", "options", keys=[o.key for o in OPTIONS]),
}

INFO = register(VariantInfo(
    slug="stress-de",
    family="speed",
    players_min=2,
    players_max=2,
    decks=2,
    jokers_max=4,
    cards_per_player=52,
    source_file="003_75a5993c8bc4a73d.txt",
    source_language="de",
    options=OPTIONS,
    metadata=METADATA,
    game_class=accelerated(StressDE),
    call_word="stress",
    gesture="shout",
    refill_is_action=True,
    ready_action=True,
    ui_by_options=lambda options: {"gesture": "knock" if options["knocking"] else "shout"},
))
