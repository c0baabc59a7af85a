"""Tables of friends (#22) in Chromium: each person a browser context of their own (their own
signed session), the lobby pushed over the table's socket, the game started for everyone at
once, played to the end and rematched; four people at James Bond; two hands on one pile
decided by arrival; the saved sheet's QR code opening a table with its rules; a full table
watched; axe on the lobby and the game."""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.utils import translation
from django.utils.translation import gettext
from play import service
from play.models import Game, LogEntry
from playwright.sync_api import expect
from tables.models import Round, Table

from rules_engine import new_game
from tests.play_human import sensible_action

from .play_helpers import press

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
ZBARIMG = shutil.which("zbarimg")


def person(browser, lang: str = "en"):
    """A person's own browser: its own cookies, its language in Accept-Language."""
    context = browser.new_context(locale=lang, extra_http_headers={"Accept-Language": lang})
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.errors = errors  # type: ignore[attr-defined]
    return page


def open_table(
    page, site_url: str, variant: str, name: str, players: int = 2, query: str = ""
) -> Table:
    page.goto(f"{site_url}/en/{variant}/play/friends/{query}")
    page.fill("#name", name)
    if page.locator("#players").count():
        page.select_option("#players", str(players))
    for seat in range(2, players + 1):
        page.select_option(f"#seat-{seat}", "friend")
    page.locator("button[type=submit].play-setup__start").click()
    page.wait_for_url(re.compile(r"/en/table/[A-Za-z0-9_-]+/$"))
    expect(page.locator("#lobby[hx-ext]")).to_have_count(1)
    return Table.objects.get(pk=page.url.rstrip("/").rsplit("/", 1)[1])


def sit(page, invite: str, name: str, button: str) -> None:
    page.goto(invite)
    page.fill("#join-name", name)
    page.get_by_role("button", name=button).click()


def shows_version(page, version: int, timeout: float = 8000) -> None:
    page.wait_for_function(
        "(v) => Number(document.querySelector('#game > .game__state')?.dataset.version) >= v",
        arg=version,
        timeout=timeout,
    )


def play_round(
    pages: list,
    game_id: str,
    rng: random.Random,
    *,
    until_over: bool,
    moves_each: int = 0,
    limit: int = 900,
) -> dict[int, int]:
    """People press sensible moves on their own boards; every page sees every stored change
    pushed. Returns the moves made per seat."""
    made = {seat: 0 for seat in range(len(pages))}
    for step in range(limit):
        stored = Game.objects.get(pk=game_id)
        if stored.over or (not until_over and min(made.values()) >= moves_each):
            break
        game = service.driver_of(stored).game
        seat = step % len(pages)
        action = sensible_action(game, seat, rng)
        if action is None or not press(pages[seat], action, keyboard=False):
            continue
        try:
            for page in pages:
                shows_version(page, stored.version + 1, timeout=3000)
        except Exception:  # refused (a race lost, too slow): the board stays as it was
            continue
        made[seat] += 1
    return made


def test_two_friends_play_swedish_stress_to_the_end_and_rematch(browser, site_url, settings):
    settings.PLAY_IDLE_PAUSE_MS = 3_600_000
    host, friend = person(browser, "en"), person(browser, "sv")
    table = open_table(host, site_url, "stress-se", "Mormor")
    invite = host.locator(".lobby__link").inner_text()
    assert invite == f"{site_url}/t/{table.pk}/"
    assert Axe().run(host).violations_count == 0
    # The link names no language: the Swedish browser reads the table in Swedish.
    sit(friend, invite, "Elsa <3", "Ta en plats")
    expect(friend).to_have_url(re.compile(rf"/sv/table/{table.pk}/$"))
    expect(friend.locator("html")).to_have_attribute("lang", "sv")
    # The host's page hears of Elsa with no request of its own.
    expect(host.locator(".lobby__seats")).to_contain_text("Elsa <3")
    host.get_by_role("button", name="I am ready").click()
    expect(friend.locator(".lobby__seats")).to_contain_text("redo")
    friend.get_by_role("button", name="Jag är redo").click()
    # Both go to the game at once, each holding their own seat.
    host.wait_for_url(re.compile(r"/en/play/[A-Za-z0-9_-]+/$"))
    friend.wait_for_url(re.compile(r"/sv/play/[A-Za-z0-9_-]+/$"))
    first = Round.objects.get(table=table).game
    expect(host.locator(".play__role")).to_have_text("you are playing")
    expect(friend.locator(".play__role")).to_have_text("du spelar")
    expect(host.locator("#game")).to_contain_text("Elsa <3")  # the seats carry the names
    report = Axe().run(friend)
    assert report.violations_count == 0, report.generate_report()
    play_round([host, friend], first.pk, random.Random(3), until_over=True)
    first.refresh_from_db()
    assert first.over
    # The end for everyone, then back at the table: the result with the names, the score.
    for page in (host, friend):
        expect(page.locator(".summary")).to_have_count(1, timeout=10_000)
    host.locator(".summary a.button").first.click()
    host.wait_for_url(re.compile(rf"/en/table/{table.pk}/$"))
    expect(host.locator(".summary")).to_contain_text("Mormor")
    expect(host.locator(".lobby__wins").first).to_contain_text("win")
    expect(host.get_by_role("link", name="Watch this game step by step")).to_have_count(1)
    friend.goto(f"{site_url}/sv/table/{table.pk}/")
    # The rematch: same seats, a new deal.
    host.get_by_role("button", name="Rematch: I am ready").click()
    friend.get_by_role("button", name="Revansch: jag är redo").click()
    friend.wait_for_url(re.compile(r"/sv/play/[A-Za-z0-9_-]+/$"))
    host.wait_for_url(re.compile(rf"/en/play/(?!{re.escape(first.pk)})[A-Za-z0-9_-]+/$"))
    second = Round.objects.get(table=table, number=2).game
    assert second.seats == first.seats and second.pk != first.pk
    assert host.errors == [] and friend.errors == []  # type: ignore[attr-defined]
    for page in (host, friend):
        page.context.close()


