"""Class tables in Chromium (#23): a teacher's projector and six pupils' phones (six browser
contexts, phone size). The class is seated at three tables; each phone is sent to its own
table and plays it live; two tables are played to their end (driven quickly through
play.service, whose changes reach the phones over their sockets) and the projector's
overview and leaderboard change as they end; pause every table; a new round seats the
winners together. axe finds nothing on the projector and on a pupil's table, in every
language.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable

import pytest
from axe_playwright_python.sync_playwright import Axe
from play.models import Game
from playwright.sync_api import Browser, Page, expect
from teach.models import ClassRound, ClassSeat, Lesson

from tests.site.class_tables_support import play_table_to_the_end

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PROJECTOR = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
WAIT_MS = 60_000
LANGS = ["sv", "nb", "de", "fi", "en"]


def wait_for(check: Callable[[], object], what: str, limit: float = 60) -> object:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"waited {limit} s for {what}")


def start_tables(page: Page, site_url: str, variant: str = "stress-se", lang: str = "en") -> Lesson:
    page.goto(f"{site_url}/{lang}/{variant}/teach/?mode=tables&players=2&level-1=club&level-2=club")
    page.locator(".play-setup__start").click()
    page.wait_for_url(re.compile(r"/teach/[A-Za-z0-9_-]+/tables/$"))
    return Lesson.objects.select_related("game").get(pk=page.url.rstrip("/").split("/")[-2])


def join(browser: Browser, site_url: str, lesson: Lesson, name: str, lang: str = "en") -> Page:
    context = browser.new_context(viewport=PHONE)
    phone = context.new_page()
    phone.goto(f"{site_url}/{lang}/class/")
    phone.fill("#join-code", lesson.class_code)
    phone.fill("#join-nickname", name)
    phone.locator("#join-submit").click()
    phone.wait_for_url(re.compile(r"/teach/[A-Za-z0-9_-]+/follow/$"))
    return phone


def axe_clean(page: Page) -> None:
    result = Axe().run(page)
    assert result.violations_count == 0, result.generate_report()


def test_a_class_of_six_at_three_tables(browser, page, site_url, settings):
    page.set_viewport_size(PROJECTOR)
    lesson = start_tables(page, site_url)
    names = ["Ada", "Bo", "Cy", "Di", "Eve", "Flo"]
    phones = {name: join(browser, site_url, lesson, name) for name in names}
    # The projector's overview is on its socket: the pupils who joined appear by push.
    expect(page.locator("#tables-overview[data-live]")).to_have_count(1, timeout=WAIT_MS)
    expect(page.locator(".tables__pupils summary")).to_have_text("6 pupils", timeout=WAIT_MS)
    page.locator("#tables-start").click()
    expect(page.locator(".tableau")).to_have_count(3, timeout=WAIT_MS)
    expect(page.locator("#tables-round")).to_contain_text("Round 1")
    # Each phone learns from its poll that its table is ready and goes there.
    for name, phone in phones.items():
        phone.wait_for_url(re.compile(r"/teach/[A-Za-z0-9_-]+/table/$"), timeout=WAIT_MS)
        expect(phone.locator("#game[data-live]")).to_have_count(1, timeout=WAIT_MS)
        expect(phone.locator(".play__role")).to_contain_text(name)
    axe_clean(page)
    axe_clean(phones["Ada"])

    round_ = ClassRound.objects.get(lesson=lesson)
    tables = list(round_.tables.order_by("number"))
    # Two tables play to their end; the projector shows each winner as it comes. The test
    # drives them on a clock of its own, minutes ahead of the phones' sockets: the grace
    # before a seat counts as away is endless meanwhile (play.presence).
    settings.PLAY_AWAY_GRACE_MS = 10**9
    winners = []
    for n, table in enumerate(tables[:2]):
        row = play_table_to_the_end(Game.objects.get(pk=table.game_id), seed=n)
        assert row.over and row.winner is not None
        winner = ClassSeat.objects.get(table=table, seat=row.winner).pupil.nickname
        winners.append(winner)
        expect(page.locator(f"#table-{table.number} .tableau__result")).to_contain_text(
            f"Winner: {winner}", timeout=WAIT_MS
        )
        standings = page.locator(".standings__table tbody tr")
        expect(standings.filter(has_text=winner).locator("td").nth(1)).to_have_text("1")
        # The winner's phone shows the finished game, pushed over its socket.
        seat = ClassSeat.objects.get(table=table, seat=row.winner)
        expect(phones[seat.pupil.nickname].locator(".summary__title")).to_have_text(
            "You won!", timeout=WAIT_MS
        )
    expect(page.locator(".tableau--over")).to_have_count(2)

    # A phone at the third table is closed: the table waits for it, the other phone and the
    # projector say so, and the teacher hands the seat to a bot at once.
    settings.PLAY_AWAY_GRACE_MS = 2000
    dropped, stays = ClassSeat.objects.filter(table=tables[2]).order_by("seat")
    phones[dropped.pupil.nickname].close()
    expect(page.locator("#table-3 .tableau__away")).to_have_count(1, timeout=WAIT_MS)
    expect(phones[stays.pupil.nickname].locator("#game")).to_contain_text(
        dropped.pupil.nickname, timeout=WAIT_MS
    )
    assert Game.objects.get(pk=tables[2].game_id).paused
    page.locator(f"#bot-3-{dropped.seat}").click()
    expect(page.locator("#table-3 .tableau__bot")).to_have_count(1, timeout=WAIT_MS)
    row = Game.objects.get(pk=tables[2].game_id)
    assert row.seats[dropped.seat] == "club" and not row.paused

    # Pause every table: the third table's phones are told.
    page.locator("#tables-pause").click()
    expect(page.locator("#tables-round")).to_contain_text("every table paused", timeout=WAIT_MS)
    expect(phones[stays.pupil.nickname].locator(".game__paused")).to_be_visible(timeout=WAIT_MS)
    assert Game.objects.get(pk=tables[2].game_id).paused

    # A class question about table 3, shown large: pushed to the phone still at that table
    # in its table's place; a card and a pile tapped there answer it on that page.
    page.locator("#table-3 .tableau__show").click()
    page.locator(".tables__ask button").first.click()
    expect(page.locator(".tables__asking")).to_be_visible(timeout=WAIT_MS)
    phone = phones[stays.pupil.nickname]
    expect(phone.locator("#question-title")).to_be_visible(timeout=WAIT_MS)
    assert phone.url.endswith("/table/")
    phone.locator("[data-question] [data-pick]").first.click()
    phone.locator("[data-question] [data-drop]").first.click()
    expect(phone.locator("#my-answer")).to_contain_text("You answered", timeout=WAIT_MS)
    # So it is to a phone at a finished table, over the socket its page keeps while the
    # round goes on, and answered there too.
    finished = phones[winners[0]]
    expect(finished.locator("#question-title")).to_be_visible(timeout=WAIT_MS)
    assert finished.url.endswith("/table/")
    finished.locator("[data-question] [data-pick]").first.click()
    finished.locator("[data-question] [data-drop]").first.click()
    expect(finished.locator("#my-answer")).to_contain_text("You answered", timeout=WAIT_MS)
    answers = lesson.questions.get().answers.order_by("pk")
    assert [a.pupil.nickname for a in answers] == [stays.pupil.nickname, winners[0]]

    # A new round, winners with winners: both winners at table 1; every phone moves on.
    page.select_option("#tables-pairing", "winners")
    page.locator("#tables-start").click()
    expect(page.locator("#tables-round")).to_contain_text("Round 2", timeout=WAIT_MS)
    second = ClassRound.objects.get(lesson=lesson, number=2)
    first_table = second.tables.get(number=1)
    assert {s.pupil.nickname for s in first_table.seats.all()} == set(winners)
    for name in winners:
        phone = phones[name]
        expect(phone.locator("#game")).to_have_attribute(
            "ws-connect", f"/ws/en/play/{first_table.game_id}/", timeout=WAIT_MS
        )
    for phone in phones.values():
        phone.context.close()  # the dropped phone's page is closed, its context is not


@pytest.mark.parametrize("lang", LANGS)
def test_the_projector_and_a_phone_in_every_language(browser, page, site_url, lang):
    page.set_viewport_size(PROJECTOR)
    lesson = start_tables(page, site_url, "james-bond", lang=lang)
    phones = [join(browser, site_url, lesson, name, lang) for name in ("Ada", "Bo", "Cy")]
    page.reload()
    page.select_option("#tables-size", "3")
    page.locator("#tables-start").click()
    expect(page.locator(".tableau")).to_have_count(1, timeout=WAIT_MS)
    assert page.locator("html").get_attribute("lang") == lang
    phone = phones[0]
    phone.wait_for_url(re.compile(r"/table/$"), timeout=WAIT_MS)
    expect(phone.locator("#game[data-live]")).to_have_count(1, timeout=WAIT_MS)
    assert phone.locator("html").get_attribute("lang") == lang
    axe_clean(page)
    axe_clean(phone)
    for p in phones:
        p.context.close()


PDF_PAGE = re.compile(rb"/Type\s*/Page(?!s)")


@pytest.mark.parametrize("variant", ["stress-se", "james-bond"])
def test_the_class_summary_of_fifteen_tables_prints_on_one_page(
    page, site_url, settings, monkeypatch, variant
):
    from django.utils import timezone
    from play import service
    from teach import questions, seating

    # Fixed deals: a game may end with no moment worth showing, so the count below is the
    # same on every run only when the deals are.
    monkeypatch.setattr(service, "new_seed", iter(range(1000, 2000)).__next__)

    settings.PLAY_AWAY_GRACE_MS = 10**9  # the tables are played here, with no phone
    page.set_viewport_size(PROJECTOR)
    lesson = start_tables(page, site_url, variant)
    for n in range(30):
        questions.join(lesson, f"Pupil number {n + 1:02}")
    round_ = seating.start_round(
        lesson, size=2, level="club", pairing="shuffle", wall=timezone.now(), away_ms=60_000
    )
    for n, table in enumerate(round_.tables.order_by("number")):
        if n < 14:  # one table stopped before its end
            play_table_to_the_end(Game.objects.get(pk=table.game_id), seed=n)
    page.goto(f"{site_url}/en/teach/{lesson.pk}/summary/")
    expect(page.locator(".table-result")).to_have_count(15)
    assert page.locator(".table-result .moment__story").count() >= 10
    axe_clean(page)
    page.emulate_media(media="print")
    pdf = page.pdf(format="A4", prefer_css_page_size=True)
    assert len(PDF_PAGE.findall(pdf)) == 1, variant
