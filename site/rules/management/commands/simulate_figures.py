"""Bot-vs-bot figures for the comparison page, written once to var/figures.json."""

import json
import time

from django.core.management.base import BaseCommand

from rules.figures import figures_path
from rules_engine.registry import VARIANTS
from rules_engine.simulate import play_game


class Command(BaseCommand):
    help = "Simulate club-level bot games per variant and cache the figures for /compare/."

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=200)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--if-missing", action="store_true")

    def handle(self, *args, games: int, seed: int, if_missing: bool, **options):
        path = figures_path()
        if if_missing and path.exists():
            return
        started = time.perf_counter()
        per_variant = {}
        for slug in VARIANTS:
            moves = equal = stuck_games = draws = 0
            for i in range(games):
                game, stats = play_game(slug, seed=seed + i)
                codes = [event.code for event in game.log]
                moves += stats.accepted
                equal += codes.count("stress")
                stuck_games += "stuck" in codes
                draws += bool(game.draw)
            per_variant[slug] = {
                "plays": moves / games,
                "equal_rank_rate": equal / games,
                "stuck_rate": 100 * stuck_games / games,
                "draw_rate": 100 * draws / games,
            }
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {"games_per_variant": games, "seed": seed, "variants": per_variant}
        path.write_text(json.dumps(data, indent=2), encoding="utf-8")
        seconds = time.perf_counter() - started
        self.stdout.write(f"wrote {path} ({games} games per variant, {seconds:.1f} s)")
