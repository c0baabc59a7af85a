"""Bot preferences for james-bond: scored candidates that rules_engine.bots times and picks.

The bot sees what its seat may see: the held pile, the middle, and what it remembers of its
own piles (a pile on the table only changes while held, so the cards it saw when it last
held a pile are still that pile's cards). Per pile it aims at a target rank (the rank it
holds most of, ties broken by what the middle offers). It swaps when the middle offers the
held pile's target; otherwise it changes to a pile that can use the middle now, or to one it
has not looked at yet; with nothing better it gives up one card of the held pile (lays its
loneliest card and takes the best the middle has) and then moves on to the pile that has
been away longest. That keeps every pile's spare cards coming round, so somebody's target
always turns up: the source's two ways out of a stuck table (try another pile, give up a
card), used in turn. When every middle card is one it laid itself it can swap nothing until
somebody else swaps, so it holds a pile and waits instead of changing piles.

`plan_holds` tells rules_engine.driver whether a planned action is still good after another
player's move: most moves (a pick, a put-back, a swap that leaves the planned cards where
they were) change nothing this bot sees, so its hand keeps moving instead of starting its
reaction over, and a slow bot is never starved by fast ones.

This module reads the rules (rules_engine.variants.james_bond); the rules never import it.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from rules_engine.actions import Action
from rules_engine.variants.james_bond import TABLE, JamesBondGame, cards_list

#: scores, best first: the win call; a swap the held pile wants; changing to a pile that can
#: use the middle; looking at a pile not seen yet; giving up a card; moving on.
CALL, SWAP, CHANGE, EXPLORE, GIVE_UP, MOVE_ON = 10.0, 7.0, 6.0, 5.0, 4.0, 3.0


def _rank_counts(cards: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in cards:
        out[c[0]] = out.get(c[0], 0) + 1
    return out


def _without(cards: list[str], remove: list[str]) -> list[str]:
    """cards less remove, as multisets (lists of at most a few cards: no Counter needed)."""
    out = list(cards)
    for c in remove:
        if c in out:
            out.remove(c)
    return out


def target_rank(hand: list[str], offer: dict[str, int]) -> str | None:
    """The rank the pile should become: the most cards within reach (held, or on offer in
    the middle at a slight discount), so four of a rank lying in the middle is not left there
    while everybody holds three of something whose fourth card is out of sight."""
    if not hand:
        return None
    held = _rank_counts(hand)
    best, best_key = None, (-1.0, 0, "")
    for r, h in held.items():
        key = (h + 0.9 * offer.get(r, 0), h, r)
        if key > best_key:
            best, best_key = r, key
    for r, o in offer.items():
        if r not in held:
            key = (0.9 * o, 0, r)
            if key > best_key:
                best, best_key = r, key
    return best


def _wants(cards: list[str], offer: dict[str, int], target: str | None = None) -> int:
    """How many cards of its target this pile could take from the middle now (0: none, or
    nothing to give for them)."""
    if target is None:
        target = target_rank(cards, offer)
    wanted = offer.get(target, 0) if target is not None else 0
    if not wanted:
        return 0
    return min(wanted, sum(1 for c in cards if c[0] != target))


def _offer(game: JamesBondGame, seat: int) -> dict[str, int]:
    """The middle's cards this seat may take, counted by rank."""
    return _rank_counts(_without(game.middle, game.laying[seat] + game.laid[seat]))


def _known(game: JamesBondGame, seat: int, k: int) -> bool:
    """Whether the seat has held pile k this deal (and so knows its cards)."""
    return game.put_at[seat][k] >= 0


def candidates(game: JamesBondGame, seat: int) -> list[tuple[float, Action]]:
    t = game.now
    if game.over:
        return []
    if game.all_complete(seat):
        if any(c[0] == seat for c in game.calls):
            return []
        return [(CALL, Action(t, seat, "call", {"word": game.options["call_word"]}))]
    if game.calls:
        return []  # the round has stopped at somebody's call
    if game.held[seat] is None:
        return _pick_candidates(game, seat)
    if game.laying[seat]:
        return _take_candidates(game, seat)
    return _swap_candidates(game, seat)


