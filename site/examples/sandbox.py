""""Try it": the visitor makes the next moves from any step of an example.

The sandbox keeps no state on the server. Its position is the example's first N steps plus
the visitor's accepted moves, written in the URL as "seat:index" pairs, where the index points
into the list of attempts offered in that position. The engine judges every attempt: the site
offers legal moves and plausible illegal ones alike, and shows the engine's verdict.
"""

import json
from dataclasses import dataclass

from core.params import parse_natural
from presentation.moves import Calling, describe, zone_names
from rules_engine.actions import Action, Result
from rules_engine.game import Game
from rules_engine.scenario import STEP_KEYS, load

from .library import Example, examples_dir

# The most own moves a sandbox URL carries (the page states it; at the limit it offers no
# further move, so no button ever leads to a URL parse_moves refuses).
MAX_MOVES = 200
STEP_MS = 600  # the visitor's moves come this far apart: no race they did not ask for


class SandboxError(ValueError):
    """A sandbox URL that does not describe a reachable position."""


def _call_offer(game: Game, calling: Calling, action: dict) -> dict:
    """A call as the sandbox offers it: James Bond's with the game's call word; a Speed-type
    call without a pile where the gesture names none, on the caller's own pile (the engine's
    home pile) where only that one counts, or where the gesture goes over both (German
    Stress's knock: one offer, not two of the same words)."""
    if calling.family == "swap":  # the call with the game's word, as the engine lists it
        return {"word": calling.word, **action} if calling.word else action
    if calling.gesture == "shout":
        return {k: v for k, v in action.items() if k != "pile"}
    if calling.own_pile_only or calling.gesture == "knock":
        return {**action, "pile": calling.own_pile(action["player"])}
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



def offered(game: Game, seat: int) -> list[Attempt]:
    names = zone_names(game.board(None), seat)
    calling = Calling.of(game)
    return [Attempt(i, a, describe(a, names, calling)) for i, a in enumerate(attempts(game, seat))]
