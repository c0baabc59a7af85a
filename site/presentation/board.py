"""Turns the engine's board into what the board template draws: labels and highlights only."""

from dataclasses import dataclass

from core.glossary import current_lang, place_name
from core.params import parse_natural

# Zone kinds whose cards are all visible side by side rather than as one pile.
FANNED = {"middle", "held", "hand", "out", "complete"}
KIND_WORDS = {
    "centre": "centre_pile",
    "draw": "draw_pile",
    "row": "place",
    "layout": "pile",
    "reserve": "reserve",
    "pile": "pile",
    "middle": "middle",
    "held": "held_pile",
    "hand": "held_pile",
    "out": "set_aside",
    "complete": "complete_pile",
}
# Where a variant's own texts name a zone differently: German Stress holds its draw pile in
# the hand (the source's "Handstapel").
VARIANT_WORDS = {("stress-de", "draw"): "hand_stack"}


def zone_kind(zone_id: str, family: str) -> str:
    """The kind of zone an event or action names by its id alone."""
    if zone_id.startswith("centre-"):
        return "centre"
    if zone_id.startswith("row-"):
        return "row"
    if zone_id in ("draw", "reserve", "middle"):
        return zone_id
    if zone_id == "removed":
        return "out"
    return "layout" if family == "spit" else "pile"


@dataclass(frozen=True)
class Place:
    """A zone as words name it, in the active language: str() is its name inside a sentence
    ("centre pile 2", "Ablagestapel 2"), `form()` the same in a grammatical form (Finnish
    "pelipinoon 2"); `label` is the name with a capital, for captions."""

    zone_id: str
    kind: str
    variant: str = ""

    @property
    def number(self) -> int | None:
        number = parse_natural(self.zone_id.rsplit("-", 1)[-1])
        if number is None:
            return None
        # centre-N and row-N count from 0 in the engine; pile-N already counts from 1.
        return number + (1 if self.zone_id.startswith(("centre-", "row-")) else 0)

    @property
    def word(self) -> str:
        """The glossary key of what the place is called in this variant."""
        return VARIANT_WORDS.get((self.variant, self.kind)) or KIND_WORDS.get(self.kind, "pile")

    def form(self, form: str) -> str:
        return place_name(self.word, self.number, current_lang(), form)

    def __str__(self) -> str:
        return self.form("nom")

    @property
    def label(self) -> str:
        name = str(self)
        return name[:1].upper() + name[1:]


def zone_label(zone_id: str, kind: str, variant: str = "") -> str:
    """A zone's name in the page's language, e.g. "Centre pile 2", "Place 1", "Reserve"."""
    return Place(zone_id, kind, variant).label


def _zone(zone: dict, moved: set[str], variant: str) -> dict:
    return {
        **zone,
        "label": zone_label(zone["id"], zone["kind"], variant),
        "fanned": zone["kind"] in FANNED,
        "moved": zone["id"] in moved,
    }


def board_view(board: dict, action: dict | None) -> dict:
    """The board with display labels and the zones the step's action touched marked."""
    moved: set[str] = set()
    seat_moved: set[str] = set()
    if action:
        for key in ("to", "pile"):
            value = action.get(key)
            if isinstance(value, str) and value.startswith(("centre", "middle")):
                moved.add(value)
            elif isinstance(value, str):
                seat_moved.add(value)
        if isinstance(action.get("from"), str):
            seat_moved.add(action["from"])
    acting = action.get("player") if action else None
    seats = []
    for seat in board["seats"]:
        marks = seat_moved if seat["seat"] == acting else set()
        seats.append(
            {**seat, "zones": [_zone(z, marks, board["variant"]) for z in seat["zones"]]}
        )
    return {
        **board,
        # Cards set aside before a deal (James Bond's second deck) matter only when there are some.
        "centre": [
            _zone(z, moved, board["variant"])
            for z in board["centre"]
            if z["kind"] != "out" or z["count"]
        ],
        "seats": seats,
    }
