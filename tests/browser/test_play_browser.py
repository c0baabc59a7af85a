"""The playable demo in Chromium: whole games against expert bots by clicking and by keys,
the phone layout, and the header that folds away.

The game clock runs four times faster here (PLAY_CLOCK_SPEED), so that a game against expert
bots ends in seconds. The test plays seat 0 like a person: it reads the table the server last
stored, picks a sensible legal move (tests/play_human.py) and makes it on the board with the
mouse or the keyboard. Moves that arrive too late are rejected by the engine, as a person's
would be; the game still has to reach its end with the bots playing on the same clock.
"""

from __future__ import annotations

import json
import random
import re
import time

import pytest
from axe_playwright_python.sync_playwright import Axe
from play.models import Game, LogEntry
from play.service import driver_of
from playwright.sync_api import expect

from tests.play_human import sensible_action

from .play_helpers import press

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GAMES = [("stress-se", 2), ("stress-de", 2), ("stressi-fi", 2), ("spit", 2), ("james-bond", 2),
         ("james-bond", 4)]
WALL_LIMIT_S = 240
PHONE = {"width": 390, "height": 844}


def rect(page, selector: str) -> dict:
    """The element's box, read in one go (the board is replaced whenever a bot moves)."""
    return page.evaluate("""(selector) => {
        const r = document.querySelector(selector).getBoundingClientRect();
        return {x: r.x, y: r.y, width: r.width, height: r.height};
    }""", selector)


@pytest.fixture
def fast_clock(settings):
    settings.PLAY_CLOCK_SPEED = 4.0
    settings.PLAY_IDLE_PAUSE_MS = 10**9


def start(page, site_url, variant: str, players: int, lang: str = "en") -> str:
    levels = "".join(f"&level-{n}=expert" for n in range(2, players + 1))
    page.goto(f"{site_url}/{lang}/{variant}/play/?players={players}{levels}")
    page.locator(".play-setup__start").click()
    page.wait_for_url("**/play/*/")
    return page.url.rstrip("/").split("/")[-1]


@pytest.mark.parametrize("how", ["click", "keyboard"])
@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_a_whole_game_against_expert_bots(page, site_url, console_errors, fast_clock,
                                          variant, players, how):
    page.set_viewport_size(PHONE)
    game_id = start(page, site_url, variant, players)
    rng = random.Random(f"{variant}{players}{how}")
    summary = page.locator(".summary")
    deadline = time.monotonic() + WALL_LIMIT_S
    checked_mid_game = False
    while summary.count() == 0 and time.monotonic() < deadline:
        row = Game.objects.get(pk=game_id)
        if row.over:
            page.wait_for_timeout(100)
            continue
        action = sensible_action(driver_of(row).game, 0, rng)
        if action is not None:
            press(page, action, keyboard=how == "keyboard")
        page.wait_for_timeout(40)
        if not checked_mid_game and row.log_length > 12:
            assert Axe().run(page).violations_count == 0
            checked_mid_game = True
    expect(summary).to_be_visible()
    row = Game.objects.get(pk=game_id)
    assert row.over and (row.winner is not None or row.end_reason)
    mine = LogEntry.objects.filter(game=row, kind="human")
    assert any(e.accepted for e in mine), "no move of the player was accepted"
    assert summary.locator(".summary__title").inner_text()
    expect(summary.get_by_role("link", name="Watch this game step by step")).to_be_visible()
    assert Axe().run(page).violations_count == 0
    assert console_errors == []


@pytest.mark.parametrize(("variant", "lang"), [("stress-se", "sv"), ("stress-de", "de"),
                                               ("stressi-fi", "fi"), ("spit", "en"),
                                               ("james-bond", "nb")])
