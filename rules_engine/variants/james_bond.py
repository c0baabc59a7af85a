"""james-bond: Norwegian Stress / James Bond (source 001, Norwegian Bokmål).

A swapping game for 2-4 players (5-8 with a second deck). Four cards lie face up in the
middle; everyone else's cards lie in face-down piles of four. A player holds at most one
pile, and swaps with the middle: first lay a card face up, then take one, so that after
each completed swap the hand and the middle both hold four again. Four of a kind is a
complete pile: set aside face up and frozen. The first whose every pile is complete makes
the win call. There are no turns; two hands after one middle card: the first gets it.

The state keeps each pile in its own slot ("pile-1" ...); a slot is on the table face down,
in the hand, or complete. See docs/engine-spit-james-bond.md for actions, codes and the
position form.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, ClassVar

from rules_engine.actions import Action
from rules_engine.cards import RANKS, full_deck
from rules_engine.codes import (
    ENGINE_EVENTS,
    ENGINE_REASONS,
    ActionType,
    Arg,
    EventCode,
    Reason,
    ReasonCode,
    Vocabulary,
)
from rules_engine.game import R_BAD_ACTION, TIE_WINDOW_MS, Game
from rules_engine.options import OptionSpec
from rules_engine.positions import PositionError, a_list, whole_number
from rules_engine.variant import VariantInfo, dim, register

MIDDLE = 4
PILE_SIZE = 4
#: piles per player with one deck (the source's table).
ONE_DECK_PILES = {2: 6, 3: 4, 4: 3}
#: the 5-second house rule: a held pile must complete a swap this often (ms), and the pile it
#: sends back may be picked up again after this long (or once another pile was picked).
IDLE_MS = 5000
#: a take of a card another player took less than this long before (ms) is the slow half of
#: that race (too-slow); a card taken longer ago is simply not in the middle.
RACE_MS = 1000
#: best of five: the first to this many deal wins takes the match.
MATCH_WINS = 3
CALL_WORDS = ("james-bond", "stress", "atlantis", "chanhassen", "lannen-nopein")

# Slot states.
TABLE, HELD, DONE = "table", "held", "complete"

# Phases.
P_PLAY = "play"
#: a valid win call is waiting for its tie window to close.
P_CALLED = "called"
P_OVER = "over"


class JamesBondAction(ActionType):
    """James Bond's action types and their arguments (docs/scenarios.md): `lay` and `take`
    name one `card` or a list of `cards`, never both."""

    PICK = "pick", {"pile": Arg("pile")}
    PUT_BACK = "put-back"
    LAY = "lay", {"card": Arg("card", required=False), "cards": Arg("cards", required=False)}
    TAKE = "take", {"card": Arg("card", required=False), "cards": Arg("cards", required=False)}
    CALL = "call", {"word": Arg("word", required=False)}


class JamesBondEvent(EventCode):
    """James Bond's own event codes, with their data fields."""

    DEALT = "dealt", ("deal", "piles", "middle", "removed")
    PICKED = "picked", ("pile",)
    PUT_BACK = "put-back", ("pile", "cause")
    LAID = "laid", ("cards",)
    SWAPPED = "swapped", ("gave", "took", "pile")
    SWAP_ENDED = "swap-ended", ("gave", "took", "pile", "cause")
    COMPLETED = "completed", ("pile", "rank", "dealt", "left")
    STIKK = "stikk", ("pile", "last")
    CALL = "call", ("word",)
    REDEAL = "redeal", ("seats", "reason")
    DEAL_WON = "deal-won", ("deal", "wins")


class JamesBondReason(ReasonCode):
    """James Bond's own reason codes."""

    ALREADY_HOLDING = "already-holding"
    NOT_HOLDING = "not-holding"
    PILE_COMPLETE = "pile-complete"
    JUST_PUT_BACK = "just-put-back"
    SWAP_UNFINISHED = "swap-unfinished"
    TOO_MANY = "too-many"
    NOT_IN_HAND = "not-in-hand"
    NOTHING_TO_TAKE = "nothing-to-take"
    LAY_FIRST = "lay-first"
    WRONG_COUNT = "wrong-count"
    NOT_IN_MIDDLE = "not-in-middle"
    CANNOT_TAKE_BACK = "cannot-take-back"
    NOT_COMPLETE = "not-complete"
    WRONG_WORD = "wrong-word"


VOCABULARY = Vocabulary(
    actions=tuple(JamesBondAction),
    events=(*ENGINE_EVENTS, *JamesBondEvent),
    # not-now: the round stopped at a valid win call; only simultaneous calls count until
    # it is settled.
    reasons=(*ENGINE_REASONS, Reason.BAD_ZONE, Reason.TOO_SLOW, Reason.ALREADY_CALLED,
             Reason.NOT_NOW, *JamesBondReason),
)

