"""VariantInfo: what the registry knows about a variant, and the comparison metadata form."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from rules_engine.codes import ActionType, EventCode, ReasonCode
from rules_engine.options import OptionSpec, validate_options

#: the comparison table's dimensions, in display order (see docs/engine.md for every code).
METADATA_KEYS = (
    "players",
    "decks",
    "cards_per_player",
    "in_front",
    "start",
    "legal_move",
    "equal_ranks",
    "stuck",
    "running_out",
    "end",
    "scoring",
    "options",
)

FAMILIES = ("speed", "swap", "spit")
#: how a Speed-type call is made: a slap on a centre pile, Snäll Stress's pointing, German
#: knocking, or a shout with no pile at all. The other families call no equal ranks ("").
GESTURES = ("slap", "point", "knock", "shout")


@dataclass(frozen=True)
class UiFacts:
    """What a table, an offer or a sentence must know about how a game is played, for one
    set of options: facts the engine states rather than facts the site infers.

    call_word: what is called ("stress", "stressi", James Bond's chosen word; "" for Spit);
    gesture: how a Speed-type call is made (GESTURES; "" for the other families);
    slap_own_pile_only: a call goes on the caller's own (right-hand) pile only;
    own_pile_across: each seat's own centre pile (the one it turns onto and a pile-less call
        goes on) is the one across: seat 0's is centre-1 (stressi-fi's right-hand piles);
        otherwise seat k's is centre-k (Speed);
    refill_is_action: an empty row place is refilled by the player's own action (Speed);
    whole_stack_plays: a row stack may be played whole (`"whole": true`);
    combine_allowed: equal row piles may be combined (the `combine` action);
    ready_action: the `ready` action exists (new cards are turned when all are ready);
    grab_limit: how many cards one lay or take may move (James Bond; 1 elsewhere).
    """

    call_word: str
    gesture: str
    slap_own_pile_only: bool
    own_pile_across: bool
    refill_is_action: bool
    whole_stack_plays: bool
    combine_allowed: bool
    ready_action: bool
    grab_limit: int

    def check(self, family: str, name: str) -> None:
        """ValueError when these facts cannot describe a game of that family."""
        for f in fields(self):
            value = getattr(self, f.name)
            if type(value) is not {"str": str, "bool": bool, "int": int}[str(f.type)]:
                raise ValueError(f"{name}: ui fact {f.name} must be a {f.type}, got {value!r}")
        speed = family == "speed"
        if speed and self.gesture not in GESTURES:
            raise ValueError(f"{name}: gesture must be one of {GESTURES}, got {self.gesture!r}")
        if not speed and self.gesture:
            raise ValueError(f"{name}: only the Speed family has a call gesture")
        if (family == "spit") != (self.call_word == ""):
            raise ValueError(f"{name}: every family but Spit has a call word")
        if not speed and (self.slap_own_pile_only or self.own_pile_across
                          or self.refill_is_action
                          or self.whole_stack_plays or self.combine_allowed
                          or self.ready_action):
            raise ValueError(f"{name}: piles, refills, stacks and ready are Speed-family facts")
        if self.grab_limit < 1 or (self.grab_limit > 1 and family != "swap"):
            raise ValueError(f"{name}: grab_limit is 1, or more in the swap family")
        if self.slap_own_pile_only and self.gesture == "shout":
            raise ValueError(f"{name}: a shout goes on no pile")


def dim(code: str, section: str, **params: Any) -> dict:
    """One comparison cell: a stable code the site translates, its parameters, its anchor."""
    return {"code": code, "params": params, "section": section}


@dataclass(frozen=True)
class VariantInfo:
    slug: str
    family: str
    players_min: int
    players_max: int
    decks: int
    jokers_max: int
    cards_per_player: int | dict
    source_file: str
    source_language: str
    options: tuple[OptionSpec, ...]
    metadata: dict
    game_class: type
    # The UI facts of a game with the default options (see UiFacts); `ui(options)` gives
    # them for other options, through `ui_by_options` where an option changes one.
    call_word: str = ""
    gesture: str = ""
    slap_own_pile_only: bool = False
    own_pile_across: bool = False
    refill_is_action: bool = False
    whole_stack_plays: bool = False
    combine_allowed: bool = False
    ready_action: bool = False
    grab_limit: int = 1
    #: the facts an option changes, from the full (validated) options: {fact: value}.
    ui_by_options: Callable[[Mapping[str, Any]], Mapping[str, Any]] | None = None
    #: the module holding the bots' heuristics when they are not the Game's own methods
    #: (`candidates(game, seat)`, optionally `plan_holds`): named, never imported here, since
    #: a bot module reads its variant's rules and the rules never import a bot.
    bot_module: str | None = None
    #: UiFacts by options (the call gesture is read at every call: computing it each time
    #: cost the bot games several per cent).
    _ui_cache: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # A variant with a missing or extra dimension would break the comparison page.
        if tuple(self.metadata) != METADATA_KEYS:
            raise ValueError(
                f"{self.slug}: metadata keys must be exactly {METADATA_KEYS} in that order"
            )
        for key, cell in self.metadata.items():
            if set(cell) != {"code", "params", "section"}:
                raise ValueError(f"{self.slug}: metadata {key!r} needs code, params, section")
        if self.family not in FAMILIES:
            raise ValueError(f"{self.slug}: family must be one of {FAMILIES}")
        self._defaults.check(self.family, self.slug)
        if self.ui() != self._defaults:
            raise ValueError(f"{self.slug}: the ui fields must be the default options' facts")

    @property
    def _defaults(self) -> UiFacts:
        return UiFacts(**{f.name: getattr(self, f.name) for f in fields(UiFacts)})

    def ui(self, options: Mapping[str, Any] | None = None) -> UiFacts:
        """The UI facts of a game of this variant with these options (defaults filled in;
        OptionError for a bad key or value)."""
        return self.ui_of_valid(validate_options(self.options, options, name=self.slug))

    def ui_of_valid(self, options: Mapping[str, Any]) -> UiFacts:
        """ui() for options already validated (a game's own)."""
        key = tuple(options.items())
        facts = self._ui_cache.get(key)
        if facts is None:
            facts = self._defaults
            if self.ui_by_options is not None:
                facts = replace(facts, **self.ui_by_options(options))
                facts.check(self.family, self.slug)
            self._ui_cache[key] = facts
        return facts

    # The variant's vocabulary (its family's, rules_engine.codes): every action type it takes,
    # event code it logs and reason code apply can answer, so the site can word each one.
    @property
    def action_types(self) -> tuple[ActionType, ...]:
        return self.game_class.vocabulary.actions

    @property
    def event_codes(self) -> tuple[EventCode, ...]:
        return self.game_class.vocabulary.events

    @property
    def reason_codes(self) -> tuple[ReasonCode, ...]:
        return self.game_class.vocabulary.reasons

    def option(self, key: str) -> OptionSpec:
        for spec in self.options:
            if spec.key == key:
                return spec
        raise KeyError(key)

    def to_json(self) -> dict:
        return {
            "slug": self.slug,
            "family": self.family,
            "players_min": self.players_min,
            "players_max": self.players_max,
            "decks": self.decks,
            "jokers_max": self.jokers_max,
            "cards_per_player": self.cards_per_player,
            "source_file": self.source_file,
            "source_language": self.source_language,
            "options": [s.to_json() for s in self.options],
            "metadata": self.metadata,
            "ui": {f.name: getattr(self, f.name) for f in fields(UiFacts)},
        }


#: every registered variant by slug, in the order of registration (the site's display order:
#: rules_engine/variants/__init__.py imports the variant modules in that order).
_REGISTERED: dict[str, VariantInfo] = {}


def register(info: VariantInfo) -> VariantInfo:
    """Make a variant known: the one call at the end of each variant module (as OpenSpiel's
    `pyspiel.register_game`). Binds the Game subclass to it (`Game.bind`), so the class and the
    registry can never disagree. Returns `info`."""
    if info.slug in _REGISTERED:
        raise ValueError(f"variant {info.slug!r} is registered twice")
    info.game_class.bind(info)
    _REGISTERED[info.slug] = info
    return info


def registered() -> dict[str, VariantInfo]:
    """The registered variants by slug, in registration order (a copy)."""
    return dict(_REGISTERED)
