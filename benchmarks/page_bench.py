"""Pages under gunicorn with production settings: server time against the same bytes served
as a static file (interleaved, one run), transfer on first visit and DOM size in Chromium.

    .venv/bin/python benchmarks/page_bench.py [--rounds 300]

Prints figures; asserts nothing (the budgets that can be checked without a clock are tests).
"""

from __future__ import annotations

import argparse
import http.client
import random
import re
import statistics
import sys
import time
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

from prodserver import free_port, production_server

BROWSER_HEADERS = {
    "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "Accept-Encoding": "gzip, deflate, br, zstd",
    "User-Agent": "stress-page-bench",
}

# (label, path, extra headers, goal of p50 page / p50 static or None)
TIMED = [
    ("rules page /sv/stress-se/", "/sv/stress-se/", {}, 2.0),
    (
        "example step fragment (htmx)",
        "/fi/stressi-fi/examples/{fi_example}/?step=1",
        {"HX-Request": "true"},
        2.0,
    ),
    ("rules page /en/james-bond/", "/en/james-bond/", {}, None),
    ("pair view /de/stress-de/?pair=en", "/de/stress-de/?pair=en", {}, None),
    ("home /nb/", "/nb/", {}, None),
    ("compare /fi/compare/", "/fi/compare/", {}, None),
    ("example page", "/en/spit/examples/{spit_example}/?step=3", {}, None),
    ("sandbox move", "/en/stress-se/examples/illegal-plays/try/?step=1&try=2", {}, None),
]

# Pages whose first-visit transfer and DOM size are measured in Chromium.
VISITED = [
    "/sv/stress-se/",
    "/nb/james-bond/",
    "/en/spit/",
    "/de/stress-de/",
    "/fi/stressi-fi/",
    "/en/",
    "/de/stress-de/?pair=en",
    "/fi/compare/",
    "/en/spit/examples/{spit_example}/",
    "/en/stress-se/examples/illegal-plays/try/",
    "/sv/sources/",
    "/de/cards/",
    "/en/no-such/",
]
TRANSFER_BUDGET = 40 * 1024
DOM_BUDGET = 1500


@dataclass
class Fetched:
    status: int
    headers: dict[str, str]
    body: bytes
    seconds: float


def fetch(base: str, path: str, headers: dict[str, str]) -> Fetched:
    host = urlsplit(base)
    started = time.perf_counter()
    conn = http.client.HTTPConnection(host.hostname, host.port, timeout=30)
    conn.request("GET", path, headers={**BROWSER_HEADERS, **headers})
    response = conn.getresponse()
    body = response.read()
    seconds = time.perf_counter() - started
    conn.close()
    return Fetched(response.status, {k.lower(): v for k, v in response.getheaders()}, body, seconds)


