"""The three moments of a finished game that best show its rules, for the class summary.

Each family has a list of the moments a class should see, in order of preference, each tied
to a section of the variant's short rules (the house-rules sheet's sections): Speed-type
games the first equal-rank call, the first stuck position and the win; Spit the first stuck
position, the end of a deal and the win; James Bond the first swap, the first complete pile
and the win. The first three kinds this game has are taken, from its own events; a game
without one of them gets the next kind on the list. Each moment keeps the cards that show
it, as the table was at that event (a stuck position: the tops before new cards are turned).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from play.models import Game, LogEntry

from rules_engine.registry import new_game

#: (sheet section, event code), preferred first
KINDS: dict[str, list[tuple[str, str]]] = {
    "speed": [("special", "stress"), ("stuck", "stuck"), ("winning", "won"),
              ("running-out", "gave"), ("special", "penalty"), ("move", "played")],
    "spit": [("stuck", "stuck"), ("special", "deal-over"), ("winning", "won"),
             ("running-out", "locked"), ("move", "played")],
    "swap": [("move", "swapped"), ("special", "completed"), ("winning", "won"),
             ("stuck", "put-back"), ("special", "redeal")],
}
MOMENTS = 3
#: how many event lines a moment tells: its own and those right after it
TOLD = 3


@dataclass(frozen=True)
class CardGroup:
    """Cards shown together, e.g. the centre tops, or one player's row."""

    label: str
    cards: tuple[str, ...]


@dataclass
class Moment:
    section: str
    code: str
    seq: int
    #: the event and the ones right after it (Event.to_json() each)
    events: list[dict]
    groups: list[tuple[str, int | None, tuple[str, ...]]] = field(default_factory=list)


def choose(family: str, entries: list[LogEntry]) -> list[tuple[str, str, int, int]]:
    """(section, code, entry index, event index) of the moments, in game order."""
    chosen = []
    sections: set[str] = set()
    for section, code in KINDS[family]:
        if len(chosen) == MOMENTS or section in sections:
            continue
        hit = next(((i, j) for i, entry in enumerate(entries)
                    for j, event in enumerate(entry.events) if event.get("code") == code),
                   None)
        if hit is not None:
            chosen.append((section, code, *hit))
            sections.add(section)
    return sorted(chosen, key=lambda c: (c[2], c[3]))


def _tops(zones: list[dict], kinds: tuple[str, ...]) -> tuple[str, ...]:
    tops = []
    for zone in zones:
        if zone["kind"] in kinds and zone["cards"] and zone["cards"][-1]["up"]:
            tops.append(zone["cards"][-1]["card"])
    return tuple(tops)


def _centre_at(before: dict, earlier: list[dict]) -> tuple[str, ...]:
    """The centre tops at an event: the tops before its engine call, with the cards its
    earlier events put there (a play, a turned card)."""
    tops = {z["id"]: (z["cards"][-1]["card"] if z["cards"] and z["cards"][-1]["up"] else None)
            for z in before["centre"] if z["kind"] == "centre"}
    for event in earlier:
        pile = event.get("to") if event.get("code") == "played" else event.get("pile")
        if event.get("code") in ("played", "turned") and pile in tops:
            tops[pile] = event.get("card")
    return tuple(card for card in tops.values() if card)


def _groups(family: str, code: str, event: dict, earlier: list[dict], before: dict,
            after: dict) -> list[tuple[str, int | None, tuple[str, ...]]]:
    """What the moment's picture shows: (what, seat, cards); what is "centre", "row",
    "pile", "gave", "took", "complete", "middle" (the summary names them)."""
    if family == "swap":
        seat = event.get("player")
        if code == "swapped":
            return [("gave", seat, tuple(event.get("gave") or ())),
                    ("took", seat, tuple(event.get("took") or ()))]
        if code == "completed" and seat is not None:
            zones = after["seats"][seat]["zones"]
            pile = next((z for z in zones if z["id"] == event.get("pile")), None)
            return [("pile", seat, tuple(c["card"] for c in pile["cards"]) if pile else ())]
        if code == "won" and seat is not None:
            zones = after["seats"][seat]["zones"]
            return [("complete", seat, tuple(z["cards"][-1]["card"] for z in zones
                                             if z["kind"] == "complete" and z["cards"]))]
        middle = next((z for z in after["centre"] if z["kind"] == "middle"), None)
        return [("middle", None, tuple(c["card"] for c in middle["cards"]) if middle else ())]
    centre = ("centre", None, _centre_at(before, [*earlier, event]))
    if code == "stuck":
        # Turning new cards changes only the centre and the draw piles: the rows (and
        # layouts) after the engine call are the ones nothing fitted from.
        row = "row" if family == "speed" else "layout"
        groups = [("row", s["seat"], _tops(s["zones"], (row,))) for s in after["seats"]]
        return [groups[0], centre, *groups[1:]]
    return [centre]


def moments(row: Game) -> list[Moment]:
    """The game's three moments with their events and cards (a finished game's log)."""
    entries = list(LogEntry.objects.filter(game=row).order_by("seq"))
    game = new_game(row.variant, players=row.players, seed=row.seed, options=row.options)
    family = game.variant.family
    picks: dict[int, list[tuple[str, str, int]]] = {}
    for section, code, i, j in choose(family, entries):
        picks.setdefault(i, []).append((section, code, j))
    out = []
    for i, entry in enumerate(entries):
        before = game.board(None) if i in picks else None
        step = entry.step()
        if "advance" in step:
            game.advance(step["advance"])
        else:
            game.apply(step)
        if before is None:
            continue
        after = game.board(None)
        for section, code, j in picks[i]:
            told = [e for later in entries[i:i + TOLD + 1] for e in later.events][j:j + TOLD]
            groups = _groups(family, code, entry.events[j], entry.events[:j], before, after)
            out.append(Moment(section, code, entry.seq, told, groups))
    return out
