"""The Speed games' accelerator: SpeedGame's rules (rules_engine.speed) at bot speed.

speed.SpeedGame states the rules readably: a card fits a pile by rank, a play that misses is
too slow, equal ranks or not adjacent, and when nobody can act both turn new cards. The
simulations and the site's driver play millions of actions, so each registered Speed game
class is `accelerated(rules_class)`: this module's SpeedAccelerator in front of the rules,
overriding only how the same answers are computed, never what they are:

  * derived state kept in step with every change of a row: each place's top value and each
    seat's row fit code, a bit per (place, pile) (`_row_values`, `_fits`), read from tables
    built once per process;
  * compact tokens for apply_token and the bots (("play", place, pile, whole, card, onto),
    ("call", pile), ("refill", place or None), ("combine", from, to), ("ready",));
  * an inlined `_settle`, and the bots' lazily scored pick.

tests/engine/test_fast_paths.py proves the two equal: the accelerated game and its rules
class, given the same actions, answer the same reasons, log the same events and reach the
same state; the bots' candidates and picks are the same.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rules_engine.actions import Action
from rules_engine.cards import RANK_VALUE, ranks_adjacent
from rules_engine.game import (
    CENTRE_IDS,
    CENTRE_INDEX,
    MAX_AUTO_STEPS,
    R_BAD_ACTION,
    R_UNKNOWN_ACTION,
    TIE_WINDOW_MS,
    best_candidate,
)
from rules_engine.speed import (
    _ROW_INDEX,
    E_PLAYED,
    E_REFILLED,
    E_STACKED,
    R_BAD_ZONE,
    R_EQUAL_RANK,
    R_FROZEN,
    R_NO_SUCH_CARD,
    R_NOT_ADJACENT,
    R_NOT_ALLOWED,
    R_NOT_EQUAL,
    R_NOTHING_TO_REFILL,
    R_TOO_SLOW,
    ROW_IDS,
    ROW_SIZE,
    SpeedEvent,
    SpeedGame,
)
from rules_engine.variant import VariantInfo

#: the seats of these two-player games (the registry allows exactly two).
_SEATS = (0, 1)

# The bots' constant tokens (SpeedAccelerator._bot_scored), built once.
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

    return [
        [
            tuple(fits(v, t0) | fits(v, t1) << 1 for v in range(NO_CARD + 1))
            for t1 in range(NO_CARD + 1)
        ]
        for t0 in range(NO_CARD + 1)
    ]


def _build_place_fit(pair_fit: list[list[tuple[int, ...]]]) -> list[list[tuple]]:
    # PLACE_FIT[t0][t1][k][card value]: PAIR_FIT's two bits moved to row place k's pair
    # (bits 2k and 2k+1), so one seat's whole row is a single int: four lookups and three ors.
    return [
        [tuple(tuple(bits << 2 * k for bits in row) for k in range(ROW_SIZE)) for row in by_t1]
        for by_t1 in pair_fit
    ]


_PLACE_FIT_TABLES = {
    key: _build_place_fit(_build_pair_fit(table)) for key, table in _FIT_TABLES.items()
}

#: CANDIDATES[row fit code]: the one-card plays it allows, in the bots' order, as tokens
#: without the card and the top ("play", row place, centre pile, False).
_CANDIDATES = tuple(
    tuple(
        ("play", k, pile, False)
        for k in range(ROW_SIZE)
        for pile in (0, 1)
        if code >> (2 * k + pile) & 1
    )
    for code in range(1 << 2 * ROW_SIZE)
)

#: FOLLOWS[card value][other value]: 1 when a card of the other value (never a joker, never
#: the same value, never NO_CARD) fits onto it. The bots count these in their row to prefer a
#: play that leaves the next play ready.
_FOLLOW_TABLES = {
    key: [
        tuple(
            int(value < NO_CARD and 0 < v < NO_CARD and v != value and table[v][value])
            for v in range(NO_CARD + 1)
        )
        for value in range(NO_CARD + 1)
    ]
    for key, table in _FIT_TABLES.items()
}


def _row_values(row: list[list[str]]) -> list[int]:
    return [RANK_VALUE[place[-1]] if place else NO_CARD for place in row]


def _fit_codes(place_fit: tuple[tuple[int, ...], ...], row_values: list[list[int]]) -> list[int]:
    """Each seat's row fit code: bits 2k and 2k+1 say that row place k's top card fits
    centre-0 and centre-1 (`place_fit` is the PLACE_FIT entry of the current tops). _settle
    keeps SpeedAccelerator._fits up to date after every change of a settled game; plays, the stuck
    check and the bots read it."""
    q0, q1, q2, q3 = place_fit
    return [q0[v0] | q1[v1] | q2[v2] | q3[v3] for v0, v1, v2, v3 in row_values]


class SpeedAccelerator(SpeedGame):
    """SpeedGame's rules with derived state, compact tokens and an inlined settle; placed in
    front of a variant's rules class by `accelerated`. Every override gives exactly the
    answer of the rules method it replaces (tests/engine/test_fast_paths.py)."""

    #: the rules class this one accelerates (its variant hooks are the rules).
    rules: ClassVar[type[SpeedGame]]
    #: the bots' only moves are plays and the call (no refill or combine action).
    _plays_only: ClassVar[bool] = False

    @classmethod
    def bind(cls, info: VariantInfo) -> None:
        super().bind(info)
        # The rules class plays the same variant (the tests' reference games).
        cls.rules.take_facts(info)
        cls._plays_only = cls.auto_refill and not cls.combine_allowed

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
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

    def _rows_replaced(self) -> None:
        self._row_values = [_row_values(row) for row in self.rows]
        self._fits = self._current_fits()

    def fits(self, card: str, pile: int) -> bool:
        top = self._top_value(pile)
        if top is None:
            return False
        return self._fit[RANK_VALUE[card]][top]

    # ------------------------------------------------------------------ tokens
    def apply_token(self, seat: int, t: int, token: Any) -> str | None:
        # Plays are nearly every action of a game. Outside the equal-rank event no deadline
        # is pending, so a play skips the generic path's timer handling.
        if token[0] != "play" or self.event_on or self.over or t < self.now or seat not in _SEATS:
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
            args: dict[str, Any] = {
                "card": card,
                "from": ROW_IDS[k],
                "to": CENTRE_IDS[p],
                "onto": onto,
            }
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
        if (
            card.__class__ is not str
            or src.__class__ is not str
            or dst.__class__ is not str
            or whole.__class__ is not bool
            or (onto is not None and onto.__class__ is not str)
            or len(args) != 3 + ("onto" in args) + ("whole" in args)
        ):
            return R_BAD_ACTION
        return self._play(
            action.player, _ROW_INDEX.get(src, -1), CENTRE_INDEX.get(dst, -1), whole, card, onto
        )

    def _play(
        self, seat: int, k: int, pile: int, whole: Any, card: str, onto: str | None
    ) -> str | None:
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
        self._log.append(
            (
                E_PLAYED,
                seat,
                {"card": card, "from": ROW_IDS[k], "to": CENTRE_IDS[pile], "count": count},
                now,
            )
        )
        if not place and self.auto_refill:
            # The row was full before (stress-se keeps it full while the draw pile lasts),
            # so this is the one place to refill.
            self._refill_place(seat, k)
        return None

    # ------------------------------------------------------------------ row changes
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

    # ------------------------------------------------------------------ settling
    def _settle(self) -> None:
        # SpeedGame._settle with tops_equal(), the top values and the fit test inlined: the
        # fit codes of both rows are computed once here and read by plays, the stuck check
        # and the bots until the next change.
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
                        self._fits = [0] * self.players  # plays are frozen
                        self._start_equal_ranks()
                        return
            elif b:
                t1 = RANK_VALUE[b[-1]]
            # A joker top only counts as the other top when both piles have cards, and then
            # the tops are equal (handled above); alone it counts as 0.
            fits = self._fits = _fit_codes(self._place_fit[t0][t1], self._row_values)
            ready = self.ready
            if True not in ready and any(fits):
                return  # somebody can play: the usual case, settled
            if self._anybody_can_act(fits):
                return
            flips += 1
            if flips > MAX_AUTO_STEPS:
                self.finish_draw("auto-cap")
                return
            self._emit(SpeedEvent.STUCK, None, ready=any(ready))
            self._turn_new_cards("stuck")

    def _anybody_can_act(self, fits: list[int]) -> bool:
        """SpeedGame._anybody_can_act, the plays read from the fit codes."""
        refill_is_action = not self.auto_refill
        for s, ready in enumerate(self.ready):
            if not ready and (fits[s] or (refill_is_action and self._can_refill(s))):
                return True
        return False

    def finish_win(self, seat: int, reason: str = "out-of-cards") -> None:
        super().finish_win(seat, reason)
        self._fits = [0] * self.players

    def finish_draw(self, reason: str = "cap") -> None:
        super().finish_draw(reason)
        self._fits = [0] * self.players

    # ------------------------------------------------------------------ bots
    def bot_candidates(self, seat: int) -> list[tuple[float, Action]]:
        """Scored ideas for rules_engine.bots: call first, then plays that keep a chain going,
        whole stacks, refills and combining."""
        t, token_action = self.now, self.token_action
        scores, tokens = self._bot_scored(seat)
        return [
            (score, token_action(seat, t, token))
            for score, token in zip(scores, tokens, strict=True)
        ]

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
                tokens = [
                    ("play", k, p, False, row[k][-1], centre[p][-1])
                    for _, k, p, _ in _CANDIDATES[code]
                ]
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

    def _current_fits(self) -> list[int]:
        """The fit codes the state calls for: none while plays are impossible (the equal-rank
        event, the end), else _fit_codes for the current tops."""
        if self.over or self.event_on:
            return [0] * self.players
        t0, t1 = (NO_CARD if v is None else v for v in (self._top_value(0), self._top_value(1)))
        return _fit_codes(self._place_fit[t0][t1], self._row_values)

    def _check_shapes(self, settled: bool = True) -> list[str]:
        problems = super()._check_shapes(settled)
        for s in range(self.players):
            if self._row_values[s] != _row_values(self.rows[s]):
                problems.append(f"seat {s}: the row's top values are out of step")
        if settled and self._fits != self._current_fits():
            problems.append("the rows' fit codes are out of step")
        return problems


def accelerated(rules: type[SpeedGame]) -> type[SpeedGame]:
    """The class a Speed variant registers: `rules` (its SpeedGame subclass) accelerated.
    It keeps the rules class's name: it is that game, computed faster."""
    return type(
        rules.__name__,
        (SpeedAccelerator, rules),
        {"__module__": rules.__module__, "__qualname__": rules.__qualname__, "rules": rules},
    )
