"""spit: Spit after Pagat (source 002, Norwegian Bokmål).

Two players, 26 cards each. Each lays out five piles of 1, 2, 3, 4 and 5 cards face down
with the top of each turned up; the rest is a face-down reserve. Both play at once onto two
centre piles (one rank up or down, ace wraps), turn face-down tops, and move a top card into
an empty space. When nobody can do any of that the engine turns reserve cards by itself.
A deal ends when a layout is empty or the game locks with no reserve left; then the players
race to put a hand on a centre pile, shuffle what they took with their own cards and lay out
again. Fewer than 16 cards means a partial layout, no reserve, and a one-centre-pile deal.
A player with no cards left at all has won. A whole game is a sequence of deals in one state.

Position form (docs/engine-spit-james-bond.md): piles listed bottom to top.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rules_engine.actions import Action
from rules_engine.cards import RANK_VALUE, full_deck, ranks_adjacent
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
from rules_engine.options import OptionSpec
from rules_engine.positions import (
    PositionError,
    a_list,
    an_object,
    check_keys,
    flags,
    one_of,
    whole_number,
)
from rules_engine.variant import VariantInfo, dim, register

PILES = 5
#: the layout is 1+2+3+4+5 cards; whatever is beyond that is reserve.
LAYOUT_CARDS = 15
PILE_IDS = tuple(f"pile-{k + 1}" for k in range(PILES))
#: nobody may stall the game (ms): the pile choice at the end of a deal, and the only reserve
#: holder's pick of a pile, are made by the engine this long after they became due.
CHOOSE_LIMIT_MS = 5000
SPIT_LIMIT_MS = 5000
PILE_INDEX = {z: i for i, z in enumerate(PILE_IDS)}

# Phases (board["phase"]).
P_PLAY = "play"
#: the only player with reserve left picks the centre pile for every stop of this deal.
P_RESERVE_PILE = "reserve-pile"
#: end of a two-pile deal: both put a hand on a centre pile.
P_CHOOSE = "choose-pile"
P_OVER = "over"


class SpitAction(ActionType):
    """Spit's action types and their arguments (docs/scenarios.md)."""

    PLAY = "play", {"from": Arg("layout"), "to": Arg("centre"),
                    "card": Arg("card", required=False), "onto": Arg("card", required=False)}
    TURN = "turn", {"pile": Arg("layout")}
    MOVE = "move", {"from": Arg("layout"), "to": Arg("layout"),
                    "card": Arg("card", required=False)}
    SPIT = "spit", {"to": Arg("centre")}
    CHOOSE = "choose", {"pile": Arg("centre")}


class SpitEvent(EventCode):
    """Spit's own event codes, with their data fields."""

    DEALT = "dealt", ("deal", "reserve")
    PLAYED = "played", ("card", "from", "to")
    UNCOVERED = "uncovered", ("pile", "card")
    MOVED = "moved", ("card", "from", "to")
    STUCK = "stuck"
    LOCKED = "locked", ("pile",)
    DEAL_OVER = "deal-over", ("reason",)
    CHOSE = "chose", ("pile",)
    PILE_RACE = "pile-race", ("pile", "reason")
    CHOOSE_AGAIN = "choose-again", ("pile",)
    TIME_UP = "time-up", ("phase", "seats")


class SpitReason(ReasonCode):
    """Spit's own reason codes."""

    PILE_NOT_USED = "pile-not-used"
    FACE_DOWN = "face-down"
    NOT_FACE_DOWN = "not-face-down"
    EMPTY_PILE = "empty-pile"
    NOT_EMPTY = "not-empty"
    NO_RESERVE_TURN = "no-reserve-turn"
    ALREADY_CHOSE = "already-chose"


VOCABULARY = Vocabulary(
    actions=tuple(SpitAction),
    events=(*ENGINE_EVENTS, SharedEvent.TURNED, SharedEvent.TOOK, *SpitEvent),
    reasons=(*ENGINE_REASONS, Reason.NOT_NOW, Reason.BAD_ZONE, Reason.NO_SUCH_CARD,
             Reason.NOT_YOUR_CARD, Reason.NOT_TOP, Reason.NOT_ADJACENT, Reason.EQUAL_RANK,
             Reason.TOO_SLOW, *SpitReason),
)

