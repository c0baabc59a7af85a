""""Try it": the visitor makes the next moves from any step of an example.

The sandbox keeps no state on the server. Its position is the example's first N steps plus
the visitor's accepted moves, written in the URL as "seat:index" pairs, where the index points
into the list of attempts offered in that position. The engine judges every attempt: the site
offers legal moves and plausible illegal ones alike, and shows the engine's verdict.
"""

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from core.params import parse_natural
from presentation.board import Place, zone_kind
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
from rules_engine.actions import Action, Result
from rules_engine.game import Game
from rules_engine.options import OptionError
from rules_engine.registry import UnknownVariant, new_game
from rules_engine.scenario import STEP_KEYS, load
from rules_engine.speed import CENTRE_IDS

from .library import Example, examples_dir

# The most own moves a sandbox URL carries (the page states it; at the limit it offers no
# further move, so no button ever leads to a URL parse_moves refuses).
MAX_MOVES = 200
# How the engine writes a place: a word, and its number in ASCII digits.
ZONE_ID = re.compile(r"[a-z]+(?:-[0-9]{1,2})?")
STEP_MS = 600  # the visitor's moves come this far apart: no race they did not ask for


class SandboxError(ValueError):
    """A sandbox URL that does not describe a reachable position."""


@dataclass(frozen=True)
class Calling:
    """How a game's call is made, as the engine has it: the family, the gesture that goes
    with a Speed-type call ("slap", "point", "knock", or "shout": no pile), the call word, and
    whether the call goes only on the caller's own pile (Stressi's right-hand pile)."""

    family: str = ""
    gesture: str = "slap"
    word: str = ""
    own_pile_only: bool = False

    @classmethod
    def of(cls, game: Game) -> "Calling":
        board = game.board(None)
        word = board.get("call_word") or ""
        if game.variant.family != "speed":
            return cls(game.variant.family, "", word)
        equal = game.variant.metadata.get("equal_ranks", {}).get("params", {})
        return cls("speed", getattr(game, "gesture", "slap"), word,
                   equal.get("slap_pile") == "right")

    @classmethod
    def of_variant(cls, slug: str, options: Mapping) -> "Calling":
        """The calling of a game of this variant with these options (a stored game's)."""
        return _calling_of(slug, json.dumps(dict(options), sort_keys=True))


@lru_cache(maxsize=64)
def _calling_of(slug: str, options: str) -> Calling:
    try:
        game = new_game(slug, options=json.loads(options))
    except (UnknownVariant, OptionError):
        return Calling()
    return Calling.of(game)


def _call_offer(game: Game, calling: Calling, action: dict) -> dict:
    """A call as the sandbox offers it: James Bond's with the game's call word; a Speed-type
    call without a pile where the gesture names none, on the caller's own pile (the engine's
    home pile) where only that one counts."""
    if calling.family == "swap":  # the call with the game's word, as the engine lists it
        return {"word": calling.word, **action} if calling.word else action
    if calling.gesture == "shout":
        return {k: v for k, v in action.items() if k != "pile"}
    if calling.own_pile_only:
        return {**action, "pile": CENTRE_IDS[game.home_pile(action["player"])]}  # type: ignore[attr-defined]
    return action


@dataclass(frozen=True)
class Attempt:
    index: int
    action: dict
    text: str


def game_at_step(example: Example, step: int) -> Game:
    scenario = load(examples_dir(example.variant) / f"{example.name}.json")
    game = scenario.new_game(debug=False)
    for raw in scenario.steps[:step]:
        if "advance" in raw:
            game.advance(raw["advance"])
        else:
            game.apply(Action.from_json({k: v for k, v in raw.items() if k not in STEP_KEYS}))
    return game