R_BAD_ZONE = Reason.BAD_ZONE
R_ALREADY_HOLDING = JamesBondReason.ALREADY_HOLDING
R_NOT_HOLDING = JamesBondReason.NOT_HOLDING
R_PILE_COMPLETE = JamesBondReason.PILE_COMPLETE
R_JUST_PUT_BACK = JamesBondReason.JUST_PUT_BACK
R_SWAP_UNFINISHED = JamesBondReason.SWAP_UNFINISHED
R_TOO_MANY = JamesBondReason.TOO_MANY
R_NOT_IN_HAND = JamesBondReason.NOT_IN_HAND
R_NOTHING_TO_TAKE = JamesBondReason.NOTHING_TO_TAKE
R_LAY_FIRST = JamesBondReason.LAY_FIRST
R_WRONG_COUNT = JamesBondReason.WRONG_COUNT
R_TOO_SLOW = Reason.TOO_SLOW
R_NOT_IN_MIDDLE = JamesBondReason.NOT_IN_MIDDLE
R_CANNOT_TAKE_BACK = JamesBondReason.CANNOT_TAKE_BACK
R_NOT_COMPLETE = JamesBondReason.NOT_COMPLETE
R_WRONG_WORD = JamesBondReason.WRONG_WORD
R_ALREADY_CALLED = Reason.ALREADY_CALLED
R_NOT_NOW = Reason.NOT_NOW

OPTIONS = (
    OptionSpec("several_per_grab", "bool", False, source="source"),
    OptionSpec("grab_limit", "int", 2, (2, 3, 4), source="open"),
    OptionSpec("say_stikk", "bool", False, source="source"),
    OptionSpec("call_word", "choice", "stress", CALL_WORDS, source="source"),
    OptionSpec("best_of_five", "bool", False, source="source"),
    OptionSpec("five_second_rule", "bool", False, source="house"),
    OptionSpec("second_deck", "bool", False, source="source"),
)


def grab_limit(options: Mapping[str, Any]) -> int:
    """How many cards one lay or take may move with these options."""
    return options["grab_limit"] if options["several_per_grab"] else 1


def piles_per_player(players: int, second_deck: bool) -> int:
    if second_deck:
        # Two decks less the middle leave 100 cards = 25 piles of four.
        return 25 // players
    return ONE_DECK_PILES[players]


def removed_groups(players: int, second_deck: bool) -> list[str]:
    """Whole groups of four (one deck's four suits of a rank, kings first) left out so that
    the deal comes out even. Every rank then still counts a multiple of four cards."""
    if not second_deck:
        return []
    spare = 104 - MIDDLE - players * piles_per_player(players, True) * PILE_SIZE
    out: list[str] = []
    for r in reversed(RANKS):
        if len(out) >= spare:
            break
        out.extend(r + s for s in "SHDC")
    return out


def _four_of_a_kind(cards: list[str]) -> bool:
    return len(cards) == PILE_SIZE and len({c[0] for c in cards}) == 1


def cards_list(args: dict) -> list[str] | None:
    """The cards an action names: "card": "7H" or "cards": ["7H", "7S"] (never both);
    None when malformed."""
    if "cards" in args:
        value = args["cards"]
        if ("card" not in args and isinstance(value, list) and value
                and all(isinstance(c, str) for c in value)):
            return list(value)
        return None
    value = args.get("card")
    return [value] if isinstance(value, str) else None


