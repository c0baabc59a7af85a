"""Game: the state machine every variant subclasses (python-chess / OpenSpiel in spirit).

One game is one ordered stream of timestamped actions from any seat. `apply` checks an action
against the state at its time and either changes the state and returns the events, or returns
a stable reason code and changes nothing the action asked for.

Time: `now` is the time of the last accepted action (or of the last timer that fired). A
variant may hold a *deadline* (e.g. the end of a tie window after a first Stress call). Before
an action at time t is checked, every deadline <= t fires, exactly as `advance(t)` would: the
passing of time is a fact, not part of the action. Callers with no action to send use
`advance(t)`; `next_deadline()` tells them when something is due.

Subclass contract (see rules_engine/speed.py for a full example):
  * class attributes `variant` (VariantInfo), `handlers` {action type: method name},
    `action_args` {action type: its argument keys}, `position_keys` and `seat_keys`;
    a handler takes the Action, validates it WITHOUT mutating, and returns a reason code,
    or mutates and returns None;
  * `_deal()`, `_load_position(position)`, `position()`, `_state_json()`, `_load_state(d)`,
    `_all_cards()`, `_check_shapes()`, `legal_actions(seat)`, `board(viewer)`, `phase`;
  * optionally `next_deadline()`, `_on_deadline(t)` and `_settle()` (runs after every
    accepted action and fired deadline: stuck detection, wins, equal-rank events).
"""

from __future__ import annotations

import copy as _copy
import random
from collections import Counter
from typing import Any, ClassVar

from rules_engine import notation as _notation
from rules_engine.actions import Action, Event, Result
from rules_engine.codes import Reason, SharedEvent, Vocabulary
from rules_engine.options import validate_options
from rules_engine.positions import (
    PositionError,
    a_list,
    a_seed,
    an_object,
    cards,
    check_keys,
    whole_number,
)
from rules_engine.variant import UiFacts, VariantInfo

#: two actions whose timestamps differ by less than this count as simultaneous.
TIE_WINDOW_MS = 100
#: the two shared centre piles of the Speed-type variants and Spit, as actions name them.
CENTRE_IDS = ("centre-0", "centre-1")
CENTRE_INDEX = {z: i for i, z in enumerate(CENTRE_IDS)}
#: a time long before any game started: "this never happened yet".
NEVER = -(10**12)
#: a guard against endless automatic resolution (stuck -> flip -> stuck ...) in one step.
MAX_AUTO_STEPS = 500

# Game.apply's own reason codes (rules_engine.codes declares them; short names for the hot
# paths and for callers that already import them from here).
R_BAD_ACTION = Reason.BAD_ACTION
R_UNKNOWN_ACTION = Reason.UNKNOWN_ACTION
R_GAME_OVER = Reason.GAME_OVER
R_OUT_OF_ORDER = Reason.OUT_OF_ORDER
R_BAD_PLAYER = Reason.BAD_PLAYER


def best_candidate(scores: list[float], tokens: list, rng: random.Random) -> Any:
    """The best-scored token; a tie is drawn with one rng.random()."""
    best = max(scores)
    ties = scores.count(best)
    if ties == 1:
        return tokens[scores.index(best)]
    top = [token for score, token in zip(scores, tokens, strict=True) if score == best]
    return top[int(rng.random() * ties)]


def pick_scored(scores: list[float], tokens: list, skill: float, rng: random.Random) -> Any:
    """A bot's choice among scored tokens (None: there are none): with chance `skill` the
    best-scored (a tie drawn at random), otherwise any; one token is taken without a draw."""
    n = len(tokens)
    if n < 2:
        return tokens[0] if n else None
    if rng.random() >= skill:
        return tokens[int(rng.random() * n)]
    return best_candidate(scores, tokens, rng)


class InvariantError(AssertionError):
    """The state broke a rule that no sequence of actions may break (an engine bug)."""



#: board(SPECTATOR): a viewer without a seat (a watcher), shown no seat's hidden cards.
SPECTATOR = -1

