"""The table of the Speed games (Swedish and German Stress, Stressi): a row of places per
player, a draw pile, two centre piles, and the call when the centre tops are equal."""

from __future__ import annotations

from django.utils.translation import gettext as _

from presentation.moves import Calling
from presentation.narration import CALL_WORDS, PlayerWord
from presentation.wording import Words, sentence

from .model import Command, Hands, Hint, Keys, Zone, action_json, keyed, nth
from .presenter import TablePresenter, place_keys, top_card


class SpeedPresenter(TablePresenter):
    family = "speed"
    teach_keys = (
        Keys(
            places=tuple("1234"),
            centre=("q", "w"),
            commands={"call": "a", "refill": "s", "ready": "d", "whole": "f"},
        ),
        Keys(
            places=tuple("7890"),
            centre=("o", "p"),
            commands={"call": "l", "refill": "k", "ready": "j", "whole": "h"},
        ),
    )

    def centre(self, board: dict, hands: Hands) -> list[Zone]:
        zones = []
        for i, zone in enumerate(board["centre"]):
            item = self.pile(zone, "c")
            if hands.keys:
                if board["phase"] == "equal-ranks":
                    # Plays are frozen until the call is settled: a tap on a pile slaps it.
                    item.send = action_json({"type": "call", "pile": zone["id"]})
                else:
                    item.drop = action_json(
                        {"type": "play", "to": zone["id"], "onto": top_card(zone)}
                    )
                hands.shared_keys(item, lambda keys, i=i: nth(keys.centre, i))
            zones.append(Zone(zone["id"], zone["kind"], item.label, [item]))
        return zones

    def own_zones(
        self, board: dict, zones: list[dict], keys: Keys, owner: int | None, prefix: str
    ) -> list[Zone]:
        facts = self.facts
        out = []
        for zone in zones:
            item = self.pile(zone, prefix)
            if zone["kind"] == "row":
                item.seat = owner
                k = int(zone["id"].rsplit("-", 1)[1])
                top = top_card(zone)
                if top:
                    item.pick = action_json({"type": "play", "from": zone["id"], "card": top})
                    if facts.combine_allowed:
                        item.drop = action_json({"type": "combine", "to": zone["id"]})
                elif facts.refill_is_action:
                    item.send = action_json({"type": "refill", "to": zone["id"]})
                keyed(item, nth(keys.places, k), owner)
            elif zone["kind"] == "draw" and facts.refill_is_action:
                item.seat = owner
                item.send = action_json({"type": "refill"})
            out.append(Zone(zone["id"], zone["kind"], item.label, [item]))
        return out

    def notes(self, board: dict, seat: int) -> list[str]:
        if board.get("ready") and board["ready"][seat]:
            return [_("ready for new cards")]
        return []

    def commands(self, board: dict, keys: Keys, owner: int | None) -> list[Command]:
        facts = self.facts
        word = CALL_WORDS.get(facts.call_word, facts.call_word)
        commands = [
            self.command(
                "call",
                _("Call “%(word)s”") % {"word": word},
                keys,
                owner,
                send=action_json({"type": "call"}),
            )
        ]
        if facts.refill_is_action:
            commands.append(
                self.command(
                    "refill", _("Refill"), keys, owner, send=action_json({"type": "refill"})
                )
            )
        if facts.ready_action:
            commands.append(
                self.command(
                    "ready",
                    _("Ready for new cards"),
                    keys,
                    owner,
                    send=action_json({"type": "ready"}),
                )
            )
        if facts.whole_stack_plays:
            commands.append(
                self.command(
                    "whole", _("Whole stack"), keys, owner, toggle=action_json({"whole": True})
                )
            )
        return commands

    def hint(self, board: dict, seat: int | None) -> str | Hint:
        if board["phase"] == "equal-ranks":
            return equal_tops_hint(Calling.of(self.game))
        if board["phase"] == "waiting-ready":
            return ready_hint(board, seat)
        if seat is not None and self.facts.refill_is_action:
            zones = board["seats"][seat]["zones"]
            row_gap = any(z["kind"] == "row" and not z["count"] for z in zones)
            if row_gap and any(z["kind"] == "draw" and z["count"] for z in zones):
                return _(
                    "A place in your row is empty. In this game you refill it yourself: "
                    "tap the empty place or your draw pile."
                )
        return ""

    def key_help(self) -> list[tuple[str, str]]:
        facts = self.facts
        row = len([z for z in self.game.board(None)["seats"][0]["zones"] if z["kind"] == "row"])
        keys = [
            (f"1–{row}", _("choose a card in your row")),
            ("← →", _("play it onto the left or right centre pile")),
            (_("Space"), _("call")),
        ]
        if facts.refill_is_action:
            keys.append(("R", _("refill your row")))
        if facts.ready_action:
            keys.append(("E", _("ready for new cards")))
        if facts.whole_stack_plays:
            keys.append(("W", _("play the whole stack: press W before the stack's number")))
        return [*keys, self.cancel_key()]

    def place_legend(self, keys: Keys) -> list[tuple[str, str]]:
        return [
            (place_keys(keys.places), _("a card in the row")),
            (place_keys(keys.centre), _("the left or right centre pile")),
        ]


def equal_tops_hint(calling: Calling) -> Hint:
    """The call, with the gesture the game's rules give it (a touch screen: no key)."""
    if calling.gesture == "shout":
        word = {"word": CALL_WORDS.get(calling.word, calling.word)}
        return Hint(
            _("Equal tops: call “%(word)s” now! Press Space or tap a centre pile.") % word,
            _("Equal tops: call “%(word)s” now! Tap a centre pile.") % word,
        )
    if calling.gesture == "point":
        return Hint(
            _("Equal tops: call now! Tap a centre pile to point at it, or press Space."),
            _("Equal tops: call now! Tap a centre pile to point at it."),
        )
    if calling.gesture == "knock":
        return Hint(
            _(
                "Equal tops: call now! Tap either centre pile to bring your hand down on both, "
                "or press Space."
            ),
            _("Equal tops: call now! Tap either centre pile to bring your hand down on both."),
        )
    if calling.own_pile_only:
        return Hint(
            _(
                "Equal tops: call now! Tap the centre pile on your right to slap it, "
                "or press Space."
            ),
            _("Equal tops: call now! Tap the centre pile on your right to slap it."),
        )
    return Hint(
        _("Equal tops: call now! Tap a centre pile to slap it, or press Space."),
        _("Equal tops: call now! Tap a centre pile to slap it."),
    )


def ready_hint(board: dict, seat: int | None) -> str:
    """Who is ready for new cards, told to the player the page plays for (`seat`) or to
    everyone watching."""
    ready = [s for s, flag in enumerate(board.get("ready") or []) if flag]
    if not ready:
        return ""
    if seat in ready:
        return _("You are ready for new cards; they are turned when the other player is too.")
    who = Words({"player": PlayerWord(ready[0])})
    if seat is not None:
        return sentence(
            _("%(player)s is ready for new cards; they are turned when you are too.") % who
        )
    return sentence(_("%(player)s is ready for new cards; they are turned when both are.") % who)
