"""Teacher mode in Chromium: a bot game shown at 2× to its end with a story line for every
event, pause and single steps, two players at one keyboard (and the engine judging their
race), the teacher against the bots, "explain this", the follow page and its QR code, the
story in two languages, the projector layout (the whole game on the screen, axe), the class
summary on one printed page, and a class question answered from three pupils' phones.

The game clock runs at the site's own speed (PLAY_CLOCK_SPEED 1.0, as in production), so 2×
is twice real time. Nothing here waits for the machine to be fast: waits are for something
to appear or for the server to answer a request (with a generous limit). "Nothing happened
while paused" is checked on a request the page sent after the moment a bot would have moved
had the clock been running.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable
from datetime import timedelta

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.conf import settings
from django.utils import timezone, translation
from play import service
from play.models import Game, LogEntry
from playwright.sync_api import Page, expect
from teach.explain import explain, judging_time, parse_ref
from teach.models import Lesson, Question
from teach.narration import lines
from teach.questions import position

from presentation.narration import narrate
from presentation.table import PRESENTERS
from rules_engine.actions import Action
from rules_engine.driver import Driver
from rules_engine.registry import VARIANTS

LEFT = {family: p.teach_keys[0] for family, p in PRESENTERS.items()}
RIGHT = {family: p.teach_keys[1] for family, p in PRESENTERS.items()}

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PROJECTOR = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
WAIT_S = 120
ZBARIMG = shutil.which("zbarimg")
PDF_PAGE = re.compile(rb"/Type\s*/Page(?!s)")
#: a Swedish Stress deal that expert bots play out in 11.5 s of game time (under 6 s at 2×)
SHORT_GAME_SEED = "9"


@pytest.fixture(autouse=True)
def _projector_closed_first(page, site_url):
    """The projector's socket (live.lessons) closes before the server is quieted and the
    database emptied."""
    yield
    page.close()


def wait_for(check: Callable[[], object], what: str, limit: float = WAIT_S):
    """Poll `check` until it is true (the page and the server move on their own)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"waited {limit} s for {what}")


def start(page: Page, site_url: str, variant: str = "stress-se", *, mode: str = "watch",
          lang: str = "en", lang2: str = "", pace: str = "1", seed: str = "7",
          players: int = 2, level: str = "expert") -> Lesson:
    levels = "".join(f"&level-{n}={level}" for n in range(1, players + 1))
    page.goto(f"{site_url}/{lang}/{variant}/teach/?mode={mode}&players={players}&seed={seed}"
              f"&pace={pace}&lang2={lang2}{levels}")
    page.locator(".play-setup__start").click()
    page.wait_for_url(re.compile(r"/teach/[A-Za-z0-9_-]+/$"))
    return Lesson.objects.select_related("game").get(pk=page.url.rstrip("/").split("/")[-1])


def row_of(lesson: Lesson) -> Game:
    return Game.objects.get(pk=lesson.pk)


def story(page: Page) -> list[str]:
    return page.locator("#narration .story__line:not(.story__line--refused) .story__text"
                        ).all_inner_texts()


def events(row: Game) -> list[dict]:
    return [e for entry in LogEntry.objects.filter(game=row).order_by("seq")
            for e in entry.events]


def humans(lesson: Lesson) -> list[LogEntry]:
    return list(LogEntry.objects.filter(game_id=lesson.pk, kind="human").order_by("seq"))


def next_poll(page: Page) -> None:
    """Ask for the game from now on, as a page whose socket is closed would (the page asks
    nothing itself while the lesson's socket is open): the server catches the game up to
    the moment that request arrived."""
    answer = page.request.get(f"{page.url.split('?')[0]}?since=0",
                              headers={"HX-Request": "true"}, timeout=WAIT_S * 1000)
    assert answer.ok, answer.status


