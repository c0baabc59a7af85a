"""Do bot games always finish? (a benchmark, not a test: about an hour on one core)

For every variant, player count and mix of bot levels, `--games` bot games (default 1,000;
seeds 1..) through rules_engine.simulate with the usual cap of 20,000 actions; one JSON line
per combination with `capped` (the goal: 0), draws, actions per game (mean and max) and the
time taken. The mixes: every ordered pair of levels at two players, every multiset of levels
at three and four, and at five to eight players (second deck) each level alone, an expert
among learners, a learner among experts and the three levels in turn; plus James Bond's
options that change the pace (five-second rule, several per grab, best of five).

    .venv/bin/python benchmarks/bots_finish.py [--games 1000] [--variant V] [--jobs 1]
                                               [--only FROM:TO]
"""

from __future__ import annotations

import argparse
import itertools
import json
import time
from concurrent.futures import ProcessPoolExecutor

from rules_engine.bots import LEVELS
from rules_engine.simulate import play_game

CAP = 20000


def combinations(variants: list[str] | None) -> list[tuple[str, int, dict, tuple]]:
    levels = tuple(LEVELS)
    pairs = list(itertools.product(levels, repeat=2))
    out: list[tuple[str, int, dict, tuple]] = []
    for slug in ("stress-se", "stress-de", "stressi-fi", "spit"):
        out += [(slug, 2, {}, pair) for pair in pairs]
    out += [("james-bond", 2, {}, pair) for pair in pairs]
    for n in (3, 4):
        out += [("james-bond", n, {}, mix)
                for mix in itertools.combinations_with_replacement(levels, n)]
    for n in (5, 6, 7, 8):
        mixes = [(lv,) * n for lv in levels] + [
            ("expert",) + ("learner",) * (n - 1), ("learner",) + ("expert",) * (n - 1),
            tuple(levels[s % 3] for s in range(n))]
        out += [("james-bond", n, {"second_deck": True}, mix) for mix in mixes]
    for options in ({"five_second_rule": True}, {"several_per_grab": True, "grab_limit": 4},
                    {"best_of_five": True}):
        for n, mix in ((2, ("expert", "learner")), (3, ("learner", "learner", "expert")),
                       (4, ("learner", "club", "expert", "learner"))):
            out.append(("james-bond", n, options, mix))
    return [c for c in out if not variants or c[0] in variants]


def run(case: tuple[str, int, dict, tuple], games: int) -> dict:
    slug, players, options, mix = case
    started = time.perf_counter()
    capped = draws = total = longest = 0
    for g in range(games):
        _, stats = play_game(slug, seed=1 + g, players=players, options=options, levels=mix,
                             max_actions=CAP)
        capped += stats.capped
        draws += stats.draw
        total += stats.actions
        longest = max(longest, stats.actions)
    return {"variant": slug, "players": players, "options": options, "bots": list(mix),
            "games": games, "capped": capped, "draws": draws,
            "mean_actions": round(total / games), "max_actions": longest,
            "seconds": round(time.perf_counter() - started, 1)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--variant", action="append")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--only", default=None, metavar="FROM:TO",
                        help="a slice of the combination list (to resume or split a run)")
    args = parser.parse_args()
    cases = combinations(args.variant)
    if args.only:
        start, _, stop = args.only.partition(":")
        cases = cases[int(start or 0):int(stop) if stop else None]
    capped = 0
    with ProcessPoolExecutor(args.jobs) as pool:
        for line in pool.map(run, cases, itertools.repeat(args.games)):
            capped += line["capped"]
            print(json.dumps(line), flush=True)
    print(json.dumps({"combinations": len(cases), "games_each": args.games,
                      "capped_in_all": capped}))


if __name__ == "__main__":
    main()
