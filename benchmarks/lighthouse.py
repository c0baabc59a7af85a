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
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from page_bench import example_names
from prodserver import production_server
from visits import Visit, followed_lesson, saved_sheet, started_game, started_lesson

VERSION = "12.2.3"
CHROMIUM = "/usr/bin/chromium"
INSTALL_DIR = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "stress-lighthouse"
CATEGORIES = ["performance", "accessibility", "best-practices", "seo"]
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage"

SHEET_QUERY = (
    "opt-stacking=false&name=Ann&name=Bo&place=Kiruna&date=2026-06-21&lang=sv&lang2=en&paper=a4"
    "&own=Jokers+are+wild"
)


@dataclass(frozen=True)
class Page:
    """A page to audit: `path` (which may name {fi_example}), or what `made_by` makes from it
    on the server before each run (a game started from a set-up form, a saved sheet)."""

    name: str
    path: str
    made_by: Callable[[str, str], Visit] | None = None

    def visit(self, base: str) -> Visit:
        path = self.path.format(**example_names())
        return self.made_by(base, path) if self.made_by else Visit(path)


# Every kind of page the goal names, one line each; a new kind of page joins with one more.
PAGES = [
    Page("home", "/en/"),
    Page("rules", "/sv/stress-se/"),
    Page("rules-jb", "/nb/james-bond/"),
    Page("pair", "/de/stress-de/?pair=en"),
    Page("compare", "/fi/compare/"),
    Page("example", "/fi/stressi-fi/examples/{fi_example}/"),
    Page("house-rules", "/sv/stress-se/house-rules/"),
    Page("sheet", "/sv/stress-se/house-rules/sheet/?" + SHEET_QUERY),
    Page("saved-sheet", "/sv/stress-se/house-rules/?" + SHEET_QUERY, made_by=saved_sheet),
    Page("demo-setup", "/nb/james-bond/play/"),
    Page("demo-game", "/en/stress-se/play/", made_by=started_game),
    Page("teach-setup", "/de/spit/teach/"),
    Page("teach-lesson", "/sv/stress-se/teach/", made_by=started_lesson),
    Page("teach-follow", "/fi/stressi-fi/teach/", made_by=followed_lesson),
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


def profile_holding(base: str, cookies: dict[str, str]) -> Path:
    """A Chromium profile whose cookie jar holds `cookies` for the site, as the browser that
    made the page holds them. (A Cookie header passed to Lighthouse would not do: Chromium
    replaces it with the jar's cookies as soon as the page sets one, here the CSRF cookie.)"""
    from playwright.sync_api import sync_playwright

    directory = Path(tempfile.mkdtemp(prefix="stress-lighthouse-profile-"))
    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            directory, executable_path=CHROMIUM, args=CHROME_FLAGS.split()[1:]
        )
        # With an expiry: a session cookie would not outlive this browser.
        expires = time.time() + 3600
        context.add_cookies(
            [{"name": k, "value": v, "url": base, "expires": expires} for k, v in cookies.items()]
        )
        context.close()
    return directory


def run_lighthouse(
    binary: Path, url: str, preset: str, out: Path, profile: Path | None = None
) -> dict:
    flags = CHROME_FLAGS + (f" --user-data-dir={profile}" if profile else "")
    command = [
        str(binary),
        url,
        "--quiet",
        "--output=json",
        f"--output-path={out}",
        f"--only-categories={','.join(CATEGORIES)}",
        f"--chrome-flags={flags}",
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


def warm(url: str, cookie: str = "") -> None:
    """A first request fills the server's caches; Lighthouse should see the steady state."""
    for encoding in ("br", "gzip", "identity"):
        headers = {"Accept-Encoding": encoding, **({"Cookie": cookie} if cookie else {})}
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers)) as response:
            response.read()


def audit(binary: Path, base: str, page: Page, preset: str, runs: int, out_dir: Path) -> bool:
    """Runs Lighthouse `runs` times, prints the median run; True when all four are 100."""
    reports = []
    for run in range(runs):
        # A made page is made afresh for each run: a new game is live while it is audited.
        visit = page.visit(base)
        warm(base + visit.path, visit.cookie_header())
        out = out_dir / f"{page.name}.{preset}.{run}.json"
        profile = profile_holding(base, visit.cookies) if visit.cookies else None
        try:
            reports.append(run_lighthouse(binary, base + visit.path, preset, out, profile))
        finally:
            if profile:
                shutil.rmtree(profile, ignore_errors=True)
    perf = [r["categories"]["performance"]["score"] or 0 for r in reports]
    report = reports[perf.index(statistics.median_low(perf))]
    scores = [round((report["categories"][c]["score"] or 0) * 100) for c in CATEGORIES]
    extra = report["audits"]
    print(
        f"{page.name:12} {preset:8} {' / '.join(f'{s:3}' for s in scores)}"
        f"   (performance per run {'/'.join(str(round(p * 100)) for p in perf)})"
        f"  LCP {extra['largest-contentful-paint']['displayValue']},"
        f" CLS {extra['cumulative-layout-shift']['displayValue']},"
        f" TBT {extra['total-blocking-time']['displayValue']},"
        f" DOM {extra['dom-size']['numericValue']:.0f},"
        f" bytes {extra['total-byte-weight']['numericValue']:,.0f},"
        # Lighthouse's CPU benchmark: about 1,500-2,000 on an idle machine here.
        f" benchmarkIndex {report['environment']['benchmarkIndex']:.0f}"
    )
    print(f"{'':22}{report['finalDisplayedUrl'].removeprefix(base)}")
    for line in shortfalls(report):
        print(f"{'':22}{line}")
    return scores == [100] * 4


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--only",
        action="append",
        choices=[p.name for p in PAGES],
        help="audit only these pages of the list (default: all)",
    )
    parser.add_argument("--page", action="append", default=[], help="audit this path too")
    parser.add_argument("--keep", type=Path, help="directory to keep the JSON reports in")
    parser.add_argument(
        "--runs",
        type=int,
        default=3,
        help="runs per page and form factor; the median run is reported",
    )
    args = parser.parse_args()
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[attr-defined]
    binary = lighthouse_bin()
    pages = [p for p in PAGES if not (args.only or args.page) or p.name in (args.only or ())]
    pages += [Page(path.strip("/").replace("/", "_").replace("?", "_"), path) for path in args.page]
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
        for page in pages:
            for preset in ("mobile", "desktop"):
                perfect &= audit(binary, base, page, preset, args.runs, out_dir)
    print("all 100" if perfect else "not all 100")
    if args.keep is None:
        print(f"reports: {out_dir}")


if __name__ == "__main__":
    main()