def _pick_candidates(game: JamesBondGame, seat: int) -> list[tuple[float, Action]]:
    t, out = game.now, []
    offer = _offer(game, seat)
    for a in game.legal_actions(seat):
        k = int(a.args["pile"][5:]) - 1
        pile = game.piles[seat][k]
        target = target_rank(pile, offer) if _known(game, seat, k) else None
        if target is None:
            score = EXPLORE
        elif _wants(pile, offer, target):
            # The pile closest to four of its target first.
            score = CHANGE + 0.1 * sum(1 for c in pile if c[0] == target)
        else:
            # The pile away longest first: its spare cards have waited longest.
            score = MOVE_ON + min(1.0, (t - game.put_at[seat][k]) / 20000)
        out.append((score, a))
    return out


def _take_candidates(game: JamesBondGame, seat: int) -> list[tuple[float, Action]]:
    t = game.now
    hand = game.hand(seat)
    free = _without(game.middle, game.laying[seat] + game.laid[seat])
    target = target_rank(hand, _rank_counts(free))
    held_ranks = _rank_counts(hand)

    def worth(card: str) -> float:
        if card[0] == target:
            return 6.0
        return 3.0 if card[0] in held_ranks else 1.0

    need = len(game.laying[seat])
    pool = sorted(free, key=worth, reverse=True)
    if need == 1:
        return [(worth(c), Action(t, seat, "take", {"card": c})) for c in dict.fromkeys(pool)]
    best = pool[:need]
    out = [(sum(worth(c) for c in best) / need, Action(t, seat, "take", {"cards": best}))]
    if len(pool) > need:
        out.append((0.5, Action(t, seat, "take", {"cards": pool[-need:]})))
    return out


def _swap_candidates(game: JamesBondGame, seat: int) -> list[tuple[float, Action]]:
    if not game._free_count(seat):
        # Every middle card is one this seat laid: no pile can swap until somebody else has
        # swapped (no taking back), so changing piles is pointless. Hold this one and wait;
        # the bot looks again after the next move. Picking up and putting back meanwhile
        # looked to a newcomer like a bot that had stalled (issue #26).
        return []
    t, out = game.now, []
    hand = game.hand(seat)
    offer = _offer(game, seat)
    target = target_rank(hand, offer)
    held = _rank_counts(hand)
    # Cards to give away: not the target, the loneliest ranks first.
    spare = sorted((c for c in hand if c[0] != target), key=lambda c: (held[c[0]], c))
    wanted = _wants(hand, offer, target)
    if wanted:
        n = min(wanted, game.grab_max())
        cards = spare[:n]
        args = {"card": cards[0]} if n == 1 else {"cards": cards}
        out.append((SWAP + n, Action(t, seat, "lay", args)))
        return out
    others = [k for k, st in enumerate(game.status[seat]) if st == TABLE]
    useful = any(_known(game, seat, k) and _wants(game.piles[seat][k], offer) for k in others)
    unseen = any(not _known(game, seat, k) for k in others)
    # Give up a card once per visit: the held pile has made no swap since it was picked up
    # (or it is the only unfinished pile left).
    give_up = GIVE_UP if game.active_at[seat] == game.held_at[seat] or not others else 1.0
    put_back = CHANGE if useful else EXPLORE if unseen else MOVE_ON if others else 0.5
    out.append((put_back, Action(t, seat, "put-back", {})))
    if spare and game._free_count(seat):
        out.append((give_up, Action(t, seat, "lay", {"card": spare[0]})))
    return out


def plan_holds(game: JamesBondGame, seat: int, token: Any) -> bool:
    """Whether a planned action would still be accepted now (the driver then keeps it: the
    move it answered changed nothing this plan depends on)."""
    kind, args = token
    if game.over:
        return False
    if kind == "call":
        return game.all_complete(seat) and not any(c[0] == seat for c in game.calls)
    if game.calls:
        return False
    k = game.held[seat]
    if kind == "pick":
        j = game._pile_index(args.get("pile"))
        return k is None and j is not None and game.status[seat][j] == TABLE
    if k is None:
        return False
    laying = game.laying[seat]
    if kind == "put-back":
        return not laying
    cards = cards_list(args)
    if cards is None:
        return False
    if kind == "lay":
        return (not laying and not Counter(cards) - Counter(game.hand(seat))
                and game._free_count(seat) >= len(cards))
    if kind == "take":
        return len(laying) == len(cards) and not Counter(cards) - game.takeable(seat)
    return False
