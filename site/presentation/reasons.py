"""The engine's rejection reasons in words: the engine decides, the site only translates."""

from django.utils.translation import gettext_lazy as _

REASONS = {
    "already-called": _("they have already called"),
    "already-chose": _("nobody chooses a pile twice"),
    "already-ready": _("asking once is enough"),
    # a move of this game sent with arguments it does not take
    "bad-action": _("that is not how that move is made"),
    "bad-player": _("there is no such player"),
    "bad-zone": _("that is the wrong place for it"),
    "empty-pile": _("that pile is empty"),
    "equal-rank": _("a card never goes on another of the same rank"),
    "face-down": _("that card is face down"),
    "frozen": _("both centre piles show the same rank, so someone has to call first"),
    "game-over": _("the game is already over"),
    "nothing-to-refill": _("there is nothing to refill"),
    "not-adjacent": _("the card is not one rank higher or lower than the top card"),
    "not-allowed": _("the rules do not allow that here"),
    "not-empty": _("that space is not empty"),
    "not-equal": _("the two centre piles show different ranks"),
    "not-face-down": _("that card is already face up"),
    "not-now": _("that is not possible right now"),
    "not-top": _("only the top card can be played"),
    "no-reserve-turn": _("only the player with a reserve turns a card now"),
    "not-your-card": _("that card belongs to someone else"),
    "no-stress": _("the centre piles show different ranks, so there is nothing to call"),
    "no-such-card": _("that card is not there"),
    "out-of-order": _("that move arrived out of order; moves count in the order they were made"),
    "pile-not-used": _("that centre pile is not in use in this deal"),
    "too-slow": _("someone else got there first"),
    "unknown-action": _("that is not a move in this game"),
    "already-holding": _("another pile is in hand and has to go back first"),
    "not-holding": _("no pile is in hand"),
    "pile-complete": _("a complete pile never changes again"),
    "just-put-back": _("that pile has just gone back, so another one has to be picked up first"),
    "swap-unfinished": _("the swap is not finished until a card is taken from the middle"),
    "too-many": _("that is more cards than one grab allows"),
    "not-in-hand": _("that card is not in the held pile"),
    "nothing-to-take": _("there is nothing in the middle that may be taken"),
    "lay-first": _("a card has to be laid in the middle before one is taken"),
    "wrong-count": _("as many cards must be taken as were laid"),
    "not-in-middle": _("that card is not in the middle"),
    "cannot-take-back": _("a card just laid cannot be taken straight back"),
    "not-complete": _("not every pile is four of a kind yet"),
    "wrong-word": _("that is not the call word agreed for this game"),
    # the driver's, not the engine's: the countdown to the start signal is running
    "wait-signal": _("nobody plays before the signal says “go”"),
}


#: A reason said more precisely for one kind of move: a card played onto a pile whose top
#: changed before it landed lost a race (the engine's "too slow"); it broke no rule.
MOVE_REASONS = {
    ("play", "too-slow"): _("another card got there first"),
    # a card is played from one's own open cards onto a centre pile, never from or onto
    # anything else (the draw pile, the other player's cards): one reason for either end
    # "not-allowed": a move this game, with its options, does not have at all
    ("play", "not-allowed"): _("in this game a stack is never played whole"),
    ("refill", "not-allowed"): _("in this game the play row refills itself"),
    ("combine", "not-allowed"): _("in this game the cards of two places are never stacked "
                                  "together"),
    ("ready", "not-allowed"): _("in this game new cards come without asking, as soon as "
                                "nobody can play"),
    ("play", "bad-zone"): _("only a player's own open cards go onto the centre piles"),
    # "not-now" said for what is going on instead: in Spit, play waits while a centre pile
    # is chosen; in James Bond, everything but a call waits once a valid win call is made
    ("play", "not-now"): _("play waits while a centre pile is being chosen"),
    ("turn", "not-now"): _("play waits while a centre pile is being chosen"),
    ("move", "not-now"): _("play waits while a centre pile is being chosen"),
    ("spit", "not-now"): _("a reserve card goes onto a chosen pile only when play is stuck "
                           "and the other reserve is empty"),
    ("choose", "not-now"): _("the centre piles are claimed only when a deal ends"),
    ("pick", "not-now"): _("someone has called, and the deal is over"),
    ("put-back", "not-now"): _("someone has called, and the deal is over"),
    ("lay", "not-now"): _("someone has called, and the deal is over"),
    ("take", "not-now"): _("someone has called, and the deal is over"),
}


def reason_text(code: str | None, move: str | None = None) -> str:
    """The engine's reason in words; `move`, the refused action's type, where the reason
    reads more precisely for it."""
    if code is None:
        return ""
    text = MOVE_REASONS.get((move, code)) or REASONS.get(code, REASONS["not-allowed"])
    return str(text)
