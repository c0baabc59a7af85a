"""Can a steady newcomer beat each bot level? (issue #26)

A scripted player moves every `--every` ms of game time (default 1,200: a first-time
player's steady pace): a sensible legal move (tests/play_human.py `sensible_action`; in
spit without pointless moves of a lone card) chosen on the table as it stood at its
previous move, then sent through the engine's Driver the way the site sends a person's
move (`Driver.submit` catches the bots up to that moment first, so the move may come too
late, as a person's would). Seat 0 is the player, seat 1 the bot, two
players, `--games` games per level and variant (seeds 1..). Prints the player's win rate per
level and variant beside the goal: against the learner the player should win most games.

    .venv/bin/python benchmarks/bot_levels.py [--games 60] [--every 1200] [--variant V]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules_engine.bots import LEVELS, candidates
from rules_engine.driver import HUMAN, Driver
from rules_engine.registry import VARIANTS
from tests.play_human import sensible_action

#: a game that lasts longer than this much game time counts as nobody's win.
LIMIT_MS = 30 * 60 * 1000
GOALS = {"learner": "player wins most (> 50 %)", "club": "-", "expert": "-"}


def player_action(game, seat: int, rng: random.Random) -> dict | None:
    """`sensible_action`, except that in spit the player skips what the bots skip too:
    moving a lone card into a space, back and forth, uncovers nothing (and a random player
    would do it for ever)."""
    if game.variant.slug != "spit":
        return sensible_action(game, seat, rng)
    legal = [a.to_json() for _, a in candidates(game, seat)]
    for data in legal:
        del data["t"], data["player"]
    calls = [a for a in legal if a["type"] in ("choose", "spit")]
    return rng.choice(calls or legal) if legal else None


def play(slug: str, level: str, seed: int, every_ms: int) -> int | None:
    """The winner's seat (0: the scripted player) or None (a draw or the time limit)."""
    driver = Driver.new(slug, [HUMAN, level], seed=seed)
    rng = random.Random(seed)
    now = 0
    while not driver.game.over and now < LIMIT_MS:
        action = player_action(driver.game, 0, rng)
        now += every_ms
        if action is None:
            driver.run_until(now)
        else:
            driver.submit(0, now, action)
    return driver.game.winner if driver.game.over else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--every", type=int, default=1200, help="ms between the player's moves")
    parser.add_argument("--variant", action="append", choices=sorted(VARIANTS))
    args = parser.parse_args()
    slugs = args.variant or list(VARIANTS)
    print(f"scripted player: a sensible move every {args.every} ms; {args.games} games each")
    print("| level | " + " | ".join(slugs) + " | goal |")
    print("| --- | " + " | ".join("---" for _ in slugs) + " | --- |")
    started = time.perf_counter()
    for level in LEVELS:
        cells = []
        for slug in slugs:
            winners = [play(slug, level, seed, args.every) for seed in range(1, args.games + 1)]
            wins = sum(1 for w in winners if w == 0)
            cells.append(f"{wins}/{args.games} ({100 * wins // args.games} %)")
        print(f"| {level} | " + " | ".join(cells) + f" | {GOALS.get(level, '-')} |", flush=True)
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
