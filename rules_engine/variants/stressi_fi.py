"""stressi-fi: Finnish Stressi, Wikibooks variant (source 004, Finnish). Stacks may be
played whole, the slap goes on the right-hand pile, and the source's house rules apply."""

from __future__ import annotations

from rules_engine.cards import full_deck, shuffle
from rules_engine.codes import SharedEvent
from rules_engine.options import OptionSpec
from rules_engine.speed import SpeedEvent, SpeedGame
from rules_engine.speed_fast import accelerated
from rules_engine.variant import VariantInfo, dim, register

OPTIONS = (
    OptionSpec("after_slap_house_rule", "bool", True, source="house"),
    OptionSpec("both_empty_house_rule", "bool", True, source="house"),
    OptionSpec("ace_low_only", "bool", False, source="open"),
)


class StressiFI(SpeedGame):
    stack_at_deal = True

    def _wraps(self) -> bool:
        return not self.options["ace_low_only"]

    def _both_empty_mode(self) -> str:
        return "take-own-side" if self.options["both_empty_house_rule"] else "fewer-cards-wins"

    def _deck(self) -> list[list[str]]:
        deck = full_deck()
        shuffle(self.rng, deck)
        return [deck[:26], deck[26:]]

    def _stress_outcome(self, first: int, pile: int, tie: bool) -> None:
        # The house rule's first check (somebody without open cards and draw pile wins at
        # once) needs no code here: such a player won the moment their last card landed
        # (SpeedGame._settle), before any equal-rank event of that card could start.
        house = self.options["after_slap_house_rule"]
        if tie:
            for s in range(self.players):
                pile_s = self.home_pile(s)
                if self.centre[pile_s]:
                    self._take_centre(s, (pile_s,), mix=True, code=SharedEvent.TOOK, why="tie")
            self._supply_card()
            return
        loser = 1 - first
        if house:
            self._take_centre(loser, (0, 1), mix=True, code=SpeedEvent.PENALTY, why="stress")
            self._supply_card()
        else:
            self._take_centre(loser, (0, 1), mix=False, code=SpeedEvent.PENALTY, why="stress")

    def _supply_card(self) -> None:
        """A player with open cards but no draw pile is handed one face-down card."""
        for s in range(self.players):
            other = 1 - s
            if not self.draws[s] and any(self.rows[s]) and len(self.draws[other]) >= 2:
                self._give_card(other, s)


METADATA = {
    "players": dim("exactly-two", "equipment", min=2, max=2),
    "decks": dim("one-deck", "equipment", decks=1, jokers=0),
    "cards_per_player": dim("half-deck", "deal", cards=26),
    "in_front": dim("draw-pile-and-four-piles-combined", "deal", row=4),
    "start": dim("count-to-three", "start", centre_piles=2),
    "legal_move": dim("top-or-whole-stack-adjacent", "moves", wrap=True,
                      ace_low_only="option"),
    "equal_ranks": dim("slower-takes-both", "equal-ranks", slap_pile="right",
                       tie="each-takes-right-pile"),
    "stuck": dim("both-turn-own-right", "stuck"),
    "running_out": dim("opponent-gives-card", "running-out", both_empty="take-own-right"),
    "end": dim("first-out-wins", "winning"),
    "scoring": dim("none", "winning"),
    "options": dim("option-list", "options", keys=[o.key for o in OPTIONS]),
}

INFO = register(VariantInfo(
    slug="stressi-fi",
    family="speed",
    players_min=2,
    players_max=2,
    decks=1,
    jokers_max=0,
    cards_per_player=26,
    source_file="004_bf2b0f978d35aa12.txt",
    source_language="fi",
    options=OPTIONS,
    metadata=METADATA,
    game_class=accelerated(StressiFI),
    call_word="stressi",
    gesture="slap",
    # Players face each other: seat 0's right hand is over centre-1, seat 1's over centre-0.
    # Every "own side" rule of this variant means the right-hand pile (home_pile) ...
    own_pile_across=True,
    # ... and the slap goes on it alone.
    slap_own_pile_only=True,
    refill_is_action=True,
    whole_stack_plays=True,
    combine_allowed=True,
))
