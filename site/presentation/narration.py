"""The engine's events told in words, in the page's language.

One sentence per event code (and per variant family where the same code means something
else), in the voice of the step-through examples: "Player 1 plays the seven of hearts onto
centre pile 2." The demo's live region, the step-through viewer of a played game and teacher
mode all narrate through `narrate`; tests/site/test_narration.py walks the engine for every
event code and checks that each has words in every language. Each sentence's cards, places,
players and ranks come in every grammatical form the translation asks for (presentation.wording).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .board import Place, zone_kind
from .endings import draw_event, won_event
from .facts import variant_call_word, variant_defaults
from .wording import (  # noqa: F401  (PlayerWord and player_name are this module's too)
    BLANK,
    Blank,
    CardList,
    CardWord,
    Count,
    PlayerWord,
    RankWord,
    Words,
    player_name,
    score,
    sentence,
)

#: the rank code of a joker (two jokers on top are equal, but a joker is no rank)
JOKER = "X"

#: the words the engine names for a call (James Bond's option, a Speed-type board's word),
#: written as the players shout them, the same in every language.
CALL_WORDS = {
    "james-bond": "James Bond!",
    "stress": "Stress!",
    "stressi": "Stressi!",
    "atlantis": "Atlantis!",
    "chanhassen": "Chanhassen!",
    "lannen-nopein": "Lännen nopein!",
}


def _cards(codes: Iterable[str]) -> CardList:
    return CardList(tuple(codes))


@dataclass(frozen=True)
class Scene:
    """Where the events happen: the variant family (which words fit its events) and the
    variant (whose own words name its places, e.g. German Stress's Handstapel)."""

    family: str
    variant: str = ""


def _zone(zone_id: str | None, scene: Scene) -> Place | Blank:
    """A zone named in a sentence: "centre pile 2", "place 1", German "Ablagestapel 2"."""
    if not zone_id:
        return BLANK
    return Place(zone_id, zone_kind(zone_id, scene.family), scene.variant)


def _call(e: dict, who: PlayerWord, scene: Scene) -> str:
    if scene.family == "swap":
        word = CALL_WORDS.get(e.get("word") or "", e.get("word") or "")
        return _("%(player)s calls “%(word)s”") % Words({"player": who, "word": word})
    pile = _zone(e.get("pile"), scene)
    if e.get("false"):
        return _("%(player)s calls, but the centre piles show different ranks.") % Words(
            {"player": who})
    gesture = e.get("gesture")
    if gesture == "point":
        return _("%(player)s calls and points at %(pile)s.") % Words({"player": who, "pile": pile})
    if gesture == "knock":
        # German Stress's knock: a flat hand over both centre piles, whichever was tapped
        return _("%(player)s calls and brings a flat hand down on the centre piles.") % Words({
            "player": who})
    if gesture == "shout":
        # a call naming no pile (German Stress): each caller is told, the first and, in a
        # tie, the second, so the line says what was called, not who was first
        word = variant_call_word(scene.variant)
        return _("%(player)s calls “%(word)s”") % Words({
            "player": who, "word": CALL_WORDS.get(word, word)})
    return _("%(player)s calls and slaps %(pile)s.") % Words({"player": who, "pile": pile})


def _speed(code: str, e: dict, who: PlayerWord, f: Scene) -> str | None:
    if code == "refilled":
        return _("%(player)s fills %(place)s with the %(card)s.") % Words({
            "player": who, "place": _zone(e.get("to"), f), "card": CardWord(e.get("card"))})
    if code == "stacked":
        return _("%(player)s stacks the %(card)s in %(place)s.") % Words({
            "player": who, "card": CardWord(e.get("card")), "place": _zone(e.get("to"), f)})
    if code == "combined":
        n = e.get("count") or 1
        return ngettext("%(player)s stacks the card from %(from)s onto the matching card in "
                        "%(to)s.",
                        "%(player)s stacks the %(n)s cards from %(from)s onto the matching cards "
                        "in %(to)s.", n) % Words({
            "player": who, "n": Count(n), "from": _zone(e.get("from"), f),
            "to": _zone(e.get("to"), f)})
    if code == "stress":
        rank = Words({"rank": RankWord(e.get("rank"))})
        if e.get("rank") == JOKER:
            return _("Both centre piles show a joker: the first call wins.")
        if e.get("joker"):
            return _("A joker takes the rank of the other top (%(rank)s): the first call "
                     "wins.") % rank
        facts = variant_defaults(f.variant)
        if facts is not None and facts.slap_own_pile_only:
            # Stressi: the word is called with a slap on the caller's own pile, the one on
            # their right; a hand on the other pile wins nothing
            return _("Both centre piles show the same rank (%(rank)s): the first to call "
                     "“%(word)s” and slap the pile on their right wins.") % Words({
                "rank": RankWord(e.get("rank")),
                "word": CALL_WORDS.get(facts.call_word, facts.call_word)})
        # the table's gesture (the event's; an older log's event has none: the variant's)
        gesture = e.get("gesture") or (facts.gesture if facts is not None else "")
        if gesture == "slap":
            # Swedish Stress: the call goes with a hand on a pile, and the first hand decides
            return _("Both centre piles show the same rank (%(rank)s): the first to call and "
                     "slap a pile wins.") % rank
        if gesture == "point":
            # Gentle Stress: a pointing finger instead of a slap
            return _("Both centre piles show the same rank (%(rank)s): the first to call and "
                     "point at a pile wins.") % rank
        # German Stress: a shout or a knock, and the first call decides
        return _("Both centre piles show the same rank (%(rank)s): the first call wins.") % rank
    if code == "tie":
        return _("Both players were equally quick: a tie.")
    if code == "penalty":
        n = e.get("count", 0)
        if e.get("reason") == "false-call":
            return ngettext("%(player)s calls while the tops differ and takes %(n)s card.",
                            "%(player)s calls while the tops differ and takes %(n)s cards.",
                            n) % Words({"player": who, "n": Count(n)})
        return ngettext("%(player)s was slower and takes %(n)s card.",
                        "%(player)s was slower and takes %(n)s cards.", n) % Words({
            "player": who, "n": Count(n)})
    if code == "gave":
        return _("%(player)s gives %(other)s a face-down card.") % Words({
            "player": who, "other": PlayerWord(e.get("to"))})
    if code == "ready":
        return _("%(player)s is ready for new cards.") % Words({"player": who})
    if code == "stuck":
        if e.get("ready"):
            return _("Both players are ready: new cards are turned.")
        return _("Nobody can play: new cards are turned.")
    return None


def _spit(code: str, e: dict, who: PlayerWord, f: Scene) -> str | None:
    if code == "dealt":
        return _("Deal %(n)s is laid out.") % Words({"n": e.get("deal", 1)})
    if code == "uncovered":
        return _("%(player)s turns up the %(card)s on %(pile)s.") % Words({
            "player": who, "card": CardWord(e.get("card")), "pile": _zone(e.get("pile"), f)})
    if code == "moved":
        return _("%(player)s moves the %(card)s into the empty space of "
                 "%(pile)s.") % Words({
            "player": who, "card": CardWord(e.get("card")), "pile": _zone(e.get("to"), f)})
    if code == "stuck":
        return _("Nobody can move: reserve cards are turned.")
    if code == "locked":
        return _("%(player)s chooses %(pile)s for the rest of the deal.") % Words({
            "player": who, "pile": _zone(e.get("pile"), f)})
    if code == "deal-over":
        return _("The deal is over: both reach for a centre pile.")
    if code == "chose":
        return _("%(player)s puts a hand on %(pile)s.") % Words({
            "player": who, "pile": _zone(e.get("pile"), f)})
    if code == "pile-race":
        pile = _zone(e.get("pile"), f)
        if e.get("reason") == "fewer-cards":
            return _("%(player)s has fewer cards left and gets %(pile)s.") % Words({
                "player": who, "pile": pile})
        return _("%(player)s was first and gets %(pile)s.") % Words({"player": who, "pile": pile})
    if code == "choose-again":
        return _("Both hands land at the same moment: choose again.")
    if code == "time-up":
        if e.get("phase") == "reserve-pile":
            seats = e.get("seats") or [0]
            return _("Time is up: %(player)s turns a card onto the pile on their own "
                     "side.") % Words({"player": PlayerWord(seats[0])})
        return _("Time is up: whoever has not chosen takes the pile that is left.")
    return None


def _swap(code: str, e: dict, who: PlayerWord, f: Scene) -> str | None:
    if code == "dealt":
        return ngettext("Deal %(deal)s: %(n)s pile of four each, four cards in the middle.",
                        "Deal %(deal)s: %(n)s piles of four each, four cards in the middle.",
                        e.get("piles", 0)) % {"deal": e.get("deal", 1),
                                              "n": Count(e.get("piles", 0))}
    if code == "picked":
        return _("%(player)s picks up %(pile)s.") % Words({"player": who,
                                                     "pile": _zone(e.get("pile"), f)})
    if code == "put-back":
        pile = _zone(e.get("pile"), f)
        if e.get("cause") == "five-seconds":
            return _("Five seconds without a swap: %(player)s puts %(pile)s back.") % Words({
                "player": who, "pile": pile})
        return _("%(player)s puts %(pile)s back.") % Words({"player": who, "pile": pile})
    if code == "laid":
        return _("%(player)s lays the %(cards)s in the middle.") % Words({
            "player": who, "cards": _cards(e.get("cards") or [])})
    if code == "swapped":
        return _("%(player)s takes the %(cards)s.") % Words({"player": who,
                                                   "cards": _cards(e.get("took") or [])})
    if code == "swap-ended":
        took = e.get("took") or []
        return ngettext("Five seconds without a swap: %(player)s's swap is cut short, "
                        "and the %(cards)s goes into %(pile)s.",
                        "Five seconds without a swap: %(player)s's swap is cut short, "
                        "and the %(cards)s go into %(pile)s.", len(took)) % Words({
            "player": who, "cards": _cards(took), "pile": _zone(e.get("pile"), f)})
    if code == "completed" and e.get("dealt"):
        # Open default: a pile dealt as four of a kind is complete once it is picked up
        return _("%(pile)s was dealt as four of a kind (%(rank)s): %(player)s lays it face "
                 "up.") % Words({"player": who, "pile": _zone(e.get("pile"), f),
                                 "rank": RankWord(e.get("rank"))})
    if code == "completed":
        return _("%(player)s completes %(pile)s with the fourth %(rank)s.") % Words({
            "player": who, "pile": _zone(e.get("pile"), f), "rank": RankWord(e.get("rank"))})
    if code == "stikk":
        return _("%(player)s says “Stikk!”") % Words({"player": who})
    if code == "redeal":
        return _("Two win calls at the same moment: the cards are dealt again.")
    if code == "deal-won":
        return _("%(player)s wins deal %(deal)s (deals won: %(score)s).") % Words({
            "player": who, "deal": e.get("deal", 1), "score": score(e.get("wins") or [])})
    return None


FAMILY_TEXTS: dict[str, Callable[[str, dict, PlayerWord, Scene], str | None]] = {
    "speed": _speed, "spit": _spit, "swap": _swap}


def narrate(event: dict, family: str, variant: str = "") -> str:
    """One event (Event.to_json()) as a sentence in the active language; `variant` (its slug)
    lets a variant's own words name its places."""
    return sentence(_told(event, Scene(family, variant)))


def _told(event: dict, scene: Scene) -> str:
    family = scene.family
    code = event.get("code", "")
    who = PlayerWord(event.get("player"))
    if code == "won":
        return won_event(event.get("reason"), event.get("player"))
    if code == "draw":
        return draw_event(event.get("reason"))
    if code == "call":
        return _call(event, who, scene)
    if code == "turned":
        return _("%(player)s turns the %(card)s onto %(pile)s.") % Words({
            "player": who, "card": CardWord(event.get("card")),
            "pile": _zone(event.get("pile"), scene)})
    if code == "played":
        n = event.get("count") or 1
        values = Words({"player": who, "card": CardWord(event.get("card")),
                        "pile": _zone(event.get("to"), scene), "n": Count(n)})
        if n > 1:
            return _("%(player)s plays a stack of %(n)s (the %(card)s on top) onto "
                     "%(pile)s.") % values
        return _("%(player)s plays the %(card)s onto %(pile)s.") % values
    if code == "took":
        n = event.get("count", 0)
        piles = event.get("piles") or []
        if len(piles) == 1:
            return ngettext("%(player)s takes %(pile)s (%(n)s card).",
                            "%(player)s takes %(pile)s (%(n)s cards).", n) % Words({
                "player": who, "pile": _zone(piles[0], scene), "n": Count(n)})
        if len(piles) > 1:
            return ngettext("%(player)s takes both centre piles (%(n)s card).",
                            "%(player)s takes both centre piles (%(n)s cards).", n) % Words({
                "player": who, "n": Count(n)})
        return ngettext("%(player)s takes %(n)s card from the middle.",
                        "%(player)s takes %(n)s cards from the middle.", n) % Words({
            "player": who, "n": Count(n)})
    text = FAMILY_TEXTS.get(family, _speed)(code, event, who, scene)
    return text if text is not None else ""


def narrate_all(events: Iterable[dict], family: str, variant: str = "") -> list[str]:
    return [text for text in (narrate(e, family, variant) for e in events) if text]