class _Counter(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.elements = 0

    def handle_starttag(self, tag, attrs) -> None:
        self.elements += 1

    def handle_startendtag(self, tag, attrs) -> None:
        self.elements += 1


def count_elements(html: str) -> int:
    counter = _Counter()
    counter.feed(html)
    return counter.elements


def example_names() -> dict[str, str]:
    """First example of the variants the timed paths name (read from content/, no Django)."""
    root = Path(__file__).resolve().parent.parent / "content"
    return {
        "fi_example": sorted((root / "stressi-fi" / "examples").glob("*.json"))[0].stem,
        "spit_example": sorted((root / "spit" / "examples").glob("*.json"))[0].stem,
    }


def static_twin(index: int, fetched: Fetched) -> dict[str, bytes]:
    """The page's bytes as static files: identity plus the encoding the page was sent in."""
    name = f"bench/page{index}.html"
    files = {name: fetched.identity}  # type: ignore[attr-defined]
    encoding = fetched.headers.get("content-encoding")
    if encoding in ("br", "gzip"):
        files[name + (".br" if encoding == "br" else ".gz")] = fetched.body
    return files


def time_pages(rounds: int) -> list[dict]:
    names = example_names()
    paths = [(label, path.format(**names), extra, goal) for label, path, extra, goal in TIMED]
    # Phase 1: what each page sends a browser (and a client that accepts no compression).
    # Both phases use one port: absolute links in the pages name it.
    port = free_port()
    with production_server(port=port) as base:
        captured = []
        for _label, path, extra, _goal in paths:
            page = fetch(base, path, extra)
            page.identity = fetch(base, path, {**extra, "Accept-Encoding": "identity"}).body
            captured.append(page)
    twins: dict[str, bytes] = {}
    for i, page in enumerate(captured):
        twins.update(static_twin(i, page))
    # Phase 2: the same server also holds those bytes as static files; time both, interleaved.
    results = []
    with production_server(extra_static=twins, port=port) as base:
        static_root = fetch(base, "/static/bench/page0.html", {})
        assert static_root.status == 200, "static twin not served"
        for i, (label, path, extra, goal) in enumerate(paths):
            static_path = f"/static/bench/page{i}.html"
            for _ in range(20):  # warm both
                fetch(base, path, extra)
                fetch(base, static_path, {})
            page_times, static_times = [], []
            for r in range(rounds):
                order = [(path, extra, page_times), (static_path, {}, static_times)]
                if r % 2:
                    order.reverse()
                for p, h, into in order:
                    got = fetch(base, p, h)
                    into.append(got.seconds)
            sent = fetch(base, path, extra)
            twin = fetch(base, static_path, {})
            assert len(sent.body) == len(twin.body), (label, len(sent.body), len(twin.body))
            page_p50 = statistics.median(page_times) * 1000
            static_p50 = statistics.median(static_times) * 1000
            results.append(
                {
                    "label": label,
                    "path": path,
                    "goal": goal,
                    "page_ms": page_p50,
                    "static_ms": static_p50,
                    "ratio": page_p50 / static_p50,
                    "bytes": len(sent.body),
                    "encoding": sent.headers.get("content-encoding", "-"),
                }
            )
    random.seed()
    return results


def visit_pages() -> list[dict]:
    """First visit in Chromium: bytes on the wire (bodies and headers) and DOM elements."""
    from playwright.sync_api import sync_playwright

    names = example_names()
    rows = []
    with production_server() as base, sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        for viewport in ({"width": 412, "height": 823}, {"width": 1350, "height": 940}):
            for path in VISITED:
                path = path.format(**names)
                context = browser.new_context(viewport=viewport)
                page = context.new_page()
                requests = []
                page.on("requestfinished", lambda request, into=requests: into.append(request))
                page.goto(base + path, wait_until="networkidle")
                page.wait_for_timeout(300)
                transfer = 0
                for request in requests:
                    sizes = request.sizes()
                    transfer += sizes["responseBodySize"] + sizes["responseHeadersSize"]
                html = fetch(base, path, {"Accept-Encoding": "identity"}).body.decode()
                rows.append(
                    {
                        "path": path,
                        "viewport": f"{viewport['width']}x{viewport['height']}",
                        "requests": len(requests),
                        "transfer": transfer,
                        "dom_loaded": page.evaluate("document.getElementsByTagName('*').length"),
                        "dom_html": count_elements(html),
                        "scripts": len(re.findall(r"<script\b", html)),
                    }
                )
                context.close()
        browser.close()
    return rows


def print_times(results: list[dict]) -> None:
    print(
        f"{'server time, p50 (interleaved)':44} {'page ms':>8} {'static ms':>10} {'ratio':>6}  goal"
    )
    for r in results:
        goal = f"<= {r['goal']:.1f}x" if r["goal"] else "(no goal)"
        mark = "" if not r["goal"] else ("  ok" if r["ratio"] <= r["goal"] else "  MISSED")
        print(
            f"{r['label']:44} {r['page_ms']:8.2f} {r['static_ms']:10.2f} {r['ratio']:5.2f}x"
            f"  {goal}{mark}   ({r['bytes']:,} B {r['encoding']})"
        )


def print_visits(rows: list[dict]) -> None:
    print(
        f"{'first visit in Chromium':44} {'viewport':>9} {'req':>4} {'transfer':>9} "
        f"{'DOM html':>9} {'DOM loaded':>10} {'scripts':>8}"
    )
    for r in rows:
        rules = (
            r["path"].count("/") == 3
            and "?" not in r["path"]
            and "examples" not in r["path"]
            and r["path"].split("/")[2]
            in ("stress-se", "james-bond", "spit", "stress-de", "stressi-fi")
        )
        marks = ""
        if rules:
            marks = (
                f"  transfer <= {TRANSFER_BUDGET // 1024} KB "
                f"{'ok' if r['transfer'] <= TRANSFER_BUDGET else 'MISSED'},"
                f" DOM <= {DOM_BUDGET} {'ok' if r['dom_loaded'] <= DOM_BUDGET else 'MISSED'}"
            )
        print(
            f"{r['path']:44} {r['viewport']:>9} {r['requests']:4} {r['transfer']:9,} "
            f"{r['dom_html']:9,} {r['dom_loaded']:10,} {r['scripts']:8}{marks}"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--skip-browser", action="store_true")
    args = parser.parse_args()
    print_times(time_pages(args.rounds))
    if not args.skip_browser:
        print()
        print_visits(visit_pages())


if __name__ == "__main__":
    main()
