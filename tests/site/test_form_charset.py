"""A form post declaring a charset other than UTF-8, with a valid CSRF token, is a 400 on
every POST endpoint, not the 500 of Django's default 400 handler reading the form again
(#25)."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db
GAME = "AAAAAAAAAAAAAAAAAAAAAA"
POST_URLS = [
    "/prefs/", "/admin/login/", "/h/abcdefgh/play/",
    "/en/stress-se/play/", f"/en/play/{GAME}/move/", f"/en/play/{GAME}/clock/",
    "/en/stress-se/teach/", f"/en/teach/{GAME}/move/", f"/en/teach/{GAME}/clock/",
    f"/en/teach/{GAME}/question/", f"/en/teach/{GAME}/explain/",
    f"/en/teach/{GAME}/answer/1/", "/en/class/", "/en/stress-se/house-rules/save/",
]
CHARSETS = ["latin-1", "utf-16", "ascii", "no-such-charset"]


def token_client() -> tuple[Client, str]:
    client = Client(enforce_csrf_checks=True)
    response = client.get("/en/stress-se/play/")
    return client, response.cookies["csrftoken"].value


@pytest.mark.parametrize("charset", CHARSETS)
@pytest.mark.parametrize("url", POST_URLS)
def test_a_form_in_another_charset_is_a_400(url, charset):
    client, token = token_client()
    response = client.generic(
        "POST", url, f"csrfmiddlewaretoken={token}&players=2",
        content_type=f"application/x-www-form-urlencoded; charset={charset}",
        HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 400
    assert "UTF-8" in response.text


@pytest.mark.parametrize("charset", ["utf-8", "UTF-8"])
def test_a_form_in_utf8_is_read(charset):
    client, token = token_client()
    response = client.generic(
        "POST", "/en/stress-se/play/", f"csrfmiddlewaretoken={token}&players=2&seed=7",
        content_type=f"application/x-www-form-urlencoded; charset={charset}")
    assert response.status_code == 303