R_BAD_ZONE = Reason.BAD_ZONE
R_NOT_NOW = Reason.NOT_NOW
R_NO_SUCH_CARD = Reason.NO_SUCH_CARD
R_NOT_YOUR_CARD = Reason.NOT_YOUR_CARD
R_NOT_TOP = Reason.NOT_TOP
R_FACE_DOWN = SpitReason.FACE_DOWN
R_NOT_FACE_DOWN = SpitReason.NOT_FACE_DOWN
R_EMPTY_PILE = SpitReason.EMPTY_PILE
R_NOT_EMPTY = SpitReason.NOT_EMPTY
R_NOT_ADJACENT = Reason.NOT_ADJACENT
R_EQUAL_RANK = Reason.EQUAL_RANK
R_TOO_SLOW = Reason.TOO_SLOW
R_PILE_NOT_USED = SpitReason.PILE_NOT_USED
R_NOT_YOURS_TO_TURN = SpitReason.NO_RESERVE_TURN
R_ALREADY_CHOSE = SpitReason.ALREADY_CHOSE

OPTIONS = (
    OptionSpec("repeat_choice", "bool", False, source="source", section="options"),
)


#: every (card, centre top) pair one rank apart, ace wrapping: a set lookup on the hot path.
_FIT_PAIRS = frozenset(
    (a, b) for a in full_deck() for b in full_deck()
    if ranks_adjacent(RANK_VALUE[a], RANK_VALUE[b], True)
)
#: rank values one apart from each rank value (wrapping).
_NEIGHBOURS = {v: frozenset(w for w in range(1, 14) if ranks_adjacent(v, w, True))
               for v in range(1, 14)}


def _fits(card: str, top: str) -> bool:
    return (card, top) in _FIT_PAIRS


def _maybe_str(value: Any) -> bool:
    """An optional string argument (a card named for checking) is well formed."""
    return value is None or isinstance(value, str)