class JamesBondGame(Game):
    handlers: ClassVar[dict[str, str]] = {
        "pick": "_do_pick",
        "put-back": "_do_put_back",
        "lay": "_do_lay",
        "take": "_do_take",
        "call": "_do_call",
    }
    vocabulary = VOCABULARY
    signal_events: ClassVar[frozenset[str]] = frozenset({JamesBondEvent.DEALT})
    bot_call_types: ClassVar[frozenset[str]] = frozenset({"call"})
    position_keys: ClassVar[frozenset[str]] = frozenset(
        {"middle", "removed", "seats", "deal", "wins"})
    seat_keys: ClassVar[frozenset[str]] = frozenset(
        {"piles", "complete", "held", "laying", "laid", "gone"})

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        n, second = self.players, bool(self.options.get("second_deck"))
        if second and not 5 <= n <= 8:
            raise ValueError(f"james-bond with second_deck is for 5-8 players, got {n}")
        if not second and not 2 <= n <= 4:
            raise ValueError(
                f"james-bond is for 2-4 players with one deck (second_deck=true: 5-8), got {n}"
            )
        self.n_piles = piles_per_player(n, second)
        self.middle: list[str] = []
        self.removed: list[str] = []
        self.piles: list[list[list[str]]] = [[] for _ in range(n)]
        self.status: list[list[str]] = [[] for _ in range(n)]
        self.held: list[int | None] = [None] * n
        #: cards laid in the seat's current, unfinished swap: as many as it must take.
        self.laying: list[list[str]] = [[] for _ in range(n)]
        #: those of them another hand took meanwhile (the rest still lie in the middle).
        self.gone: list[list[str]] = [[] for _ in range(n)]
        #: cards the seat laid in finished swaps since anyone else swapped: not for it to take.
        self.laid: list[list[str]] = [[] for _ in range(n)]
        #: who last took each card from the middle and when: [seat, t] (too-slow or
        #: not-in-middle).
        self.taken: dict[str, list[int]] = {}
        #: pick-up or last finished swap, for the 5-second rule.
        self.active_at: list[int] = [0] * n
        #: when the held pile was picked up (bots: has it swapped since?).
        self.held_at: list[int] = [0] * n
        #: the pile the 5-second rule just sent back, not to be picked again at once ...
        self.no_repick: list[int | None] = [None] * n
        #: ... before this time (or before another pile was picked).
        self.repick_at: list[int] = [0] * n
        #: last time each pile went back on the table (bots prefer the oldest).
        self.put_at: list[list[int]] = [[] for _ in range(n)]
        self.calls: list[list[int]] = []  # [seat, t] valid win calls in the tie window
        self.deal_no = 1
        self.wins: list[int] = [0] * n
        self.redeals = 0
        if self.options.get("best_of_five"):
            self.scores = [0] * n

    # ------------------------------------------------------------------ deal
    def _deal(self, cards: list[str] | None = None) -> None:
        """Deal `cards` (a redeal: the cards in play), or a fresh deck less the groups the
        player count leaves out."""
        if cards is None:
            second = bool(self.options["second_deck"])
            deck = full_deck(2 if second else 1)
            removed = removed_groups(self.players, second)
            for card in removed:
                deck.remove(card)
            self.removed = removed
        else:
            deck, removed = cards, self.removed
        self.rng.shuffle(deck)
        self.middle = deck[:MIDDLE]
        rest = deck[MIDDLE:]
        n = self.players
        # As many piles of four each as the cards allow: a full deal gives the source's 6/4/3
        # (or floor(25 / players)); a redeal from a short explicit position keeps its own
        # count, since a position always holds 4 + 4 x piles x players cards (_check_shapes).
        p = self.n_piles = len(rest) // (PILE_SIZE * n)
        for seat in range(n):
            mine = rest[seat * p * PILE_SIZE:(seat + 1) * p * PILE_SIZE]
            self.piles[seat] = [mine[k * PILE_SIZE:(k + 1) * PILE_SIZE] for k in range(p)]
        self._reset_deal_state()
        self._emit(JamesBondEvent.DEALT, None, deal=self.deal_no, piles=p, middle=list(self.middle),
                   removed=len(removed))

    def _reset_deal_state(self) -> None:
        n, p = self.players, self.n_piles
        self.status = [[TABLE] * p for _ in range(n)]
        self.held = [None] * n
        self.laying = [[] for _ in range(n)]
        self.gone = [[] for _ in range(n)]
        self.laid = [[] for _ in range(n)]
        self.taken = {}
        self.active_at = [self.now] * n
        self.held_at = [self.now] * n
        self.no_repick = [None] * n
        self.repick_at = [self.now] * n
        self.put_at = [[-1] * p for _ in range(n)]
        self.calls = []

    def _redeal(self) -> None:
        """Gather exactly the cards in play (the middle, including cards of unfinished swaps,
        and every pile: held, on the table or complete) and deal them again, shuffled with the
        game's seeded RNG (kept in the state): 4 in the middle, piles of four per player. The
        groups a second deck leaves out stay out."""
        cards = list(self.middle)
        for piles in self.piles:
            for pile in piles:
                cards.extend(pile)
        self.deal_no += 1
        self._deal(cards)

    # ------------------------------------------------------------------ position
    def _load_position(self, position: dict) -> None:
        seats = position["seats"]
        self.middle = self._cards_from(position.get("middle"), "middle")
        self.removed = self._cards_from(position.get("removed", []), "removed")
        counts = set()
        for seat, spec in enumerate(seats):
            piles = a_list(spec.get("piles"), f"seat {seat} piles")
            self.piles[seat] = [self._cards_from(p, f"seat {seat} piles") for p in piles]
            counts.add(len(self.piles[seat]))
        if len(counts) != 1 or 0 in counts:
            raise PositionError("every seat needs the same number of piles (at least one)")
        self.n_piles = counts.pop()
        self._reset_deal_state()
        for seat, spec in enumerate(seats):
            for zid in a_list(spec.get("complete", []), f"seat {seat} complete"):
                k = self._pile_index(zid)
                if k is None or not _four_of_a_kind(self.piles[seat][k]):
                    raise PositionError(f"seat {seat}: {zid!r} is not four of a kind")
                self.status[seat][k] = DONE
            held = spec.get("held")
            if held is not None:
                k = self._pile_index(held)
                if k is None or self.status[seat][k] != TABLE:
                    raise PositionError(f"seat {seat}: cannot hold {held!r}")
                self.status[seat][k] = HELD
                self.held[seat] = k
            self.laying[seat] = self._cards_from(spec.get("laying", []), f"seat {seat} laying")
            self.gone[seat] = self._cards_from(spec.get("gone", []), f"seat {seat} gone")
            self.laid[seat] = self._cards_from(spec.get("laid", []), f"seat {seat} laid")
            if Counter(self.gone[seat]) - Counter(self.laying[seat]):
                raise PositionError(f"seat {seat}: gone cards must be among the laying cards")
        self.deal_no = whole_number(position.get("deal", 1), "deal", minimum=1)
        wins = position.get("wins")
        if wins is not None:
            wins = a_list(wins, "wins", length=self.players)
            self.wins = [whole_number(w, "wins", maximum=MATCH_WINS - 1) for w in wins]
            if self.scores is not None:
                self.scores = list(self.wins)
        problems = self._check_shapes()
        if problems:
            raise PositionError("; ".join(problems))

    @classmethod
    def _players_range(cls, options: dict) -> tuple[int, int]:
        return (5, 8) if options.get("second_deck") else (2, 4)

    def _pile_index(self, zid: Any) -> int | None:
        if isinstance(zid, str) and zid.startswith("pile-"):
            try:
                k = int(zid[5:]) - 1
            except ValueError:
                return None
            if 0 <= k < self.n_piles:
                return k
        return None

    def position(self) -> dict:
        seats = []
        for s in range(self.players):
            spec: dict[str, Any] = {
                "piles": [list(p) for p in self.piles[s]],
                "complete": [f"pile-{k + 1}" for k in range(self.n_piles)
                             if self.status[s][k] == DONE],
                "held": None if self.held[s] is None else f"pile-{self.held[s] + 1}",
            }
            if self.laying[s]:
                spec["laying"] = list(self.laying[s])
            if self.laid[s]:
                spec["laid"] = list(self.laid[s])
            if self.gone[s]:
                spec["gone"] = list(self.gone[s])
            seats.append(spec)
        pos: dict[str, Any] = {"middle": list(self.middle), "seats": seats, "now": self.now,
                               "seed": self.seed, "deal": self.deal_no}
        if self.removed:
            pos["removed"] = list(self.removed)
        if self.options["best_of_five"]:
            pos["wins"] = list(self.wins)
        return pos

    # ------------------------------------------------------------------ rules helpers
    def hand(self, seat: int) -> list[str]:
        k = self.held[seat]
        return [] if k is None else self.piles[seat][k]

    def grab_max(self) -> int:
        return grab_limit(self.options)

    def takeable(self, seat: int) -> Counter:
        """Middle cards this seat may take now: not the ones it laid itself (Open default:
        its own cards count again once someone else has swapped)."""
        free = Counter(self.middle)
        free.subtract(self.own_cards(seat))
        return +free

    def own_cards(self, seat: int) -> list[str]:
        """The middle cards this seat laid and may not take: those of its swap under way that
        nobody took meanwhile, and its finished swaps' since anyone else swapped."""
        return self._still_laying(seat) + self.laid[seat]

    def _still_laying(self, seat: int) -> list[str]:
        """The cards of this seat's swap under way that still lie in the middle."""
        if self.gone[seat]:
            return list((Counter(self.laying[seat]) - Counter(self.gone[seat])).elements())
        return self.laying[seat]

    def _claims(self) -> Counter:
        """Every seat's own cards together: each is a different card lying in the middle."""
        claims: Counter = Counter()
        for seat in range(self.players):
            claims.update(self.own_cards(seat))
        return claims

    def _lose_claims(self, taker: int, cards: list[str]) -> None:
        """`taker` has just taken `cards` out of the middle: a card of another seat's swap
        under way that is no longer there is gone from that swap (it still owes the count).
        With two decks two seats may claim equal cards; which of them lost it cannot be told
        and does not matter (the cards are alike)."""
        laying = [swap for other, swap in enumerate(self.laying) if other != taker and swap]
        if not laying:
            return  # the common case: no other swap is under way
        claims = None
        for card in set(cards):
            if not any(card in other for other in laying):
                continue  # nobody else laid this card
            if claims is None:
                claims = self._claims()
            extra = claims[card] - self.middle.count(card)
            for other in range(self.players):
                if extra <= 0:
                    break
                if other == taker:
                    continue
                left = self.laying[other].count(card) - self.gone[other].count(card)
                for _ in range(min(left, extra)):
                    self.gone[other].append(card)
                    extra -= 1

    def _free_count(self, seat: int) -> int:
        """How many middle cards are not this seat's own laid cards."""
        laid = self.laid[seat]
        if not laid:
            return len(self.middle)
        free = Counter(self.middle)
        free.subtract(laid)
        return sum(n for n in free.values() if n > 0)

    def all_complete(self, seat: int) -> bool:
        return all(st == DONE for st in self.status[seat])

    def unfinished(self, seat: int) -> list[int]:
        return [k for k, st in enumerate(self.status[seat]) if st != DONE]

    # ------------------------------------------------------------------ handlers
    def _dispatch(self, seat: int, t: int, token: Any) -> str | None:
        # "The round stops there": after a valid win call only calls count until its tie
        # window closes (a second complete player's call then means a redeal).
        if self.calls and (token.type if token.__class__ is Action else token[0]) != "call":
            return R_NOT_NOW
        return super()._dispatch(seat, t, token)

    def _do_pick(self, action: Action) -> str | None:
        seat = action.player
        zid = action.args.get("pile")
        if not isinstance(zid, str):
            return R_BAD_ACTION
        k = self._pile_index(zid)
        if k is None:
            return R_BAD_ZONE
        # A complete pile is refused as complete even while another pile is in hand: putting
        # the held pile back would not make it playable, so that is the reason that helps.
        if self.status[seat][k] == DONE:
            return R_PILE_COMPLETE
        if self.held[seat] is not None:
            return R_ALREADY_HOLDING
        if self._repick_banned(seat, k, action.t):
            return R_JUST_PUT_BACK
        self.no_repick[seat] = None
        self.held[seat] = k
        self.status[seat][k] = HELD
        self.active_at[seat] = self.held_at[seat] = action.t
        self._emit(JamesBondEvent.PICKED, seat, pile=f"pile-{k + 1}")
        # Open default: a dealt four of a kind is complete the moment it is picked up.
        self._check_complete(seat, dealt=True)
        return None

    def _repick_banned(self, seat: int, k: int, t: int) -> bool:
        """The 5-second rule's "not at once": the pile it sent back stays down until another
        pile was picked up or IDLE_MS have passed, while another unfinished pile is there."""
        return (self.no_repick[seat] == k and t < self.repick_at[seat]
                and any(j != k and st == TABLE for j, st in enumerate(self.status[seat])))

    def _do_put_back(self, action: Action) -> str | None:
        seat = action.player
        if self.held[seat] is None:
            return R_NOT_HOLDING
        if self.laying[seat]:
            return R_SWAP_UNFINISHED
        self._put_back(seat, "change")
        return None

    def _put_back(self, seat: int, cause: str) -> None:
        k = self.held[seat]
        assert k is not None
        self.status[seat][k] = TABLE
        self.held[seat] = None
        self.put_at[seat][k] = self.now
        self._emit(JamesBondEvent.PUT_BACK, seat, pile=f"pile-{k + 1}", cause=cause)

    def _do_lay(self, action: Action) -> str | None:
        seat = action.player
        cards = cards_list(action.args)
        if cards is None:
            return R_BAD_ACTION
        if self.held[seat] is None:
            return R_NOT_HOLDING
        if self.laying[seat]:
            return R_SWAP_UNFINISHED
        if len(cards) > self.grab_max():
            return R_TOO_MANY
        hand = self.hand(seat)
        if len(cards) == 1:  # the common case, without building multisets
            if cards[0] not in hand:
                return R_NOT_IN_HAND
        elif Counter(cards) - Counter(hand):
            return R_NOT_IN_HAND
        # Refuse a lay that could not be followed by a take (all the rest are own cards).
        if self._free_count(seat) < len(cards):
            return R_NOTHING_TO_TAKE
        for card in cards:
            hand.remove(card)
        self.middle.extend(cards)
        self.laying[seat] = list(cards)
        self._emit(JamesBondEvent.LAID, seat, cards=list(cards))
        return None

    def _do_take(self, action: Action) -> str | None:
        seat = action.player
        cards = cards_list(action.args)
        if cards is None:
            return R_BAD_ACTION
        laying = self.laying[seat]
        if not laying:
            return R_LAY_FIRST if self.held[seat] is not None else R_NOT_HOLDING
        if len(cards) != len(laying):
            return R_WRONG_COUNT
        want = Counter(cards) if len(cards) > 1 else {cards[0]: 1}
        middle = self.middle
        for card, n in want.items():
            if middle.count(card) < n:
                # Another hand got there first (a race), or it is simply not there.
                taken = self.taken.get(card)
                if taken is not None and taken[0] != seat and action.t - taken[1] < RACE_MS:
                    return R_TOO_SLOW
                return R_NOT_IN_MIDDLE
        laid, gone = self.laid[seat], self.gone[seat]
        for card, n in want.items():
            # Its own cards: those of this swap nobody took meanwhile, and its laid cards.
            own = laying.count(card) - (gone.count(card) if gone else 0) + laid.count(card)
            if middle.count(card) - own < n:
                return R_CANNOT_TAKE_BACK
        for card in cards:
            self.middle.remove(card)
            self.taken[card] = [seat, action.t]
        hand = self.hand(seat)
        hand.extend(cards)
        gave = laying
        # This seat's laid cards stay its own until somebody else swaps; others' are freed.
        # Of this swap's cards, those another hand took meanwhile are no longer its own.
        self.laid[seat].extend(self._still_laying(seat))
        self.laying[seat] = []
        self.gone[seat] = []
        for other in range(self.players):
            if other != seat:
                self.laid[other] = []
        self._lose_claims(seat, cards)
        self.active_at[seat] = action.t
        self._emit(JamesBondEvent.SWAPPED, seat, gave=list(gave), took=list(cards),
                   pile=f"pile-{self.held[seat] + 1}")  # type: ignore[operator]
        self._check_complete(seat, dealt=False)
        return None

    def _end_swap(self, seat: int, cause: str) -> None:
        """Finish a swap under way for the player (the 5-second rule's time is up): the laid
        cards still in the middle go back into the pile; each one somebody else took
        meanwhile is replaced by the middle card that has lain there longest (of those the
        player may take)."""
        laying, middle = self.laying[seat], self.middle
        back = self._still_laying(seat)
        for card in back:
            middle.remove(card)
        self.laying[seat] = []
        self.gone[seat] = []
        took: list[str] = []
        if len(back) < len(laying):
            free = Counter(middle)
            free.subtract(self.laid[seat])
            for card in list(middle):  # oldest first: laid cards are appended
                if len(back) + len(took) == len(laying):
                    break
                if free[card] > 0:
                    free[card] -= 1
                    took.append(card)
            for card in took:
                middle.remove(card)
                self.taken[card] = [seat, self.now]
            # Like any completed swap, it frees the others' earlier laid cards.
            for other in range(self.players):
                if other != seat:
                    self.laid[other] = []
            self._lose_claims(seat, took)
        self.hand(seat).extend(back + took)
        self._emit(JamesBondEvent.SWAP_ENDED, seat, gave=list(laying), took=back + took,
                   pile=f"pile-{self.held[seat] + 1}", cause=cause)  # type: ignore[operator]
        self._check_complete(seat, dealt=False)

    def _check_complete(self, seat: int, *, dealt: bool) -> None:
        k = self.held[seat]
        if k is None or not _four_of_a_kind(self.piles[seat][k]):
            return
        self.status[seat][k] = DONE
        self.held[seat] = None
        rank = self.piles[seat][k][0][0]
        self._emit(JamesBondEvent.COMPLETED, seat, pile=f"pile-{k + 1}", rank=rank, dealt=dealt,
                   left=len(self.unfinished(seat)))
        if self.options["say_stikk"]:
            self._emit(JamesBondEvent.STIKK, seat, pile=f"pile-{k + 1}",
                       last=self.all_complete(seat))

    def _do_call(self, action: Action) -> str | None:
        seat = action.player
        word = action.args.get("word")
        if word is not None and not isinstance(word, str):
            return R_BAD_ACTION
        if word is not None and word != self.options["call_word"]:
            return R_WRONG_WORD
        if any(c[0] == seat for c in self.calls):
            return R_ALREADY_CALLED
        if not self.all_complete(seat):
            # An early call is simply withdrawn: no penalty, no change.
            return R_NOT_COMPLETE
        self.calls.append([seat, action.t])
        self._emit(JamesBondEvent.CALL, seat, word=self.options["call_word"])
        if len(self.calls) > 1:
            # A second call inside the first one's tie window: nobody can tell; deal again.
            self._resolve_calls()
        return None

    # ------------------------------------------------------------------ time
    def next_deadline(self) -> int | None:
        if self.calls:
            # The round has stopped: only the end of the call's tie window is due.
            return self.calls[0][1] + TIE_WINDOW_MS
        due = None
        if self.options["five_second_rule"]:
            # At least one completed swap every five seconds: a swap under way does not
            # stop the clock.
            for seat in range(self.players):
                if self.held[seat] is not None:
                    t = self.active_at[seat] + IDLE_MS
                    if due is None or t < due:
                        due = t
        return due

    def _on_deadline(self, t: int) -> None:
        if self.calls:
            if self.calls[0][1] + TIE_WINDOW_MS <= t:
                self._resolve_calls()
            return
        if self.options["five_second_rule"]:
            for seat in range(self.players):
                k = self.held[seat]
                if k is None or self.active_at[seat] + IDLE_MS > t:
                    continue
                if self.laying[seat]:
                    self._end_swap(seat, "five-seconds")
                    if self.held[seat] is None:  # the swap completed the pile
                        continue
                self._put_back(seat, "five-seconds")
                self.no_repick[seat] = k
                self.repick_at[seat] = t + IDLE_MS

    def _resolve_calls(self) -> None:
        calls, self.calls = self.calls, []
        if len(calls) > 1:
            self.redeals += 1
            self._emit(JamesBondEvent.REDEAL, None, seats=[c[0] for c in calls],
                       reason="simultaneous-calls")
            self._redeal()
            return
        seat = calls[0][0]
        if not self.options["best_of_five"]:
            self.finish_win(seat, "call")
            return
        self.wins[seat] += 1
        self.scores = list(self.wins)
        self._emit(JamesBondEvent.DEAL_WON, seat, deal=self.deal_no, wins=list(self.wins))
        if self.wins[seat] >= MATCH_WINS:
            self.finish_win(seat, "best-of-five")
        else:
            self._redeal()

    # ------------------------------------------------------------------ views
    @property
    def phase(self) -> str:
        if self.over:
            return P_OVER
        return P_CALLED if self.calls else P_PLAY

    def legal_actions(self, player: int) -> list[Action]:
        if self.over:
            return []
        t, out = self.now, []
        if self.all_complete(player):
            if not any(c[0] == player for c in self.calls):
                out.append(Action(t, player, "call", {"word": self.options["call_word"]}))
            return out
        if self.calls:
            return out
        k = self.held[player]
        if k is None:
            for j, st in enumerate(self.status[player]):
                if st == TABLE and not self._repick_banned(player, j, t):
                    out.append(Action(t, player, "pick", {"pile": f"pile-{j + 1}"}))
            return out
        if self.laying[player]:
            free = self.takeable(player)
            need = len(self.laying[player])
            if need == 1:
                out.extend(Action(t, player, "take", {"card": c}) for c in free)
            else:
                pool = list(free.elements())
                out.append(Action(t, player, "take", {"cards": pool[:need]}))
                out.append(Action(t, player, "take", {"cards": pool[-need:]}))
            return out
        free = Counter(self.middle)
        free.subtract(self.laid[player])
        n_free = sum((+free).values())
        if n_free:
            out.extend(Action(t, player, "lay", {"card": c}) for c in dict.fromkeys(self.hand(
                player)))
        out.append(Action(t, player, "put-back", {}))
        return out

    def _pile_zone(self, seat: int, k: int, viewer: int | None) -> dict:
        cards, st = self.piles[seat][k], self.status[seat][k]
        if st == DONE or (st == HELD and viewer in (None, seat)):
            shown = [{"card": c, "up": True} for c in cards]
        elif viewer is None:
            shown = [{"card": c, "up": False} for c in cards]
        else:
            shown = [{"card": None, "up": False} for _ in cards]
        kind = {TABLE: "pile", HELD: "hand", DONE: "complete"}[st]
        return {"id": f"pile-{k + 1}", "kind": kind, "cards": shown, "count": len(cards)}

    def board(self, viewer: int | None = None) -> dict:
        out = self._board_head()
        out["centre"] = [
            self.zone("middle", "middle", self.middle, up=True, show=True),
            self.zone("removed", "out", self.removed, up=True, show=True),
        ]
        out["seats"] = [
            {"seat": s, "held": None if self.held[s] is None else f"pile-{self.held[s] + 1}",
             "zones": [self._pile_zone(s, k, viewer) for k in range(self.n_piles)]}
            for s in range(self.players)
        ]
        out.update(self._table_facts())
        return out

    def _table_facts(self) -> dict:
        return {
            "call_word": self.options["call_word"],
            "calls": [{"player": s, "t": t} for s, t in self.calls],
            "laying": [len(x) for x in self.laying],
            "match": {"deal": self.deal_no, "wins": list(self.wins), "redeals": self.redeals,
                      "best_of_five": self.options["best_of_five"]},
        }

    def observation(self, player: int) -> dict:
        """The hidden-information view: own held pile, the middle, every complete pile, and
        only the counts of face-down piles (the owner cannot look into them either)."""
        out = {k: v for k, v in self._board_head().items()}
        out["seat"] = player
        k = self.held[player]
        out["held"] = None if k is None else {"pile": f"pile-{k + 1}",
                                              "cards": list(self.piles[player][k])}
        out["middle"] = list(self.middle)
        out["complete"] = [
            {"seat": s, "pile": f"pile-{j + 1}", "cards": list(self.piles[s][j])}
            for s in range(self.players) for j in range(self.n_piles)
            if self.status[s][j] == DONE
        ]
        out["face_down"] = [
            {"seat": s,
             "piles": sum(1 for st in self.status[s] if st == TABLE),
             "holding": self.held[s] is not None,
             "hand_count": len(self.hand(s))}
            for s in range(self.players)
        ]
        out.update(self._table_facts())
        return out

    # ------------------------------------------------------------------ serialisation
    def _state_json(self) -> dict:
        return {
            "n_piles": self.n_piles,
            "middle": list(self.middle),
            "removed": list(self.removed),
            "piles": [[list(p) for p in ps] for ps in self.piles],
            "status": [list(s) for s in self.status],
            "held": list(self.held),
            "laying": [list(x) for x in self.laying],
            "gone": [list(x) for x in self.gone],
            "laid": [list(x) for x in self.laid],
            "taken": {card: list(st) for card, st in self.taken.items()},
            "active_at": list(self.active_at),
            "held_at": list(self.held_at),
            "no_repick": list(self.no_repick),
            "repick_at": list(self.repick_at),
            "put_at": [list(x) for x in self.put_at],
            "calls": [list(c) for c in self.calls],
            "deal": self.deal_no,
            "wins": list(self.wins),
            "redeals": self.redeals,
        }

    def _load_state(self, d: dict) -> None:
        self.n_piles = d["n_piles"]
        self.middle = list(d["middle"])
        self.removed = list(d["removed"])
        self.piles = [[list(p) for p in ps] for ps in d["piles"]]
        self.status = [list(s) for s in d["status"]]
        self.held = list(d["held"])
        self.laying = [list(x) for x in d["laying"]]
        # Snapshots from before "gone" was kept load with nothing gone.
        self.gone = [list(x) for x in d.get("gone") or [[] for _ in self.laying]]
        self.laid = [list(x) for x in d["laid"]]
        self.taken = {card: list(st) for card, st in d["taken"].items()}
        self.active_at = list(d["active_at"])
        self.held_at = list(d["held_at"])
        self.no_repick = list(d["no_repick"])
        self.repick_at = list(d["repick_at"])
        self.put_at = [list(x) for x in d["put_at"]]
        self.calls = [list(c) for c in d["calls"]]
        self.deal_no = d["deal"]
        self.wins = list(d["wins"])
        self.redeals = d["redeals"]

    # ------------------------------------------------------------------ invariants
    def _all_cards(self) -> list[str]:
        out = list(self.middle) + list(self.removed)
        for ps in self.piles:
            for p in ps:
                out.extend(p)
        return out

    def _check_shapes(self) -> list[str]:
        problems = []
        pending = sum(len(x) for x in self.laying)
        if len(self.middle) != MIDDLE + pending:
            problems.append(f"the middle holds {len(self.middle)} cards, expected "
                            f"{MIDDLE} plus {pending} laid in unfinished swaps")
        # Every seat's own cards (its swap's still there, its finished swaps') lie in the middle,
        # each a different card.
        if self._claims() - Counter(self.middle):
            problems.append("laying and laid cards must lie in the middle (a laying card "
                            "another hand took is listed as gone)")
        for s in range(self.players):
            held = [k for k, st in enumerate(self.status[s]) if st == HELD]
            if len(held) > 1 or (held[0] if held else None) != self.held[s]:
                problems.append(f"seat {s}: holds more than one pile")
            if self.laying[s] and self.held[s] is None:
                problems.append(f"seat {s}: laid cards without holding a pile")
            for k, pile in enumerate(self.piles[s]):
                want = PILE_SIZE - (len(self.laying[s]) if k == self.held[s] else 0)
                if len(pile) != want:
                    problems.append(f"seat {s} pile-{k + 1}: {len(pile)} cards, expected {want}")
                if self.status[s][k] == DONE and not _four_of_a_kind(pile):
                    problems.append(f"seat {s} pile-{k + 1}: complete but not four of a kind")
        return problems