class Game:
    variant: ClassVar[VariantInfo]
    #: the family's action types, event codes and reason codes (rules_engine.codes).
    vocabulary: ClassVar[Vocabulary]
    handlers: ClassVar[dict[str, str]] = {}
    #: the argument keys each action type may carry, from the vocabulary's argument schemas;
    #: any other key makes the action bad-action, so a misspelt argument is never ignored.
    action_args: ClassVar[dict[str, frozenset[str]]] = {}

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if "vocabulary" in cls.__dict__:
            cls.action_args = cls.vocabulary.action_args()
            if set(cls.handlers) != set(cls.action_args):
                raise TypeError(f"{cls.__name__}: a handler for each declared action type")
    #: the keys a position (and each of its seats) may have; anything else is a PositionError,
    #: so a misspelt key never passes unnoticed. `options`, `now` and `seed` are shared.
    position_keys: ClassVar[frozenset[str]] = frozenset()
    seat_keys: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, *, players: int, options: dict, seed: int | None = 0,
                 debug: bool = False) -> None:
        self.players = players
        self.options = options
        self.seed = seed
        self.rng = random.Random(seed)
        self.now = 0
        # The event log as plain (code, player, data, t) records: the hot paths append those,
        # and `log` builds each Event once, when somebody reads it.
        self._log: list[tuple] = []
        self._log_events: list[Event] = []
        self.over = False
        self.winner: int | None = None
        self.draw = False
        self.scores: list[int] | None = None
        self.end_reason: str | None = None
        self.debug = debug
        self._cards_all: list[str] = []

    # ------------------------------------------------------------------ construction
    @classmethod
    def bind(cls, info: VariantInfo) -> None:
        """Make `info` this class's variant (its registration); subclasses also take the
        class-level switches their rules read from it, so each fact is stated once."""
        if info.game_class is not cls:
            raise ValueError(f"{info.slug}: VariantInfo.game_class is {info.game_class!r}, "
                             f"not {cls.__name__}")
        cls.variant = info

    @property
    def ui(self) -> UiFacts:
        """What the site needs to know about how this game is played (VariantInfo.ui for
        this game's options): call word, gesture, which actions exist, the grab limit."""
        return self.variant.ui_of_valid(self.options)

    @classmethod
    def new(cls, *, players: int | None = None, seed: int = 0, options: dict | None = None,
            debug: bool = False) -> Game:
        opts = validate_options(cls.variant.options, options or {}, name=cls.variant.slug)
        n = cls._check_players(players, opts)
        game = cls(players=n, options=opts, seed=seed, debug=debug)
        game._deal()
        game._start()
        return game

    @classmethod
    def from_position(cls, position: dict, *, options: dict | None = None,
                      debug: bool = False) -> Game:
        """A game set up from an explicit position (docs/scenarios.md). A malformed position
        raises PositionError (bad options: OptionError), never anything else."""
        an_object(position, "a position")
        check_keys(position, cls.position_keys | {"options", "now", "seed"}, "position")
        opts = validate_options(cls.variant.options, options or position.get("options"),
                                name=cls.variant.slug)
        seats = a_list(position.get("seats"), "seats")
        for seat, spec in enumerate(seats):
            check_keys(an_object(spec, f"seat {seat}"), cls.seat_keys, f"seat {seat}")
        try:
            n = cls._check_players(len(seats), opts)
        except ValueError as exc:
            raise PositionError(f"seats: {exc}") from None
        seed = a_seed(position.get("seed", 0))
        game = cls(players=n, options=opts, seed=seed, debug=debug)
        game.now = whole_number(position.get("now", 0), "now")
        game._load_position(position)
        game._start()
        return game

    @classmethod
    def _players_range(cls, options: dict) -> tuple[int, int]:
        """How many players this game takes with these options."""
        return cls.variant.players_min, cls.variant.players_max

    @classmethod
    def _check_players(cls, players: int | None, options: dict) -> int:
        low, high = cls._players_range(options)
        n = cls.variant.players_min if players is None else players
        if type(n) is not int or not low <= n <= high:
            count = f"exactly {low}" if low == high else f"{low}-{high}"
            raise ValueError(f"{cls.variant.slug} is for {count} players with these options, "
                             f"got {players!r}")
        return n

    def _start(self) -> None:
        self._cards_all = sorted(self._all_cards())
        self._settle()
        if self.debug:
            self.check_invariants()

    # ------------------------------------------------------------------ the action stream
    def apply(self, action: Action | dict) -> Result:
        """Apply one action; never raises for a bad action (see the module docstring)."""
        if not isinstance(action, Action):
            try:
                action = Action.from_json(action)  # type: ignore[arg-type]
            except (ValueError, TypeError):
                return Result(False, R_BAD_ACTION, [])
        t = action.t
        if (type(t) is not int or type(action.player) is not int
                or (action.type.__class__ is not str and not isinstance(action.type, str))
                or not isinstance(action.args, dict)):
            return Result(False, R_BAD_ACTION, [])
        if self.over:
            return Result(False, R_GAME_OVER, [])
        if t < self.now:
            return Result(False, R_OUT_OF_ORDER, [])
        if not 0 <= action.player < self.players:
            return Result(False, R_BAD_PLAYER, [])
        if action.type not in self.handlers:
            return Result(False, R_UNKNOWN_ACTION, [])
        mark = len(self._log)
        reason = self._run(action.player, t, action)
        return Result(reason is None, reason, self._events_since(mark))

    def apply_token(self, seat: int, t: int, token: Any) -> str | None:
        """apply() for the engine's compact action form (what `_bot_scored` lists; OpenSpiel
        plays integer actions the same way): the same checks, state changes and events, but
        the answer is only the reason code (None: accepted; the events are the log's growth)
        and no Action, Result or Event is built. The bots' simulations run on it."""
        if self.over:
            return R_GAME_OVER
        if t < self.now:
            return R_OUT_OF_ORDER
        if not 0 <= seat < self.players:
            return R_BAD_PLAYER
        return self._run(seat, t, token)

    def _run(self, seat: int, t: int, token: Any) -> str | None:
        """Fire what is due by t, then check and apply one action (an Action or a token)."""
        due = self.next_deadline()
        if due is not None and due <= t:
            self._run_due(t)
            if self.over:
                return R_GAME_OVER
        return self._apply_at(seat, t, token)

    def _apply_at(self, seat: int, t: int, token: Any) -> str | None:
        """Check and apply one action at t, nothing being due before it; settle after it."""
        # Handlers stamp their events with the action's time; a rejection restores the clock.
        before = self.now
        self.now = t
        try:
            reason = self._dispatch(seat, t, token)
        except (TypeError, KeyError, IndexError, ValueError, AttributeError):
            # Handlers validate before they mutate, so a malformed argument that trips
            # validation (an unhashable zone, a non-string card) leaves the state intact.
            reason = R_BAD_ACTION
        if reason is not None:
            self.now = before
            return reason
        self._settle()
        if self.debug:
            self.check_invariants()
        return None

    def _dispatch(self, seat: int, t: int, token: Any) -> str | None:
        """Run the handler for an Action, or for a token in the default (type, args) form.
        An Action's argument keys are checked here (tokens are the engine's own)."""
        if token.__class__ is Action:
            action = token
            if not self.action_args[action.type].issuperset(action.args):
                return R_BAD_ACTION
        else:
            action = self.token_action(seat, t, token)
        method = self.handlers.get(action.type)
        if method is None:
            return R_UNKNOWN_ACTION
        return getattr(self, method)(action)

    def token_action(self, seat: int, t: int, token: Any) -> Action:
        """The Action a compact token stands for (for logs, records and replays)."""
        kind, args = token
        return Action(t, seat, kind, dict(args))

    def advance(self, t: int) -> list[Event]:
        """Let time pass to t: fire every deadline <= t. Returns the events this caused."""
        if t.__class__ is not int:
            raise TypeError(f"advance: t must be a whole number of ms, got {t!r}")
        if t <= self.now or self.over:
            return []
        mark = len(self._log)
        self._run_due(t)
        if not self.over:
            self.now = t
        if self.debug:
            self.check_invariants()
        return self._events_since(mark)

    def _run_due(self, t: int) -> None:
        due = self.next_deadline()
        if due is None or due > t:
            return
        for _ in range(MAX_AUTO_STEPS):
            due = self.next_deadline()
            if due is None or due > t or self.over:
                return
            self.now = max(self.now, due)
            self._on_deadline(due)
            self._settle()
        self.finish_draw("auto-cap")

    def next_deadline(self) -> int | None:
        """When time alone will next change the state (None: nothing pending)."""
        return None

    def _on_deadline(self, t: int) -> None:  # pragma: no cover - variants with deadlines override
        raise NotImplementedError

    def _settle(self) -> None:
        """Automatic consequences after a change (stuck detection, wins ...)."""

    # ------------------------------------------------------------------ events and the end
    @property
    def log(self) -> list[Event]:
        """Every event so far, oldest first (read only: the engine appends to it)."""
        events, raw = self._log_events, self._log
        if len(events) < len(raw):
            events.extend([Event(*record) for record in raw[len(events):]])
        return events

    def _events_since(self, mark: int) -> list[Event]:
        # Only the new records: building the whole log here would cost every caller of
        # advance() (the simulations call it after each tie window) the game's full history.
        return [Event(*record) for record in self._log[mark:]]

    def _emit(self, code: str, player: int | None = None, **data: Any) -> None:
        self._log.append((code, player, data, self.now))

    def finish_win(self, seat: int, reason: str = "out-of-cards") -> None:
        self.over = True
        self.winner = seat
        self.end_reason = reason
        self._emit(SharedEvent.WON, seat, reason=reason)

    def finish_draw(self, reason: str = "cap") -> None:
        """End the game without a winner (simulation caps use reason "cap")."""
        if self.over:
            return
        self.over = True
        self.draw = True
        self.end_reason = reason
        self._emit(SharedEvent.DRAW, None, reason=reason)

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def phase(self) -> str:
        return "over" if self.over else "play"

    def __repr__(self) -> str:
        """What the position is at a glance: variant, phase, the centre's top cards."""
        tops = [z["cards"][-1]["card"] if z["cards"] else "-" for z in self.board(None)["centre"]]
        return (f"<{type(self).__name__} {self.variant.slug} phase={self.phase} "
                f"centre={' '.join(tops)}>")

    # ------------------------------------------------------------------ views
    def legal_actions(self, player: int) -> list[Action]:
        raise NotImplementedError

    def board(self, viewer: int | None = None) -> dict:
        """The table as `viewer` sees it: a seat sees its own hidden cards (a held James
        Bond pile), SPECTATOR (someone at the table without a seat) sees no hidden card,
        None sees everything (examples, replays, tests)."""
        raise NotImplementedError

    # ------------------------------------------------------------------ bots plug in here
    #: action types a bot makes with its *call* reaction time (a shout, a slap) rather than
    #: its move reaction time.
    bot_call_types: ClassVar[frozenset[str]] = frozenset({"call"})
    #: event codes after which all players start again at once, on a signal (the first
    #: centre cards, new cards turned when stuck or after a call, a new deal): a driver with
    #: a start signal holds play for its countdown after each (rules_engine.driver).
    signal_events: ClassVar[frozenset[str]] = frozenset()

    def bot_candidates(self, seat: int) -> list[tuple[float, Action]]:
        """What a bot at this seat could do now, each with a preference score (higher is
        better; an expert takes the best, a learner picks almost at random). The Actions' t is
        ignored: rules_engine.bots stamps the time from its reaction model. Default: every
        legal action, score 1. Variants override this with their own heuristics, or keep them
        in a bot module of their own (VariantInfo.bot_module)."""
        return [(1.0, a) for a in self.legal_actions(seat)]

    def _bot_scored(self, seat: int) -> tuple[list[float], list[Any]]:
        """bot_candidates() in the bots' cheaper form: the scores, and for each the compact
        action apply_token takes (its first item is the action type), in the same order. The
        default builds them from bot_candidates(), so a variant that only overrides
        bot_candidates needs nothing else."""
        candidates = self.bot_candidates(seat)
        return [score for score, _ in candidates], [(a.type, a.args) for _, a in candidates]

    def _bot_pick(self, seat: int, skill: float, rng: random.Random) -> Any:
        """The compact action a bot of this skill picks now, or None when it has nothing to
        do: with chance `skill` the best-scored candidate (a tie drawn at random), otherwise
        any candidate. A variant may override it to score lazily, with the same draws."""
        scores, tokens = self._bot_scored(seat)
        return pick_scored(scores, tokens, skill, rng)

    def observation(self, player: int) -> dict:
        """What that seat may see; for the speed variants this is board(viewer=player)."""
        return self.board(viewer=player)

    def _board_head(self) -> dict:
        return {
            "variant": self.variant.slug,
            "players": self.players,
            "now": self.now,
            "phase": self.phase,
            "winner": self.winner,
            "draw": self.draw,
            "scores": self.scores,
        }

    @staticmethod
    def zone(zone_id: str, kind: str, cards: list[str], *, up: bool, show: bool) -> dict:
        """One rendered zone; face-down cards show their face only to the omniscient view."""
        if up or show:
            shown = [{"card": c, "up": up} for c in cards]
        else:
            shown = [{"card": None, "up": False} for _ in cards]
        return {"id": zone_id, "kind": kind, "cards": shown, "count": len(cards)}

    # ------------------------------------------------------------------ serialisation
    def to_json(self, *, log: bool = True) -> dict:
        """The whole state; with log=False without the event history (from_json then starts
        an empty log: the driver's snapshots stay the same size however long the game)."""
        version, internal, gauss = self.rng.getstate()
        return {
            "variant": self.variant.slug,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed,
            "now": self.now,
            "rng": [version, list(internal), gauss],
            "over": self.over,
            "winner": self.winner,
            "draw": self.draw,
            "scores": self.scores,
            "end_reason": self.end_reason,
            "cards": list(self._cards_all),
            "log": [e.to_json() for e in self.log] if log else [],
            "state": self._state_json(),
        }

    @classmethod
    def from_json(cls, data: dict) -> Game:
        """Rebuild this variant's game from its to_json() output. To restore a game of any
        variant, rules_engine.registry.game_from_json picks the class from data["variant"]."""
        if getattr(cls, "variant", None) is None or data["variant"] != cls.variant.slug:
            raise TypeError(f"{cls.__name__}.from_json cannot restore a {data['variant']!r} "
                            "game: use rules_engine.registry.game_from_json")
        game = cls(players=data["players"], options=dict(data["options"]), seed=data["seed"])
        version, internal, gauss = data["rng"]
        game.rng.setstate((version, tuple(internal), gauss))
        game.now = data["now"]
        game.over = data["over"]
        game.winner = data["winner"]
        game.draw = data["draw"]
        game.scores = data["scores"]
        game.end_reason = data.get("end_reason")
        game._cards_all = list(data["cards"])
        game._log_events = [Event.from_json(e) for e in data["log"]]
        game._log = [(e.code, e.player, e.data, e.t) for e in game._log_events]
        game._load_state(data["state"])
        return game

    def copy(self) -> Game:
        """An independent game in the same state (the RNG included)."""
        return _copy.deepcopy(self, {id(table): table for table in self._shared_tables()})

    def _shared_tables(self) -> tuple:
        """Read-only objects the game refers to but never owns (copy() shares them)."""
        return ()

    def position(self) -> dict:
        raise NotImplementedError

    def notation(self) -> str:
        """The position as one line of text, like chess's FEN (docs/scenarios.md, "Position
        notation"); rules_engine.game_from_notation reads it back."""
        return _notation.notation(self.variant, self.options, self.position())

    def _state_json(self) -> dict:
        raise NotImplementedError

    def _load_state(self, data: dict) -> None:
        raise NotImplementedError

    def _deal(self) -> None:
        raise NotImplementedError

    def _load_position(self, position: dict) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------ invariants
    def _all_cards(self) -> list[str]:
        raise NotImplementedError

    def _check_shapes(self) -> list[str]:
        return []

    def _cards_from(self, value: Any, where: str) -> list[str]:
        """A position's list of cards, checked against this variant's deck."""
        return cards(value, where, jokers=self.variant.jokers_max > 0)

    def check_invariants(self) -> None:
        """Raise InvariantError if cards were created or lost, or a pile broke its shape."""
        problems = list(self._check_shapes())
        cards = sorted(self._all_cards())
        # _cards_all is kept sorted, so equal lists are equal multisets (the Counters are the
        # fallback for a hand-written JSON state whose card list is in another order).
        if cards != self._cards_all and Counter(cards) != Counter(self._cards_all):
            now = Counter(cards)
            extra = now - Counter(self._cards_all)
            lost = Counter(self._cards_all) - now
            problems.append(f"cards not conserved: extra {dict(extra)}, lost {dict(lost)}")
        if problems:
            raise InvariantError(f"{self.variant.slug}: " + "; ".join(problems))
