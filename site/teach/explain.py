"""“Explain this”: on a paused table, what a card or pile may do now and why not, in the
engine's words. Every move the place could take part in is put to the engine on a copy of
the position; the answer is the engine's verdict (accepted, or its reason code translated by
presentation.reasons), never a rule decided here.

A move is judged as a hand reaching for the card now would arrive: a moment later (the
sandbox's step, examples.sandbox.STEP_MS), so that a pile that changed an instant before the
pause does not turn every card that does not fit it into a lost race (“too slow”), unless
something is due before then (a tie window closing), when it is judged at once."""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.utils.translation import gettext as _

from examples.sandbox import STEP_MS
from presentation.board import zone_label
from presentation.facts import ui_facts
from presentation.moves import Calling, tried, zone_names
from presentation.narration import PlayerWord
from presentation.reasons import reason_text
from presentation.table import card_name
from presentation.table.refs import Ref
from presentation.wording import Words, sentence
from rules_engine.actions import Action
from rules_engine.cards import is_card
from rules_engine.game import Game

MAX_REF = 80


class BadRef(ValueError):
    """An explain request that names nothing on this table."""


@dataclass(frozen=True)
class Verdict:
    accepted: bool
    #: who may or may not make which move, and the engine's reason, as one sentence in the
    #: language it was made in
    text: str


@dataclass(frozen=True)
class Explanation:
    subject: str
    verdicts: list[Verdict]
    note: str = ""


def judging_time(game: Game) -> int:
    """When a move asked about in the paused position is judged (see the module's note)."""
    t = game.now + STEP_MS
    due = game.next_deadline()
    return game.now if due is not None and due <= t else t


def parse_ref(raw: str, game: Game) -> Ref:
    """A ref from the page, checked against the table (BadRef otherwise)."""
    if not raw or len(raw) > MAX_REF:
        raise BadRef(raw)
    try:
        data = json.loads(raw)
    except ValueError:
        raise BadRef(raw) from None
    if not isinstance(data, dict) or not isinstance(data.get("z"), str):
        raise BadRef(raw)
    seat, card = data.get("s"), data.get("c")
    if seat is not None and not (type(seat) is int and 0 <= seat < game.players):
        raise BadRef(raw)
    if card is not None and not (isinstance(card, str) and is_card(card)):
        raise BadRef(raw)
    board = game.board(None)
    zones = board["centre"] if seat is None else board["seats"][seat]["zones"]
    if data["z"] not in {zone["id"] for zone in zones}:
        raise BadRef(raw)
    return Ref(data["z"], seat, card)


def _zone(board: dict, ref: Ref) -> dict:
    zones = board["centre"] if ref.seat is None else board["seats"][ref.seat]["zones"]
    return next(zone for zone in zones if zone["id"] == ref.zone)


def _top(zone: dict) -> dict | None:
    return zone["cards"][-1] if zone["cards"] else None


def _moves(game: Game, board: dict, ref: Ref) -> list[dict]:
    """Every move (with its player) the place could take part in now."""
    family = game.variant.family
    zone = _zone(board, ref)
    top = _top(zone)
    centres = [z for z in board["centre"] if z["kind"] == "centre"]
    seats = range(game.players)
    moves: list[dict] = []
    if ref.seat is None and zone["kind"] == "middle":
        return [{"player": s, "type": "take", "card": ref.card} for s in seats if ref.card]
    if ref.seat is None:  # a centre pile
        onto = top["card"] if top and top["up"] else None
        if family == "speed":
            moves += [{"player": s, "type": "call", "pile": zone["id"]} for s in seats]
        elif family == "spit":
            moves += [{"player": s, "type": "choose", "pile": zone["id"]} for s in seats]
            moves += [{"player": s, "type": "spit", "to": zone["id"]} for s in seats]
        for s in seats:
            for own in board["seats"][s]["zones"]:
                card = _top(own)
                if own["kind"] in ("row", "layout") and card and card["up"]:
                    moves.append({"player": s, "type": "play", "from": own["id"],
                                  "card": card["card"], "to": zone["id"], "onto": onto})
        return moves
    s = ref.seat
    kind = zone["kind"]
    if kind in ("row", "layout") and top and top["up"]:
        for pile in centres:
            pile_top = _top(pile)
            moves.append({"player": s, "type": "play", "from": zone["id"],
                          "card": top["card"], "to": pile["id"],
                          "onto": pile_top["card"] if pile_top else None})
    elif kind == "layout" and top:
        moves.append({"player": s, "type": "turn", "pile": zone["id"]})
    elif kind == "layout":
        for own in board["seats"][s]["zones"]:
            card = _top(own)
            if own["kind"] == "layout" and card and card["up"]:
                moves.append({"player": s, "type": "move", "from": own["id"],
                              "card": card["card"], "to": zone["id"]})
    elif kind in ("row", "draw") and family == "speed" and ui_facts(game).refill_is_action:
        moves.append({"player": s, "type": "refill"} if kind == "draw" else
                     {"player": s, "type": "refill", "to": zone["id"]})
    elif kind == "hand" and ref.card:
        moves.append({"player": s, "type": "lay", "card": ref.card})
    elif kind in ("pile", "complete", "hand"):
        moves.append({"player": s, "type": "pick", "pile": zone["id"]})
    return moves


def _subject(board: dict, ref: Ref, family: str) -> str:
    zone = _zone(board, ref)
    kind = "layout" if family == "spit" and zone["kind"] == "layout" else zone["kind"]
    place = zone_label(zone["id"], kind, board["variant"])
    if ref.card:
        what = card_name(ref.card)
    else:
        top = _top(zone)
        what = (card_name(top["card"]) if top and top["up"] else
                card_name(None) if top else _("empty"))
    if ref.seat is None:
        return f"{place}: {what}"
    return _("%(place)s (Player %(n)s): %(what)s") % {"place": place, "n": ref.seat + 1,
                                                      "what": what}


def explain(game: Game, ref: Ref) -> Explanation:
    """The engine's verdict on each move the place could take part in, at the game's now."""
    board = game.board(None)
    calling = Calling.of(game)
    verdicts = []
    for move in _moves(game, board, ref):
        action = {**move, "t": judging_time(game)}
        if action.get("onto") is None:
            action.pop("onto", None)
        result = game.copy().apply(Action.from_json(action))
        if ref.seat is None and move["type"] == "play" and not result.accepted:
            continue  # about a centre pile: which cards fit it now, not every one that does not
        words = Words({"player": PlayerWord(move["player"]),
                       "move": tried(move, zone_names(board, move["player"]), calling),
                       "reason": reason_text(result.reason)})
        if result.accepted:
            text = _("%(player)s may %(move)s now.") % words
        else:
            text = _("%(player)s may not %(move)s now: %(reason)s.") % words
        verdicts.append(Verdict(result.accepted, sentence(text)))
    note = "" if verdicts else _("You never move these cards yourself: they move as the rules say.")
    return Explanation(_subject(board, ref, game.variant.family), verdicts, note)
