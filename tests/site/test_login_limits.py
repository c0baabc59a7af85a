"""Admin logins (#25): a username is locked out at one address after a few wrong passwords
(django-axes), and login posts over the per-address or site-wide limit are refused before
any password is hashed, so guessing can neither go on nor slow the site down."""

import pytest
from django.contrib.auth.hashers import MD5PasswordHasher
from django.contrib.auth.models import User
from django.core.cache import caches

from core import logincost

pytestmark = pytest.mark.django_db
LOGIN = "/admin/login/"
LIMITED = "Too many login attempts"


class CountingHasher(MD5PasswordHasher):
    """Counts the hashes computed: each stands for ~0.5 s of CPU with the real hasher."""

    algorithm = "counting-md5"
    hashed = 0

    def encode(self, password, salt):
        CountingHasher.hashed += 1
        return super().encode(password, salt)


@pytest.fixture(autouse=True)
def _counting(settings):
    settings.PASSWORD_HASHERS = ["tests.site.test_login_limits.CountingHasher"]
    caches["default"].clear()
    User.objects.create_superuser("boss", "boss@example.org", "right-password")
    CountingHasher.hashed = 0
    yield
    caches["default"].clear()


def login(client, username, password, address="10.1.1.1"):
    return client.post(
        LOGIN, {"username": username, "password": password, "next": "/admin/"}, REMOTE_ADDR=address
    )


def test_a_username_is_locked_out_at_an_address_after_five_wrong_passwords(client):
    for _ in range(4):
        assert login(client, "boss", "guess").status_code == 200  # the form again
    assert login(client, "boss", "guess").status_code == 429  # the fifth locks out
    hashed = CountingHasher.hashed
    locked = login(client, "boss", "right-password")
    assert locked.status_code == 429 and LIMITED in locked.text
    assert CountingHasher.hashed == hashed  # refused before any hash
    # The same user from another address is not locked out.
    assert login(client.__class__(), "boss", "right-password", "10.2.2.2").status_code == 302


def test_a_username_longer_than_any_account_is_recorded_short_and_answered(client):
    """A 300-character username was stored whole by django-axes: a 500 on PostgreSQL, whose
    column holds 255 (the fuzzer found it)."""
    from axes.models import AccessAttempt

    response = login(client, "u" * 300, "guess")
    assert response.status_code == 200  # the form again, with its error
    assert [len(a.username) for a in AccessAttempt.objects.all()] == [logincost.USERNAME_CHARS]


def test_the_lockout_page_is_translated(client):
    for _ in range(5):
        login(client, "boss", "guess")
    response = client.post(
        "/admin/login/",
        {"username": "boss", "password": "x"},
        REMOTE_ADDR="10.1.1.1",
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert response.status_code == 429
    assert "Zu viele Anmeldeversuche" in response.text


def test_guesses_under_new_usernames_stop_costing_hashes_at_the_address_limit(client):
    for n in range(logincost.BY_ADDRESS.tries):
        login(client, f"user{n}", "guess")
    assert CountingHasher.hashed == logincost.BY_ADDRESS.tries
    refused = login(client, "someone-else", "guess")
    assert refused.status_code == 429 and LIMITED in refused.text
    assert CountingHasher.hashed == logincost.BY_ADDRESS.tries
    assert login(client.__class__(), "boss", "right-password", "10.3.3.3").status_code == 302


def test_guesses_from_many_addresses_stop_at_the_site_wide_limit(client, monkeypatch):
    monkeypatch.setattr(logincost, "ALL", logincost.Limit("login-all", tries=6, seconds=60))
    for n in range(6):
        login(client.__class__(), f"user{n}", "guess", address=f"10.9.0.{n}")
    hashed = CountingHasher.hashed
    refused = login(client.__class__(), "user9", "guess", address="10.9.1.1")
    assert refused.status_code == 429 and CountingHasher.hashed == hashed
