"""Password guesses must not cost the site its speed (#25).

Each password check costs a deliberately slow hash (hundreds of milliseconds of CPU): a few
guessers at the admin login would slow every page. django-axes locks a username out at one
address after a few failures (settings AXES_*), and refuses before any hash; but guesses
under ever new usernames, or from many addresses, would each still cost a hash. So login
posts are counted before the password is looked at, per client address and for the whole
site, in the configured cache (core.throttle); over either limit they are answered 429 with
no hash at all. The site-wide limit bounds the CPU all guessers together can take.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import NoReverseMatch, reverse

from .clientip import client_ip
from .throttle import Limit

#: at ~0.5 s of CPU per hash: at most 10 s per address and 15 s per minute site-wide
BY_ADDRESS = Limit("login-address", tries=20, seconds=600)
ALL = Limit("login-all", tries=30, seconds=60)
SITE = "site"


class LoginCostMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST" and request.path_info == _login_path():
            address = client_ip(request)
            if BY_ADDRESS.exceeded(address) or ALL.exceeded(SITE):
                response = render(request, "login_limited.html", status=429)
                response["Retry-After"] = "60"
                return response
            BY_ADDRESS.count(address)
            ALL.count(SITE)
        return self.get_response(request)


def _login_path() -> str | None:
    try:
        return reverse("admin:login")
    except NoReverseMatch:  # a URLconf without the admin (tests' own sites)
        return None


#: Django's own limit on a username's length; django-axes records the name a login tried.
USERNAME_CHARS = 150


def axes_username(request: HttpRequest, credentials: dict | None = None) -> str:
    """The username django-axes records for a failed login, at most USERNAME_CHARS long: its
    column holds 255 and PostgreSQL refuses a longer value with a 500 (found by the fuzzer),
    and no account has a longer name anyway."""
    name = (credentials or {}).get("username") or request.POST.get("username", "")
    return str(name)[:USERNAME_CHARS]
