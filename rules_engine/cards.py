"""Card notation: rank + suit strings ("7H", "TS", "AC") and the joker "X".

Cards are plain strings on purpose: they hash, compare and serialise for free, and the
hot paths of the engine only ever need a dictionary lookup to get a rank.
"""

from __future__ import annotations

import random

RANKS = "A23456789TJQK"
SUITS = "SHDC"
JOKER = "X"

#: rank value of every valid card: A=1 ... K=13, joker 0.
RANK_VALUE: dict[str, int] = {r + s: i + 1 for i, r in enumerate(RANKS) for s in SUITS}
RANK_VALUE[JOKER] = 0


class CardError(ValueError):
    """A string that is not a card in the engine's notation."""


def is_card(value: object) -> bool:
    return isinstance(value, str) and value in RANK_VALUE


def parse_card(value: object) -> str:
    """Return the canonical card string; accepts lower case and "10" for T."""
    if not isinstance(value, str):
        raise CardError(f"not a card: {value!r}")
    text = value.strip().upper()
    if text.startswith("10") and len(text) == 3:
        text = "T" + text[2]
    if text not in RANK_VALUE:
        raise CardError(
            f"not a card: {value!r} (rank one of {' '.join(RANKS)}, suit one of "
            f"{' '.join(SUITS)}, or {JOKER} for a joker)"
        )
    return text


def rank_value(card: str) -> int:
    """1..13 for A..K, 0 for the joker."""
    try:
        return RANK_VALUE[card]
    except KeyError:
        raise CardError(f"not a card: {card!r}") from None


def rank(card: str) -> str:
    """The rank letter ("7", "T", "A"), or "X" for the joker."""
    return card[0]


def _build_adjacency(wrap: bool) -> dict[tuple[int, int], bool]:
    table = {}
    for a in range(1, 14):
        for b in range(1, 14):
            d = abs(a - b)
            table[a, b] = d == 1 or (wrap and d == 12)
    return table


_ADJ_WRAP = _build_adjacency(True)
_ADJ_LOW = _build_adjacency(False)


def ranks_adjacent(a: int, b: int, wrap: bool = True) -> bool:
    """Rank values exactly one apart; with wrap, K and A are neighbours too."""
    return (_ADJ_WRAP if wrap else _ADJ_LOW).get((a, b), False)


def adjacent(a: str, b: str, wrap: bool = True) -> bool:
    """Two cards exactly one rank apart (suits never matter).

    Jokers are never adjacent here: what a joker fits is a variant's rule.
    """
    return ranks_adjacent(rank_value(a), rank_value(b), wrap)


def full_deck(decks: int = 1, jokers: int = 0) -> list[str]:
    """All cards of `decks` 52-card decks plus `jokers` jokers, in a fixed order."""
    return list(_ONE_DECK) * decks + [JOKER] * jokers


# The same string objects for every game: their hashes are computed once per process, and
# the engine's dict lookups and comparisons of cards stay cheap.
_ONE_DECK = tuple(r + s for s in SUITS for r in RANKS)


def _shuffle_getrandbits(rng: random.Random, x: list) -> None:
    # random.Random.shuffle with _randbelow_with_getrandbits inlined (CPython's algorithm:
    # Fisher-Yates from the end, rejection sampling on getrandbits(n.bit_length())).
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def _same_as_stdlib() -> bool:
    for seed in range(4):
        a, b = list(range(60)), list(range(60))
        r1, r2 = random.Random(seed), random.Random(seed)
        random.Random.shuffle(r1, a)
        _shuffle_getrandbits(r2, b)
        if a != b or r1.getstate() != r2.getstate():
            return False
    return True


#: the fast path is used only where it draws exactly what rng.shuffle would (checked once
#: at import against this interpreter's random module).
_FAST_SHUFFLE = _same_as_stdlib()


def shuffle(rng: random.Random, x: list) -> None:
    """Exactly rng.shuffle(x) (same order, same random-state afterwards), about twice as fast
    for a plain random.Random; any other generator gets its own shuffle."""
    if _FAST_SHUFFLE and type(rng) is random.Random:
        _shuffle_getrandbits(rng, x)
    else:
        rng.shuffle(x)
