"""SpeedGame: what stress-se, stress-de and stressi-fi share.

Two players, two shared centre piles, a face-down draw pile (the German "hand stack") and a
row of four face-up places per player. Cards go from the own row onto a centre pile one rank
up or down. When both centre tops show the same rank the equal-rank event is on: plays are
frozen and only the call (the "Stress!" slap) is accepted. The first call opens a tie window;
when it closes (or every player has called) the variant's penalty applies and both players
turn new centre cards. When nobody can act the engine turns new cards by itself.

Variants plug in through class flags and a few hook methods (bottom of the class).
"""

from __future__ import annotations

from typing import Any, ClassVar

from rules_engine.actions import Action
from rules_engine.cards import JOKER, RANK_VALUE, ranks_adjacent, shuffle
from rules_engine.codes import (
    ENGINE_EVENTS,
    ENGINE_REASONS,
    ActionType,
    Arg,
    EventCode,
    Reason,
    ReasonCode,
    SharedEvent,
    Vocabulary,
)
from rules_engine.game import (
    CENTRE_IDS,
    CENTRE_INDEX,
    MAX_AUTO_STEPS,
    NEVER,
    R_BAD_ACTION,
    R_UNKNOWN_ACTION,
    TIE_WINDOW_MS,
    Game,
    best_candidate,
)
from rules_engine.positions import PositionError, a_list, flags
from rules_engine.variant import VariantInfo

#: a call arriving this soon after an equal-rank event was settled is the slow half of that
#: race (rejected too-slow), never a false call.
LATE_CALL_MS = 1000
ROW_SIZE = 4
#: the seats of these two-player games (the registry allows exactly two).
_SEATS = (0, 1)
ROW_IDS = tuple(f"row-{k}" for k in range(ROW_SIZE))
_ROW_INDEX = {z: i for i, z in enumerate(ROW_IDS)}

# The bots' constant tokens (SpeedGame._bot_scored), built once.
_CALL_TOKENS = (("call", 0), ("call", 1))
_REFILL_TOKEN = ("refill", None)
_PAIRS = tuple((a, b) for a in range(ROW_SIZE) for b in range(a + 1, ROW_SIZE))
_COMBINE_TOKENS = {(a, b): ("combine", a, b) for a, b in _PAIRS}
_TOKEN_SCORES = {"call": 10.0, "refill": 3.0, "combine": 2.5}


def _build_fit_table(wrap: bool, jokers: bool) -> list[list[bool]]:
    table = [[False] * 14 for _ in range(14)]
    for v in range(1, 14):
        for tv in range(1, 14):
            table[v][tv] = ranks_adjacent(v, tv, wrap)
    table[0] = [jokers] * 14  # a joker fits on any top when jokers are wild
    return table


#: FIT[wrap, jokers][card value][top value]: a list lookup is the cheapest test in the hot
#: path. Built once per process (read only: games share them).
_FIT_TABLES = {(w, j): _build_fit_table(w, j) for w in (False, True) for j in (False, True)}


#: The value standing for "no card": an empty centre pile's top, an empty row place.
NO_CARD = 14


def _build_pair_fit(table: list[list[bool]]) -> list[list[tuple[int, ...]]]:
    # PAIR_FIT[t0][t1][card value] = 1 (fits centre-0) | 2 (fits centre-1), 0 for no fit;
    # NO_CARD fits nothing and nothing fits on it. One lookup per card instead of two
    # fit tests with None checks in the bots' and the stuck check's inner loops.
    def fits(value: int, top: int) -> bool:
        return value != NO_CARD and top != NO_CARD and table[value][top]

    return [[tuple(fits(v, t0) | fits(v, t1) << 1 for v in range(NO_CARD + 1))
             for t1 in range(NO_CARD + 1)] for t0 in range(NO_CARD + 1)]


def _build_place_fit(pair_fit: list[list[tuple[int, ...]]]) -> list[list[tuple]]:
    # PLACE_FIT[t0][t1][k][card value]: PAIR_FIT's two bits moved to row place k's pair
    # (bits 2k and 2k+1), so one seat's whole row is a single int: four lookups and three ors.
    return [[tuple(tuple(bits << 2 * k for bits in row) for k in range(ROW_SIZE))
             for row in by_t1] for by_t1 in pair_fit]


_PLACE_FIT_TABLES = {key: _build_place_fit(_build_pair_fit(table))
                     for key, table in _FIT_TABLES.items()}

#: CANDIDATES[row fit code]: the one-card plays it allows, in the bots' order, as tokens
#: without the card and the top ("play", row place, centre pile, False).
_CANDIDATES = tuple(
    tuple(("play", k, pile, False)
          for k in range(ROW_SIZE) for pile in (0, 1) if code >> (2 * k + pile) & 1)
    for code in range(1 << 2 * ROW_SIZE)
)

#: FOLLOWS[card value][other value]: 1 when a card of the other value (never a joker, never
#: the same value, never NO_CARD) fits onto it. The bots count these in their row to prefer a
#: play that leaves the next play ready.
_FOLLOW_TABLES = {
    key: [tuple(int(value < NO_CARD and 0 < v < NO_CARD and v != value and table[v][value])
                for v in range(NO_CARD + 1))
          for value in range(NO_CARD + 1)]
    for key, table in _FIT_TABLES.items()
}

class SpeedAction(ActionType):
    """The Speed family's action types and their arguments (docs/scenarios.md)."""

    PLAY = "play", {"card": Arg("card"), "from": Arg("row"), "to": Arg("centre"),
                    "onto": Arg("card", required=False), "whole": Arg("bool", required=False)}
    CALL = "call", {"pile": Arg("centre", required=False)}
    REFILL = "refill", {"to": Arg("row", required=False)}
    COMBINE = "combine", {"from": Arg("row"), "to": Arg("row")}
    READY = "ready"


