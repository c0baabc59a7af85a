"""Sentences for the engine's comparison codes, in the visitor's language.

The engine's metadata says *what* a variant does as stable codes with parameters; this module
only says it in words. Every cell is built from whole sentences, each translated as a whole
(never a fragment joined to another), so that every language can word it naturally. A test
checks that every code the registry uses has a sentence here.
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from rules_engine.registry import VARIANTS

DIMENSION_LABELS = {
    "players": _("Players"),
    "decks": _("Decks and jokers"),
    "cards_per_player": _("Cards per player"),
    "in_front": _("In front of each player"),
    "start": _("How play starts"),
    "legal_move": _("A legal move"),
    "equal_ranks": _("Equal tops"),
    "stuck": _("When nobody can move"),
    "running_out": _("When a draw pile runs out"),
    "end": _("How a deal and the game end"),
    "scoring": _("Scoring"),
    "options": _("Options"),
}

# (dimension, code) -> sentence with %(param)s placeholders from the cell's params.
PHRASES: dict[tuple[str, str], object] = {
    ("decks", "one-deck"): _("One 52-card deck, without jokers."),
    ("decks", "deck-per-player"): _(
        "Each player has a full 52-card deck of their own. Jokers are optional."
    ),
    ("cards_per_player", "half-deck"): _("%(cards)d cards each: half the deck."),
    ("cards_per_player", "whole-deck"): _("%(cards)d cards each: a whole deck."),
    ("cards_per_player", "piles-of-four"): _(
        "Face-down piles of four: six each for two players, four each for three, three each "
        "for four. Four cards lie face up in the middle."
    ),
    ("in_front", "draw-pile-and-row-stacked"): _(
        "A face-down draw pile and a play row of %(row)d places; cards of equal rank are "
        "stacked."
    ),
    ("in_front", "hand-stack-and-four-open"): _(
        "A stock held in one hand and a play row of %(row)d open cards, never stacked."
    ),
    ("in_front", "draw-pile-and-four-piles-combined"): _(
        "A face-down draw pile and a play row of %(row)d places; equal cards must be stacked "
        "at the deal and may be stacked during play."
    ),
    ("in_front", "five-piles-and-reserve"): _(
        "Five piles of one to five cards, each with its top card face up, and a face-down "
        "reserve of %(reserve)d cards."
    ),
    ("in_front", "face-down-piles-of-four"): _(
        "Face-down piles of four cards; you hold one pile at a time."
    ),
    ("start", "both-turn-at-once"): _(
        "Both turn a card from their draw pile into the middle at the same moment: two centre "
        "piles."
    ),
    ("start", "both-turn-on-command"): _(
        "Both hold their top card face down over the middle and turn it over when one of them "
        "gives the word."
    ),
    ("start", "count-to-three"): _(
        "Count to three together; on three, each puts a card into the middle."
    ),
    ("start", "both-turn-reserve"): _(
        "Both say “Spit!” and turn their top reserve card onto their own centre pile."
    ),
    ("start", "start-word-all-at-once"): _(
        "One player says the start words, such as “Ready, steady, go!”, and everyone starts "
        "at once."
    ),
    ("legal_move", "one-card-adjacent-wrap"): _(
        "One card at a time, one rank higher or lower; the ace is both high and low."
    ),
    ("legal_move", "top-or-whole-stack-adjacent"): _(
        "The top card of a place or a whole stack, one rank higher or lower; the ace is both "
        "high and low."
    ),
    ("legal_move", "top-card-adjacent-turn-fill"): _(
        "Play a visible top card onto a centre pile, one rank higher or lower (the ace is both "
        "high and low); or turn up a face-down top card; or move a top card into an empty "
        "space."
    ),
    ("legal_move", "lay-then-take-swap"): _(
        "A swap: lay one card face up in the middle, then take one from there."
    ),
    ("equal_ranks", "slap-first-chooses"): _(
        "Call and slap: the pile slapped first stays in the middle; the other goes, shuffled, "
        "under the slower player's draw pile."
    ),
    ("equal_ranks", "slower-takes-both"): _("The slower player takes both centre piles."),
    ("equal_ranks", "no-special-rule"): _("Nothing special happens: play on."),
    ("equal_ranks", "four-of-a-kind-completes-pile"): _(
        "Nothing to call: collecting equal ranks is the goal. Four of a kind make a complete "
        "pile, laid aside face up for good."
    ),
    ("stuck", "both-turn-own-side"): _(
        "Both turn a new card from their draw pile onto the centre pile on their side."
    ),
    ("stuck", "both-ready-then-turn"): _(
        "When nobody can move, or a player prefers not to, both turn a new card from their "
        "stock at the same moment."
    ),
    ("stuck", "both-turn-own-right"): _(
        "A new round: both play a card from their draw pile onto the centre pile on their "
        "right."
    ),
    ("stuck", "both-turn-reserve-own-pile"): _(
        "Both turn a reserve card onto the pile they started; if only one has a reserve, that "
        "player turns alone, always onto the same pile."
    ),
    ("stuck", "no-rule-change-pile-or-give-up"): _(
        "No special rule: try another pile, or give up a card you wanted."
    ),
    ("running_out", "one-turns-alone"): _(
        "Play on from the play row; when play is stuck, only the player who still has a draw "
        "pile turns a card."
    ),
    ("running_out", "takes-from-opponent"): _(
        "Play on from the open cards; to turn new cards, take a face-down card from the "
        "opponent's stock, even their last."
    ),
    ("running_out", "opponent-gives-card"): _(
        "Play on from the open cards. If your draw pile is empty at a new round, after a slap "
        "you won or after a tie, the opponent hands you a face-down card so that you can both "
        "turn a card into the middle at once."
    ),
    ("running_out", "partial-layout-one-pile"): _(
        "Once your reserve is empty, only the other player turns when play is stuck; with both "
        "reserves empty the deal ends. A player with 15 cards or fewer has no reserve, and that "
        "deal uses a single centre pile."
    ),
    ("running_out", "not-applicable"): _("Does not happen: cards are only swapped."),
    ("end", "first-out-wins"): _("The first player with no cards left wins."),
    ("end", "deals-until-out-of-cards"): _(
        "A deal ends when a player has emptied their layout, or when play is stuck with both "
        "reserves empty; both then claim a centre pile, usually the smaller. Whoever has no "
        "cards left wins."
    ),
    ("end", "win-call-all-piles-complete"): _(
        "The first with four of a kind in every pile makes the win call; calls too close to "
        "tell apart mean a new deal."
    ),
    ("scoring", "none"): _("No points: one game, one winner."),
    ("scoring", "loser-cards-option"): _(
        "Option: the loser's remaining cards are written down as points."
    ),
}

# Details that only some variants' cells carry: (param, value) -> one more whole sentence.
EXTRAS: dict[tuple[str, object], object] = {
    ("jokers", "option"): _("Option: jokers, which fit on any card."),
    ("ace_low_only", "option"): _("Option: the ace is low only."),
    ("stacking", "option"): _("Option: no stacking."),
    ("alternative", "slowest-takes-both"): _("Option: the slower player takes both piles."),
    ("alternative", "give-a-card"): _(
        "Option: the player who still has a draw pile gives the other a face-down card."
    ),
    ("tie", "no-penalty"): _("If nobody can tell who was first, nobody takes any cards."),
    ("slap_pile", "right"): _("The call goes with a slap on the pile to your right."),
    ("tie", "each-takes-right-pile"): _(
        "If nobody can tell who was first, each takes the pile on their right."
    ),
    ("both_empty", "take-own-side"): _(
        "If both draw piles are empty and nobody can move, each takes the centre pile on their "
        "side as a new draw pile, and play goes on."
    ),
    ("both_empty", "take-own-right"): _(
        "If both draw piles are empty and nothing fits, each takes the centre pile on their "
        "right as a new draw pile."
    ),
    ("tie", "fewer-cards-house-default"): _(
        "This site's house rule: if both reach for the same pile at the same moment, the player "
        "with fewer cards left gets it."
    ),
    ("repeat_choice", "option"): _("Option: choose again when nobody can tell who was first."),
    ("second_deck", "option"): _("Option: a second deck for five to eight players."),
    ("several_per_grab", "option"): _("Option: several cards per grab."),
    ("five_second_rule", "option"): _("Option: the five-second rule."),
    ("best_of_five", "option"): _("Option: best of five deals."),
    ("knocking", "option"): _("Option: knocking; the hand that ends up on top was slower."),
    ("false_call_penalty", "option"): _("Option: a false call costs the caller the piles."),
}


def describe(dimension: str, code: str, params: dict, slug: str = "") -> str:
    if dimension == "players":
        return _players(params)
    if dimension == "options":
        return _options(params, slug)
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
        return ngettext("%(n)d player.", "%(n)d players.", low) % {"n": low}
    return _("%(low)d to %(high)d players.") % {"low": low, "high": high}


def _options(params: dict, slug: str) -> str:
    keys = params.get("keys", [])
    count = params.get("count", len(keys))
    text = ngettext("%(n)d option.", "%(n)d options.", count) % {"n": count}
    info = VARIANTS.get(slug)
    added = sum(1 for key in keys if info and info.option(key).source == "open")
    if added:
        text += " " + ngettext(
            "Of these, %(n)d is this site's own addition.",
            "Of these, %(n)d are this site's own additions.",
            added,
        ) % {"n": added}
    return text
