"""Lighthouse 12.2.3 (npm) with the system Chromium against the site under production
settings: prints the four category scores per page, mobile and desktop, and every audit that
kept a category below 100. Not a test: it needs npm's registry once and takes minutes.

    .venv/bin/python benchmarks/lighthouse.py [--page /en/ ...] [--keep DIR]

Lighthouse is installed (not committed) under ~/.cache/stress-lighthouse on first use.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from page_bench import example_names
from prodserver import production_server

VERSION = "12.2.3"
CHROMIUM = "/usr/bin/chromium"
INSTALL_DIR = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "stress-lighthouse"
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage"

# The pages the goal names; the house-rules, demo and teacher pages join as they land.
PAGES = [
    "/en/",
    "/sv/stress-se/",
    "/nb/james-bond/",
    "/de/stress-de/?pair=en",
    "/fi/compare/",
    "/fi/stressi-fi/examples/{fi_example}/",
    "/sv/stress-se/house-rules/",
    "/nb/james-bond/play/",
]


def lighthouse_bin() -> Path:
    binary = INSTALL_DIR / "node_modules" / ".bin" / "lighthouse"
    installed = INSTALL_DIR / "node_modules" / "lighthouse" / "package.json"
    if not installed.exists() or json.loads(installed.read_text())["version"] != VERSION:
        INSTALL_DIR.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                "npm",
                "install",
                "--prefix",
                str(INSTALL_DIR),
                "--no-audit",
                "--no-fund",
                f"lighthouse@{VERSION}",
            ],
            check=True,
        )
    return binary


def run_lighthouse(binary: Path, url: str, preset: str, out: Path) -> dict:
    command = [
        str(binary),
        url,
        "--quiet",
        "--output=json",
        f"--output-path={out}",
        f"--only-categories={','.join(CATEGORIES)}",
        f"--chrome-flags={CHROME_FLAGS}",
    ]
    if preset == "desktop":
        command.append("--preset=desktop")
    for attempt in range(3):
        # Lighthouse now and then loses its trace on a busy machine (NO_NAVSTART): retry.
        done = subprocess.run(
            command, check=attempt == 2, env={**os.environ, "CHROME_PATH": CHROMIUM}
        )
        if done.returncode == 0:
            break
    return json.loads(out.read_text())


def shortfalls(report: dict) -> list[str]:
    """Audits that count towards a category and did not pass."""
    found = []
    for category in report["categories"].values():
        for ref in category["auditRefs"]:
            audit = report["audits"][ref["id"]]
            if ref["weight"] and audit["score"] is not None and audit["score"] < 1:
                value = audit.get("displayValue", "")
                found.append(f"{category['id']}: {ref['id']} {audit['score']:.2f} {value}".strip())
    return found


def warm(url: str) -> None:
    """A first request fills the server's caches; Lighthouse should see the steady state."""
    for encoding in ("br", "gzip", "identity"):
        request = urllib.request.Request(url, headers={"Accept-Encoding": encoding})
        with urllib.request.urlopen(request) as response:
            response.read()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--page", action="append", help="path to audit (default: the list)")
    parser.add_argument("--keep", type=Path, help="directory to keep the JSON reports in")
    parser.add_argument(
        "--runs",
        type=int,
        default=3,
        help="runs per page and form factor; the median run is reported",
    )
    args = parser.parse_args()
    binary = lighthouse_bin()
    pages = [p.format(**example_names()) for p in (args.page or PAGES)]
    out_dir = args.keep or Path(tempfile.mkdtemp(prefix="stress-lighthouse-"))
    out_dir.mkdir(parents=True, exist_ok=True)
    print(
        f"Lighthouse {VERSION}, {CHROMIUM}; scores: performance / accessibility / "
        "best practices / SEO"
    )
    perfect = True
    with production_server() as base:
        # 'localhost' rather than 127.0.0.1: Lighthouse counts it as a secure origin.
        base = base.replace("127.0.0.1", "localhost")
        for path in pages:
            warm(base + path)
            for preset in ("mobile", "desktop"):
                name = path.strip("/").replace("/", "_").replace("?", "_") or "root"
                reports = [
                    run_lighthouse(
                        binary, base + path, preset, out_dir / f"{name}.{preset}.{run}.json"
                    )
                    for run in range(args.runs)
                ]
                perf = [r["categories"]["performance"]["score"] or 0 for r in reports]
                report = reports[perf.index(statistics.median_low(perf))]
                scores = [round((report["categories"][c]["score"] or 0) * 100) for c in CATEGORIES]
                perfect &= scores == [100] * 4
                extra = report["audits"]
                runs = "/".join(str(round(p * 100)) for p in perf)
                print(
                    f"{path:40} {preset:8} {' / '.join(f'{s:3}' for s in scores)}"
                    f"   (performance per run {runs})"
                    f"  LCP {extra['largest-contentful-paint']['displayValue']},"
                    f" CLS {extra['cumulative-layout-shift']['displayValue']},"
                    f" TBT {extra['total-blocking-time']['displayValue']},"
                    f" DOM {extra['dom-size']['numericValue']:.0f},"
                    f" bytes {extra['total-byte-weight']['numericValue']:,.0f},"
                    # Lighthouse's CPU benchmark: about 1,500-2,000 on an idle machine here.
                    f" benchmarkIndex {report['environment']['benchmarkIndex']:.0f}"
                )
                for line in shortfalls(report):
                    print(f"{'':49}{line}")
    print("all 100" if perfect else "not all 100")
    if args.keep is None:
        print(f"reports: {out_dir}")


if __name__ == "__main__":
    main()