def attempts(game: Game, seat: int) -> list[dict]:
    """Every move the visitor may try for a seat: the legal ones first, then the tempting."""
    board = game.board(None)
    calling = Calling.of(game)
    found: dict[str, dict] = {}

    def offer(action: dict) -> None:
        if action["type"] == "call":
            action = _call_offer(game, calling, action)
        found.setdefault(json.dumps(action, sort_keys=True), action)

    for action in game.legal_actions(seat):
        data = action.to_json()
        data.pop("t", None)
        data.pop("onto", None)  # the engine judges the pile as it is when the move lands
        offer(data)
    centre = [z for z in board["centre"] if z["kind"] == "centre"]
    for zone in board["seats"][seat]["zones"]:
        top = zone["cards"][-1] if zone["cards"] else None
        if zone["kind"] in ("row", "layout") and top and top["up"]:
            for pile in centre:
                offer({"player": seat, "type": "play", "card": top["card"],
                       "from": zone["id"], "to": pile["id"]})
        if zone["kind"] == "hand":
            for card in zone["cards"]:
                offer({"player": seat, "type": "lay", "card": card["card"]})
    for zone in board["centre"]:
        if zone["kind"] == "middle":
            for card in zone["cards"]:
                offer({"player": seat, "type": "take", "card": card["card"]})
    if game.variant.family == "speed":
        for pile in centre:
            offer({"player": seat, "type": "call", "pile": pile["id"]})
    elif game.variant.family == "swap":
        offer({"player": seat, "type": "call"})
    # Last (so that earlier indices keep their meaning): everything else a card dragged on
    # the table can ask for, e.g. a top card into any empty space, not only the first.
    zones = board["seats"][seat]["zones"]
    spaces = [z["id"] for z in zones if z["kind"] == "layout" and not z["cards"]]
    for zone in zones:
        top = zone["cards"][-1] if zone["cards"] else None
        if zone["kind"] == "layout" and top and top["up"]:
            for space in spaces:
                offer({"player": seat, "type": "move", "card": top["card"], "from": zone["id"],
                       "to": space})
    return list(found.values())


def _plain(action: dict) -> str:
    """An action as the sandbox compares it: without time, the aimed-at top, or false flags."""
    data = {k: v for k, v in action.items() if k not in ("t", "onto") and v is not False}
    return json.dumps(data, sort_keys=True)


def find_attempt(game: Game, seat: int, action: dict) -> int | None:
    """The index of a move made on the table itself among the moves offered: the offer it
    spells, or else the offer that leaves the game in the same state (a call without a pile
    is the call on the engine's default pile; a call on a pile where the game's call names
    none, or only the caller's own, is the call the game offers). None: no offered move does
    what it does."""
    offers = attempts(game, seat)
    action = {**action, "player": seat}
    if action.get("type") == "call":  # a tap on either pile is the call the game offers
        action = _call_offer(game, Calling.of(game), action)
    wanted = _plain(action)
    for index, offer in enumerate(offers):
        if _plain(offer) == wanted:
            return index
    t = game.now + STEP_MS
    mine = game.copy()
    if not mine.apply(Action.from_json({**action, "t": t, "player": seat})).accepted:
        return None
    after = mine.to_json()
    for index, offer in enumerate(offers):
        other = game.copy()
        if other.apply(Action.from_json({**offer, "t": t})).accepted and other.to_json() == after:
            return index
    return None


def parse_moves(raw: str) -> list[tuple[int, int]]:
    """The visitor's moves from the URL: at most MAX_MOVES "seat:index" pairs."""
    if not raw:
        return []
    parts = raw.split(",", MAX_MOVES)
    if len(parts) > MAX_MOVES:
        raise SandboxError("too many moves")
    moves = []
    for part in parts:
        seat, sep, index = part.partition(":")
        seat_number, index_number = parse_natural(seat), parse_natural(index)
        if not sep or seat_number is None or index_number is None:
            raise SandboxError(part[:20])
        moves.append((seat_number, index_number))
    return moves


def format_moves(moves: list[tuple[int, int]]) -> str:
    return ",".join(f"{seat}:{index}" for seat, index in moves)


def attempt(game: Game, seat: int, index: int) -> tuple[dict, Result]:
    if not 0 <= seat < game.players:
        raise SandboxError(seat)
    options = attempts(game, seat)
    if not 0 <= index < len(options):
        raise SandboxError(index)
    action = {"t": game.now + STEP_MS, **options[index]}
    return action, game.apply(Action.from_json(action))