def test_four_friends_play_james_bond_and_see_each_others_moves(browser, site_url, settings):
    settings.PLAY_IDLE_PAUSE_MS = 3_600_000
    langs = ["en", "nb", "de", "fi"]
    pages = [person(browser, lang) for lang in langs]
    table = open_table(pages[0], site_url, "james-bond", "Bestemor", players=4)
    invite = f"{site_url}/t/{table.pk}/"
    for page, name, button in zip(
        pages[1:],
        ["Max", "Aino", "Sam"],
        ["Ta en plass", "Platz nehmen", "Ota paikka"],
        strict=True,
    ):
        sit(page, invite, name, button)
    expect(pages[0].locator(".lobby__seats")).to_contain_text("Sam")
    for page, button in zip(
        pages, ["I am ready", "Jeg er klar", "Ich bin bereit", "Olen valmis"], strict=True
    ):
        page.get_by_role("button", name=button).click()
    # each reads the game in their own language
    for page, lang in zip(pages, langs, strict=True):
        page.wait_for_url(re.compile(rf"/{lang}/play/[A-Za-z0-9_-]+/$"))
    game = Round.objects.get(table=table).game
    assert game.seats == ["human"] * 4
    made = play_round(pages, game.pk, random.Random(5), until_over=False, moves_each=2, limit=200)
    assert min(made.values()) >= 2, made
    for page in pages:
        page.context.close()


def test_a_full_tables_link_watches_read_only(browser, site_url, settings):
    host, friend, watcher = person(browser), person(browser), person(browser, "de")
    table = open_table(host, site_url, "spit", "Ada")
    sit(friend, f"{site_url}/t/{table.pk}/", "Bo", "Take a seat")
    watcher.goto(f"{site_url}/t/{table.pk}/")
    expect(watcher.locator("#lobby")).to_contain_text("Alle Plätze sind besetzt")
    expect(watcher.locator("#join-name")).to_have_count(0)
    host.get_by_role("button", name="I am ready").click()
    friend.get_by_role("button", name="I am ready").click()
    friend.wait_for_url(re.compile(r"/en/play/"))
    # The watcher's lobby now offers the game, to watch.
    watcher.get_by_role("link", name="Der Partie zuschauen").click()
    expect(watcher.locator(".play__role")).to_have_text("du schaust zu")
    expect(watcher.locator("#game[data-holds]")).to_have_count(0)
    for page in (host, friend, watcher):
        page.context.close()


def test_the_saved_sheets_qr_code_opens_a_table_with_its_rules(browser, site_url, tmp_path):
    if ZBARIMG is None:
        message = "zbarimg (Debian's zbar-tools) is missing"
        if os.environ.get("REQUIRE_BROWSER"):
            pytest.fail(message)
        pytest.skip(message)
    context = browser.new_context(device_scale_factor=3)
    page = context.new_page()
    page.goto(f"{site_url}/en/james-bond/house-rules/")
    page.get_by_label("Atlantis").check()
    page.get_by_label("Best of five", exact=True).check()
    expect(page.locator("#preview .sheet")).to_contain_text("At this table the call is “Atlantis!”")
    page.get_by_role("button", name="Save and get the short link").click()
    page.wait_for_url(re.compile(r"/h/[a-z0-9]{10}/$"))
    code = page.url.rstrip("/").rsplit("/", 1)[1]
    shot = tmp_path / "qr.png"
    page.locator("[data-friends-qr]").screenshot(path=str(shot))
    decoded = subprocess.run(
        [ZBARIMG, "--raw", "-q", str(shot)], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert decoded == f"{site_url}/h/{code}/friends/"
    phone = person(browser, "fi")
    phone.goto(decoded)
    phone.wait_for_url(re.compile(r"/fi/james-bond/play/friends/\?"))
    expect(phone.locator("#opt-call_word")).to_have_value("atlantis")
    expect(phone.locator("#opt-best_of_five")).to_have_value("true")
    phone.fill("#name", "Aino")
    phone.locator("button[type=submit].play-setup__start").click()
    phone.wait_for_url(re.compile(r"/fi/table/[A-Za-z0-9_-]+/$"))
    table = Table.objects.get()
    assert table.sheet == code
    assert table.options["call_word"] == "atlantis" and table.options["best_of_five"] is True
    expect(phone.locator(".lobby__rules")).to_contain_text("Atlantis")
    context.close()
    phone.context.close()


def test_the_lobby_in_every_language_is_clean_for_axe(browser, site_url):
    host = person(browser)
    table = open_table(host, site_url, "stressi-fi", "Aino")
    for lang in ["sv", "nb", "de", "fi", "en"]:
        page = person(browser, lang)
        page.goto(f"{site_url}/t/{table.pk}/")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator("#join-name")).to_have_count(1)
        assert Axe().run(page).violations_count == 0, lang
        page.context.close()
    host.context.close()


