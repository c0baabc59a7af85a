"""Pages that exist only after a POST, made against a running server as a browser makes them:
a demo game or a lesson started from its set-up form, a house-rules sheet saved from the
configurator.

Each helper reads the form (its CSRF token and cookie), posts it, follows the redirect and
returns the new page's path with the cookies that go with it (the session that holds the
game's seat), so that a benchmark or Lighthouse sees what the visitor who made it sees.
"""

from __future__ import annotations

import http.client
import re
from dataclasses import dataclass, field
from html import unescape
from http.cookies import SimpleCookie
from urllib.parse import urlencode, urlsplit

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
SAVED_QUERY = re.compile(r'<input type="hidden" name="q" value="([^"]*)"')


@dataclass
class Visit:
    path: str
    cookies: dict[str, str] = field(default_factory=dict)

    def cookie_header(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.cookies.items())


class _Browser:
    """Cookies kept by hand: the production cookies are Secure and this speaks plain HTTP."""

    def __init__(self, base: str) -> None:
        self.base = urlsplit(base)
        self.cookies: dict[str, str] = {}

    def request(
        self, method: str, path: str, form: dict[str, str] | None = None
    ) -> tuple[int, str, str]:
        headers = {"Accept-Language": "en"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        conn = http.client.HTTPConnection(self.base.hostname, self.base.port, timeout=30)
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            text = response.read().decode()
        finally:
            conn.close()
        for value in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(value).items():
                self.cookies[name] = morsel.value
        return response.status, response.headers.get("Location", ""), text

    def post_form(self, form_path: str, action: str, fields: dict[str, str]) -> str:
        """GET the form, POST it with its token, and return the path it redirects to."""
        status, _location, page = self.request("GET", form_path)
        assert status == 200, (form_path, status)
        token = TOKEN.search(page)
        assert token, f"no CSRF token on {form_path}"
        status, location, _text = self.request(
            "POST", action, {"csrfmiddlewaretoken": token.group(1), **fields}
        )
        assert status == 303 and location, (action, status)
        return urlsplit(location).path


def started_game(base: str, setup_path: str) -> Visit:
    """A two-player game against a club bot, with the session that holds the player's seat."""
    browser = _Browser(base)
    game = browser.post_form(setup_path, setup_path, {"players": "2", "level-2": "club"})
    return Visit(game, dict(browser.cookies))


def started_lesson(base: str, setup_path: str) -> Visit:
    """A lesson (bots only, with a second language) with the session that controls it."""
    browser = _Browser(base)
    lesson = browser.post_form(setup_path, setup_path, {"mode": "watch", "lang2": "en"})
    return Visit(lesson, dict(browser.cookies))


def followed_lesson(base: str, setup_path: str) -> Visit:
    """The page a pupil follows a lesson on: no session, as a pupil's phone has none."""
    return Visit(started_lesson(base, setup_path).path + "follow/")


def saved_sheet(base: str, form_path: str) -> Visit:
    """The configurator's rules as they are in form_path's query, saved: the short link."""
    browser = _Browser(base)
    _status, _location, page = browser.request("GET", form_path)
    query = SAVED_QUERY.search(page)
    assert query, f"no sheet to save on {form_path}"
    save = urlsplit(form_path).path + "save/"
    return Visit(browser.post_form(form_path, save, {"q": unescape(query.group(1))}))
