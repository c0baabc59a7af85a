"""Moves in words: a move as a button names it, as what someone tried to do, and a refused
move as a sentence with the engine's reason; and how a game's call is made (Calling), which
decides the words of a call. Shared by the sandbox, the live table and teacher mode."""

import re
from collections.abc import Mapping
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from presentation.board import Place, zone_kind
from presentation.facts import UiFacts, ui_facts, variant_facts
from presentation.narration import CALL_WORDS, PlayerWord
from presentation.reasons import reason_text
from presentation.wording import (
    BLANK,
    Blank,
    CardList,
    CardWord,
    Verbatim,
    Words,
    WordsSentences,
    sentence,
)
from rules_engine.game import CENTRE_IDS, Game
from rules_engine.registry import VARIANTS
from rules_engine.variants.james_bond import R_ALREADY_HOLDING

# How the engine writes a place: a word, and its number in ASCII digits.
ZONE_ID = re.compile(r"[a-z]+(?:-[0-9]{1,2})?")


@dataclass(frozen=True)
class Calling:
    """How a game's call is made, as the engine has it: the family, the gesture that goes
    with a Speed-type call ("slap", "point", "knock", or "shout": no pile), the call word,
    whether the call goes only on the caller's own pile (Stressi's right-hand pile), and
    whether that pile is the one across (UiFacts.own_pile_across)."""

    family: str = ""
    gesture: str = "slap"
    word: str = ""
    own_pile_only: bool = False
    own_pile_across: bool = False

    def own_pile(self, seat: int) -> str:
        """The centre pile on a seat's own side (a Speed-type game's)."""
        return CENTRE_IDS[1 - seat if self.own_pile_across else seat]

    @classmethod
    def of(cls, game: Game) -> "Calling":
        return cls.of_facts(game.variant.family, ui_facts(game))

    @classmethod
    def of_variant(cls, slug: str, options: Mapping) -> "Calling":
        """The calling of a game of this variant with these options (a stored game's)."""
        facts = variant_facts(slug, options)
        return cls() if facts is None else cls.of_facts(VARIANTS[slug].family, facts)

    @classmethod
    def of_facts(cls, family: str, facts: UiFacts) -> "Calling":
        if family != "speed":
            return cls(family, "", facts.call_word)
        return cls("speed", facts.gesture, facts.call_word, facts.slap_own_pile_only,
                   facts.own_pile_across)


#: Each kind of move in words, twice: as a button names it ("Play the …") and as what
#: someone tried to do ("… cannot play the …"); the two differ in most languages.
MOVE_WORDS: WordsSentences[str, tuple[str, str]] = {
    "play": (gettext_lazy("Play the %(card)s from %(from_ela)s onto %(to)s"),
             pgettext_lazy("tried to", "play the %(card)s from %(from_ela)s onto %(to)s")),
    "play-whole": (gettext_lazy("Play the whole stack from %(from_ela)s (the %(card)s on top) "
                                "onto %(to)s"),
                   pgettext_lazy("tried to", "play the whole stack from %(from_ela)s (the %(card)s "
                                 "on top) onto %(to)s")),
    # A Speed-type call, worded by the gesture the game's rules give it.
    "slap": (gettext_lazy("Call and slap %(pile)s"),
             pgettext_lazy("tried to", "call and slap %(pile)s")),
    "point": (gettext_lazy("Call and point at %(pile)s"),
              pgettext_lazy("tried to", "call and point at %(pile)s")),
    # German Stress's knock goes over both centre piles, whichever one is tapped
    "knock": (gettext_lazy("Call and bring a flat hand down on the centre piles"),
              pgettext_lazy("tried to", "call and bring a flat hand down on the centre piles")),
    "call-word": (gettext_lazy("Call “%(word)s”"), pgettext_lazy("tried to", "call “%(word)s”")),
    "call": (gettext_lazy("Call the win"), pgettext_lazy("tried to", "claim the win")),
    "refill-place": (gettext_lazy("Refill %(place)s"),
                     pgettext_lazy("tried to", "refill %(place)s")),
    "refill": (gettext_lazy("Refill the row"), pgettext_lazy("tried to", "refill the row")),
    "combine": (gettext_lazy("Stack the cards of %(from)s onto %(to)s"),
                pgettext_lazy("tried to", "put the cards of %(from)s onto %(to)s")),
    "ready": (gettext_lazy("Ready to turn new cards"),
              pgettext_lazy("tried to", "ask for new cards")),
    "turn": (gettext_lazy("Turn up the top card of %(pile)s"),
             pgettext_lazy("tried to", "turn up the top card of %(pile)s")),
    "move": (gettext_lazy("Move the top card of %(from)s into the empty space of %(to)s"),
             pgettext_lazy("tried to", "move the top card of %(from)s into the empty space of "
                           "%(to)s")),
    "spit": (gettext_lazy("Turn a reserve card onto %(pile)s"),
             pgettext_lazy("tried to", "turn a reserve card onto %(pile)s")),
    "choose": (gettext_lazy("Claim %(pile)s"), pgettext_lazy("tried to", "claim %(pile)s")),
    "pick": (gettext_lazy("Pick up %(pile)s"), pgettext_lazy("tried to", "pick up %(pile)s")),
    "put-back": (gettext_lazy("Put the held pile back"),
                 pgettext_lazy("tried to", "put the held pile back")),
    "lay": (gettext_lazy("Lay the %(cards)s in the middle"),
            pgettext_lazy("tried to", "lay the %(cards)s in the middle")),
    "take": (gettext_lazy("Take the %(cards)s from the middle"),
             pgettext_lazy("tried to", "take the %(cards)s from the middle")),
}
#: a Speed-type call's gestures that name a pile (a shout names none)
PILE_GESTURES = frozenset({"slap", "point", "knock"})