def replay_moves(game: Game, moves: list[tuple[int, int]]) -> dict | None:
    """Apply the visitor's earlier moves (all were accepted when made); the last action."""
    last = None
    for seat, index in moves:
        last, result = attempt(game, seat, index)
        if not result.accepted:
            raise SandboxError((seat, index))
    return last


#: Each kind of move in words, twice: as a button names it ("Play the …") and as what
#: someone tried to do ("… tried to play the …"); the two differ in most languages.
MOVE_WORDS: WordsSentences[str, tuple[str, str]] = {
    "play": (gettext_lazy("Play the %(card)s from %(from)s onto %(to)s"),
             pgettext_lazy("tried to", "play the %(card)s from %(from)s onto %(to)s")),
    "play-whole": (gettext_lazy("Play the whole stack from %(from)s (the %(card)s on top) "
                                "onto %(to)s"),
                   pgettext_lazy("tried to", "play the whole stack from %(from)s (the %(card)s "
                                 "on top) onto %(to)s")),
    # A Speed-type call, worded by the gesture the game's rules give it.
    "slap": (gettext_lazy("Call and slap %(pile)s"),
             pgettext_lazy("tried to", "call and slap %(pile)s")),
    "point": (gettext_lazy("Call and point at %(pile)s"),
              pgettext_lazy("tried to", "call and point at %(pile)s")),
    "knock": (gettext_lazy("Call and knock on %(pile)s"),
              pgettext_lazy("tried to", "call and knock on %(pile)s")),
    "call-word": (gettext_lazy("Call “%(word)s”"), pgettext_lazy("tried to", "call “%(word)s”")),
    "call": (gettext_lazy("Make the win call"), pgettext_lazy("tried to", "make the win call")),
    "refill-place": (gettext_lazy("Refill %(place)s"),
                     pgettext_lazy("tried to", "refill %(place)s")),
    "refill": (gettext_lazy("Refill the row"), pgettext_lazy("tried to", "refill the row")),
    "combine": (gettext_lazy("Stack the cards of %(from)s onto %(to)s"),
                pgettext_lazy("tried to", "put the cards of %(from)s onto %(to)s")),
    "ready": (gettext_lazy("Ready to turn new cards"),
              pgettext_lazy("tried to", "say they are ready to turn new cards")),
    "turn": (gettext_lazy("Turn up the top card of %(pile)s"),
             pgettext_lazy("tried to", "turn up the top card of %(pile)s")),
    "move": (gettext_lazy("Move the top card of %(from)s to the empty %(to)s"),
             pgettext_lazy("tried to", "move the top card of %(from)s to the empty %(to)s")),
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
    one the win call). A kind of move no sentence says is told as not on this table."""
    try:
        key, words = _move_words(action, zones, calling)
    except UnknownMove:
        return sentence(_("a move that is not on this table"))
    return sentence(str(MOVE_WORDS[key][0]) % words)


def tried(action: dict, zones: Mapping[str, Place | str],
          calling: Calling | None = None) -> str:
    """The move as what someone tried to do: the words after "… tried to" (UnknownMove for
    a kind of move no sentence says)."""
    key, words = _move_words(action, zones, calling)
    return str(MOVE_WORDS[key][1]) % words


def refusal(action: dict, reason: str | None, zones: Mapping[str, Place | str],
            calling: Calling | None = None) -> str:
    """A move the engine refused, as one sentence: who tried what, and the engine's reason."""
    player = PlayerWord(action.get("player"))
    try:
        move = tried(action, zones, calling)
    except UnknownMove:
        return sentence(_("%(player)s made a move that is not on this table, and it did not "
                          "count.") % Words({"player": player}))
    return sentence(_("%(player)s tried to %(move)s, but it did not count: %(reason)s.") % Words({
        "player": player, "move": move, "reason": reason_text(reason)}))


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


def offered(game: Game, seat: int) -> list[Attempt]:
    names = zone_names(game.board(None), seat)
    calling = Calling.of(game)
    return [Attempt(i, a, describe(a, names, calling)) for i, a in enumerate(attempts(game, seat))]
