"""Time the site's heaviest pages with Django's test client; prints figures, asserts nothing.

    .venv/bin/python benchmarks/site_bench.py [--requests N]
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "site"), str(ROOT)]
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

import django  # noqa: E402

django.setup()

from django.test import Client  # noqa: E402

PAGES = [
    "/sv/stress-se/",
    "/nb/james-bond/",
    "/de/stress-de/?pair=en",
    "/fi/compare/",
    "/en/spit/examples/end-of-deal/?step=3",
    "/en/stress-se/examples/illegal-plays/try/?step=1&try=2",
]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=50)
    args = parser.parse_args()
    client = Client()
    print(f"{'page':48} {'first ms':>9} {'median ms':>10} {'p95 ms':>8}")
    for url in PAGES:
        started = time.perf_counter()
        first = client.get(url)
        first_ms = (time.perf_counter() - started) * 1000
        assert first.status_code == 200, (url, first.status_code)
        times = []
        for _ in range(args.requests):
            started = time.perf_counter()
            client.get(url)
            times.append((time.perf_counter() - started) * 1000)
        times.sort()
        p95 = times[int(len(times) * 0.95) - 1]
        print(f"{url:48} {first_ms:9.1f} {statistics.median(times):10.1f} {p95:8.1f}")


if __name__ == "__main__":
    main()
