"""python -m rules_engine {replay,simulate,variants}: see docs/scenarios.md and docs/engine.md."""

from __future__ import annotations

import argparse
import json
import sys

from rules_engine import registry
from rules_engine.options import OptionError, parse_option_pairs
from rules_engine.positions import PositionError
from rules_engine.scenario import ScenarioError, load, replay


def _print(obj: dict) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def cmd_replay(args: argparse.Namespace) -> int:
    failed = False
    for path in args.files:
        try:
            steps = replay(load(path))
        except (ScenarioError, PositionError, OptionError, registry.UnknownVariant) as exc:
            # The documented errors of a file that cannot run; anything else is an engine
            # bug and keeps its traceback.
            _print({"file": path, "error": str(exc)})
            failed = True
            continue
        for step in steps[1:]:
            line = {"file": path, **step.to_json()}
            if not args.full_events:
                line["events"] = [e.code for e in step.events]
            _print(line)
            failed = failed or bool(step.failures)
    return 1 if failed else 0


def cmd_simulate(args: argparse.Namespace) -> int:
    from rules_engine.simulate import simulate

    try:
        options = registry.validate_options(args.variant, parse_option_pairs(args.option),
                                            from_strings=True)
        summary = simulate(
            args.variant, games=args.games, seed=args.seed, options=options,
            players=args.players, levels=args.bots, max_actions=args.max_actions,
            check=not args.no_check,
        )
    except (OptionError, registry.UnknownVariant, ValueError) as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    _print(summary)
    return 1 if summary["invariant_violations"] else 0


def cmd_variants(args: argparse.Namespace) -> int:
    _print(registry.to_json())
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m rules_engine")
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("replay", help="replay scenario files, one JSON line per action")
    p.add_argument("files", nargs="+")
    p.add_argument("--full-events", action="store_true", help="print whole events, not codes")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("simulate", help="bot-vs-bot games; one JSON summary on stdout")
    p.add_argument("--variant", required=True)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--bots", default="club",
                   help="a level (learner, club, expert) or one per seat, comma-separated")
    p.add_argument("--max-actions", type=int, default=20000,
                   help="actions per game before it is stopped as a draw")
    p.add_argument("--no-check", action="store_true",
                   help="skip check_invariants after every action (faster)")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("variants", help="the registry and option schemas as JSON")
    p.set_defaults(func=cmd_variants)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)