def race_seed() -> tuple[int, dict, dict]:
    """A Swedish Stress deal where each seat can play a card onto the same centre pile at the
    start: (seed, seat 0's play, seat 1's play)."""
    for seed in range(400):
        game = new_game("stress-se", players=2, seed=seed)
        plays = {
            seat: [
                dict(a.args)
                for a in game.legal_actions(seat)
                if a.type == "play" and not a.args.get("whole")
            ]
            for seat in (0, 1)
        }
        for mine in plays[0]:
            theirs = next((p for p in plays[1] if p["to"] == mine["to"]), None)
            if theirs is not None:
                return seed, mine, theirs
    raise AssertionError("no such deal")


#: the cards each centre pile shows, by pile (data-card: the same in every language)
CENTRE_TOPS = """() => Object.fromEntries([...document.querySelectorAll('#game [id^="c-"]')]
    .map((pile) => [pile.id, [...pile.querySelectorAll("[data-card]")]
        .map((c) => c.dataset.card)]))"""


def test_two_hands_on_one_pile_the_server_takes_the_first_to_arrive(
    browser, site_url, settings, monkeypatch
):
    """#22: two people at a friends' table play onto one centre pile at the same moment; the
    move that reaches the server first lands, the other is refused in its player's language
    as a race lost (another card landed first), and both boards end the same."""
    settings.PLAY_IDLE_PAUSE_MS = 3_600_000
    seed, *plays = race_seed()
    monkeypatch.setattr(service, "new_seed", lambda: seed)
    host, friend = person(browser, "en"), person(browser, "sv")
    table = open_table(host, site_url, "stress-se", "Ada")
    sit(friend, f"{site_url}/t/{table.pk}/", "Bo", "Ta en plats")
    expect(host.locator(".lobby__seats")).to_contain_text("Bo")
    host.get_by_role("button", name="I am ready").click()
    expect(friend.locator(".lobby__seats")).to_contain_text("redo")
    friend.get_by_role("button", name="Jag är redo").click()
    host.wait_for_url(re.compile(r"/en/play/"))
    friend.wait_for_url(re.compile(r"/sv/play/"))
    game = Round.objects.get(table=table).game
    assert game.seed == seed
    pages = [host, friend]
    for page, play in zip(pages, plays, strict=True):
        expect(page.locator("#game[data-live]")).to_have_count(1)
        page.locator(f"#o-{play['from']}").click()  # each picks their card ...
        expect(page.locator(f"#o-{play['from']}")).to_have_attribute("aria-pressed", "true")
    pile = plays[0]["to"]
    # ... and both drop it on the pile at the same instant (one clock: the same browser).
    at = host.evaluate("() => Date.now() + 400")
    for page in pages:
        page.evaluate(
            "([id, at]) => setTimeout(() => document.getElementById(id).click(), at - Date.now())",
            [f"c-{pile}", at],
        )
    lines: list = []
    for _ in range(100):
        lines = list(
            LogEntry.objects.filter(game=game, kind="human")
            .order_by("seq")
            .values_list("action", "reason")
        )
        if len(lines) >= 2:
            break
        host.wait_for_timeout(100)
    # Both moves reached the server; the one that arrived first was played, the second found
    # the pile covered.
    assert [(a["player"], a["type"], a["to"]) for a, _r in lines] in (
        [(0, "play", pile), (1, "play", pile)],
        [(1, "play", pile), (0, "play", pile)],
    ), lines
    assert [reason for _a, reason in lines] == ["", "too-slow"], lines
    winner, loser = lines[0][0]["player"], lines[1][0]["player"]
    with translation.override(["en", "sv"][loser]):
        refusal = gettext("another card got there first")
    expect(pages[loser].locator("#game-message")).to_contain_text(refusal)
    expect(pages[winner].locator("#game-message")).to_have_count(0)
    game.refresh_from_db()
    # The loser's page is told its refusal (the last change); the winner's shows its own
    # move's board: a refusal that shows nothing new reaches no other screen.
    shows_version(pages[loser], game.version)
    shows_version(pages[winner], game.version - 1)
    tops = [page.evaluate(CENTRE_TOPS) for page in pages]
    assert tops[0] == tops[1]
    assert tops[0][f"c-{pile}"][-1] == plays[winner]["card"]
    assert host.errors == [] and friend.errors == []  # type: ignore[attr-defined]
    for page in pages:
        page.context.close()