METADATA = {
    "players": dim("two-to-four", "equipment", min=2, max=4, second_deck_max=8),
    "decks": dim("one-deck", "equipment", decks=1, jokers=0, second_deck="option"),
    "cards_per_player": dim("piles-of-four", "deal", piles={"2": 6, "3": 4, "4": 3},
                            middle=4),
    "in_front": dim("face-down-piles-of-four", "deal", pile_size=4, hold=1),
    "start": dim("start-word-all-at-once", "start"),
    "legal_move": dim("lay-then-take-swap", "moves", per_grab=1,
                      several_per_grab="option"),
    "equal_ranks": dim("four-of-a-kind-completes-pile", "win-call", frozen=True),
    "stuck": dim("no-rule-change-pile-or-give-up", "stuck", five_second_rule="option"),
    "running_out": dim("not-applicable", "running-out"),
    "end": dim("win-call-all-piles-complete", "winning", simultaneous="redeal",
               best_of_five="option"),
    "scoring": dim("none", "winning", best_of_five="deal-wins"),
    "options": dim("option-list", "options", keys=[o.key for o in OPTIONS]),
}

INFO = register(VariantInfo(
    slug="james-bond",
    family="swap",
    players_min=2,
    players_max=8,
    decks=1,
    jokers_max=0,
    cards_per_player={"2": 24, "3": 16, "4": 12},
    source_file="001_8ad6d34b04be7505.txt",
    source_language="nb",
    options=OPTIONS,
    metadata=METADATA,
    game_class=JamesBondGame,
    call_word="stress",
    ui_by_options=lambda options: {"call_word": options["call_word"],
                                   "grab_limit": grab_limit(options)},
    bot_module="rules_engine.variants.james_bond_bot",
))
