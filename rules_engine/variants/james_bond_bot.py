"""Bot preferences for james-bond: scored candidates that rules_engine.bots times and picks.

The bot sees only what its seat may see (own held pile and the middle). Per held pile it
picks a target rank (the rank it holds most of, ties broken by what the middle offers),
lays off cards of other ranks to take target cards, changes pile when the middle does not
help, and gives up a card (lays one without a useful take) once the middle has not moved
for a while, which is how people unlock a table where everybody waits.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.actions import Action

if TYPE_CHECKING:
    from rules_engine.variants.james_bond import JamesBondGame

#: after this long without any swap at the table, giving up a card beats changing pile.
GIVE_UP_AFTER_MS = 3000


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
    """The rank the held pile should become: the most cards within reach (held, or on offer
    in the middle at a slight discount), so four of a rank lying in the middle is not left
    there while everybody holds three of something whose fourth card is out of sight."""
    if not hand:
        return None
    held = _rank_counts(hand)
    best, best_key = None, None
    for r in set(held) | set(offer):
        h = held.get(r, 0)
        key = (h + 0.9 * offer.get(r, 0), h, r)
        if best_key is None or key > best_key:
            best, best_key = r, key
    return best


def james_bond_candidates(game: JamesBondGame, seat: int) -> list[tuple[float, Action]]:
    t = game.now
    if game.over:
        return []
    if game.all_complete(seat):
        if any(c[0] == seat for c in game.calls):
            return []
        return [(10.0, Action(t, seat, "call", {"word": game.options["call_word"]}))]
    k = game.held[seat]
    if k is None:
        return _pick_candidates(game, seat)
    hand = game.hand(seat)
    if game.laying[seat]:
        return _take_candidates(game, seat, hand)
    return _swap_candidates(game, seat, hand)


def _pick_candidates(game: JamesBondGame, seat: int) -> list[tuple[float, Action]]:
    t, out = game.now, []
    for a in game.legal_actions(seat):
        j = int(a.args["pile"][5:]) - 1
        put = game.put_at[seat][j]
        # Prefer the pile that has been away longest (never held: best).
        score = 4.0 if put < 0 else 3.0 + min(1.0, (t - put) / 20000)
        out.append((score, a))
    return out


def _take_candidates(game: JamesBondGame, seat: int, hand: list[str]) -> list[
        tuple[float, Action]]:
    t = game.now
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


def _swap_candidates(game: JamesBondGame, seat: int, hand: list[str]) -> list[
        tuple[float, Action]]:
    t, out = game.now, []
    free = _without(game.middle, game.laid[seat])
    offer = _rank_counts(free)
    target = target_rank(hand, offer)
    held = _rank_counts(hand)
    # Cards to give away: not the target, the loneliest ranks first.
    spare = sorted((c for c in hand if c[0] != target), key=lambda c: (held[c[0]], c))
    wanted = offer.get(target, 0) if target else 0
    others_left = "table" in game.status[seat]
    if spare and wanted:
        n = min(wanted, len(spare), game.grab_max())
        cards = spare[:n]
        args = {"card": cards[0]} if n == 1 else {"cards": cards}
        out.append((6.0 + n, Action(t, seat, "lay", args)))
    else:
        out.append((2.0 if others_left else 0.2, Action(t, seat, "put-back", {})))
        if spare and free:
            idle = t - game.middle_at
            score = 2.5 if idle >= GIVE_UP_AFTER_MS or not others_left else 1.0
            out.append((score, Action(t, seat, "lay", {"card": spare[0]})))
    return out