# ---------------------------------------------------------------------------- a whole game
def test_a_bot_game_shown_at_2x_runs_to_its_end_with_a_line_for_every_event(
        page, site_url, console_errors):
    assert settings.PLAY_CLOCK_SPEED == 1.0  # 2× is twice real time
    page.set_viewport_size(PROJECTOR)
    page.goto(f"{site_url}/en/stress-se/teach/")
    page.locator("#seed").fill(SHORT_GAME_SEED)
    page.select_option("#level-1", "expert")
    page.select_option("#level-2", "expert")
    page.select_option("#pace", "2")
    page.locator(".play-setup__start").click()
    page.wait_for_url(re.compile(r"/teach/[A-Za-z0-9_-]+/$"))
    lesson = Lesson.objects.get(pk=page.url.rstrip("/").split("/")[-1])
    assert row_of(lesson).speed == 2.0
    expect(page.locator("#pace-4")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#pace-4")).to_have_text("2×")
    started = time.monotonic()
    page.keyboard.press("Space")
    expect(page.locator("#clock-pause")).to_be_visible()
    expect(page.locator("#teach-summary")).to_be_visible(timeout=WAIT_S * 1000)
    print(f"\nthe 2× game took {time.monotonic() - started:.1f} s in the browser")
    row = row_of(lesson)
    assert row.over and row.winner is not None
    told = events(row)
    assert told[-1]["code"] == "won"
    with translation.override("en"):
        expected = [narrate(e, "speed", "stress-se") for e in told]
    assert all(expected)
    wait_for(lambda: len(story(page)) == len(expected), "every event told")
    assert story(page) == expected
    # The live region read out the end of the game.
    expect(page.locator("#announce")).to_contain_text(expected[-1])
    # After the game: the step-through viewer, back to the lesson.
    page.locator("#teach-replay").click()
    page.wait_for_url(f"{site_url}/en/teach/{lesson.pk}/replay/")
    counter = page.locator(".example-viewer__counter")
    expect(counter).to_contain_text("Starting position (")
    last = re.search(r"\((\d+) steps\)", counter.inner_text()).group(1)
    page.locator(".example-viewer").focus()
    page.keyboard.press("End")
    expect(counter).to_have_text(f"Step {last} of {last}")
    expect(page.locator(".example-viewer")).to_contain_text(expected[-1])
    page.locator(f'.breadcrumb a[href="/en/teach/{lesson.pk}/"]').click()
    page.wait_for_url(f"{site_url}/en/teach/{lesson.pk}/")
    assert console_errors == []


# ---------------------------------------------------------------------------- time
def test_pace_and_pause_stop_the_clock_and_no_bot_moves_until_resumed(page, site_url):
    page.set_viewport_size(PROJECTOR)
    lesson = start(page, site_url, "spit")
    page.keyboard.press("Space")
    expect(page.locator("#clock-pause")).to_be_visible()
    page.locator("#pace-2").click()  # 0.5×
    expect(page.locator("#pace-2")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#pace-3")).to_have_attribute("aria-pressed", "false")
    assert row_of(lesson).speed == 0.5
    wait_for(lambda: row_of(lesson).log_length >= 4, "some bot moves")
    page.keyboard.press("Space")
    expect(page.locator("#clock-resume")).to_be_visible()
    expect(page.locator(".teach__paused")).to_contain_text("Paused")
    paused = row_of(lesson)
    assert paused.paused
    due = service.driver_of(paused).next_due()
    assert due is not None and due >= paused.clock_ms
    # Had the clock run on, a bot would have moved by this wall time.
    would_move = paused.clock_at + timedelta(milliseconds=(due - paused.clock_ms) / 0.5 + 1)
    wait_for(lambda: timezone.now() > would_move, "the moment a bot would have moved")
    next_poll(page)
    later = row_of(lesson)
    assert (later.log_length, later.clock_ms, later.version, later.paused) == (
        paused.log_length, paused.clock_ms, paused.version, True)
    expect(page.locator("#clock-resume")).to_be_visible()
    page.keyboard.press("Space")
    expect(page.locator("#clock-pause")).to_be_visible()
    wait_for(lambda: row_of(lesson).log_length > paused.log_length, "the bots again")


def test_a_step_applies_exactly_the_next_action_and_the_game_stays_paused(page, site_url):
    page.set_viewport_size(PROJECTOR)
    lesson = start(page, site_url, "james-bond")
    for n in range(1, 4):
        before = row_of(lesson)
        expected = Driver.from_json(before.snapshot, record=[])
        entry = expected.step()
        page.keyboard.press("ArrowRight")
        expect(page.locator("#game > .game__state")).to_have_attribute("data-seq", str(n))
        after = row_of(lesson)
        assert after.paused and after.log_length == n
        logged = LogEntry.objects.get(game=after, seq=n - 1)
        assert (logged.t, logged.kind, logged.action) == (
            entry.t, entry.kind, entry.action.to_json() if entry.action else None)
        assert after.snapshot == expected.to_json()
        with translation.override("en"):
            told = [narrate(e, "swap", "james-bond") for e in logged.events]
        wait_for(lambda told=told: all(t in story(page) for t in told), "the step told")
    # The page keeps asking while paused; nothing more happens.
    next_poll(page)
    next_poll(page)
    assert row_of(lesson).log_length == 3 and row_of(lesson).paused
    expect(page.locator("#clock-resume")).to_have_text(re.compile("^Resume"))


# ---------------------------------------------------------------------------- people playing
def test_two_players_keys_act_for_their_own_seats(page, site_url):
    page.set_viewport_size(PROJECTOR)
    lesson = start(page, site_url, "james-bond", mode="hotseat")
    # Both players' keys are on the screen.
    lists = page.locator(".keys-list")
    expect(lists).to_have_count(2)
    expect(lists.nth(0)).to_contain_text("Keys for Player 1")
    expect(lists.nth(0)).to_contain_text("1 2 3 4 5 6")
    expect(lists.nth(1)).to_contain_text("Keys for Player 2")
    expect(lists.nth(1)).to_contain_text("7 8 9 0 U I")
    page.keyboard.press("Space")
    expect(page.locator("#clock-pause")).to_be_visible()
    page.keyboard.press(LEFT["swap"].places[1])
    wait_for(lambda: len(humans(lesson)) == 1, "the left player's pick")
    page.keyboard.press(RIGHT["swap"].places[3])
    wait_for(lambda: len(humans(lesson)) == 2, "the right player's pick")
    picks = [(e.action["player"], e.action["pile"], e.accepted) for e in humans(lesson)]
    assert picks == [(0, "pile-2", True), (1, "pile-4", True)]
    # The first key of each hand lays the first card of that player's own hand, once the
    # table shows both hands (before that, the same keys pick up piles).
    row = row_of(lesson)
    expect(page.locator("#game > .game__state")).to_have_attribute(
        "data-version", str(row.version))
    expect(page.locator("#game .zone--hand [data-key]")).to_have_count(8)
    board = service.driver_of(row).game.board(None)
    hands = [next(z for z in board["seats"][s]["zones"] if z["kind"] == "hand") for s in (0, 1)]
    page.keyboard.press(RIGHT["swap"].places[0])
    page.keyboard.press(LEFT["swap"].places[0])
    wait_for(lambda: len(humans(lesson)) == 4, "both lays")
    lays = [(e.action["player"], e.action["card"]) for e in humans(lesson)[2:]]
    assert sorted(lays) == [(0, hands[0]["cards"][0]["card"]), (1, hands[1]["cards"][0]["card"])]


def race_seed() -> tuple[int, dict, dict]:
    """A Swedish Stress deal where both players can play onto the same centre pile and,
    once one has, the other's card no longer goes there."""
    for seed in range(1, 500):
        game = Driver.new("stress-se", ["human", "human"], seed=seed).game
        for first in (a.to_json() for a in game.legal_actions(0) if a.type == "play"):
            for second in (a.to_json() for a in game.legal_actions(1) if a.type == "play"):
                if first["to"] != second["to"]:
                    continue
                after = game.copy()
                assert after.apply(Action.from_json({**first, "t": 0})).accepted
                if not after.apply(Action.from_json({**second, "t": 1})).accepted:
                    return seed, first, second
    raise AssertionError("no deal with a race to one pile")


def keys_for(action: dict, keys) -> list[str]:
    return [keys.places[int(action["from"].split("-")[1])],
            keys.centre[int(action["to"].split("-")[1])]]


def test_two_players_race_to_one_centre_pile_and_the_engine_judges(page, site_url):
    """Stress at one keyboard: the left player's keys play onto a centre pile, the right
    player's race for it a moment later; the engine takes the first and refuses the other,
    and the story says so with the engine's reason."""
    seed, first, second = race_seed()
    page.set_viewport_size(PROJECTOR)
    lesson = start(page, site_url, "stress-se", mode="hotseat", seed=str(seed))
    page.keyboard.press("Space")
    expect(page.locator("#clock-pause")).to_be_visible()
    for key in keys_for(first, LEFT["speed"]) + keys_for(second, RIGHT["speed"]):
        page.keyboard.press(key)
    wait_for(lambda: len(humans(lesson)) == 2, "both plays")
    won, lost = humans(lesson)
    assert (won.action["player"], won.action["card"], won.accepted) == (0, first["card"], True)
    assert (lost.action["player"], lost.action["card"], lost.accepted) == (
        1, second["card"], False)
    assert lost.reason
    with translation.override("en"):
        refused = [line.text for line in lines(row_of(lesson), 0) if not line.event]
    assert len(refused) == 1 and refused[0].startswith("Player 2 ") and " play the " in refused[0]
    expect(page.locator("#narration .story__line--refused .story__text")).to_have_text(refused)


def test_the_teacher_plays_player_1_with_the_left_hand_keys(page, site_url):
    page.set_viewport_size(PROJECTOR)
    lesson = start(page, site_url, "stress-se", mode="teacher", seed="1", pace="0.25",
                   level="learner")
    expect(page.locator(".keys-list")).to_have_count(1)
    expect(page.locator(".keys-list")).to_contain_text("Keys for Player 1 (teacher)")
    expect(page.locator("#pace-1")).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Space")
    expect(page.locator("#clock-pause")).to_be_visible()

    def a_play() -> dict | None:
        game = service.driver_of(row_of(lesson)).game
        return next((a.to_json() for a in game.legal_actions(0) if a.type == "play"), None)

    # The bot may take the teacher's chance first: the test presses the keys of a play the
    # table offers when it looks, as the teacher would.
    play = wait_for(a_play, "a play for the teacher")
    for key in keys_for(play, LEFT["speed"]):
        page.keyboard.press(key)
    wait_for(lambda: humans(lesson), "the teacher's play")
    logged = humans(lesson)[0]
    assert (logged.action["player"], logged.action["from"], logged.action["to"]) == (
        0, play["from"], play["to"])


def test_explain_this_gives_the_engines_verdicts_in_both_languages(page, site_url):
    page.set_viewport_size(PROJECTOR)
    lesson = start(page, site_url, "stress-se", lang2="de", seed=SHORT_GAME_SEED)
    for n in range(1, 4):
        page.keyboard.press("ArrowRight")
        expect(page.locator("#game > .game__state")).to_have_attribute("data-seq", str(n))
    card = page.locator("#game .seat--own [data-explain]").nth(1)
    ref = card.get_attribute("data-explain")
    card.click()
    expect(card).to_have_class(re.compile("is-explained"))
    game = service.driver_of(row_of(lesson)).game
    blocks = page.locator("#explain .explain__block")
    expect(blocks).to_have_count(2)
    for block, lang in zip((blocks.nth(0), blocks.nth(1)), ("en", "de"), strict=True):
        with translation.override(lang):
            expected = explain(game, parse_ref(ref, game))
        assert expected.verdicts
        expect(block).to_have_attribute("lang", lang)
        expect(block.locator(".explain__title")).to_have_text(expected.subject)
        expect(block.locator(".explain__verdicts li")).to_have_text(
            [v.text for v in expected.verdicts])
    # The game goes on: the explanation of the paused table is gone.
    page.keyboard.press("Space")
    expect(page.locator("#clock-pause")).to_be_visible()
    expect(blocks).to_have_count(0)


# ---------------------------------------------------------------------------- following
def item_names(page: Page) -> list[tuple[str, str]]:
    return page.evaluate("""() => [...document.querySelectorAll('#game .table .item')]
        .map((el) => [el.id, el.getAttribute('aria-label')])""")


def test_the_follow_link_and_its_qr_code_show_the_same_board(browser, page, site_url,
                                                             tmp_path):
    page.set_viewport_size(PROJECTOR)
    lesson = start(page, site_url, "spit")
    for n in range(1, 6):
        page.keyboard.press("ArrowRight")
        expect(page.locator("#game > .game__state")).to_have_attribute("data-seq", str(n))
    link = page.locator("#follow-link").get_attribute("href")
    assert link == f"{site_url}/en/teach/{lesson.pk}/follow/"
    if ZBARIMG is None:
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail("zbarimg (Debian's zbar-tools, installed by .ci/run) is missing")
    else:
        shot = tmp_path / "qr.png"
        page.locator(".follow__qr").screenshot(path=str(shot))
        decoded = subprocess.run([ZBARIMG, "--raw", "-q", str(shot)], capture_output=True,
                                 text=True, check=True).stdout.strip()
        assert decoded == link
    context = browser.new_context(viewport=PHONE)
    phone = context.new_page()
    phone.goto(link)
    version = str(row_of(lesson).version)
    expect(phone.locator("#game > .game__state")).to_have_attribute("data-version", version)
    # The projector draws the paused table's cards as buttons to explain; the follower sees
    # the same cards, read only, and no control.
    assert item_names(phone) == item_names(page)
    assert phone.locator("#clock-pause, #clock-resume, #question-ask").count() == 0
    assert phone.locator("#game button.item").count() == 0
    assert phone.locator("#narration .story__line").all_inner_texts() == page.locator(
        "#narration .story__line").all_inner_texts()
    # It follows live: the next step appears on the phone too.
    page.keyboard.press("ArrowRight")
    expect(page.locator("#game > .game__state")).to_have_attribute("data-seq", "6")
    version = str(row_of(lesson).version)
    expect(phone.locator("#game > .game__state")).to_have_attribute(
        "data-version", version, timeout=WAIT_S * 1000)
    assert item_names(phone) == item_names(page)
    context.close()


def test_the_story_is_told_in_two_languages_at_once(page, site_url):
    page.set_viewport_size(PROJECTOR)
    lesson = start(page, site_url, "stressi-fi", lang="fi", lang2="sv")
    for n in range(1, 5):
        page.keyboard.press("ArrowRight")
        expect(page.locator("#game > .game__state")).to_have_attribute("data-seq", str(n))
    told = events(row_of(lesson))
    with translation.override("fi"):
        finnish = [narrate(e, "speed", "stressi-fi") for e in told]
    with translation.override("sv"):
        swedish = [narrate(e, "speed", "stressi-fi") for e in told]
    assert finnish != swedish
    told_lines = page.locator("#narration .story__line:not(.story__line--refused)")
    expect(told_lines).to_have_count(len(told))
    expect(told_lines.locator(".story__text")).to_have_text(finnish)
    expect(told_lines.locator('.story__alt[lang="sv"]')).to_have_text(swedish)
    # The table's captions and names carry the second language too.
    expect(page.locator('.zone__label-alt[lang="sv"]').first).to_have_text("Plockhög")
    expect(page.locator('.seat__name-alt[lang="sv"]')).to_have_text(
        ["Spelare 2 (dator, expert)", "Spelare 1 (dator, expert)"])


# ---------------------------------------------------------------------------- the projector
LAYOUT = """() => {
  const box = (el) => el.getBoundingClientRect();
  const table = box(document.querySelector('#game .table'));
  const parts = [...document.querySelectorAll(
      '#game .table .item, #game .table .seat__name, #game .table .zone__label')];
  return {
    game: box(document.querySelector('#game')).bottom,
    controls: box(document.querySelector('.teach-controls')),
    tableTop: table.top, tableBottom: table.bottom,
    partsTop: Math.min(...parts.map((el) => box(el).top)),
    partsBottom: Math.max(...parts.map((el) => box(el).bottom)),
    card: box(document.querySelector('#game .seat--own .card')).height,
    story: parseFloat(getComputedStyle(document.querySelector('#narration')).fontSize),
  };
}"""


@pytest.mark.parametrize(("viewport", "lang2", "large", "smallest_card"), [
    (PROJECTOR, "", False, 0.18), (PROJECTOR, "sv", True, 0.14),
    ({"width": 1280, "height": 720}, "sv", False, 0.1)])
def test_the_projector_shows_the_whole_game_without_scrolling(
        page, site_url, viewport, lang2, large, smallest_card):
    page.set_viewport_size(viewport)
    if large:
        page.context.add_cookies([{"name": "pref-large", "value": "1", "url": site_url}])
    start(page, site_url, "stress-se", lang2=lang2, seed=SHORT_GAME_SEED)
    for state in ("ready", "running", "paused"):
        if state == "running":
            page.keyboard.press("Space")
            expect(page.locator("#clock-pause")).to_be_visible()
        elif state == "paused":
            page.keyboard.press("Space")
            expect(page.locator("#clock-resume")).to_be_visible()
        found = page.evaluate(LAYOUT)
        # Everything of the game on the screen, nothing over the controls.
        assert found["game"] <= viewport["height"], state
        assert found["tableTop"] <= found["partsTop"], state
        assert found["partsBottom"] <= found["tableBottom"] <= found["controls"]["top"], state
        assert found["controls"]["bottom"] <= found["game"], state
        # Cards big enough for the back of the room, the story in large type.
        assert found["card"] >= smallest_card * viewport["height"], state
        assert found["story"] >= 20, state


def test_the_projector_layout_and_the_phones_have_no_axe_violations(browser, page, site_url):
    page.set_viewport_size(PROJECTOR)
    page.goto(f"{site_url}/en/stress-se/teach/")
    assert Axe().run(page).violations_count == 0
    lesson = start(page, site_url, "stress-se", lang2="de")
    assert Axe().run(page).violations_count == 0  # ready, paused
    page.keyboard.press("Space")
    wait_for(lambda: row_of(lesson).log_length >= 3, "some bot moves")
    assert Axe().run(page).violations_count == 0  # running
    page.keyboard.press("Space")
    expect(page.locator("#clock-resume")).to_be_visible()
    page.locator("#c-centre-0").click()
    expect(page.locator("#explain .explain__block")).to_have_count(2)
    page.locator("#question-ask").click()
    expect(page.locator("#tally-count")).to_be_visible()
    assert Axe().run(page).violations_count == 0  # explanation and question open
    # The large-type and four-colour preferences apply to the projector too.
    page.context.add_cookies([{"name": f"pref-{name}", "value": "1", "url": site_url}
                              for name in ("large", "fourcolour")])
    page.reload()
    expect(page.locator("html")).to_have_class(re.compile("large-type.*four-colour"))
    diamonds = page.locator("#game .card--diamonds").first
    expect(diamonds).to_have_css("color", "rgb(29, 78, 216)")
    assert Axe().run(page).violations_count == 0
    context = browser.new_context(viewport=PHONE)
    phone = context.new_page()
    phone.goto(f"{site_url}/en/teach/{lesson.pk}/follow/")
    assert Axe().run(phone).violations_count == 0  # following, with the join form
    phone.goto(f"{site_url}/en/class/")
    assert Axe().run(phone).violations_count == 0
    phone.fill("#join-code", lesson.class_code)
    phone.fill("#join-nickname", "Ada")
    phone.locator("#join-submit").click()
    expect(phone.locator(".question--pupil")).to_be_visible()
    assert Axe().run(phone).violations_count == 0
    context.close()


# ---------------------------------------------------------------------------- the summary
def finish(lesson: Lesson) -> Game:
    """The bots play the rest of the game in one catch-up (hours of game time at once)."""
    row = row_of(lesson)
    service.play(row.pk, row.clock_at + timedelta(milliseconds=1), clock_command="resume",
                 version=row.version, controls=True)
    row = service.play(row.pk, row.clock_at + timedelta(hours=2)).row
    assert row.over
    return row


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_class_summary_prints_on_one_page(page, site_url, variant):
    for lang, lang2 in (("en", ""), ("de", "fi"), ("nb", "sv")):
        lesson = start(page, site_url, variant, lang=lang, lang2=lang2, seed="5")
        finish(lesson)
        page.reload()
        page.locator("#teach-summary").click()
        page.wait_for_url(f"{site_url}/{lang}/teach/{lesson.pk}/summary/")
        expect(page.locator(".moment")).to_have_count(3)
        assert page.locator(".moment .card").count() >= 3
        if lang2:
            expect(page.locator(f'.class-summary__lang[lang="{lang2}"]')).to_be_visible()
        if lang == "en":
            assert Axe().run(page).violations_count == 0
        page.emulate_media(media="print")
        pdf = page.pdf(prefer_css_page_size=True)
        assert len(PDF_PAGE.findall(pdf)) == 1, (variant, lang, lang2)
        page.emulate_media(media="screen")


# ---------------------------------------------------------------------------- questions
def plays(game, seat: int) -> tuple[list[dict], list[dict]]:
    """A seat's plays in the paused position: those the engine accepts, and those it does
    not (judged as teach.questions judges an answer)."""
    board = game.board(None)
    t = judging_time(game)
    good, bad = [], []
    for zone in board["seats"][seat]["zones"]:
        if zone["kind"] == "row" and zone["cards"]:
            for pile in ("centre-0", "centre-1"):
                action = {"type": "play", "from": zone["id"], "to": pile}
                card = zone["cards"][-1]["card"]
                result = game.copy().apply(Action.from_json(
                    {**action, "card": card, "t": t, "player": seat}))
                (good if result.accepted else bad).append(action)
    return good, bad


def answer(pupil: Page, action: dict) -> None:
    pupil.locator(f"#o-{action['from']}").click()
    pupil.locator(f"#c-{action['to']}").click()


PLACES = ["place 1", "place 2", "place 3", "place 4"]


def test_a_class_question_shows_the_tally_of_three_pupils_and_a_changed_answer(
        browser, page, site_url):
    page.set_viewport_size(PROJECTOR)
    seed = next(s for s in range(1, 300) if all(plays(Driver.new(
        "stress-de", ["club", "club"], seed=s).game, 0)))
    lesson = start(page, site_url, "stress-de", seed=str(seed))
    pupils = []
    for name in ("Ada", "Bo", "Cy"):
        context = browser.new_context(viewport=PHONE)
        pupil = context.new_page()
        pupil.goto(f"{site_url}/en/teach/{lesson.pk}/follow/")
        pupil.fill("#join-code", lesson.class_code)
        pupil.fill("#join-nickname", name)
        pupil.locator("#join-submit").click()
        expect(pupil.locator(".play__role")).to_contain_text(f"as {name}")
        pupils.append(pupil)
    page.select_option("#question-seat", "0")
    page.locator("#question-ask").click()
    expect(page.locator("#tally-count")).to_have_text("0 of 3 pupils have answered.")
    question = Question.objects.get(lesson=lesson)
    good, bad = plays(position(question), 0)
    assert good and bad
    for pupil in pupils:
        expect(pupil.locator(".question--pupil")).to_be_visible(timeout=WAIT_S * 1000)
    for pupil, action in zip(pupils, (bad[0], bad[0], good[0]), strict=True):
        answer(pupil, action)
        expect(pupil.locator("#my-answer")).to_be_visible()
    expect(page.locator("#tally-count")).to_have_text("3 of 3 pupils have answered.",
                                                     timeout=WAIT_S * 1000)
    rows = page.locator("#tally .tally__row")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("from " + PLACES[int(bad[0]["from"][-1])])
    expect(page.locator("#tally .tally__count")).to_have_text(["2", "1"])
    # Ada changes her mind: her second answer replaces the first. (The tally reads the same
    # before and after, 2 and 1 from one place: her phone saying she answered what Cy did
    # is the sign it was stored.)
    answer(pupils[0], good[0])
    expect(pupils[0].locator("#my-answer")).to_have_text(
        pupils[2].locator("#my-answer").inner_text(), timeout=WAIT_S * 1000)
    expect(rows.nth(0)).to_contain_text("from " + PLACES[int(good[0]["from"][-1])],
                                        timeout=WAIT_S * 1000)
    expect(page.locator("#tally .tally__count")).to_have_text(["2", "1"])
    expect(page.locator("#tally-count")).to_have_text("3 of 3 pupils have answered.")
    assert question.answers.count() == 3
    assert question.answers.get(pupil__nickname="Ada").key == question.answers.get(
        pupil__nickname="Cy").key
    # The engine's verdict on each answer, on the projector and on each phone.
    page.locator("#question-reveal").click()
    expect(rows.nth(0).locator(".verdict--yes")).to_be_visible()
    expect(rows.nth(1).locator(".verdict--no")).to_contain_text("not allowed:")
    expect(pupils[1].locator("#my-answer .verdict--no")).to_be_visible(timeout=WAIT_S * 1000)
    expect(pupils[0].locator("#my-answer .verdict--yes")).to_be_visible(timeout=WAIT_S * 1000)
    page.keyboard.press("Space")  # resume: the question is over
    expect(page.locator("#clock-pause")).to_be_visible()
    expect(page.locator("#tally")).to_have_count(0)
    assert Question.objects.get(pk=question.pk).state == Question.CLOSED
    expect(pupils[2].locator(".question--pupil")).to_have_count(0, timeout=WAIT_S * 1000)
    for pupil in pupils:
        pupil.context.close()


def test_a_step_while_the_class_is_answering_says_why_nothing_moved(page, site_url):
    # #26: → with a question open did nothing and said nothing.
    page.set_viewport_size(PROJECTOR)
    lesson = start(page, site_url, "stress-de")
    page.select_option("#question-seat", "0")
    page.locator("#question-ask").click()
    expect(page.locator("#tally-count")).to_be_visible()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#step-held")).to_have_text(
        "No step while the class is answering: show the answers or close the question first.")
    expect(page.locator("#tally-count")).to_be_visible()
    assert row_of(lesson).log_length == 0 and row_of(lesson).paused


# Each part's box, and whether all of it is on the screen: inside the window and inside any
# scrolling box it sits in (a QR code scrolled away inside the side panel is not in view).
IN_VIEW = """(selectors) => Object.fromEntries(selectors.map((selector) => {
    const el = document.querySelector(selector);
    if (!el || !el.getClientRects().length) return [selector, 'missing'];
    const r = el.getBoundingClientRect();
    let ok = r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth;
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        if (!/(auto|scroll|hidden)/.test(getComputedStyle(up).overflowY)) continue;
        const c = up.getBoundingClientRect();
        ok = ok && r.top >= c.top - 0.5 && r.bottom <= c.bottom + 0.5;
    }
    const where = `${Math.round(r.top)}-${Math.round(r.bottom)}`;
    return [selector, ok ? 'in view' : `out of view (${where})`];
}))"""


def test_the_projector_keeps_the_table_the_code_and_the_tally_in_view_in_every_state(
        page, site_url):
    # #26: after "explain this" the side panel scrolled, and a question asked then had its
    # tally, the class code and the QR code out of view.
    page.set_viewport_size(PROJECTOR)
    start(page, site_url, "stress-se", lang2="de", seed=SHORT_GAME_SEED)
    parts = ["#game .table", "#class-code", ".follow__qr"]

    def check(state: str, more: tuple[str, ...] = ()) -> None:
        found = page.evaluate(IN_VIEW, parts + list(more))
        assert set(found.values()) == {"in view"}, (state, found)
        assert page.evaluate("scrollY") == 0, state

    check("ready")
    page.keyboard.press("Space")
    expect(page.locator("#clock-pause")).to_be_visible()
    check("running")
    page.keyboard.press("Space")
    expect(page.locator("#clock-resume")).to_be_visible()
    for n in range(1, 4):
        page.keyboard.press("ArrowRight")
        expect(page.locator("#game > .game__state")).to_have_attribute("data-seq", str(n))
    check("paused")
    page.locator("#game .seat--own [data-explain]").nth(1).click()
    expect(page.locator("#explain .explain__block")).to_have_count(2)
    check("explained", ("#explain",))
    page.select_option("#question-seat", "0")
    page.locator("#question-ask").click()
    expect(page.locator("#tally-count")).to_be_visible()
    check("asked after explaining", ("#tally-count",))
    page.locator("#question-reveal").click()
    expect(page.locator("#question-reveal")).to_have_count(0)
    check("revealed", ("#tally-count",))