def test_the_two_player_table_fits_a_phone_held_upright(page, site_url, console_errors,
                                                        variant, lang):
    page.set_viewport_size(PHONE)
    start(page, site_url, variant, 2, lang)
    table = page.locator("#game .table")
    table.wait_for()
    header = rect(page, ".site-header")
    assert header["height"] <= 56, header
    box = rect(page, "#game .table")
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], box
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    # One snapshot of every button (the board is replaced whenever a bot moves).
    buttons = page.evaluate("""[...document.querySelectorAll('#game button')].map(b => {
        const r = b.getBoundingClientRect();
        return {id: b.id, width: r.width, height: r.height, bottom: r.bottom, right: r.right};
    })""")
    assert buttons
    for b in buttons:
        assert b["width"] >= 44 and b["height"] >= 44, b
        assert b["bottom"] <= PHONE["height"] and b["right"] <= PHONE["width"], b
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert console_errors == []


def test_the_folded_header_still_offers_language_and_preferences(page, site_url,
                                                                 console_errors):
    page.set_viewport_size(PHONE)
    start(page, site_url, "stress-se", 2)
    switcher = page.locator(".language-switcher")
    expect(switcher).to_be_hidden()
    page.locator(".site-header__fold > summary").click()
    expect(switcher).to_be_visible()
    page.locator('.language-switcher a[hreflang="sv"]').click()
    page.wait_for_url("**/sv/play/*/")
    expect(page.locator("#game [data-pick]").first).to_be_visible()  # the seat is still held
    assert console_errors == []


def test_a_projector_with_large_type_gets_big_cards_on_one_screen(page, site_url, context,
                                                                  console_errors):
    page.set_viewport_size({"width": 1920, "height": 1080})
    context.add_cookies([{"name": "pref-large", "value": "1", "url": site_url}])
    start(page, site_url, "stress-se", 2)
    page.locator("#game .table").wait_for()
    box = rect(page, "#game .table")
    assert box["y"] + box["height"] <= 1080
    card = rect(page, "#o-row-0 .card")
    assert card["width"] >= 120, card
    assert console_errors == []


def test_a_rejected_move_shows_the_reason_and_a_watcher_sees_the_same_table(
        page, site_url, browser, console_errors, fast_clock):
    game_id = start(page, site_url, "james-bond", 2)
    page.locator("#o-pile-1").click()
    expect(page.locator(".seat--own .zone--hand button")).to_have_count(4)
    page.locator("#o-pile-2").click()  # already holding a pile
    expect(page.locator("#game-message")).to_contain_text("another pile is in hand")
    page.locator(".seat--own .zone--hand button").first.drag_to(page.locator(".zone--middle"))
    expect(page.locator(".seat--own .zone--hand button")).to_have_count(3)  # laid, takes next
    held = [json.loads(b.get_attribute("data-pick"))["card"]
            for b in page.locator(".seat--own .zone--hand button").all()]
    watching = browser.new_context()
    watcher = watching.new_page()
    watcher.goto(f"{site_url}/en/play/{game_id}/")
    expect(watcher.locator(".play__role")).to_have_text("you are watching")
    assert watcher.locator("#game [data-pick], #game [data-send]").count() == 0
    # A watcher sees what anyone at the table sees: not the cards in the player's hand.
    shown = watcher.locator("#game [data-card]").evaluate_all(
        "(cards) => cards.map((c) => c.dataset.card)")
    assert shown and not set(held) & set(shown)
    watching.close()  # a page left open would keep its socket while the database is torn down
    assert console_errors == []


def test_the_sandbox_takes_moves_made_on_the_table_by_click_and_by_drag(page, site_url,
                                                                      console_errors):
    page.goto(f"{site_url}/en/stress-se/examples/illegal-plays/try/?step=0")
    status = page.locator(".sandbox__status")
    page.locator("#o-row-0").click()
    page.locator("#c-centre-0").click()  # seven onto seven: the engine refuses
    expect(status.locator(".rejected")).to_contain_text("never goes on another of the same rank")
    assert "moves=&" in page.url or "moves=" not in page.url
    source = page.locator("#o-row-1")
    target = page.locator("#c-centre-1")
    source.drag_to(target)  # the card in place 2 onto pile 2: the engine decides
    expect(status).to_contain_text("from place 2 onto centre pile 2")
    assert Axe().run(page).violations_count == 0
    assert console_errors == []


