"""Teacher mode's keys: one set for each of two players at one keyboard, and never Space or
the arrow keys, which control time on the projector (Space pauses, → steps).

The left player's keys sit under the left hand, the right player's under the right hand, on
the letters and digits that are in the same place on the Nordic, German and English
keyboards (no Y or Z, which German swaps).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from play.table import Keys, key_label

LEFT = {
    "speed": Keys(places=tuple("1234"), centre=("q", "w"),
                  commands={"call": "a", "refill": "s", "ready": "d", "whole": "f"}),
    "spit": Keys(places=tuple("12345"), centre=("q", "w")),
    "swap": Keys(places=tuple("123456"), middle=tuple("qwertg"),
                 commands={"call": "a", "put-back": "s", "lay": "d"}),
}
RIGHT = {
    "speed": Keys(places=tuple("7890"), centre=("o", "p"),
                  commands={"call": "l", "refill": "k", "ready": "j", "whole": "h"}),
    "spit": Keys(places=tuple("67890"), centre=("o", "p")),
    "swap": Keys(places=tuple("7890ui"), middle=tuple("ophjnb"),
                 commands={"call": "l", "put-back": "k", "lay": "m"}),
}


def hands_for(family: str, acting: list[int]) -> dict[int, Keys]:
    """The keys of the seats a teacher's page acts for: the first seat's on the left."""
    sides = (LEFT, RIGHT)
    return {seat: sides[i][family] for i, seat in enumerate(acting[:2])}


def _keys(keys: tuple[str, ...]) -> str:
    return " ".join(key_label(k) for k in keys)


def legend(family: str, keys: Keys, commands: dict[str, str]) -> list[tuple[str, str]]:
    """What each of a player's keys does, for the key list beside the table. `commands` are
    the labels of the commands this game has (name: label)."""
    if family == "speed":
        rows = [(_keys(keys.places), _("a card in the row")),
                (_keys(keys.centre), _("the left or right centre pile"))]
    elif family == "spit":
        rows = [(_keys(keys.places), _("a pile: choose its card or turn it up")),
                (_keys(keys.centre), _("the left or right centre pile"))]
    else:
        rows = [(_keys(keys.places), _("pick up a pile, or lay a card from the hand")),
                (_keys(keys.middle), _("take a card from the middle"))]
    rows += [(key_label(keys.commands[name]), label) for name, label in commands.items()
             if name in keys.commands]
    return rows