class SpeedEvent(EventCode):
    """The Speed family's own event codes, with their data fields."""

    PLAYED = "played", ("card", "from", "to", "count")
    REFILLED = "refilled", ("card", "to")
    STACKED = "stacked", ("card", "to")
    COMBINED = "combined", ("from", "to", "count")
    STRESS = "stress", ("rank", "joker")
    CALL = "call", ("pile", "gesture", "false")
    TIE = "tie", ("seats",)
    PENALTY = "penalty", ("piles", "count", "reason")
    GAVE = "gave", ("to",)
    READY = "ready"
    STUCK = "stuck", ("ready",)


class SpeedReason(ReasonCode):
    """The Speed family's own reason codes."""

    FROZEN = "frozen"
    NO_STRESS = "no-stress"
    NOTHING_TO_REFILL = "nothing-to-refill"
    NOT_ALLOWED = "not-allowed"
    NOT_EQUAL = "not-equal"
    ALREADY_READY = "already-ready"


VOCABULARY = Vocabulary(
    actions=tuple(SpeedAction),
    events=(*ENGINE_EVENTS, SharedEvent.TURNED, SharedEvent.TOOK, *SpeedEvent),
    reasons=(*ENGINE_REASONS, Reason.BAD_ZONE, Reason.NO_SUCH_CARD, Reason.NOT_YOUR_CARD,
             Reason.NOT_TOP, Reason.NOT_ADJACENT, Reason.EQUAL_RANK, Reason.TOO_SLOW,
             Reason.ALREADY_CALLED, *SpeedReason),
)

# Short names for the hot paths (a module global is as cheap as a string constant).
R_FROZEN = SpeedReason.FROZEN
R_BAD_ZONE = Reason.BAD_ZONE
R_NO_SUCH_CARD = Reason.NO_SUCH_CARD
R_NOT_YOUR_CARD = Reason.NOT_YOUR_CARD
R_NOT_TOP = Reason.NOT_TOP
R_NOT_ADJACENT = Reason.NOT_ADJACENT
R_EQUAL_RANK = Reason.EQUAL_RANK
R_TOO_SLOW = Reason.TOO_SLOW
R_NO_STRESS = SpeedReason.NO_STRESS
R_ALREADY_CALLED = Reason.ALREADY_CALLED
R_NOTHING_TO_REFILL = SpeedReason.NOTHING_TO_REFILL
R_NOT_ALLOWED = SpeedReason.NOT_ALLOWED
R_NOT_EQUAL = SpeedReason.NOT_EQUAL
R_ALREADY_READY = SpeedReason.ALREADY_READY
E_PLAYED = SpeedEvent.PLAYED
E_REFILLED = SpeedEvent.REFILLED
E_STACKED = SpeedEvent.STACKED


def _row_values(row: list[list[str]]) -> list[int]:
    return [RANK_VALUE[place[-1]] if place else NO_CARD for place in row]


def _fit_codes(place_fit: tuple[tuple[int, ...], ...], row_values: list[list[int]]) -> list[int]:
    """Each seat's row fit code: bits 2k and 2k+1 say that row place k's top card fits
    centre-0 and centre-1 (`place_fit` is the PLACE_FIT entry of the current tops). _settle
    keeps SpeedGame._fits up to date after every change of a settled game; plays, the stuck
    check and the bots read it."""
    q0, q1, q2, q3 = place_fit
    return [q0[v0] | q1[v1] | q2[v2] | q3[v3] for v0, v1, v2, v3 in row_values]


