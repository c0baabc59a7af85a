"""Reference harness for engine optimisations (not a test): every game must stay identical.

Records, for about 1,000 cases, one hash per case over everything observable:
  * bot games (stress-se, stress-de, stressi-fi; random options, levels and seeds): the
    final to_json() (state, RNG state, full event log), the action stream the bots sent and
    each engine answer (accepted, reason, events);
  * random legal play: after every step the board, legal_actions, bot_candidates, the
    Result and finally to_json().

    .venv/bin/python benchmarks/reference_cases.py record [--out FILE]
    .venv/bin/python benchmarks/reference_cases.py check  [--out FILE]

Record on the commit before a change, check after it: any difference names the case.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys

from rules_engine.registry import get_variant, new_game
from rules_engine.simulate import play_game

SLUGS = ("stress-se", "stress-de", "stressi-fi")
LEVELS = ("learner", "club", "expert")
DEFAULT_OUT = "/tmp/stress_reference.json"


#: the keys each probe keeps (an unknown argument key would make every probe bad-action);
#: written out rather than read from the engine, so the harness runs on older commits too.
_ARGUMENTS = {
    "play": ("t", "player", "type", "card", "from", "to"),
    "call": ("t", "player", "type"),
    "refill": ("t", "player", "type", "to"),
    "combine": ("t", "player", "type", "from", "to"),
    "ready": ("t", "player", "type"),
}


def _dump(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), default=repr)


def _random_options(slug: str, rng: random.Random) -> dict:
    out = {}
    for spec in get_variant(slug).options:
        if spec.type == "bool":
            out[spec.key] = rng.random() < 0.5
        else:
            out[spec.key] = rng.choice(spec.choices)
    return out


class _Recorder(list):
    """play_game's record list that also keeps each engine answer in the hash."""

    def __init__(self, game, digest):
        super().__init__()
        self.game, self.digest = game, digest

    def append(self, entry):  # type: ignore[override]
        if entry.action is not None:
            self.digest.update(_dump(["apply", entry.action.to_json()]).encode())
        else:
            self.digest.update(_dump(["advance", entry.t]).encode())
        # the log so far: the answers' events are exactly the log's growth
        self.digest.update(str(len(self.game.log)).encode())


def bot_case(slug: str, seed: int, options: dict, levels: tuple) -> str:
    digest = hashlib.sha256()
    game = new_game(slug, seed=seed, options=options)
    record = _Recorder(game, digest)
    game, stats = play_game(slug, seed=seed, options=options, levels=levels, game=game,
                            record=record, max_actions=3000)
    digest.update(_dump(game.to_json()).encode())
    digest.update(_dump([stats.actions, stats.accepted, stats.calls, stats.reasons,
                         stats.winner, stats.draw, stats.capped]).encode())
    return digest.hexdigest()


def random_case(slug: str, seed: int, options: dict, steps: int = 150) -> str:
    digest = hashlib.sha256()
    rng = random.Random(seed)
    game = new_game(slug, seed=seed, options=options)
    for _ in range(steps):
        if game.over:
            break
        seat = rng.randrange(game.players)
        digest.update(_dump(game.board()).encode())
        legal = game.legal_actions(seat)
        digest.update(_dump([a.to_json() for a in legal]).encode())
        digest.update(_dump([(s, a.to_json()) for s, a in game.bot_candidates(seat)]).encode())
        t = game.now + rng.choice((0, 20, 60, 99, 100, 150, 400, 1200))
        if legal and rng.random() < 0.85:
            action = rng.choice(legal).to_json()
            action["t"] = t
        else:  # something probably illegal, but well formed: only the type's own arguments
            action = {"t": t, "player": seat, "type": rng.choice(
                ("play", "call", "refill", "combine", "ready")),
                "card": rng.choice(("7H", "AS", "KD", "X")),
                "from": f"row-{rng.randrange(4)}", "to": f"centre-{rng.randrange(2)}"}
            keep = _ARGUMENTS[action["type"]]
            action = {k: v for k, v in action.items() if k in keep}
        if rng.random() < 0.1:
            digest.update(_dump(game.advance(t + 100)).encode())
        result = game.apply(action)
        digest.update(_dump(result.to_json()).encode())
    digest.update(_dump(game.to_json()).encode())
    return digest.hexdigest()


def cases():
    rng = random.Random(20261129)
    for i in range(780):
        slug = SLUGS[i % 3]
        options = _random_options(slug, rng) if i % 4 else {}
        levels = (rng.choice(LEVELS), rng.choice(LEVELS))
        seed = rng.randrange(10**6)
        yield f"bot {slug} {seed} {levels} {_dump(options)}", (
            lambda s=slug, e=seed, o=options, lv=levels: bot_case(s, e, o, lv))
    for i in range(240):
        slug = SLUGS[i % 3]
        options = _random_options(slug, rng)
        seed = rng.randrange(10**6)
        yield f"random {slug} {seed} {_dump(options)}", (
            lambda s=slug, e=seed, o=options: random_case(s, e, o))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=("record", "check"))
    parser.add_argument("--out", default=DEFAULT_OUT)
    args = parser.parse_args()
    got = {name: run() for name, run in cases()}
    if args.mode == "record":
        with open(args.out, "w") as fh:
            json.dump(got, fh, indent=0)
        print(f"recorded {len(got)} cases to {args.out}")
        return
    with open(args.out) as fh:
        want = json.load(fh)
    bad = [name for name in want if got.get(name) != want[name]]
    for name in bad[:20]:
        print("DIFFERS:", name)
    print(f"{len(want) - len(bad)}/{len(want)} cases identical")
    sys.exit(1 if bad or len(want) != len(got) else 0)


if __name__ == "__main__":
    main()
