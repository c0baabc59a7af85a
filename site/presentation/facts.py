"""What a table needs to know about a game's rules that its board does not say: the one
place the site reads it from the engine (see UiFacts)."""

from __future__ import annotations

from dataclasses import dataclass

from rules_engine.game import Game
from rules_engine.registry import VARIANTS


@dataclass(frozen=True)
class UiFacts:
    """The rules facts a table, its keys and its hints depend on.

    `refill_action`: a row is refilled by the player (an action), not by itself;
    `whole_stack_plays`: a stack in the row may be played at once; `combine_allowed`: a row
    card may be put onto another row place; `ready_action`: players say they are ready before
    new cards are turned; `grab_max`: how many cards James Bond's lay may take at once."""

    call_word: str = ""
    gesture: str = ""
    own_pile_only: bool = False
    refill_action: bool = False
    whole_stack_plays: bool = False
    combine_allowed: bool = False
    ready_action: bool = False
    grab_max: int = 1


def ui_facts(game: Game) -> UiFacts:
    """The facts of `game`. Today they are read from the game classes' own attributes (the
    engine declares them on VariantInfo later, issue #20): this function is the one place
    that reads them, so the switch is a change here only."""
    family = game.variant.family
    if family == "speed":
        equal = game.variant.metadata.get("equal_ranks", {}).get("params", {})
        return UiFacts(
            call_word=game.call_word,  # type: ignore[attr-defined]
            gesture=getattr(game, "gesture", "slap"),
            own_pile_only=equal.get("slap_pile") == "right",
            refill_action=not game.auto_refill,  # type: ignore[attr-defined]
            whole_stack_plays=game.whole_stack_plays,  # type: ignore[attr-defined]
            combine_allowed=game.combine_allowed,  # type: ignore[attr-defined]
            ready_action=game.ready_action,  # type: ignore[attr-defined]
        )
    if family == "swap":
        return UiFacts(call_word=game.board(None).get("call_word") or "", grab_max=game.grab_max())  # type: ignore[attr-defined]
    return UiFacts()


def variant_call_word(slug: str) -> str:
    """The word a Speed variant's players call (German Stress's shout names no pile), known
    without a game; read here for the same reason as ui_facts."""
    info = VARIANTS.get(slug)
    return getattr(info.game_class, "call_word", "stress") if info else "stress"