class SpeedGame(Game):
    handlers: ClassVar[dict[str, str]] = {
        "play": "_do_play",
        "call": "_do_call",
        "refill": "_do_refill",
        "combine": "_do_combine",
        "ready": "_do_ready",
    }
    vocabulary = VOCABULARY

    position_keys: ClassVar[frozenset[str]] = frozenset({"centre", "seats", "ready"})
    seat_keys: ClassVar[frozenset[str]] = frozenset({"draw", "row"})

    # ---- variant switches (class level: they never change during a game). bind() sets
    # them from the VariantInfo, where each is stated once (UiFacts); the hot paths read them.
    #: refill happens by itself right after a play (stress-se); otherwise it is an action.
    auto_refill: ClassVar[bool] = False
    #: equal ranks in the row share one place (stress-se option, stressi-fi at the deal).
    stack_at_deal: ClassVar[bool] = False
    #: a whole stack of equal cards may be played at once (stressi-fi).
    whole_stack_plays: ClassVar[bool] = False
    #: equal row piles may be combined by the player (stressi-fi).
    combine_allowed: ClassVar[bool] = False
    #: the "ready to turn new cards" action exists (stress-de).
    ready_action: ClassVar[bool] = False
    #: each seat's own centre pile is the one across (stressi-fi's right-hand piles).
    own_pile_across: ClassVar[bool] = False
    #: what the players call when the centre tops are equal (the board carries it, as James
    #: Bond's board carries its call word option): "stress", or Stressi's "stressi".
    call_word: ClassVar[str] = "stress"
    #: the bots' only moves are plays and the call (no refill or combine action).
    _plays_only: ClassVar[bool] = False

    @classmethod
    def bind(cls, info: VariantInfo) -> None:
        super().bind(info)
        cls.auto_refill = not info.refill_is_action
        cls.whole_stack_plays = info.whole_stack_plays
        cls.combine_allowed = info.combine_allowed
        cls.ready_action = info.ready_action
        cls.own_pile_across = info.own_pile_across
        cls.call_word = info.call_word
        cls._plays_only = cls.auto_refill and not cls.combine_allowed

    @property
    def gesture(self) -> str:
        """How the call is made (events carry it for narration): UiFacts.gesture."""
        return self.ui.gesture

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.centre: list[list[str]] = [[], []]
        self.changed_at: list[int] = [NEVER, NEVER]
        self.draws: list[list[str]] = [[] for _ in range(self.players)]
        self.rows: list[list[list[str]]] = [
            [[] for _ in range(ROW_SIZE)] for _ in range(self.players)
        ]
        self.event_on = False
        self.calls: list[list] = []  # [seat, t, pile index]
        self.last_resolved: int | None = None
        #: who called in the Stress settled last: a second call of theirs is no race lost
        self.last_callers: list[int] = []
        self.ready: list[bool] = [False] * self.players
        # Derived from rows and centre, never serialised: each row place's top value
        # (NO_CARD when empty), kept in step with every change of a row, and each seat's row
        # fit code (see _fit_codes), kept by _settle; all zero while no play is possible.
        self._row_values: list[list[int]] = [[NO_CARD] * ROW_SIZE for _ in range(self.players)]
        self._fits: list[int] = [0] * self.players
        # Locals, not attributes: CPython 3.13 keeps these games' attributes inline (the
        # fast attribute loads the hot paths rely on) only up to 29 names, and they have 29
        # (tests/engine/test_fast_paths.py), so every new attribute must earn its place.
        tables = bool(self._wraps()), bool(self._jokers_wild())
        self._fit = _FIT_TABLES[tables]
        self._follows = _FOLLOW_TABLES[tables]
        self._place_fit = _PLACE_FIT_TABLES[tables]
        # Option-derived switches the hot paths read (options never change during a game).
        self._stack_refill = self._stacking()

    def _shared_tables(self) -> tuple:
        # The per-process fit tables: copying them made copy() about ten times slower.
        return self._fit, self._follows, self._place_fit

    # ------------------------------------------------------------------ variant hooks
    def _wraps(self) -> bool:
        return True

    def _jokers_wild(self) -> bool:
        return False

    def _stacking(self) -> bool:
        """Equal ranks stack automatically when a card comes into the row."""
        return False

    def home_pile(self, seat: int) -> int:
        """The centre pile on this seat's own side: the pile it started and turns onto, and
        a call naming no pile goes on (UiFacts.own_pile_across)."""
        return 1 - seat if self.own_pile_across else seat

    def _one_empty_mode(self) -> str:
        """'one-turns' or 'give-a-card' (the other supplies a face-down card)."""
        return "give-a-card"

    def _lend_last_card(self) -> bool:
        """With give-a-card, a giver holding a single card: hand it over (the taker turns it
        alone) rather than turn it alone."""
        return False

    def _both_empty_mode(self) -> str:
        """'take-own-side' or 'fewer-cards-wins'."""
        return "take-own-side"

    def _false_call_penalty(self) -> bool:
        return False

    def _exact_tie_only(self) -> bool:
        """Knocking: hands pile up, so only a truly equal time is a tie."""
        return False

    def _stress_outcome(self, first: int, pile: int, tie: bool) -> None:
        """Move the cards the equal-rank event costs; new cards are turned afterwards."""
        raise NotImplementedError

    def _deck(self) -> list[list[str]]:
        """Each seat's cards before the deal (already shuffled)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ deal and position
    def _deal(self) -> None:
        for seat, cards in enumerate(self._deck()):
            self.draws[seat] = cards
            self._lay_out(seat)
        self._recount_rows()
        self._turn_all_home("start")

    def _recount_rows(self) -> None:
        self._row_values = [_row_values(row) for row in self.rows]

    def _lay_out(self, seat: int) -> None:
        draw, row = self.draws[seat], self.rows[seat]
        stack = self.stack_at_deal or self._stacking()
        stack_into = self._stack_into
        for place in row:  # fill the empty places in order
            while not place and draw:
                card = draw.pop()
                if stack and stack_into(row, card):
                    continue
                place.append(card)

    @staticmethod
    def _stack_into(row: list[list[str]], card: str) -> bool:
        value = RANK_VALUE[card]
        if value == 0:
            return False
        for place in row:
            if place and RANK_VALUE[place[-1]] == value:
                place.append(card)
                return True
        return False

    def _turn_all_home(self, cause: str) -> None:
        for seat in range(self.players):
            if self.draws[seat]:
                self._turn(seat, self.home_pile(seat), cause)

    def _load_position(self, position: dict) -> None:
        centre = a_list(position.get("centre"), "centre (two piles, bottom to top)", length=2)
        self.centre = [self._cards_from(p, f"centre-{i}") for i, p in enumerate(centre)]
        for seat, spec in enumerate(position["seats"]):
            self.draws[seat] = self._cards_from(spec.get("draw", []), f"seat {seat} draw")
            row = a_list(spec.get("row"), f"seat {seat} row", length=ROW_SIZE)
            self.rows[seat] = [self._cards_from(p, f"seat {seat} row-{k}")
                               for k, p in enumerate(row)]
        ready = position.get("ready")
        if ready is not None:
            if not self.ready_action:
                raise PositionError(f"ready: {self.variant.slug} has no ready action")
            self.ready = flags(ready, self.players, "ready")
        self._recount_rows()
        problems = self._check_shapes(settled=False)
        if problems:
            raise PositionError("; ".join(problems))

    def position(self) -> dict:
        pos: dict[str, Any] = {
            "centre": [list(p) for p in self.centre],
            "seats": [
                {"draw": list(self.draws[s]), "row": [list(p) for p in self.rows[s]]}
                for s in range(self.players)
            ],
            "now": self.now,
            "seed": self.seed,
        }
        if self.ready_action:
            pos["ready"] = list(self.ready)
        return pos

    # ------------------------------------------------------------------ rules helpers
    def _top_value(self, pile: int) -> int | None:
        """The rank a centre top counts as (a joker counts as the other top's rank)."""
        cards = self.centre[pile]
        if not cards:
            return None
        value = RANK_VALUE[cards[-1]]
        if value == 0:
            other = self.centre[1 - pile]
            return RANK_VALUE[other[-1]] if other else 0
        return value

    def fits(self, card: str, pile: int) -> bool:
        top = self._top_value(pile)
        if top is None:
            return False
        return self._fit[RANK_VALUE[card]][top]

    def tops_equal(self) -> bool:
        a, b = self.centre
        if not a or not b:
            return False
        va, vb = RANK_VALUE[a[-1]], RANK_VALUE[b[-1]]
        return va == vb or va == 0 or vb == 0

    def _can_refill(self, seat: int) -> bool:
        return bool(self.draws[seat]) and any(not p for p in self.rows[seat])

    def cards_left(self, seat: int) -> int:
        return len(self.draws[seat]) + sum(len(p) for p in self.rows[seat])

    # ------------------------------------------------------------------ handlers
    # Each action type has a parser (`_do_<type>`, the Action's JSON arguments to indices) and
    # a core (`_<type>`) that checks the rules and changes the state. The compact tokens of
    # apply_token go straight to the core: ("play", row place, pile, whole, card, onto),
    # ("call", pile), ("refill", place or None), ("combine", from, to), ("ready",). An index
    # that names no zone is -1, so the core still answers bad-zone in its documented turn.

    def apply_token(self, seat: int, t: int, token: Any) -> str | None:
        # Plays are nearly every action of a game. Outside the equal-rank event no deadline
        # is pending, so a play skips the generic path's timer handling.
        if (token[0] != "play" or self.event_on or self.over or t < self.now
                or seat not in _SEATS):
            return super().apply_token(seat, t, token)
        return self._apply_at(seat, t, token)

    def _dispatch(self, seat: int, t: int, token: Any) -> str | None:
        if token.__class__ is Action:
            kind = token.type
            if kind == "play":
                return self._do_play(token)  # the hot path checks its own argument keys
            if not self.action_args[kind].issuperset(token.args):
                return R_BAD_ACTION
            return getattr(self, self.handlers[kind])(token)
        kind = token[0]
        if kind == "play":
            return self._play(seat, token[1], token[2], token[3], token[4], token[5])
        if kind == "call":
            return self._call(seat, t, token[1])
        if kind == "refill":
            return self._refill(seat, token[1])
        if kind == "combine":
            return self._combine(seat, token[1], token[2])
        if kind == "ready":
            return self._ready(seat)
        return R_UNKNOWN_ACTION

    def token_action(self, seat: int, t: int, token: Any) -> Action:
        kind = token[0]
        if kind == "play":
            _, k, p, whole, card, onto = token
            args: dict[str, Any] = {"card": card, "from": ROW_IDS[k], "to": CENTRE_IDS[p],
                                    "onto": onto}
            if whole:
                args["whole"] = True
        elif kind == "call":
            args = {"pile": CENTRE_IDS[token[1]]}
        elif kind == "combine":
            args = {"from": ROW_IDS[token[1]], "to": ROW_IDS[token[2]]}
        elif kind == "refill" and token[1] is not None:
            args = {"to": ROW_IDS[token[1]]}
        else:
            args = {}
        return Action(t, seat, kind, args)

    def _do_play(self, action: Action) -> str | None:
        args = action.args
        card, src, dst = args.get("card"), args.get("from"), args.get("to")
        onto, whole = args.get("onto"), args.get("whole", False)
        # A play is nearly every action: __class__ tests (JSON gives exact types), and the
        # argument keys counted rather than looked up (card, from and to are there by now).
        if (card.__class__ is not str or src.__class__ is not str or dst.__class__ is not str
                or whole.__class__ is not bool or (onto is not None and onto.__class__ is not str)
                or len(args) != 3 + ("onto" in args) + ("whole" in args)):
            return R_BAD_ACTION
        return self._play(action.player, _ROW_INDEX.get(src, -1), CENTRE_INDEX.get(dst, -1),
                          whole, card, onto)

    def _play(self, seat: int, k: int, pile: int, whole: Any, card: str,
              onto: str | None) -> str | None:
        # The hot path of every game; the checks come in the documented order of the reason
        # codes.
        if whole and not self.whole_stack_plays:
            return R_NOT_ALLOWED
        if self.event_on:
            return R_FROZEN
        if (pile | k) < 0:  # -1 names no zone
            return R_BAD_ZONE
        place = self.rows[seat][k]
        if not place or place[-1] != card:
            return self._missing_card_reason(seat, k, card)
        centre = self.centre
        top = centre[pile]
        if onto is not None and (not top or top[-1] != onto):
            return R_TOO_SLOW
        now = self.now
        # The fit codes _settle keeps: does row place k's top card fit this pile's top?
        if not (self._fits[seat] >> (2 * k + pile)) & 1:
            if now - self.changed_at[pile] < TIE_WINDOW_MS:
                return R_TOO_SLOW
            if top and RANK_VALUE[card] == self._top_value(pile):
                return R_EQUAL_RANK
            return R_NOT_ADJACENT
        # accepted
        if whole:
            top.extend(place)
            count = len(place)
            place.clear()
        else:
            top.append(place.pop())
            count = 1
        if not place:  # a stack left below keeps its rank
            self._row_values[seat][k] = NO_CARD
        self.changed_at[pile] = now
        self.ready[seat] = False
        self._log.append((E_PLAYED, seat, {"card": card, "from": ROW_IDS[k],
                                           "to": CENTRE_IDS[pile], "count": count}, now))
        if not place and self.auto_refill:
            # The row was full before (stress-se keeps it full while the draw pile lasts),
            # so this is the one place to refill.
            self._refill_place(seat, k)
        return None

    def _missing_card_reason(self, seat: int, k: int, card: str) -> str:
        if card in self.rows[seat][k]:
            return R_NOT_TOP
        for other in range(self.players):
            if other != seat and any(p and p[-1] == card for p in self.rows[other]):
                return R_NOT_YOUR_CARD
        return R_NO_SUCH_CARD

    def _do_call(self, action: Action) -> str | None:
        pile_id = action.args.get("pile")
        if pile_id is None:
            return self._call(action.player, action.t, None)
        if not isinstance(pile_id, str):
            return R_BAD_ACTION
        return self._call(action.player, action.t, CENTRE_INDEX.get(pile_id, -1))

    def _call(self, seat: int, t: int, pile: int | None) -> str | None:
        if pile is None:
            pile = self.home_pile(seat)
        elif pile < 0:
            return R_BAD_ZONE
        if not self.event_on:
            if self.last_resolved is not None and t - self.last_resolved < LATE_CALL_MS:
                return R_ALREADY_CALLED if seat in self.last_callers else R_TOO_SLOW
            if not self._false_call_penalty():
                return R_NO_STRESS
            self._emit(SpeedEvent.CALL, seat, pile=CENTRE_IDS[pile], gesture=self.gesture,
                       false=True)
            self._take_centre(seat, (0, 1), mix=True, code=SpeedEvent.PENALTY, why="false-call")
            self._turn_new_cards("false-call")
            return None
        if any(c[0] == seat for c in self.calls):
            return R_ALREADY_CALLED
        self.calls.append([seat, t, pile])
        self._emit(SpeedEvent.CALL, seat, pile=CENTRE_IDS[pile], gesture=self.gesture, false=False)
        if len(self.calls) == self.players:
            # Nobody is left to call: no need to wait for the window to close.
            self._resolve_calls()
        return None

    def _do_refill(self, action: Action) -> str | None:
        to = action.args.get("to")
        if to is None:
            return self._refill(action.player, None)
        if not isinstance(to, str):
            return R_BAD_ACTION
        return self._refill(action.player, _ROW_INDEX.get(to, -1))

    def _refill(self, seat: int, k: int | None) -> str | None:
        """Refill one place (k) or every empty place (None)."""
        if self.auto_refill:
            return R_NOT_ALLOWED
        if self.event_on:
            return R_FROZEN
        draw, row = self.draws[seat], self.rows[seat]
        if k is None:
            targets = [k for k, p in enumerate(row) if not p]
        elif k < 0:
            return R_BAD_ZONE
        else:
            targets = [k] if not row[k] else []
        if not targets or not draw:
            return R_NOTHING_TO_REFILL
        now, log, values = self.now, self._log, self._row_values[seat]
        for k in targets:
            if not draw:
                break
            card = draw.pop()
            row[k].append(card)
            values[k] = RANK_VALUE[card]
            log.append((E_REFILLED, seat, {"card": card, "to": ROW_IDS[k]}, now))
        return None

    def _do_combine(self, action: Action) -> str | None:
        src, dst = action.args.get("from"), action.args.get("to")
        if not (isinstance(src, str) and isinstance(dst, str)):
            return R_BAD_ACTION
        return self._combine(action.player, _ROW_INDEX.get(src, -1), _ROW_INDEX.get(dst, -1))

    def _combine(self, seat: int, a: int, b: int) -> str | None:
        if not self.combine_allowed:
            return R_NOT_ALLOWED
        if self.event_on:
            return R_FROZEN
        if a < 0 or b < 0 or a == b:
            return R_BAD_ZONE
        row = self.rows[seat]
        if not row[a] or not row[b]:
            return R_NO_SUCH_CARD
        if RANK_VALUE[row[a][-1]] != RANK_VALUE[row[b][-1]]:
            return R_NOT_EQUAL
        count = len(row[a])
        row[b].extend(row[a])
        row[a].clear()
        self._row_values[seat][a] = NO_CARD
        self._emit(SpeedEvent.COMBINED, seat, **{"from": ROW_IDS[a]}, to=ROW_IDS[b], count=count)
        return None

    def _do_ready(self, action: Action) -> str | None:
        return self._ready(action.player)

    def _ready(self, seat: int) -> str | None:
        if not self.ready_action:
            return R_NOT_ALLOWED
        if self.event_on:
            return R_FROZEN
        if self.ready[seat]:
            return R_ALREADY_READY
        self.ready[seat] = True
        self._emit(SpeedEvent.READY, seat)
        return None

    # ------------------------------------------------------------------ automatic moves
    def _auto_refill(self, seat: int) -> None:
        row = self.rows[seat]
        for k in range(ROW_SIZE):
            if not row[k]:
                self._refill_place(seat, k)

    def _refill_place(self, seat: int, k: int) -> None:
        """stress-se's automatic refill of one empty place from the draw pile. With stacking a
        drawn card whose rank already lies open goes onto that place, and the next is drawn."""
        draw = self.draws[seat]
        row = self.rows[seat]
        place = row[k]
        values = self._row_values[seat]
        now, log = self.now, self._log
        while draw:
            card = draw.pop()
            value = RANK_VALUE[card]
            if value and self._stack_refill and value in values:  # jokers never stack
                target = values.index(value)
                row[target].append(card)
                log.append((E_STACKED, seat, {"card": card, "to": ROW_IDS[target]}, now))
                continue
            place.append(card)
            values[k] = value
            log.append((E_REFILLED, seat, {"card": card, "to": ROW_IDS[k]}, now))
            return

    def _turn(self, seat: int, pile: int, cause: str) -> None:
        card = self.draws[seat].pop()
        self.centre[pile].append(card)
        self.changed_at[pile] = self.now
        self._emit(SharedEvent.TURNED, seat, card=card, pile=CENTRE_IDS[pile], cause=cause)

    def _take_centre(self, seat: int, piles: tuple[int, ...], *, mix: bool, code: EventCode,
                     why: str) -> None:
        """Seat takes centre piles into its draw pile, shuffled: mixed through the whole
        draw pile (mix) or put underneath it."""
        taken: list[str] = []
        for p in piles:
            taken.extend(self.centre[p])
            self.centre[p] = []
            self.changed_at[p] = self.now
        count = len(taken)  # the centre cards taken, not the draw pile they are mixed into
        if mix:
            taken.extend(self.draws[seat])
            shuffle(self.rng, taken)
            self.draws[seat] = taken
        else:
            shuffle(self.rng, taken)
            self.draws[seat][:0] = taken
        self._emit(code, seat, piles=[CENTRE_IDS[p] for p in piles], count=count, reason=why)

    def _give_card(self, giver: int, taker: int) -> None:
        self.draws[taker].append(self.draws[giver].pop())
        self._emit(SpeedEvent.GAVE, giver, to=taker)

    def _turn_new_cards(self, cause: str) -> None:
        """Both turn a new centre card onto their own side, handling empty draw piles."""
        n = self.players
        have = [bool(self.draws[s]) for s in range(n)]
        if not any(have):
            if self._both_empty_mode() == "fewer-cards-wins":
                self._fewer_cards_wins()
                return
            for s in range(n):
                pile = self.home_pile(s)
                if self.centre[pile]:
                    self._take_centre(s, (pile,), mix=True, code=SharedEvent.TOOK, why="both-empty")
            have = [bool(self.draws[s]) for s in range(n)]
            if not any(have):
                self._fewer_cards_wins()
                return
        if not all(have):
            giver = have.index(True)
            taker = 1 - giver
            if self._one_empty_mode() == "give-a-card":
                if len(self.draws[giver]) >= 2:
                    self._give_card(giver, taker)
                    have = [True, True]
                elif self._lend_last_card():
                    # The taker takes even the giver's last card and turns it alone.
                    self._give_card(giver, taker)
                    have = [False, False]
                    have[taker] = True
        if all(have):
            self._turn_all_home(cause)
        else:
            # variants.md: the player who still has a draw pile turns one card onto the pile
            # on their own side, also when restarting after a Stress; a centre place the
            # Stress emptied on the other side stays empty (only its owner turns onto it).
            seat = have.index(True)
            self._turn(seat, self.home_pile(seat), cause)
        self.ready = [False] * n
        if self.auto_refill:
            for s in range(n):
                self._auto_refill(s)

    def _fewer_cards_wins(self) -> None:
        counts = [self.cards_left(s) for s in range(self.players)]
        low = min(counts)
        if counts.count(low) > 1:
            self.finish_draw("equal-cards")
        else:
            self.finish_win(counts.index(low), "fewer-cards")

    # ------------------------------------------------------------------ time and settling
    def next_deadline(self) -> int | None:
        if self.event_on and self.calls:
            return self.calls[0][1] + TIE_WINDOW_MS
        return None

    def _on_deadline(self, t: int) -> None:
        self._resolve_calls()

    def _resolve_calls(self) -> None:
        calls = self.calls
        first_seat, first_t, pile = calls[0]
        if len(calls) > 1:
            gap = calls[1][1] - first_t
            tie = gap == 0 if self._exact_tie_only() else gap < TIE_WINDOW_MS
        else:
            tie = False
        self.event_on = False
        self.calls = []
        self.last_resolved = self.now
        self.last_callers = [c[0] for c in calls]
        if tie:
            self._emit(SpeedEvent.TIE, None, seats=[c[0] for c in calls])
        self._stress_outcome(first_seat, pile, tie)
        if not self.over:
            self._turn_new_cards("stress")

    def _settle(self) -> None:
        draws, centre = self.draws, self.centre
        flips = 0
        while not self.over:
            if not all(draws):  # only a player without a draw pile can be out of cards
                rows = self.rows
                for seat in range(self.players):
                    if not draws[seat] and not any(rows[seat]):
                        self.finish_win(seat)
                        return
            if self.event_on:
                return
            # tops_equal() and the top values, inlined
            a, b = centre
            t0 = t1 = NO_CARD
            if a:
                t0 = RANK_VALUE[a[-1]]
                if b:
                    t1 = RANK_VALUE[b[-1]]
                    if t0 == t1 or t0 == 0 or t1 == 0:
                        self.event_on = True
                        self._fits = [0] * self.players  # plays are frozen
                        # A joker takes the other top's rank: the event names that rank.
                        if t0 == 0 and t1 != 0:
                            self._emit(SpeedEvent.STRESS, None, rank=b[-1][0], joker=True)
                        elif t1 == 0 and t0 != 0:
                            self._emit(SpeedEvent.STRESS, None, rank=a[-1][0], joker=True)
                        else:
                            self._emit(SpeedEvent.STRESS, None, rank=a[-1][0])
                        return
            elif b:
                t1 = RANK_VALUE[b[-1]]
            # A joker top only counts as the other top when both piles have cards, and then
            # the tops are equal (handled above); alone it counts as 0.
            fits = self._fits = _fit_codes(self._place_fit[t0][t1], self._row_values)
            ready = self.ready
            if True not in ready and any(fits):
                return  # somebody can play: the usual case, settled
            if self._can_anybody_act(fits):
                return
            flips += 1
            if flips > MAX_AUTO_STEPS:
                self.finish_draw("auto-cap")
                return
            self._emit(SpeedEvent.STUCK, None, ready=any(ready))
            self._turn_new_cards("stuck")

    def _can_anybody_act(self, fits: list[int]) -> bool:
        """Whether a player who is not ready has a play (from the fit codes), or a refill
        where refilling is the player's own move."""
        refill_is_action = not self.auto_refill
        for s, ready in enumerate(self.ready):
            if not ready and (fits[s] or (refill_is_action and self._can_refill(s))):
                return True
        return False

    def finish_win(self, seat: int, reason: str = "out-of-cards") -> None:
        super().finish_win(seat, reason)
        self._fits = [0] * self.players
        self._score()

    def finish_draw(self, reason: str = "cap") -> None:
        super().finish_draw(reason)
        self._fits = [0] * self.players

    def _score(self) -> None:
        """Variants with scoring fill self.scores here."""

    # ------------------------------------------------------------------ views
    @property
    def phase(self) -> str:
        if self.over:
            return "over"
        if self.event_on:
            return "equal-ranks"
        if True in self.ready:
            return "waiting-ready"
        return "play"

    def legal_actions(self, player: int) -> list[Action]:
        if self.over:
            return []
        t, out = self.now, []
        if self.event_on:  # only the call counts (each player once)
            if any(c[0] == player for c in self.calls):
                return []
            return [Action(t, player, "call", {"pile": z}) for z in CENTRE_IDS]
        for k, place in enumerate(self.rows[player]):
            if not place:
                continue
            card = place[-1]
            for p in (0, 1):
                if self.fits(card, p):
                    args = {"card": card, "from": ROW_IDS[k], "to": CENTRE_IDS[p],
                            "onto": self.centre[p][-1]}
                    out.append(Action(t, player, "play", args))
                    if self.whole_stack_plays and len(place) > 1:
                        out.append(Action(t, player, "play", {**args, "whole": True}))
        out.extend(self._extra_actions(player))
        return out

    def _extra_actions(self, player: int) -> list[Action]:
        t, out = self.now, []
        row = self.rows[player]
        if not self.auto_refill and self._can_refill(player):
            out.append(Action(t, player, "refill", {}))
        if self.combine_allowed:
            for a in range(ROW_SIZE):
                for b in range(ROW_SIZE):
                    if a != b and row[a] and row[b] and (
                        RANK_VALUE[row[a][-1]] == RANK_VALUE[row[b][-1]]
                    ):
                        out.append(Action(t, player, "combine",
                                          {"from": ROW_IDS[a], "to": ROW_IDS[b]}))
        if self.ready_action and not self.ready[player]:
            out.append(Action(t, player, "ready", {}))
        return out

    def bot_candidates(self, seat: int) -> list[tuple[float, Action]]:
        """Scored ideas for rules_engine.bots: call first, then plays that keep a chain going,
        whole stacks, refills and combining."""
        t, token_action = self.now, self.token_action
        scores, tokens = self._bot_scored(seat)
        return [(score, token_action(seat, t, token))
                for score, token in zip(scores, tokens, strict=True)]

    def _bot_scored(self, seat: int) -> tuple[list[float], list[tuple]]:
        tokens = self._bot_tokens(seat)
        return self._bot_scores(seat, tokens), tokens

    def _bot_pick(self, seat: int, skill: float, rng: Any) -> tuple | None:
        # Game._bot_pick with the same draws; where plays are the only moves, the fit code
        # names the candidates, and only the picked one is completed and only a wanted best
        # is scored (most plans have one candidate or none, or pick at random).
        if self._plays_only:
            code = self._fits[seat]  # zero during the equal-rank event and at the end
            if code:
                # Pick among the fit table's candidates; only the pick is completed.
                candidates = _CANDIDATES[code]
                n = len(candidates)
                if n == 1:
                    _, k, p, _ = candidates[0]
                elif rng.random() >= skill:
                    _, k, p, _ = candidates[int(rng.random() * n)]
                else:
                    scores = self._bot_scores(seat, candidates)
                    _, k, p, _ = best_candidate(scores, candidates, rng)
                return ("play", k, p, False, self.rows[seat][k][-1], self.centre[p][-1])
            if not self.event_on:
                return None  # no play, and nothing else is ever a candidate here
        return super()._bot_pick(seat, skill, rng)

    def _bot_tokens(self, seat: int) -> list[tuple]:
        """The bots' candidates as compact tokens, in bot_candidates() order: the call, or
        each fitting row top onto each pile it fits (then as a whole stack), refill, combine.
        A play names the card it moves and the top it aims at."""
        if self.over:
            return []
        if self.event_on:
            for c in self.calls:
                if c[0] == seat:
                    return []
            return [_CALL_TOKENS[self._call_pile(seat)]]
        row = self.rows[seat]
        code = self._fits[seat]  # kept up to date by _settle
        tokens: list[tuple] = []
        if code:
            centre = self.centre  # a pile a card fits on is never empty
            if self.whole_stack_plays:
                for _, k, p, _ in _CANDIDATES[code]:
                    place = row[k]
                    tokens.append(("play", k, p, False, place[-1], centre[p][-1]))
                    if len(place) > 1:
                        tokens.append(("play", k, p, True, place[-1], centre[p][-1]))
            else:
                tokens = [("play", k, p, False, row[k][-1], centre[p][-1])
                          for _, k, p, _ in _CANDIDATES[code]]
        if self._plays_only:
            return tokens
        if self.draws[seat]:
            if not self.auto_refill and not all(row):
                tokens.append(_REFILL_TOKEN)
            if self.combine_allowed:
                vals = self._row_values[seat]
                for i, j in _PAIRS:
                    vi = vals[i]
                    if vi != NO_CARD and vi == vals[j]:
                        tokens.append(_COMBINE_TOKENS[i, j])
        return tokens

    def _bot_scores(self, seat: int, tokens: list[tuple]) -> list[float]:
        """A preference per token of _bot_tokens(): the call 10; a play 1, plus one for each
        card in the row that could follow it (the next play is ready), plus 0.5 when it
        empties its place while the draw pile lasts, plus the stack size for a whole stack;
        refill 3; combine 2.5."""
        row = self.rows[seat]
        values = self._row_values[seat]
        v0, v1, v2, v3 = values
        has_draw = bool(self.draws[seat])
        follows = self._follows
        scores = []
        for token in tokens:
            kind = token[0]
            if kind == "play":
                k = token[1]
                near = follows[values[k]]
                size = len(row[k])
                score = 1.0 + (near[v0] + near[v1] + near[v2] + near[v3])
                if size == 1 and has_draw:
                    score += 0.5
                if token[3]:
                    score += size
            else:
                score = _TOKEN_SCORES[kind]
            scores.append(score)
        return scores

    def _call_pile(self, seat: int) -> int:
        """The pile a sensible player slaps (only stress-se's first-chooses makes it matter)."""
        return self.home_pile(seat)

    def board(self, viewer: int | None = None) -> dict:
        show = viewer is None
        out = self._board_head()
        out["centre"] = [
            self.zone(CENTRE_IDS[p], "centre", self.centre[p], up=True, show=True)
            for p in (0, 1)
        ]
        out["seats"] = [
            {
                "seat": s,
                "zones": [self.zone("draw", "draw", self.draws[s], up=False, show=show)]
                + [self.zone(ROW_IDS[k], "row", self.rows[s][k], up=True, show=True)
                   for k in range(ROW_SIZE)],
            }
            for s in range(self.players)
        ]
        out["calls"] = [{"player": c[0], "t": c[1], "pile": CENTRE_IDS[c[2]]} for c in self.calls]
        out["ready"] = list(self.ready)
        out["call_word"] = self.call_word
        return out

    # ------------------------------------------------------------------ serialisation
    def _state_json(self) -> dict:
        return {
            "centre": [list(p) for p in self.centre],
            "changed_at": list(self.changed_at),
            "draws": [list(d) for d in self.draws],
            "rows": [[list(p) for p in row] for row in self.rows],
            "event_on": self.event_on,
            "calls": [list(c) for c in self.calls],
            "last_resolved": self.last_resolved,
            "last_callers": list(self.last_callers),
            "ready": list(self.ready),
        }

    def _load_state(self, d: dict) -> None:
        self.centre = [list(p) for p in d["centre"]]
        self.changed_at = list(d["changed_at"])
        self.draws = [list(x) for x in d["draws"]]
        self.rows = [[list(p) for p in row] for row in d["rows"]]
        self.event_on = d["event_on"]
        self.calls = [list(c) for c in d["calls"]]
        self.last_resolved = d["last_resolved"]
        self.last_callers = list(d.get("last_callers", []))  # absent from older snapshots
        self.ready = list(d["ready"])
        self._recount_rows()
        self._fits = self._current_fits()

    def _current_fits(self) -> list[int]:
        """The fit codes the state calls for: none while plays are impossible (the equal-rank
        event, the end), else _fit_codes for the current tops."""
        if self.over or self.event_on:
            return [0] * self.players
        t0, t1 = (NO_CARD if v is None else v for v in (self._top_value(0), self._top_value(1)))
        return _fit_codes(self._place_fit[t0][t1], self._row_values)

    # ------------------------------------------------------------------ invariants
    def _all_cards(self) -> list[str]:
        out = [c for p in self.centre for c in p]
        for s in range(self.players):
            out.extend(self.draws[s])
            for place in self.rows[s]:
                out.extend(place)
        return out

    def _check_shapes(self, settled: bool = True) -> list[str]:
        problems = []
        if len(self.centre) != 2:
            problems.append("there must be two centre piles")
        stacks = self.stack_at_deal or self._stacking() or self.combine_allowed
        for s in range(self.players):
            row = self.rows[s]
            if len(row) != ROW_SIZE:
                problems.append(f"seat {s}: the row must have {ROW_SIZE} places")
            for k, place in enumerate(row):
                if len(place) < 2:
                    continue  # (debug mode checks every action: keep the usual case short)
                if not stacks:
                    problems.append(f"seat {s} row-{k}: no stacking in this game")
                if len({RANK_VALUE[c] for c in place}) > 1:
                    problems.append(f"seat {s} row-{k}: a stack holds one rank only")
                if JOKER in place:
                    problems.append(f"seat {s} row-{k}: jokers never stack")
            if self.auto_refill and self.draws[s] and not all(row):
                problems.append(f"seat {s}: the row must be full while the draw pile lasts")
            if self._row_values[s] != _row_values(row):
                problems.append(f"seat {s}: the row's top values are out of step")
        if settled and not self.over and self.tops_equal() and not self.event_on:
            problems.append("equal tops without the equal-rank event")
        if settled and self._fits != self._current_fits():
            problems.append("the rows' fit codes are out of step")
        return problems