class UnknownMove(ValueError):
    """A kind of move no sentence says (a request may send anything)."""


def describe(action: dict, zones: Mapping[str, Place | str],
             calling: Calling | None = None) -> str:
    """The move in words, in the page's language, as a button says it. `zones` names the
    places by id (zone_names); a place given only as a caption is named from its id (every
    name in a move is a row place, a centre pile or a pile, whatever the variant). `calling`:
    how this game's call is made (without it, a call on a pile is a slap and a call without
    one the win call). A kind of move no sentence says is told as one this game does not have."""
    try:
        key, words = _move_words(action, zones, calling)
    except UnknownMove:
        return sentence(_("a move this game does not have"))
    return sentence(str(MOVE_WORDS[key][0]) % words)


def tried(action: dict, zones: Mapping[str, Place | str],
          calling: Calling | None = None) -> str:
    """The move as what someone tried to do: the words after "… cannot" (UnknownMove for
    a kind of move no sentence says)."""
    key, words = _move_words(action, zones, calling)
    return str(MOVE_WORDS[key][1]) % words


def refusal(action: dict, reason: str | None, zones: Mapping[str, Place | str],
            calling: Calling | None = None) -> str:
    """A move the engine refused, as one sentence: who tried what, and the engine's reason."""
    player = PlayerWord(action.get("player"))
    held = zones.get(str(action.get("pile")))
    if action.get("type") == "pick" and isinstance(held, Place) and held.kind in ("hand", "held"):
        # a pile asked for while it is in hand: its held-pile caption ("pile 1 (in hand)")
        # would make "tried to pick up pile 1 (in hand)" contradict itself, so it is named
        # as the pile it is on the table
        pile = Place(held.zone_id, "pile", held.variant)
        if reason == R_ALREADY_HOLDING:
            # "… a pile is already in hand" would say the same thing twice
            return sentence(_("%(player)s cannot pick up %(pile)s: it is already in "
                              "hand.") % Words({"player": player, "pile": pile}))
        zones = {**zones, str(action.get("pile")): pile}
    try:
        move = tried(action, zones, calling)
    except UnknownMove:
        return sentence(_("%(player)s tried a move this game does not have, and it did not "
                          "count.") % Words({"player": player}))
    # one frame for every refusal: the reasons read as the cause after the colon
    return sentence(_("%(player)s cannot %(move)s: %(reason)s.") % Words({
        "player": player, "move": move, "reason": reason_text(reason, action.get("type"))}))


def _call_words(action: dict, zone: Place | Blank | Verbatim,
                calling: Calling | None) -> tuple[str, Words]:
    if calling is None:
        return ("slap", Words({"pile": zone})) if action.get("pile") else ("call", Words())
    if calling.family != "speed":
        return "call", Words()
    if action.get("pile") and calling.gesture in PILE_GESTURES:
        return calling.gesture, Words({"pile": zone})
    return "call-word", Words({"word": CALL_WORDS.get(calling.word, calling.word)})


def _move_words(action: dict, zones: Mapping[str, Place | str],
                calling: Calling | None = None) -> tuple[str, Words]:
    """Which sentence says the move, and the words that go into it (UnknownMove for a kind
    of move no sentence says)."""

    def zone(key: str) -> Place | Blank | Verbatim:
        zone_id = action.get(key)
        if not zone_id:
            return BLANK
        name = zones.get(zone_id)
        if isinstance(name, Place):
            return name
        if not ZONE_ID.fullmatch(zone_id):
            return Verbatim(zone_id)  # no game has it: told as sent, not read as a number
        return Place(zone_id, zone_kind(zone_id, ""))

    kind = action["type"]
    if kind == "play":
        return "play-whole" if action.get("whole") is True else kind, Words({
            "card": CardWord(action["card"]), "from": zone("from"), "to": zone("to")})
    if kind == "call":
        return _call_words(action, zone("pile"), calling)
    if kind == "refill":
        return ("refill-place", Words({"place": zone("to")})) if action.get("to") else (
            kind, Words())
    if kind in ("combine", "move"):
        return kind, Words({"from": zone("from"), "to": zone("to")})
    if kind in ("turn", "choose", "pick"):
        return kind, Words({"pile": zone("pile")})
    if kind == "spit":
        return kind, Words({"pile": zone("to")})
    if kind in ("lay", "take"):
        return kind, Words({"cards": CardList(tuple(action.get("cards") or [action.get("card")]))})
    if kind in ("ready", "put-back"):
        return kind, Words()
    raise UnknownMove(kind)


def zone_names(board: dict, seat: int | None = None) -> dict[str, Place]:
    """The places by id as `seat` names them: the centre, then that seat's own zones (seats
    share ids: "pile-1" is one player's held pile and another's face-down one). Without a
    seat, the first seat's."""
    variant = board["variant"]
    names = {z["id"]: Place(z["id"], z["kind"], variant) for z in board["centre"]}
    seats = board["seats"]
    own = seats[seat:seat + 1] if seat is not None and 0 <= seat < len(seats) else seats[:1]
    for z in (z for s in own for z in s["zones"]):
        names.setdefault(z["id"], Place(z["id"], z["kind"], variant))
    for z in (z for s in seats for z in s["zones"]):
        names.setdefault(z["id"], Place(z["id"], z["kind"], variant))
    return names

