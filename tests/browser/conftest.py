"""Real Chromium (Debian's package) driven by Playwright against pytest-django's live server."""

import os
import shutil

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
LAUNCH_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def pytest_collection_modifyitems(config, items):
    if CHROMIUM:
        return
    if os.environ.get("REQUIRE_BROWSER"):
        raise pytest.UsageError("REQUIRE_BROWSER is set but no chromium is installed")
    skip = pytest.mark.skip(reason="Debian's chromium is not installed")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": LAUNCH_FLAGS}


@pytest.fixture
def site_url(live_server):
    return live_server.url


@pytest.fixture
def console_errors(page):
    """Console errors and CSP violations seen while the test runs."""
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


@pytest.fixture(autouse=True)
def _fresh_page_cache():
    """Pages are rendered afresh for every test (the live server shares this process)."""
    from core import pagecache

    pagecache.clear()
    yield
    pagecache.clear()
