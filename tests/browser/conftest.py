"""Real Chromium (Debian's package) driven by Playwright against the site's ASGI application
(pages and the live games' WebSockets), served by uvicorn in a thread of the test process, so
that the tests' settings and database are the server's."""

import os
import shutil
import socket
import threading
import time

import pytest
import uvicorn

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


class AsgiLiveServer:
    """uvicorn serving config.asgi in a daemon thread (like pytest-django's live_server,
    which speaks WSGI only and so serves no WebSocket)."""

    def __init__(self, port: int | None = None) -> None:
        from config.asgi import application

        if port is None:
            with socket.socket() as probe:
                probe.bind(("127.0.0.1", 0))
                port = probe.getsockname()[1]
        self.port = port
        config = uvicorn.Config(application, host="127.0.0.1", port=self.port, lifespan="off",
                                ws="websockets-sansio", log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the ASGI test server did not start")
            time.sleep(0.02)
        self.url = f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="session")
def asgi_live_server(django_db_setup):
    server = AsgiLiveServer()
    yield server
    server.stop()


@pytest.fixture
def site_url(asgi_live_server, transactional_db, browser):
    yield asgi_live_server.url
    # A test that failed half-way leaves the contexts it opened itself; their pages would go
    # on polling the server, and the next tests (no database access allowed) would receive
    # those requests' errors through Django's request signals.
    for context in browser.contexts:
        context.close()
    quiet(asgi_live_server)


def quiet(server: AsgiLiveServer, timeout: float = 5) -> None:
    """Wait until the server holds no game's socket any more (pages closed), so that nothing
    it does after the test touches the database the next test gets."""
    from live.rooms import ROOMS

    deadline = time.monotonic() + timeout
    while any(r.loop.is_running() for r in ROOMS.values()) and time.monotonic() < deadline:
        time.sleep(0.02)


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