def test_several_cards_per_grab_are_chosen_then_laid_and_taken_together(page, site_url,
                                                                         console_errors,
                                                                         settings):
    settings.PLAY_CLOCK_SPEED = 0.25  # the bot stays out of the middle while this runs
    levels = "&level-2=learner"
    page.goto(f"{site_url}/en/james-bond/play/?opt-several_per_grab=true&opt-grab_limit=2"
              f"{levels}&seed=3")
    page.locator(".play-setup__start").click()
    page.wait_for_url("**/play/*/")
    game_id = page.url.rstrip("/").split("/")[-1]
    page.keyboard.press("1")  # pick up pile 1
    hand = page.locator(".seat--own .zone--hand button")
    expect(hand).to_have_count(4)
    hand.nth(0).click()
    hand.nth(1).click()
    expect(page.locator(".seat--own .zone--hand button.is-picked")).to_have_count(2)
    page.keyboard.press("l")  # lay the chosen cards
    expect(hand).to_have_count(2)
    middle = page.locator(".zone--middle button")
    laid = LogEntry.objects.get(game_id=game_id, kind="human", action__type="lay").action
    others = [b for b in middle.all()
              if json.loads(b.get_attribute("data-pick"))["card"] not in laid["cards"]]
    others[0].click()
    others[1].click()  # the second choice sends the take by itself
    expect(hand).to_have_count(4)
    human = [e.action for e in LogEntry.objects.filter(game_id=game_id, kind="human")
             if not e.reason]
    assert [a["type"] for a in human] == ["pick", "lay", "take"]
    assert len(human[1]["cards"]) == 2 and len(human[2]["cards"]) == 2
    assert console_errors == []


def without_socket(page) -> None:
    """The page's game socket cannot open (a proxy that refuses WebSockets): it asks over
    HTTP instead (tests/browser/test_live_browser.py tests the socket)."""
    page.route_web_socket(re.compile(r".*/ws/.*"), lambda ws: ws.close())


def test_a_lost_board_request_does_not_stop_the_table(page, site_url, fast_clock):
    without_socket(page)
    start(page, site_url, "stress-se", 2)
    lost, asked = [], []

    def lose_the_first(route):
        if lost:
            asked.append(route.request.url)
            route.continue_()
        else:
            lost.append(route.request.url)
            route.abort()

    page.route("**/play/*/?since=*", lose_the_first)
    page.wait_for_timeout(4000)
    # The page keeps asking (at the next bot move, or every second while nothing is due).
    assert lost and len(asked) >= 2


@pytest.mark.parametrize("lang", ["fi", "en"])
def test_a_finished_game_steps_through_with_narration(page, site_url, console_errors, lang):
    from play import service

    from tests.site.play_support import play_to_the_end, wall

    row = service.start_game("spit", ["human", "expert"], seed=8, wall=wall(0), speed=1.0)
    row = play_to_the_end(row)
    page.goto(f"{site_url}/{lang}/play/{row.pk}/replay/")
    viewer = page.locator("[data-example-viewer]")
    viewer.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_url("**/replay/?step=1")
    narration = viewer.locator(".narration").inner_text()
    assert narration and ("Pelaaja" in narration if lang == "fi" else "Player" in narration)
    page.keyboard.press("End")
    expect(viewer.locator(".narration")).not_to_be_empty()
    assert Axe().run(page).violations_count == 0
    assert console_errors == []


def test_the_focus_stays_on_its_pile_while_the_bots_move(page, site_url, fast_clock):
    start(page, site_url, "james-bond", 2)
    page.locator("#o-pile-3").focus()
    state = page.locator("#game .game__state")
    before = state.get_attribute("data-version")
    page.wait_for_function(
        "(v) => document.querySelector('#game .game__state').dataset.version !== v",
        arg=before, timeout=20_000)
    assert page.evaluate("document.activeElement.id") == "o-pile-3"


