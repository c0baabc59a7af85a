"""Every page kind in every language keeps its text while the code under it is rebuilt.

The pages are rendered on a frozen clock from fixed seeds, their visible text (and the
accessible names and alternative texts, which carry the cards) is extracted and compared with
the stored copy in `tests/site/snapshots/`. A change of wording in content or catalogues is a
deliberate change of the stored copy: run with UPDATE_SNAPSHOTS=1 and read the diff.
"""

from __future__ import annotations

import difflib
import os
import re
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.utils import timezone
from play import service
from teach.models import Lesson

from tests.site.pages import LANGS

pytestmark = pytest.mark.django_db

SNAPSHOTS = Path(__file__).parent / "snapshots"
T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
SKIPPED = {"script", "style", "template"}
NAMED = ("aria-label", "alt", "title", "placeholder", "value")


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in SKIPPED:
            self.skipping += 1
            return
        for name, value in attrs:
            if name in NAMED and value and not (tag == "input" and name == "value"
                                                and dict(attrs).get("type") == "hidden"):
                self.parts.append(f"[{name}={value}]")

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIPPED and self.skipping:
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self.skipping and data.strip():
            self.parts.append(" ".join(data.split()))


def text_of(html: str, *, hide: dict[str, str]) -> str:
    parser = _Text()
    parser.feed(html)
    text = "\n".join(parser.parts)
    for secret, label in hide.items():
        # a code may be shown in groups ("347 672") for reading aloud
        grouped = r"[\s\u00a0\u202f-]?".join(map(re.escape, secret))
        text = re.sub(grouped, label, text)
    # QR codes and per-request tokens are not text a reader reads
    return re.sub(r"csrfmiddlewaretoken\S*", "", text) + "\n"


@pytest.fixture
def frozen(monkeypatch):
    clock = {"now": T0}
    monkeypatch.setattr(timezone, "now", lambda: clock["now"])
    return clock


def _check(name: str, text: str) -> None:
    stored = SNAPSHOTS / f"{name}.txt"
    if os.environ.get("UPDATE_SNAPSHOTS"):
        stored.parent.mkdir(parents=True, exist_ok=True)
        stored.write_text(text, encoding="utf-8")
    assert stored.exists(), f"no snapshot {stored}: run with UPDATE_SNAPSHOTS=1"
    before = stored.read_text(encoding="utf-8")
    diff = "".join(difflib.unified_diff(before.splitlines(True), text.splitlines(True),
                                        "stored", "now", n=1))
    assert text == before, f"{name} changed its text:\n{diff[:3000]}"


def _get(client, url: str, hide: dict[str, str] | None = None) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return text_of(response.content.decode(), hide=hide or {})


STATIC_PAGES = {
    "rules-stress-se": "stress-se/",
    "rules-james-bond": "james-bond/",
    "rules-spit": "spit/",
    "rules-stress-de": "stress-de/",
    "rules-stressi-fi": "stressi-fi/",
    "pair-spit": "spit/?pair=en",
    "example-spit": "spit/examples/same-pile/?step=2",
    "example-james-bond": "james-bond/examples/" + "{jb}/?step=1",
    "sandbox-stress-se": "stress-se/examples/deal-and-start/try/?step=0",
    "houserules-form-stress-de": "stress-de/house-rules/",
    "houserules-sheet-james-bond": "james-bond/house-rules/sheet/?names=Ada%2C+Bo&place=Oslo",
    "compare": "compare/",
    "demo-setup-spit": "spit/play/",
    "teach-setup-stressi-fi": "stressi-fi/teach/",
}


def _first_example(variant: str) -> str:
    folder = Path(__file__).parents[2] / "content" / variant / "examples"
    return sorted(folder.glob("*.json"))[0].stem


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", list(STATIC_PAGES))
def test_reading_pages_keep_their_text(client, lang, name):
    path = STATIC_PAGES[name].format(jb=_first_example("james-bond"))
    _check(f"{lang}/{name}", _get(client, f"/{lang}/{path}"))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("variant", ["stress-se", "spit", "james-bond"])
def test_a_demo_game_keeps_its_text_for_its_player_and_a_watcher(client, frozen, lang,
                                                                 variant):
    response = client.post(f"/{lang}/{variant}/play/",
                           {"players": "2", "level-2": "expert", "seed": "11"})
    assert response.status_code == 303, response.content[:500]
    game_id = response["Location"].rstrip("/").split("/")[-1]
    frozen["now"] = T0 + timedelta(seconds=4)
    hide = {game_id: "<game>"}
    _check(f"{lang}/demo-{variant}-player", _get(client, f"/{lang}/play/{game_id}/", hide))
    frozen["now"] = T0 + timedelta(seconds=9)
    watcher = client.__class__()
    _check(f"{lang}/demo-{variant}-watcher", _get(watcher, f"/{lang}/play/{game_id}/", hide))


@pytest.mark.parametrize("lang", LANGS)
def test_a_lesson_its_follow_page_and_its_summary_keep_their_text(client, frozen, lang):
    response = client.post(f"/{lang}/stress-de/teach/",
                           {"mode": "watch", "players": "2", "level-1": "expert",
                            "level-2": "expert", "seed": "7", "lang2": ""})
    assert response.status_code == 303, response.content[:500]
    game_id = response["Location"].rstrip("/").split("/")[-1]
    lesson = Lesson.objects.select_related("game").get(pk=game_id)
    hide = {game_id: "<game>", lesson.class_code: "<code>"}
    _check(f"{lang}/lesson", _get(client, f"/{lang}/teach/{game_id}/", hide))
    follower = client.__class__()
    _check(f"{lang}/follow", _get(follower, f"/{lang}/teach/{game_id}/follow/", hide))
    row = lesson.game
    service.play(row.pk, T0 + timedelta(milliseconds=1), clock_command="resume",
                 version=row.version, controls=True)
    frozen["now"] = T0 + timedelta(hours=1)
    row = service.play(row.pk, frozen["now"]).row
    assert row.over
    _check(f"{lang}/summary", _get(client, f"/{lang}/teach/{game_id}/summary/", hide))
    _check(f"{lang}/demo-summary", _get(client, f"/{lang}/play/{game_id}/", hide))
