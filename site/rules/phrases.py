"""Sentences for the engine's comparison codes, in the visitor's language.

The engine's metadata says *what* a variant does as stable codes with parameters; this module
only says it in words. A test checks that every code the registry uses has a sentence here.
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

DIMENSION_LABELS = {
    "players": _("Players"),
    "decks": _("Decks and jokers"),
    "cards_per_player": _("Cards per player"),
    "in_front": _("In front of each player"),
    "start": _("How play starts"),
    "legal_move": _("A legal move"),
    "equal_ranks": _("Equal ranks"),
    "stuck": _("When nobody can move"),
    "running_out": _("When a draw pile runs out"),
    "end": _("How a deal and the game end"),
    "scoring": _("Scoring"),
    "options": _("Documented options"),
}

# (dimension, code) -> sentence with %(param)s placeholders from the cell's params.
PHRASES: dict[tuple[str, str], object] = {
    ("decks", "one-deck"): _("One 52-card deck, no jokers."),
    ("decks", "deck-per-player"): _("A full 52-card deck for each player; jokers as an option."),
    ("cards_per_player", "half-deck"): _("%(cards)d cards each: half the deck."),
    ("cards_per_player", "whole-deck"): _("%(cards)d cards each: a whole deck."),
    ("in_front", "draw-pile-and-row-stacked"): _(
        "A face-down draw pile and a play row of %(row)d places; equal ranks are stacked."
    ),
    ("in_front", "hand-stack-and-four-open"): _(
        "A hand stack held in one hand and %(row)d open cards on the table."
    ),
    ("in_front", "draw-pile-and-four-piles-combined"): _(
        "A face-down draw pile and %(row)d open piles; equal cards are combined into one pile."
    ),
    ("start", "both-turn-at-once"): _(
        "Both turn a card from their draw pile into the middle at once: two centre piles."
    ),
    ("start", "both-turn-on-command"): _(
        "Both hold their top card over the middle and turn it on a command."
    ),
    ("start", "count-to-three"): _(
        "Count to three together and put one card each into the middle on three."
    ),
    ("legal_move", "one-card-adjacent-wrap"): _(
        "One card at a time, one rank higher or lower; the ace is both high and low."
    ),
    ("legal_move", "top-or-whole-stack-adjacent"): _(
        "The top card of a pile or the whole pile of equal cards, one rank higher or lower."
    ),
    ("equal_ranks", "slap-first-chooses"): _(
        "Call and slap: the first keeps a centre pile, the other pile goes under the "
        "opponent's draw pile."
    ),
    ("equal_ranks", "slower-takes-both"): _("Call: the slower player takes both centre piles."),
    ("stuck", "both-turn-own-side"): _(
        "Both turn a new card from their draw pile onto the centre pile on their side."
    ),
    ("stuck", "both-ready-then-turn"): _(
        "When both are ready or cannot move, both turn a new card at the same moment."
    ),
    ("stuck", "both-turn-own-right"): _(
        "A new round: both play a card from their draw pile onto the centre pile on their right."
    ),
    ("running_out", "one-turns-alone"): _(
        "Play on from the row; when stuck, only the player who still has a draw pile turns."
    ),
    ("running_out", "opponent-supplies-card"): _(
        "Play on from the open cards; to turn new cards, the opponent lends a face-down card."
    ),
    ("end", "first-out-wins"): _("The first player with no cards left wins."),
    ("scoring", "none"): _("No points: one game, one winner."),
    ("scoring", "loser-cards-option"): _(
        "Optional: the loser's remaining cards are written down as points."
    ),
    ("in_front", "five-piles-and-reserve"): _(
        "Five piles of one to five cards with the top card turned up, and a face-down reserve "
        "of %(reserve)d cards."
    ),
    ("start", "both-turn-reserve"): _(
        "Both say the start word and turn their top reserve card onto their own centre pile."
    ),
    ("legal_move", "top-card-adjacent-turn-fill"): _(
        "A visible top card one rank higher or lower onto a centre pile; or turn up a face-down "
        "top card, or move a top card into an empty space."
    ),
    ("equal_ranks", "no-special-rule"): _("Nothing special happens."),
    ("stuck", "both-turn-reserve-own-pile"): _(
        "Both turn a reserve card onto the pile they started; if only one has a reserve, that "
        "player turns alone, always onto the same pile."
    ),
    ("running_out", "partial-layout-one-pile"): _(
        "With fewer than 16 cards: a partial layout, no reserve and a single centre pile."
    ),
    ("end", "deals-until-out-of-cards"): _(
        "A deal ends when a layout is empty or play locks; both grab a centre pile, usually the "
        "smaller. Whoever has no cards left wins."
    ),
    ("cards_per_player", "piles-of-four"): _(
        "Face-down piles of four: six piles each for two players, four for three, three for "
        "four; four cards lie face up in the middle."
    ),
    ("in_front", "face-down-piles-of-four"): _(
        "Face-down piles of four cards; you hold one pile at a time."
    ),
    ("start", "start-word-all-at-once"): _("Everyone starts at once on the start word."),
    ("legal_move", "lay-then-take-swap"): _(
        "A swap: lay one card face up in the middle, then take one from there."
    ),
    ("equal_ranks", "four-of-a-kind-completes-pile"): _(
        "Four of a rank complete a pile: it is laid aside face up and never changes again."
    ),
    ("stuck", "no-rule-change-pile-or-give-up"): _(
        "No special rule: try another pile or give up a card you wanted."
    ),
    ("running_out", "not-applicable"): _("Does not happen: cards are only swapped."),
    ("end", "win-call-all-piles-complete"): _(
        "The first with four of a kind in every pile makes the win call; calls too close to "
        "tell apart mean a new deal."
    ),
}

# Details that only some variants' cells carry: (param, value) -> an added sentence.
EXTRAS: dict[tuple[str, object], object] = {
    ("jokers", "option"): _("Jokers, if used, fit on any card."),
    ("ace_low_only", "option"): _("Option: the ace is low only."),
    ("stacking", "option"): _("Stacking can be switched off."),
    ("alternative", "slowest-takes-both"): _("Option: the slowest takes both piles."),
    ("alternative", "give-a-card"): _("Option: the other player gives a card."),
    ("slap_pile", "right"): _("Slap the pile on your right."),
    ("tie", "each-takes-right-pile"): _("A dead heat: each takes the pile on their right."),
    ("tie", "fewer-cards-house-default"): _(
        "House default: if both reach one pile at the same moment, the player with fewer cards "
        "left gets it."
    ),
    ("repeat_choice", "option"): _("Option: choose again after a dead heat."),
    ("second_deck", "option"): _("Option: a second deck for five to eight players."),
    ("several_per_grab", "option"): _("Option: several cards per grab."),
    ("five_second_rule", "option"): _("Option: the five-second rule."),
    ("best_of_five", "option"): _("Option: best of five deals."),
    ("knocking", "option"): _("Option: knocking, the hand on top was slower."),
    ("false_call_penalty", "option"): _("Option: a false call costs the caller the piles."),
}


def describe(dimension: str, code: str, params: dict) -> str:
    if dimension == "players":
        return _players(params)
    if dimension == "options":
        return _options(params)
    phrase = PHRASES.get((dimension, code))
    if phrase is None:
        return code
    text = str(phrase) % params if "%(" in str(phrase) else str(phrase)
    extras = [
        str(EXTRAS[(key, value)])
        for key, value in params.items()
        if isinstance(value, str | bool | int) and (key, value) in EXTRAS
    ]
    return " ".join([text, *extras])


def _players(params: dict) -> str:
    low, high = params.get("min"), params.get("max")
    if low == high:
        return ngettext("exactly %(n)d player", "exactly %(n)d players", low) % {"n": low}
    return _("%(low)d to %(high)d players") % {"low": low, "high": high}


def _options(params: dict) -> str:
    count = params.get("count", len(params.get("keys", [])))
    return ngettext("%(n)d option", "%(n)d options", count) % {"n": count}