class SpitGame(Game):
    handlers: ClassVar[dict[str, str]] = {
        "play": "_do_play",
        "turn": "_do_turn",
        "move": "_do_move",
        "spit": "_do_spit",
        "choose": "_do_choose",
    }
    vocabulary = VOCABULARY
    signal_events: ClassVar[frozenset[str]] = frozenset({SpitEvent.DEALT, SharedEvent.TURNED})
    bot_call_types: ClassVar[frozenset[str]] = frozenset({"choose"})
    position_keys: ClassVar[frozenset[str]] = frozenset(
        {"centre", "seats", "no_reserve", "locked", "phase", "choices", "deal"})
    seat_keys: ClassVar[frozenset[str]] = frozenset({"piles", "up", "reserve"})

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        # layout[seat][k]: cards bottom to top; only the top can be face up.
        self.layout: list[list[list[str]]] = [[[] for _ in range(PILES)] for _ in range(2)]
        self.up: list[list[bool]] = [[False] * PILES for _ in range(2)]
        self.reserve: list[list[str]] = [[], []]  # top is the last card
        self.centre: list[list[str]] = [[], []]
        self.changed_at: list[int] = [NEVER, NEVER]
        #: the seat without reserve in a one-centre-pile deal (None: a two-pile deal).
        self.no_reserve: int | None = None
        #: the centre pile the sole reserve holder must use at every stop (None: not chosen).
        self.locked: int | None = None
        self.stage = P_PLAY
        #: pile choices at the end of a deal: [centre index, t] per seat, or None.
        self.choices: list[list[int] | None] = [None, None]
        #: when the current phase began (its deadline counts from there).
        self.stage_at = 0
        self.deal_no = 1

    def _start(self) -> None:
        self.stage_at = self.now  # a loaded position may start in a waiting phase
        super()._start()

    # ------------------------------------------------------------------ deal
    def _deal(self) -> None:
        deck = full_deck()
        self.rng.shuffle(deck)
        self._start_deal([deck[:26], deck[26:]])

    def _start_deal(self, hands: list[list[str]]) -> None:
        """Lay out each seat's (already shuffled) cards and turn the starting reserve cards."""
        for seat in (0, 1):
            cards = hands[seat]
            piles: list[list[str]] = [[] for _ in range(PILES)]
            # Fill the layout in order, the 1-pile first; the rest is reserve.
            for k in range(PILES):
                take = min(k + 1, len(cards))
                piles[k] = cards[:take]
                cards = cards[take:]
            self.layout[seat] = piles
            self.up[seat] = [bool(p) for p in piles]
            self.reserve[seat] = cards
        self.centre = [[], []]
        self.changed_at = [self.now, self.now]
        self.locked = None
        self.choices = [None, None]
        self.stage = P_PLAY
        short = [s for s in (0, 1) if not self.reserve[s]]
        self._emit(SpitEvent.DEALT, None, deal=self.deal_no,
                   reserve=[len(self.reserve[0]), len(self.reserve[1])])
        if len(short) == 1:
            # One centre pile, on the reserve holder's side, started with their card.
            self.no_reserve = short[0]
            holder = 1 - short[0]
            self._turn_reserve(holder, holder, "start")
        else:
            self.no_reserve = None
            for seat in (0, 1):
                if self.reserve[seat]:
                    self._turn_reserve(seat, seat, "start")

    def _turn_reserve(self, seat: int, pile: int, cause: str) -> None:
        card = self.reserve[seat].pop()
        self.centre[pile].append(card)
        self.changed_at[pile] = self.now
        self._emit(SharedEvent.TURNED, seat, card=card, pile=CENTRE_IDS[pile], cause=cause)

    # ------------------------------------------------------------------ position
    def _load_position(self, position: dict) -> None:
        centre = a_list(position.get("centre"), "centre (two piles, bottom to top)", length=2)
        self.centre = [self._cards_from(p, f"centre-{i}") for i, p in enumerate(centre)]
        for seat, spec in enumerate(position["seats"]):
            piles = a_list(spec.get("piles"), f"seat {seat} piles", length=PILES)
            self.layout[seat] = [self._cards_from(p, f"seat {seat} piles") for p in piles]
            up = spec.get("up")
            if up is None:
                up = [bool(p) for p in self.layout[seat]]
            up = flags(up, PILES, f"seat {seat} up")
            self.up[seat] = [u and bool(p) for u, p in zip(up, self.layout[seat], strict=True)]
            self.reserve[seat] = self._cards_from(spec.get("reserve", []), f"seat {seat} reserve")
        self.no_reserve = one_of(position.get("no_reserve"), (None, 0, 1), "no_reserve")
        locked = one_of(position.get("locked"), (None, *CENTRE_IDS), "locked")
        self.locked = None if locked is None else CENTRE_INDEX[locked]
        self.stage = one_of(position.get("phase", P_PLAY), (P_PLAY, P_RESERVE_PILE, P_CHOOSE),
                            "phase")
        choices = position.get("choices")
        if choices is None:
            choices = [None, None]
        a_list(choices, "choices", length=2)
        if self.stage != P_CHOOSE and any(c is not None for c in choices):
            raise PositionError("choices belong to the choose-pile phase")
        self.choices = [None if c is None else self._choice(c) for c in choices]
        if self.stage == P_RESERVE_PILE and (
                self.locked is not None or self.no_reserve is not None
                or [bool(r) for r in self.reserve].count(True) != 1):
            raise PositionError("phase reserve-pile: a two-pile deal where exactly one player "
                                "has reserve cards and no pile is locked yet")
        if self.stage == P_CHOOSE and self.no_reserve is not None:
            raise PositionError("phase choose-pile ends a two-pile deal (no_reserve is null)")
        self.deal_no = whole_number(position.get("deal", 1), "deal", minimum=1)
        problems = self._check_shapes()
        if problems:
            raise PositionError("; ".join(problems))

    @staticmethod
    def _choice(choice: Any) -> list[int]:
        where = 'choices: null or {"pile": "centre-0", "t": ms} per seat'
        check_keys(an_object(choice, where), ("pile", "t"), where)
        pile = one_of(choice.get("pile"), CENTRE_IDS, where)
        return [CENTRE_INDEX[pile], whole_number(choice.get("t"), where)]

    def position(self) -> dict:
        return {
            "centre": [list(p) for p in self.centre],
            "seats": [
                {
                    "piles": [list(p) for p in self.layout[s]],
                    "up": list(self.up[s]),
                    "reserve": list(self.reserve[s]),
                }
                for s in (0, 1)
            ],
            "no_reserve": self.no_reserve,
            "locked": None if self.locked is None else CENTRE_IDS[self.locked],
            "phase": self.stage,
            "choices": [None if c is None else {"pile": CENTRE_IDS[c[0]], "t": c[1]}
                        for c in self.choices],
            "deal": self.deal_no,
            "now": self.now,
            "seed": self.seed,
        }

    # ------------------------------------------------------------------ rules helpers
    def centre_in_use(self) -> tuple[int, ...]:
        if self.no_reserve is None:
            return (0, 1)
        return (1 - self.no_reserve,)

    def layout_count(self, seat: int) -> int:
        return sum(len(p) for p in self.layout[seat])

    def cards_left(self, seat: int) -> int:
        return self.layout_count(seat) + len(self.reserve[seat])

    def _wanted_ranks(self) -> frozenset[int] | set[int]:
        """Rank values that fit on some centre pile in use."""
        out: set[int] = set()
        for p in self.centre_in_use():
            pile = self.centre[p]
            if pile:
                out |= _NEIGHBOURS[RANK_VALUE[pile[-1]]]
        return out

    def _can_play(self, seat: int, wanted: frozenset[int] | set[int] | None = None) -> bool:
        if wanted is None:
            wanted = self._wanted_ranks()
        layout, up = self.layout[seat], self.up[seat]
        for k in range(PILES):
            pile = layout[k]
            if pile and up[k] and RANK_VALUE[pile[-1]] in wanted:
                return True
        return False

    def _can_uncover(self, seat: int) -> bool:
        """A face-down top to turn, or a top that can go into a space to free a card.

        Moving a lone card into a space is legal but uncovers nothing, so it does not count:
        the source's stuck rule names only moves that uncover a card."""
        layout, up = self.layout[seat], self.up[seat]
        space = False
        deep = False
        for k in range(PILES):
            pile = layout[k]
            if not pile:
                space = True
            elif not up[k]:
                return True
            elif len(pile) > 1:
                deep = True
        return space and deep

    def _stuck(self) -> bool:
        if self._can_uncover(0) or self._can_uncover(1):
            return False
        wanted = self._wanted_ranks()
        return not (self._can_play(0, wanted) or self._can_play(1, wanted))

    # ------------------------------------------------------------------ handlers
    def _do_play(self, action: Action) -> str | None:
        args = action.args
        card, src, dst, onto = args.get("card"), args.get("from"), args.get("to"), args.get("onto")
        if not (isinstance(src, str) and isinstance(dst, str) and _maybe_str(card)
                and _maybe_str(onto)):
            return R_BAD_ACTION
        if self.stage != P_PLAY:
            return R_NOT_NOW
        k, pile = PILE_INDEX.get(src), CENTRE_INDEX.get(dst)
        if k is None or pile is None:
            return R_BAD_ZONE
        if pile not in self.centre_in_use():
            return R_PILE_NOT_USED
        seat = action.player
        stack = self.layout[seat][k]
        reason = self._top_reason(seat, k, card)
        if reason is not None:
            return reason
        card = stack[-1]
        top = self.centre[pile]
        if onto is not None and (not top or top[-1] != onto):
            return R_TOO_SLOW
        if not top or not _fits(card, top[-1]):
            # The top changed a moment ago: the other hand got there first.
            if action.t - self.changed_at[pile] < TIE_WINDOW_MS:
                return R_TOO_SLOW
            if top and RANK_VALUE[card] == RANK_VALUE[top[-1]]:
                return R_EQUAL_RANK
            return R_NOT_ADJACENT
        top.append(stack.pop())
        self.up[seat][k] = False  # the card below (if any) is still face down
        self.changed_at[pile] = action.t
        self._emit(SpitEvent.PLAYED, seat, card=card, **{"from": src}, to=dst)
        return None

    def _top_reason(self, seat: int, k: int, card: Any) -> str | None:
        """Why the named card cannot leave pile k (None: it can)."""
        stack = self.layout[seat][k]
        if not stack:
            return R_EMPTY_PILE if card is None else self._missing(seat, card)
        if not self.up[seat][k]:
            return R_FACE_DOWN
        if card is not None and stack[-1] != card:
            return R_NOT_TOP if card in stack else self._missing(seat, card)
        return None

    def _missing(self, seat: int, card: Any) -> str:
        other = 1 - seat
        for k in range(PILES):
            pile = self.layout[other][k]
            if pile and self.up[other][k] and pile[-1] == card:
                return R_NOT_YOUR_CARD
        return R_NO_SUCH_CARD

    def _do_turn(self, action: Action) -> str | None:
        src = action.args.get("pile")
        if not isinstance(src, str):
            return R_BAD_ACTION
        if self.stage != P_PLAY:
            return R_NOT_NOW
        k = PILE_INDEX.get(src)
        if k is None:
            return R_BAD_ZONE
        seat = action.player
        if not self.layout[seat][k]:
            return R_EMPTY_PILE
        if self.up[seat][k]:
            return R_NOT_FACE_DOWN
        self.up[seat][k] = True
        self._emit(SpitEvent.UNCOVERED, seat, pile=src, card=self.layout[seat][k][-1])
        return None

    def _do_move(self, action: Action) -> str | None:
        args = action.args
        src, dst = args.get("from"), args.get("to")
        if not (isinstance(src, str) and isinstance(dst, str) and _maybe_str(args.get("card"))):
            return R_BAD_ACTION
        if self.stage != P_PLAY:
            return R_NOT_NOW
        a, b = PILE_INDEX.get(src), PILE_INDEX.get(dst)
        if a is None or b is None or a == b:
            return R_BAD_ZONE
        seat = action.player
        reason = self._top_reason(seat, a, args.get("card"))
        if reason is not None:
            return reason
        layout = self.layout[seat]
        if layout[b]:
            return R_NOT_EMPTY  # no building on the own layout
        # Any face-up top may go into an empty space, a lone card too (move (c)); a lone
        # card uncovers nothing, so it is no way out of a stuck position (see _can_uncover)
        # and the bots never make that move.
        card = layout[a].pop()
        layout[b].append(card)
        self.up[seat][a] = False
        self.up[seat][b] = True
        self._emit(SpitEvent.MOVED, seat, card=card, **{"from": src}, to=dst)
        return None

    def _do_spit(self, action: Action) -> str | None:
        dst = action.args.get("to")
        if not isinstance(dst, str):
            return R_BAD_ACTION
        if self.stage != P_RESERVE_PILE:
            return R_NOT_NOW
        pile = CENTRE_INDEX.get(dst)
        if pile is None:
            return R_BAD_ZONE
        seat = action.player
        if not self.reserve[seat] or self.reserve[1 - seat]:
            return R_NOT_YOURS_TO_TURN
        self._lock(seat, pile)
        return None

    def _lock(self, seat: int, pile: int) -> None:
        """The only reserve holder's pile for every stop of this deal; its first card."""
        self.locked = pile
        self.stage = P_PLAY
        self._emit(SpitEvent.LOCKED, seat, pile=CENTRE_IDS[pile])
        self._turn_reserve(seat, pile, "stuck")

    def _do_choose(self, action: Action) -> str | None:
        dst = action.args.get("pile")
        if not isinstance(dst, str):
            return R_BAD_ACTION
        if self.stage != P_CHOOSE:
            return R_NOT_NOW
        pile = CENTRE_INDEX.get(dst)
        if pile is None:
            return R_BAD_ZONE
        seat = action.player
        if self.choices[seat] is not None:
            return R_ALREADY_CHOSE
        self.choices[seat] = [pile, action.t]
        self._emit(SpitEvent.CHOSE, seat, pile=dst)
        if all(c is not None for c in self.choices):
            self._resolve_choice()
        return None

    # ------------------------------------------------------------------ end of a deal
    def _resolve_choice(self) -> None:
        (p0, t0), (p1, t1) = self.choices  # type: ignore[misc]
        if p0 != p1:
            taken = [p0, p1]
        else:
            if abs(t0 - t1) < TIE_WINDOW_MS:
                winner = self._tie_winner()
                if winner is None:
                    self.choices = [None, None]
                    self.stage_at = self.now
                    self._emit(SpitEvent.CHOOSE_AGAIN, None, pile=CENTRE_IDS[p0])
                    return
                why = "fewer-cards"
            else:
                winner = 0 if t0 < t1 else 1
                why = "first"
            taken = [1 - p0, 1 - p0]
            taken[winner] = p0
            self._emit(SpitEvent.PILE_RACE, winner, pile=CENTRE_IDS[p0], reason=why)
        self._take_piles(taken)

    def _take_piles(self, taken: list[int]) -> None:
        """Each seat takes centre pile taken[seat] into its cards; the next deal follows."""
        hands: list[list[str]] = [[], []]
        for seat in (0, 1):
            pile = self.centre[taken[seat]]
            self._emit(SharedEvent.TOOK, seat, piles=[CENTRE_IDS[taken[seat]]], count=len(pile),
                       reason="pile-choice")
            hands[seat] = pile + self._own_cards(seat)
        self._next_deal(hands)

    def _tie_winner(self) -> int | None:
        """A true tie on one pile: repeat the choice (option), else fewer cards left gets it."""
        if self.options["repeat_choice"]:
            return None
        c0, c1 = self.cards_left(0), self.cards_left(1)
        if c0 == c1:
            return None
        return 0 if c0 < c1 else 1

    def _own_cards(self, seat: int) -> list[str]:
        cards = [c for p in self.layout[seat] for c in p] + self.reserve[seat]
        self.layout[seat] = [[] for _ in range(PILES)]
        self.up[seat] = [False] * PILES
        self.reserve[seat] = []
        return cards

    def _next_deal(self, hands: list[list[str]]) -> None:
        self.centre = [[], []]
        for seat in (0, 1):
            if not hands[seat]:
                # The loser keeps what they hold (as a reserve) so the cards stay counted.
                self.reserve[1 - seat] = hands[1 - seat]
                self.finish_win(seat, "out-of-cards")
                return
        for seat in (0, 1):
            self.rng.shuffle(hands[seat])
        self.deal_no += 1
        self._start_deal(hands)

    def _end_one_pile(self, taker: int, why: str) -> None:
        """One-centre-pile deal over: taker gets the whole pile, the other takes nothing."""
        used = self.centre_in_use()[0]
        pile = self.centre[used]
        self._emit(SpitEvent.DEAL_OVER, None, reason=why)
        self._emit(SharedEvent.TOOK, taker, piles=[CENTRE_IDS[used]], count=len(pile),
                   reason="one-pile")
        hands = [self._own_cards(0), self._own_cards(1)]
        hands[taker] = pile + hands[taker]
        self._next_deal(hands)

    def _end_two_pile(self, why: str) -> None:
        self.stage = P_CHOOSE
        self.stage_at = self.now
        self.choices = [None, None]
        self._emit(SpitEvent.DEAL_OVER, None, reason=why)

    # ------------------------------------------------------------------ deadlines
    def next_deadline(self) -> int | None:
        stage = self.stage
        if stage == P_PLAY or self.over:
            return None
        return self.stage_at + (CHOOSE_LIMIT_MS if stage == P_CHOOSE else SPIT_LIMIT_MS)

    def _on_deadline(self, t: int) -> None:
        """Time is up for a choice nobody may stall: the engine makes it."""
        if self.stage == P_CHOOSE:
            # Whoever has not chosen takes the pile the other chose not; if neither chose,
            # each takes the pile on their own side (the one they started).
            waiting = [s for s in (0, 1) if self.choices[s] is None]
            self._emit(SpitEvent.TIME_UP, None, phase=P_CHOOSE, seats=waiting)
            taken = [0, 1]
            if len(waiting) == 1:
                chosen = self.choices[1 - waiting[0]][0]  # type: ignore[index]
                taken[1 - waiting[0]], taken[waiting[0]] = chosen, 1 - chosen
            self._take_piles(taken)
        elif self.stage == P_RESERVE_PILE:
            # The only reserve holder's card goes onto the pile they started.
            holder = 0 if self.reserve[0] else 1
            self._emit(SpitEvent.TIME_UP, None, phase=P_RESERVE_PILE, seats=[holder])
            self._lock(holder, holder)

    # ------------------------------------------------------------------ settling
    def _settle(self) -> None:
        for _ in range(MAX_AUTO_STEPS):
            if self.over or self.stage != P_PLAY:
                return
            emptied = [s for s in (0, 1) if not any(self.layout[s])]
            if emptied:
                if self.no_reserve is None:
                    self._end_two_pile("layout-empty")
                else:
                    # The first to empty the layout takes nothing; the other takes the pile.
                    self._end_one_pile(1 - emptied[0], "layout-empty")
                continue
            if not self._stuck():
                return
            self._emit(SpitEvent.STUCK, None)
            self._resolve_stuck()
        self.finish_draw("auto-cap")

    def _resolve_stuck(self) -> None:
        have = [bool(self.reserve[0]), bool(self.reserve[1])]
        if self.no_reserve is not None:
            holder = 1 - self.no_reserve
            if have[holder]:
                self._turn_reserve(holder, holder, "stuck")
            else:
                # Open default: more layout cards takes the pile; equal: the reserve holder.
                n_holder, n_other = self.layout_count(holder), self.layout_count(1 - holder)
                taker = 1 - holder if n_other > n_holder else holder
                self._end_one_pile(taker, "locked")
            return
        if all(have):
            for seat in (0, 1):
                self._turn_reserve(seat, seat, "stuck")
        elif any(have):
            seat = have.index(True)
            if self.locked is None:
                self.stage = P_RESERVE_PILE  # wait for that player's `spit` choice
                self.stage_at = self.now
            else:
                self._turn_reserve(seat, self.locked, "stuck")
        else:
            self._end_two_pile("locked")

    # ------------------------------------------------------------------ views
    @property
    def phase(self) -> str:
        return P_OVER if self.over else self.stage

    def legal_actions(self, player: int) -> list[Action]:
        if self.over:
            return []
        t, out = self.now, []
        stage = self.stage
        if stage == P_CHOOSE:
            if self.choices[player] is None:
                out = [Action(t, player, "choose", {"pile": z}) for z in CENTRE_IDS]
            return out
        if stage == P_RESERVE_PILE:
            if self.reserve[player]:
                out = [Action(t, player, "spit", {"to": z}) for z in CENTRE_IDS]
            return out
        layout, up = self.layout[player], self.up[player]
        spaces = [k for k in range(PILES) if not layout[k]]
        for k in range(PILES):
            pile = layout[k]
            if not pile:
                continue
            if not up[k]:
                out.append(Action(t, player, "turn", {"pile": PILE_IDS[k]}))
                continue
            card = pile[-1]
            for p in self.centre_in_use():
                top = self.centre[p]
                if top and _fits(card, top[-1]):
                    out.append(Action(t, player, "play", {
                        "card": card, "from": PILE_IDS[k], "to": CENTRE_IDS[p],
                        "onto": top[-1]}))
            if spaces:
                # One representative space (they are all alike); a lone card's move is legal
                # but changes nothing that matters.
                out.append(Action(t, player, "move", {
                    "card": card, "from": PILE_IDS[k], "to": PILE_IDS[spaces[0]]}))
        return out

    def board(self, viewer: int | None = None) -> dict:
        show = viewer is None
        out = self._board_head()
        used = self.centre_in_use()
        out["centre"] = [
            {**self.zone(CENTRE_IDS[p], "centre", self.centre[p], up=True, show=True),
             "in_use": p in used}
            for p in (0, 1)
        ]
        seats = []
        for s in (0, 1):
            zones = []
            for k in range(PILES):
                pile = self.layout[s][k]
                cards = [{"card": c if show else None, "up": False} for c in pile[:-1]]
                if pile:
                    top_up = self.up[s][k]
                    cards.append({"card": pile[-1] if (top_up or show) else None,
                                  "up": top_up})
                zones.append({"id": PILE_IDS[k], "kind": "layout", "cards": cards,
                              "count": len(pile)})
            zones.append(self.zone("reserve", "reserve", self.reserve[s], up=False, show=show))
            seats.append({"seat": s, "zones": zones})
        out["seats"] = seats
        out["deal"] = self.deal_no
        out["locked"] = None if self.locked is None else CENTRE_IDS[self.locked]
        out["no_reserve"] = self.no_reserve
        out["choices"] = [None if c is None else CENTRE_IDS[c[0]] for c in self.choices]
        return out

    # ------------------------------------------------------------------ serialisation
    def _state_json(self) -> dict:
        return {
            "layout": [[list(p) for p in lay] for lay in self.layout],
            "up": [list(u) for u in self.up],
            "reserve": [list(r) for r in self.reserve],
            "centre": [list(p) for p in self.centre],
            "changed_at": list(self.changed_at),
            "no_reserve": self.no_reserve,
            "locked": self.locked,
            "stage": self.stage,
            "choices": [None if c is None else list(c) for c in self.choices],
            "stage_at": self.stage_at,
            "deal": self.deal_no,
        }

    def _load_state(self, d: dict) -> None:
        self.layout = [[list(p) for p in lay] for lay in d["layout"]]
        self.up = [list(u) for u in d["up"]]
        self.reserve = [list(r) for r in d["reserve"]]
        self.centre = [list(p) for p in d["centre"]]
        self.changed_at = list(d["changed_at"])
        self.no_reserve = d["no_reserve"]
        self.locked = d["locked"]
        self.stage = d["stage"]
        self.choices = [None if c is None else list(c) for c in d["choices"]]
        self.stage_at = d["stage_at"]
        self.deal_no = d["deal"]

    # ------------------------------------------------------------------ invariants
    def _all_cards(self) -> list[str]:
        out = [c for p in self.centre for c in p]
        for s in (0, 1):
            out.extend(self.reserve[s])
            for pile in self.layout[s]:
                out.extend(pile)
        return out

    def _check_shapes(self) -> list[str]:
        problems = []
        if len(self.centre) != 2:
            problems.append("there must be two centre piles")
        for s in (0, 1):
            if len(self.layout[s]) != PILES:
                problems.append(f"seat {s}: the layout has {PILES} pile spaces")
            for k, pile in enumerate(self.layout[s]):
                if self.up[s][k] and not pile:
                    problems.append(f"seat {s} {PILE_IDS[k]}: an empty space has no top")
        if self.no_reserve is not None and not self.over:
            # (At the end the loser's cards are kept as their reserve, to stay counted.)
            unused = self.no_reserve
            if self.centre[unused]:
                problems.append("one-pile deal: the second centre pile must stay empty")
            if self.reserve[self.no_reserve]:
                problems.append("one-pile deal: the player without reserve has reserve cards")
        return problems


