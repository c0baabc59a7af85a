"""SpeedGame: what stress-se, stress-de and stressi-fi share.

Two players, two shared centre piles, a face-down draw pile (the German "hand stack") and a
row of four face-up places per player. Cards go from the own row onto a centre pile one rank
up or down. When both centre tops show the same rank the equal-rank event is on: plays are
frozen and only the call (the "Stress!" slap) is accepted. The first call opens a tie window;
when it closes (or every player has called) the variant's penalty applies and both players
turn new centre cards. When nobody can act the engine turns new cards by itself.

Variants plug in through class flags and a few hook methods (bottom of the class). This
class is the rules as a reader checks them; the registered classes are accelerated
(rules_engine.speed_fast: the same answers, computed with derived state and compact tokens).
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
    TIE_WINDOW_MS,
    Game,
)
from rules_engine.positions import PositionError, a_list, flags
from rules_engine.variant import VariantInfo

#: a call arriving this soon after an equal-rank event was settled is the slow half of that
#: race (rejected too-slow), never a false call.
LATE_CALL_MS = 1000
ROW_SIZE = 4
ROW_IDS = tuple(f"row-{k}" for k in range(ROW_SIZE))
_ROW_INDEX = {z: i for i, z in enumerate(ROW_IDS)}

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
    STRESS = "stress", ("rank", "joker", "gesture")
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


class SpeedGame(Game):
    handlers: ClassVar[dict[str, str]] = {
        "play": "_do_play",
        "call": "_do_call",
        "refill": "_do_refill",
        "combine": "_do_combine",
        "ready": "_do_ready",
    }
    vocabulary = VOCABULARY
    signal_events: ClassVar[frozenset[str]] = frozenset({SharedEvent.TURNED})

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
    @classmethod
    def bind(cls, info: VariantInfo) -> None:
        super().bind(info)
        cls.take_facts(info)

    @classmethod
    def take_facts(cls, info: VariantInfo) -> None:
        """This class plays `info`'s variant: its switches from the variant's UiFacts."""
        cls.variant = info
        cls.auto_refill = not info.refill_is_action
        cls.whole_stack_plays = info.whole_stack_plays
        cls.combine_allowed = info.combine_allowed
        cls.ready_action = info.ready_action
        cls.own_pile_across = info.own_pile_across
        cls.call_word = info.call_word

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

    def _rows_replaced(self) -> None:
        """The rows were set wholesale (a deal, a position, a stored state): the accelerator
        rebuilds what it derives from them."""

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
        self._rows_replaced()
        self._turn_all_home("start")

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
        self._rows_replaced()
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
        """Whether the card may be played onto that centre pile: one rank up or down from its
        top (K and A neighbours where the variant wraps); a joker fits anywhere where jokers
        are wild; nothing fits an empty pile or a lone joker top."""
        top = self._top_value(pile)
        return top is not None and self._fits_value(RANK_VALUE[card], top)

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
    # a core (`_<type>`) that checks the rules, in the documented order of the reason codes,
    # and changes the state. An index that names no zone is -1, so the core still answers
    # bad-zone in its documented turn.

    def _do_play(self, action: Action) -> str | None:
        args = action.args
        card, src, dst = args.get("card"), args.get("from"), args.get("to")
        onto, whole = args.get("onto"), args.get("whole", False)
        if not (isinstance(card, str) and isinstance(src, str) and isinstance(dst, str)
                and isinstance(whole, bool) and (onto is None or isinstance(onto, str))):
            return R_BAD_ACTION
        return self._play(action.player, _ROW_INDEX.get(src, -1), CENTRE_INDEX.get(dst, -1),
                          whole, card, onto)

    def _play(self, seat: int, k: int, pile: int, whole: bool, card: str,
              onto: str | None) -> str | None:
        if whole and not self.whole_stack_plays:
            return R_NOT_ALLOWED
        if self.event_on:
            return R_FROZEN
        if pile < 0 or k < 0:
            return R_BAD_ZONE
        place = self.rows[seat][k]
        if not place or place[-1] != card:
            return self._missing_card_reason(seat, k, card)
        top = self.centre[pile]
        if onto is not None and (not top or top[-1] != onto):
            return R_TOO_SLOW  # the pile the player aimed at has changed under the hand
        if not self.fits(card, pile):
            if self.now - self.changed_at[pile] < TIE_WINDOW_MS:
                return R_TOO_SLOW  # it fitted the top another hand has just covered
            if top and RANK_VALUE[card] == self._top_value(pile):
                return R_EQUAL_RANK
            return R_NOT_ADJACENT
        if whole:
            count = len(place)
            top.extend(place)
            place.clear()
        else:
            top.append(place.pop())
            count = 1
        self.changed_at[pile] = self.now
        self.ready[seat] = False
        self._emit(SpeedEvent.PLAYED, seat, card=card, **{"from": ROW_IDS[k]},
                   to=CENTRE_IDS[pile], count=count)
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
        for k in targets:
            if not draw:
                break
            card = draw.pop()
            row[k].append(card)
            self._emit(SpeedEvent.REFILLED, seat, card=card, to=ROW_IDS[k])
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
        draw, row = self.draws[seat], self.rows[seat]
        while draw:
            card = draw.pop()
            value = RANK_VALUE[card]
            same = [j for j, p in enumerate(row) if p and RANK_VALUE[p[-1]] == value]
            if value and self._stacking() and same:  # jokers never stack
                row[same[0]].append(card)
                self._emit(SpeedEvent.STACKED, seat, card=card, to=ROW_IDS[same[0]])
                continue
            row[k].append(card)
            self._emit(SpeedEvent.REFILLED, seat, card=card, to=ROW_IDS[k])
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
        """After every accepted action and fired deadline: a player out of cards wins; equal
        tops start the equal-rank event; and while nobody can act, both turn new cards."""
        flips = 0
        while not self.over:
            for seat in range(self.players):
                if not self.draws[seat] and not any(self.rows[seat]):
                    self.finish_win(seat)
                    return
            if self.event_on:
                return
            if self.tops_equal():
                self._start_equal_ranks()
                return
            if self._anybody_can_act():
                return
            flips += 1
            if flips > MAX_AUTO_STEPS:
                self.finish_draw("auto-cap")
                return
            self._emit(SpeedEvent.STUCK, None, ready=any(self.ready))
            self._turn_new_cards("stuck")

    def _start_equal_ranks(self) -> None:
        """The centre tops are equal: plays freeze until the call is settled. A joker takes
        the other top's rank, and the event names that rank, and the gesture the call goes
        with at this table (a slap, a pointing finger, a shout, a knock)."""
        self.event_on = True
        a, b = self.centre[0][-1], self.centre[1][-1]
        if a == JOKER and b != JOKER:
            self._emit(SpeedEvent.STRESS, None, rank=b[0], joker=True, gesture=self.gesture)
        elif b == JOKER and a != JOKER:
            self._emit(SpeedEvent.STRESS, None, rank=a[0], joker=True, gesture=self.gesture)
        else:
            self._emit(SpeedEvent.STRESS, None, rank=a[0], gesture=self.gesture)

    def _anybody_can_act(self) -> bool:
        """Whether a player who is not ready has a play, or a refill where refilling is the
        player's own move."""
        for seat in range(self.players):
            if self.ready[seat]:
                continue
            if any(place and self.fits(place[-1], pile)
                   for place in self.rows[seat] for pile in (0, 1)):
                return True
            if not self.auto_refill and self._can_refill(seat):
                return True
        return False

    def finish_win(self, seat: int, reason: str = "out-of-cards") -> None:
        super().finish_win(seat, reason)
        self._score()

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
        """Scored ideas for rules_engine.bots, in this order: the call (10), each fitting row
        top onto each pile it fits (_play_score), then as a whole stack, refill (3), and
        combining equal row tops (2.5)."""
        t, row = self.now, self.rows[seat]
        if self.over:
            return []
        if self.event_on:
            if any(c[0] == seat for c in self.calls):
                return []
            pile = CENTRE_IDS[self._call_pile(seat)]
            return [(10.0, Action(t, seat, "call", {"pile": pile}))]
        out: list[tuple[float, Action]] = []
        for k, place in enumerate(row):
            for pile in (0, 1):
                if place and self.fits(place[-1], pile):
                    args = {"card": place[-1], "from": ROW_IDS[k], "to": CENTRE_IDS[pile],
                            "onto": self.centre[pile][-1]}
                    out.append((self._play_score(seat, k, False), Action(t, seat, "play", args)))
                    if self.whole_stack_plays and len(place) > 1:
                        out.append((self._play_score(seat, k, True),
                                    Action(t, seat, "play", {**args, "whole": True})))
        if self.draws[seat]:
            if not self.auto_refill and not all(row):
                out.append((3.0, Action(t, seat, "refill", {})))
            if self.combine_allowed:
                for a in range(ROW_SIZE):
                    for b in range(a + 1, ROW_SIZE):
                        if row[a] and row[b] and RANK_VALUE[row[a][-1]] == RANK_VALUE[row[b][-1]]:
                            out.append((2.5, Action(t, seat, "combine",
                                                    {"from": ROW_IDS[a], "to": ROW_IDS[b]})))
        return out

    def _play_score(self, seat: int, k: int, whole: bool) -> float:
        """A play's preference: 1, plus one for each other row top that would fit onto the
        card (the next play is ready), plus 0.5 when it empties its place while the draw pile
        lasts, plus the stack's size for a whole stack."""
        row = self.rows[seat]
        value = RANK_VALUE[row[k][-1]]
        follow = sum(1 for place in row
                     if place and 0 < RANK_VALUE[place[-1]] != value
                     and self._fits_value(RANK_VALUE[place[-1]], value))
        score = 1.0 + follow
        size = len(row[k])
        if size == 1 and self.draws[seat]:
            score += 0.5
        if whole:
            score += size
        return score

    def _fits_value(self, value: int, top: int) -> bool:
        """fits() by rank values: a card of `value` onto a top of `top`."""
        if value == 0:
            return self._jokers_wild()
        return top != 0 and ranks_adjacent(value, top, self._wraps())

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
        self._rows_replaced()

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
        if settled and not self.over and self.tops_equal() and not self.event_on:
            problems.append("equal tops without the equal-rank event")
        return problems