def test_a_paused_board_stays_in_place_while_the_page_keeps_asking(page, site_url,
                                                                   console_errors):
    """A poll that brings nothing new leaves the board (no layout work each second on a
    phone); the page still asks again, and a change is shown at once."""
    without_socket(page)
    start(page, site_url, "stress-se", 2)
    page.locator("#clock-pause").click()
    expect(page.locator(".game__paused")).to_be_visible()
    with page.expect_response(lambda r: "?since=" in r.url):
        pass  # the first board request after the pause, whatever it brought
    page.evaluate("document.querySelector('#game > .game__state').dataset.marked = 'yes'")
    asked = []
    page.on("requestfinished", lambda r: asked.append(r.url) if "?since=" in r.url else None)
    page.wait_for_timeout(3500)
    assert len(asked) >= 2  # paused: asked again about every second
    assert page.locator("#game > .game__state[data-marked='yes']").count() == 1
    page.locator("#clock-resume").click()
    expect(page.locator(".game__paused")).to_have_count(0)
    assert console_errors == []


def test_a_refusal_appears_beside_the_hint_and_never_hides_it(page, site_url, console_errors,
                                                             fast_clock):
    # #26: a refusal note used to replace the hint saying what to do next (at a Spit deal's
    # end the player then missed the choice of pile), both as served and as kept in view by
    # the page while bots' moves replace the board.
    start(page, site_url, "james-bond", 2)
    page.locator("#o-pile-1").click()
    expect(page.locator(".game__hint")).to_contain_text("Lay a card")
    page.locator("#o-pile-2").click()  # already holding a pile
    expect(page.locator("#game-message")).to_contain_text("another pile is in hand")
    expect(page.locator(".game__hint")).to_be_visible()
    seq = page.locator(".game__state").last.get_attribute("data-seq")
    # The next board (a bot's move) comes without the refusal: the page keeps it, and the hint.
    page.wait_for_function("""(seq) => [...document.querySelectorAll('.game__state')]
        .some((s) => s.dataset.seq !== seq)""", arg=seq, timeout=3500)
    expect(page.locator("#game-message")).to_contain_text("another pile is in hand")
    expect(page.locator(".game__hint")).to_contain_text("Lay a card")
    assert console_errors == []


def test_a_touch_screen_shows_the_taps_and_a_desktop_keeps_the_key_labels(browser, site_url,
                                                                           page):
    # #26: phones showed key labels and "Keys" folded below the table, never how to tap.
    phone = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    touch = phone.new_page()
    start(touch, site_url, "spit", 2)
    taps = touch.locator(".game__taps")
    expect(taps).to_be_visible()
    expect(taps).to_contain_text("Tap a card, then a pile")
    assert rect(touch, ".game__taps")["y"] + rect(touch, ".game__taps")["height"] <= PHONE["height"]
    shown_keys = touch.evaluate("""[...document.querySelectorAll('#game kbd')]
        .filter((k) => k.getClientRects().length).length""")
    assert shown_keys == 0
    # Nor does a hint name a key there (the hint's words come from the server).
    start(touch, site_url, "james-bond", 2)
    hint = touch.locator(".game__state").last.locator(".game__hint")
    expect(hint).to_have_text("Pick up one of your piles (tap it).", use_inner_text=True)
    phone.close()
    start(page, site_url, "spit", 2)
    expect(page.locator(".game__state").last.locator(".game__taps")).to_be_hidden()
    assert page.evaluate("""[...document.querySelectorAll('#game kbd')]
        .filter((k) => k.getClientRects().length).length""") > 0
    start(page, site_url, "james-bond", 2)
    expect(page.locator(".game__state").last.locator(".game__hint")).to_have_text(
        "Pick up one of your piles (tap it or press its number).", use_inner_text=True)
