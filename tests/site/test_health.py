"""/healthz: 200 when this instance can serve pages, 503 naming what is missing."""

import json

import pytest
from django.db import OperationalError, connection
from django.test import Client

pytestmark = pytest.mark.django_db


def test_healthy_instance_answers_200_with_a_tiny_json_body(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert json.loads(response.content) == {"status": "ok"}
    assert len(response.content) < 64
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.parametrize("accept", ["sv", "nb", "de-DE", "fi"])
def test_no_language_redirect_whatever_the_browser_says(client, accept):
    assert client.get("/healthz", headers={"accept-language": accept}).status_code == 200
    assert client.get(f"/{accept[:2]}/healthz").status_code == 404


def test_plain_http_probe_is_not_redirected_to_https(settings):
    settings.SECURE_SSL_REDIRECT = True
    assert Client().get("/healthz").status_code == 200
    assert Client().get("/en/").status_code == 301


def _unhealthy(response) -> list[str]:
    assert response.status_code == 503
    body = json.loads(response.content)
    assert body["status"] == "unavailable"
    return body["failing"]


def test_503_when_the_database_does_not_answer(client, monkeypatch):
    def refuse():
        raise OperationalError("could not connect to server")

    monkeypatch.setattr(connection, "cursor", refuse)
    assert _unhealthy(client.get("/healthz")) == ["database"]


def test_503_when_the_content_is_missing(client, settings, tmp_path):
    settings.CONTENT_DIR = tmp_path
    assert _unhealthy(client.get("/healthz")) == ["content"]


def test_503_when_one_rules_text_is_missing(client, settings, tmp_path):
    source = settings.CONTENT_DIR
    for item in source.iterdir():
        (tmp_path / item.name).symlink_to(item)
    (tmp_path / "spit").unlink()
    (tmp_path / "spit").mkdir()
    for item in (source / "spit").iterdir():
        if item.name != "fi.md":
            (tmp_path / "spit" / item.name).symlink_to(item)
    settings.CONTENT_DIR = tmp_path
    assert _unhealthy(client.get("/healthz")) == ["content"]


def test_503_when_the_catalogues_are_not_compiled(client, settings, tmp_path):
    settings.LOCALE_PATHS = [tmp_path]  # no .mo anywhere: every page would be English
    assert _unhealthy(client.get("/healthz")) == ["catalogues"]