METADATA = {
    "players": dim("exactly-two", "equipment", min=2, max=2),
    "decks": dim("one-deck", "equipment", decks=1, jokers=0),
    "cards_per_player": dim("half-deck", "deal", cards=26),
    "in_front": dim("five-piles-and-reserve", "deal", piles=[1, 2, 3, 4, 5], layout=15,
                    reserve=11),
    "start": dim("both-turn-reserve", "start", centre_piles=2, word="spit"),
    "legal_move": dim("top-card-adjacent-turn-fill", "moves", wrap=True,
                      kinds=["play", "turn", "move"]),
    "equal_ranks": dim("no-special-rule", "moves"),
    "stuck": dim("both-turn-reserve-own-pile", "stuck", one_reserve="chosen-pile-locked"),
    "running_out": dim("partial-layout-one-pile", "running-out", below=16,
                       lock="more-layout-cards-takes"),
    # The source settles a pile race by the hand underneath; a dead heat is the site's own
    # house default (fewer cards gets the pile), or a repeated choice as an option.
    "end": dim("deals-until-out-of-cards", "winning", pile_choice="first-hand-wins",
               tie="fewer-cards-house-default", repeat_choice="option"),
    "scoring": dim("none", "winning"),
    "options": dim("option-list", "options", keys=[o.key for o in OPTIONS]),
}

INFO = register(VariantInfo(
    slug="spit",
    family="spit",
    players_min=2,
    players_max=2,
    decks=1,
    jokers_max=0,
    cards_per_player=26,
    source_file="002_8a0b35766ab146f7.txt",
    source_language="nb",
    options=OPTIONS,
    metadata=METADATA,
    game_class=SpitGame,
    bot_module="rules_engine.variants.spit_bot",
))
