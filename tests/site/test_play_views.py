"""The demo's pages: the new-game form, starting a game, the board fragment, moves, and
every kind of bad input (a translated message or a 4xx, the game unchanged, never a 500)."""

import html
import json
import re
import tomllib

import pytest
from django.conf import settings
from django.contrib.admin.utils import quote
from django.utils import translation
from play.models import Game, LogEntry
from play.service import driver_of

from core.glossary import card_name
from rules.rulebook import load_rulebook
from rules_engine.registry import VARIANTS

pytestmark = pytest.mark.django_db
LANGS = ["sv", "nb", "de", "fi", "en"]


def start(client, variant="stress-se", lang="en", **fields) -> Game:
    data = {"players": "2", "level-2": "expert", "seed": "7", **fields}
    response = client.post(f"/{lang}/{variant}/play/", data)
    assert response.status_code == 303, response.content[:500]
    game_id = response["Location"].rstrip("/").split("/")[-1]
    assert response["Location"] == f"/{lang}/play/{game_id}/"
    return Game.objects.get(pk=game_id)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_variant_has_a_new_game_form_in_every_language(client, variant, lang):
    response = client.get(f"/{lang}/{variant}/play/")
    assert response.status_code == 200
    text = response.text
    for spec in VARIANTS[variant].options:
        assert f'name="opt-{spec.key}"' in text
    assert 'name="level-2"' in text and 'name="seed"' in text


def test_a_house_rules_link_fills_in_the_form(client):
    text = client.get("/en/stress-se/play/?opt-stacking=false&opt-slap_penalty="
                      "slowest-takes-both").text
    assert option_choices(text, "stacking") == [("true", "Stack equal ranks", False),
                                                ("false", "No stacking", True)]
    assert '<option value="slowest-takes-both" selected>' in text


def option_choices(page: str, key: str) -> list[tuple[str, str, bool]]:
    select = re.search(rf'<select id="opt-{key}" name="opt-{key}"[^>]*>(.*?)</select>',
                       page, re.S)
    assert select, f"no select for {key}"
    return [(value, html.unescape(label), bool(selected)) for value, selected, label
            in re.findall(r'<option value="([^"]*)"( selected)?>([^<]*)</option>',
                          select.group(1))]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_form_names_options_and_values_as_the_house_rules_sheet_does(client, variant,
                                                                          lang):
    # The form once had labels of its own ("The first to call picks a pile; ...") where
    # the rules text and the printed sheet said "First chooses".
    sheet = tomllib.loads((settings.CONTENT_DIR / variant / "house-rules" / f"{lang}.toml")
                          .read_text(encoding="utf-8"))["options"]
    page = client.get(f"/{lang}/{variant}/play/").text
    rules_url = f"/{lang}/{variant}/"
    anchors = load_rulebook(variant, lang).all_anchors()
    for spec in VARIANTS[variant].options:
        words = sheet[spec.key]
        assert html.unescape(re.search(rf'<label for="opt-{spec.key}">([^<]*)</label>',
                                       page).group(1)) == words["name"]
        shown = option_choices(page, spec.key)
        assert {value: label for value, label, _ in shown} == {
            value: entry["label"] for value, entry in words["values"].items()}
        default = "true" if spec.default is True else (
            "false" if spec.default is False else str(spec.default))
        assert [value for value, _, selected in shown if selected] == [default]
        assert f'href="{rules_url}#opt-{spec.key}"' in page and f"opt-{spec.key}" in anchors


def test_a_bad_option_in_a_link_is_named_and_the_form_still_works(client):
    response = client.get("/de/stress-se/play/?opt-stacking=perhaps&opt-nonsense=1")
    assert response.status_code == 200
    text = response.text
    # The refused value gets its translated message at its own field, tied to the control.
    error = re.search(r'<p class="field-error" id="opt-stacking-error">([^<]*)</p>', text)
    assert error and error.group(1) == "Wähl einen der hier genannten Werte."
    assert re.search(r'<select id="opt-stacking"[^>]*aria-invalid="true" '
                     r'aria-describedby="opt-stacking-error"', text)
    # The unknown option is named in a message of its own.
    assert "„nonsense“" in re.search(r'<p class="error" role="alert">([^<]*)</p>', text).group(1)
    assert '<button class="button play-setup__start" type="submit">' in text


def test_james_bond_offers_two_to_eight_players_and_says_which_need_the_second_deck(client):
    text = client.get("/en/james-bond/play/").text
    assert [f'<option value="{n}"' in text for n in range(2, 9)] == [True] * 7
    response = client.post("/en/james-bond/play/", {"players": "6"})
    assert response.status_code == 400
    assert "5–8" not in response.text and "2–4" in response.text
    game = start(client, "james-bond", players="6", **{"opt-second_deck": "true",
                                                        "level-3": "club", "level-4": "learner"})
    assert game.players == 6 and game.seats[:4] == ["human", "expert", "club", "learner"]


def test_starting_a_game_stores_it_and_the_browser_holds_the_seat(client):
    game = start(client, "spit", seed="42", **{"opt-repeat_choice": "true"})
    assert (game.variant, game.seed, game.options, game.seats) == (
        "spit", 42, {"repeat_choice": True}, ["human", "expert"])
    page = client.get(f"/en/play/{game.pk}/")
    assert page.status_code == 200
    assert "data-holds" in page.text and "data-pick" in page.text
    other = client.__class__()
    watched = other.get(f"/en/play/{game.pk}/")
    assert watched.status_code == 200
    assert "data-holds" not in watched.text and "data-pick" not in watched.text



def heading(page: str) -> str:
    """The page's h1 as a screen reader reads it and a copy pastes it: the text alone."""
    h1 = re.search(r"<h1[^>]*>(.*?)</h1>", page, re.S).group(1)
    return re.sub(r"<[^>]+>", "", h1)


@pytest.mark.parametrize(("lang", "playing", "watching"), [
    ("sv", "Stress – du spelar", "Stress – du tittar"),
    ("de", "Schwedisches Stress – du spielst", "Schwedisches Stress – du schaust zu"),
    ("en", "Swedish Stress – you are playing", "Swedish Stress – you are watching"),
])
def test_the_heading_keeps_the_game_and_the_role_apart(client, lang, playing, watching):
    game = start(client, lang=lang)
    assert heading(client.get(f"/{lang}/play/{game.pk}/").text) == playing
    assert heading(client.__class__().get(f"/{lang}/play/{game.pk}/").text) == watching


@pytest.mark.parametrize(("variant", "lang", "label"), [
    ("stressi-fi", "de", "„Stressi!“ rufen"),
    ("stressi-fi", "fi", "Huuda ”Stressi!”"),
    ("stressi-fi", "sv", "Ropa ”Stressi!”"),
    ("stress-se", "fi", "Huuda ”Stress!”"),
    ("stress-de", "de", "„Stress!“ rufen"),
])
def test_the_call_button_says_the_variants_own_word(client, variant, lang, label):
    game = start(client, variant, lang=lang)
    page = client.get(f"/{lang}/play/{game.pk}/").text
    button = re.search(r'<button[^>]* id="cmd-call"[^>]*>(.*?) <kbd>', page).group(1)
    assert button == label


@pytest.mark.parametrize(("variant", "word"), [("stress-de", "Handstapel"),
                                               ("stress-se", "Nachziehstapel")])
def test_the_table_names_the_draw_pile_with_the_variants_own_word(client, variant, word):
    """German Stress holds its draw pile in the hand: the source's "Handstapel", on the
    table's captions and in the names screen readers say, for both seats."""
    game = start(client, variant, lang="de")
    page = client.get(f"/de/play/{game.pk}/").text
    captions = re.findall(r'<span class="zone__label" aria-hidden="true">([^<]*)<', page)
    names = re.findall(r'aria-label="([^"]*): verdeckt, \d+ Karten"', page)
    assert captions.count(word) == 2 and names == [word, word]
    other = "Nachziehstapel" if word == "Handstapel" else "Handstapel"
    assert other not in page

def test_the_fragment_says_when_to_ask_again(client):
    game = start(client)
    response = client.get(f"/en/play/{game.pk}/?since=0", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "<html" not in response.text and "HX-Request" in response["Vary"]
    delay = int(re.search(r'hx-trigger="load delay:(\d+)ms"', response.text).group(1))
    assert 0 <= delay <= 1000
    assert response["X-Game-Version"] == str(Game.objects.get(pk=game.pk).version)


def legal_action(game: Game) -> dict:
    """A move the engine would take now, or a call (for refusals the move never matters)."""
    legal = driver_of(game).game.legal_actions(0)
    if not legal:
        return {"type": "call"}
    action = legal[0].to_json()
    action.pop("t")
    action.pop("player")
    return action


def move(client, game, action, version=None, **extra):
    data = {"action": json.dumps(action), "version": str(game.version if version is None
                                                         else version), **extra}
    return client.post(f"/en/play/{game.pk}/move/", data, HTTP_HX_REQUEST="true")


def test_a_move_is_judged_by_the_engine_and_a_rejection_says_why(client):
    game = start(client, "james-bond")
    response = move(client, game, {"type": "pick", "pile": "pile-3"})
    assert response.status_code == 200 and "game__message" not in response.text
    human = LogEntry.objects.get(game=game, kind="human")
    assert human.accepted and human.action["pile"] == "pile-3"
    game.refresh_from_db()
    response = move(client, game, {"type": "pick", "pile": "pile-2"})
    assert response.status_code == 200
    assert ("That did not count: another pile is in hand and has to go back first."
            in response.text)


def unchanged(game: Game) -> bool:
    stored = Game.objects.get(pk=game.pk)
    return (stored.version, stored.snapshot, stored.log_length) == (
        game.version, game.snapshot, game.log_length)


def test_a_move_from_an_older_view_is_refused_and_changes_nothing(client):
    game = start(client, "james-bond")
    action = {"type": "pick", "pile": "pile-1"}
    assert move(client, game, action).status_code == 200
    game.refresh_from_db()
    response = move(client, game, {"type": "pick", "pile": "pile-2"}, version=0)
    assert response.status_code == 409
    assert "older view of the table" in response.text
    assert unchanged(game)
    # The same move again is that move, answered as played (#25, test_move_retry.py).
    again = move(client, game, action, version=0)
    assert again.status_code == 200 and "older view" not in again.text


def test_a_move_from_a_future_version_is_refused(client):
    game = start(client)
    response = move(client, game, legal_action(game), version=game.version + 5)
    assert response.status_code == 400 and unchanged(game)


def test_a_watcher_cannot_move(client):
    game = start(client)
    watcher = client.__class__()
    response = move(watcher, game, legal_action(game))
    assert response.status_code == 403 and "watching this game" in response.text
    assert unchanged(game)


def test_a_refusal_is_translated(client):
    game = start(client, lang="fi")
    watcher = client.__class__()
    data = {"action": json.dumps(legal_action(game)), "version": "0"}
    response = watcher.post(f"/fi/play/{game.pk}/move/", data, HTTP_HX_REQUEST="true")
    assert response.status_code == 403 and "watching this game" not in response.text
    assert 'lang="fi"' in watcher.get(f"/fi/play/{game.pk}/").text


GARBAGE = [
    {},
    {"action": "", "version": "0"},
    {"action": "not json", "version": "0"},
    {"action": "[1, 2]", "version": "0"},
    {"action": '{"type": 5}', "version": "0"},
    {"action": '{"type": "play", "card": {"a": 1}}', "version": "0"},
    {"action": '{"type": "play"}', "version": "-1"},
    {"action": '{"type": "play"}', "version": "1e9"},
    {"action": '{"type": "play"}', "version": "٣"},
    {"action": '{"type": "play", "x": "' + "y" * 5000 + '"}', "version": "0"},
    {"action": '{"type": "play"}'},
]


@pytest.mark.parametrize("data", GARBAGE)
def test_garbage_move_bodies_get_a_400_and_change_nothing(client, data):
    game = start(client)
    response = client.post(f"/en/play/{game.pk}/move/", data, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert "could not be read" in response.text
    assert unchanged(game)


@pytest.mark.parametrize("action", [
    # A well-formed action the engine refuses (an unknown card or a list for a place is
    # refused before it, as unreadable: tests/site/test_action_shape.py).
    {"type": "fly"}, {"type": "play", "from": "row-9", "to": "centre-7", "card": "2C"},
    {"type": "call", "pile": "centre-0", "t": -5, "player": 1},
])
def test_engine_nonsense_is_rejected_with_a_reason(client, action):
    game = start(client)
    response = move(client, game, action)
    assert response.status_code == 200 and "That did not count:" in response.text
    stored = Game.objects.get(pk=game.pk)
    assert stored.snapshot["game"]["state"] == game.snapshot["game"]["state"] or \
        stored.log_length > game.log_length  # bots may have moved on meanwhile
    humans = LogEntry.objects.filter(game=game, kind="human")
    assert all(h.reason for h in humans) and all(h.action["player"] == 0 for h in humans)


def test_unknown_games_and_wrong_methods(client):
    game = start(client)
    assert client.get("/en/play/AAAAAAAAAAAAAAAAAAAAAA/").status_code == 404
    assert client.get("/en/play/../../etc/").status_code == 404
    assert client.get("/en/play/x/").status_code == 404
    unknown = client.post("/en/play/AAAAAAAAAAAAAAAAAAAAAA/move/", {"action": "{}",
                                                                   "version": "0"})
    assert unknown.status_code == 404
    assert client.get(f"/en/play/{game.pk}/move/").status_code == 405
    assert client.post(f"/en/play/{game.pk}/").status_code == 405
    assert client.get(f"/en/play/{game.pk}/clock/").status_code == 405
    assert client.put("/en/stress-se/play/").status_code == 405
    assert client.post(f"/en/play/{game.pk}/clock/", {"command": "explode",
                                                       "version": "0"}).status_code == 400
    assert unchanged(game)


def test_a_bad_new_game_form_is_answered_with_messages(client):
    response = client.post("/en/stress-se/play/", {"players": "9", "level-2": "god",
                                                   "seed": "-4", "opt-gentle": "sometimes"})
    assert response.status_code == 400
    text = response.text
    assert "Choose a level from the list." in text and "A deal number is a whole number" in text
    assert "Choose one of the values listed here." in text
    assert Game.objects.count() == 0


def test_the_clock_can_be_paused_and_resumed_by_the_player(client):
    game = start(client)
    response = client.post(f"/en/play/{game.pk}/clock/", {"command": "pause",
                                                           "version": str(game.version)},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "The game is paused." in response.text
    game.refresh_from_db()
    assert game.paused
    response = move(client, game, legal_action(game))
    assert response.status_code == 409 and "paused" in response.text


def test_the_players_clock_steps_while_paused_and_takes_only_the_offered_paces(client, settings):
    # A slow site clock: no bot is due before the pause however long the requests take, so
    # the step has a bot action to apply.
    settings.PLAY_CLOCK_SPEED = 0.04
    game = start(client)
    running = client.post(f"/en/play/{game.pk}/clock/", {"command": "step",
                                                         "version": str(game.version)})
    assert running.status_code == 409 and "Pause the game first" in running.text
    for value in ("3", "0", "-1", "fast", ""):
        refused = client.post(f"/en/play/{game.pk}/clock/", {"command": "speed", "value": value,
                                                             "version": str(game.version)})
        assert refused.status_code == 400
    game.refresh_from_db()
    assert game.speed == pytest.approx(0.04)
    slower = client.post(f"/en/play/{game.pk}/clock/", {"command": "speed", "value": "0.25",
                                                        "version": str(game.version)})
    assert slower.status_code == 200
    game.refresh_from_db()
    assert game.speed == pytest.approx(0.01)  # a quarter of the site's clock speed
    client.post(f"/en/play/{game.pk}/clock/", {"command": "pause", "version": str(game.version)})
    game.refresh_from_db()
    before = game.log_length
    stepped = client.post(f"/en/play/{game.pk}/clock/", {"command": "step",
                                                         "version": str(game.version)})
    assert stepped.status_code == 200
    game.refresh_from_db()
    assert game.paused and game.log_length == before + 1


def test_a_browser_holding_two_seats_moves_for_the_seat_its_request_names(client, settings):
    from django.utils import timezone
    from play.service import start_game

    game = start_game("james-bond", ["human", "human"], seed=3, wall=timezone.now())
    session = client.session
    session["play"] = {game.pk: [0, 1]}
    session.save()
    client.cookies[settings.SESSION_COOKIE_NAME] = session.session_key
    pick = json.dumps({"type": "pick", "pile": "pile-1"})
    response = client.post(f"/en/play/{game.pk}/move/", {"action": pick, "version": "0",
                                                         "seat": "1"})
    assert response.status_code == 200
    entry = LogEntry.objects.get(game=game)
    assert entry.action["player"] == 1 and entry.accepted
    game.refresh_from_db()
    for seat in ("2", "x", "-1"):
        refused = client.post(f"/en/play/{game.pk}/move/", {"action": pick, "seat": seat,
                                                            "version": str(game.version)})
        assert refused.status_code == 403
    assert LogEntry.objects.filter(game=game).count() == 1


def test_the_home_page_links_to_the_demo_in_every_language(client):
    for lang in LANGS:
        text = client.get(f"/{lang}/").text
        for variant in VARIANTS:
            assert f'href="/{lang}/{variant}/play/"' in text


def test_a_finished_game_opens_in_the_step_through_viewer_with_generated_narration(client):
    from play import service

    from .play_support import play_to_the_end, wall

    row = service.start_game("stress-se", ["human", "expert"], seed=4, wall=wall(0),
                             speed=1.0)
    assert client.get(f"/en/play/{row.pk}/replay/").status_code == 302  # not over yet
    row = play_to_the_end(row)
    page = client.get(f"/en/play/{row.pk}/replay/")
    assert page.status_code == 200
    assert "as it was played" in page.text and "Try it from here" not in page.text
    last = int(re.search(r"Starting position \((\d+) steps\)", page.text).group(1))
    assert last > 5
    step = client.get(f"/en/play/{row.pk}/replay/?step=1", HTTP_HX_REQUEST="true")
    assert step.status_code == 200 and "<html" not in step.text
    narration = re.search(r'<p class="narration">(.*?)</p>', step.text).group(1)
    assert narration.startswith("Player ")
    end = client.get(f"/sv/play/{row.pk}/replay/?step={last}").text
    assert re.search(r'<p class="narration">[^<]*(vinner|vann)[^<]*</p>', end)


def test_the_admin_lists_games_and_shows_one_with_its_log(client, admin_client):
    game = start(client, "james-bond")
    move(client, game, {"type": "pick", "pile": "pile-1"})
    listing = admin_client.get("/admin/play/game/")
    assert listing.status_code == 200 and game.pk in listing.text
    page = admin_client.get(f"/admin/play/game/{quote(game.pk)}/change/")
    assert page.status_code == 200 and "pile-1" in page.text
    assert admin_client.get("/admin/play/game/add/").status_code == 403


def test_the_live_region_reads_out_what_happened_since_the_pages_last_view(client):
    game = start(client, "james-bond")
    response = move(client, game, {"type": "pick", "pile": "pile-3"}, since=str(game.log_length))
    lines = re.search(r"<div hidden data-announce>(.*?)</div>", response.text).group(1)
    assert "Player 1 picks up pile 3." in lines
    poll = client.get(f"/sv/play/{game.pk}/?since=0", HTTP_HX_REQUEST="true").text
    lines = re.search(r"<div hidden data-announce>(.*?)</div>", poll).group(1)
    assert "Spelare 1 tar upp hög 3." in lines
    quiet = client.get(f"/en/play/{game.pk}/?since=99999", HTTP_HX_REQUEST="true").text
    assert "<div hidden data-announce></div>" in quiet


@pytest.mark.parametrize("seed", ["9" * 5000, str(2**63), "٣", "1_0"])
def test_a_deal_number_out_of_range_is_refused_with_the_reason(client, seed):
    response = client.get("/en/stress-se/play/", {"seed": seed})
    assert response.status_code == 200
    assert "A deal number is a whole number" in response.text
    assert Game.objects.count() == 0


def test_the_live_region_says_the_centre_tops_as_a_sentence(client):
    # once "Centre: queen of hearts, two of clubs." after every move
    for seed in range(1, 40):
        game = start(client, "stress-se", seed=str(seed))
        plays = [a.to_json() for a in driver_of(game).game.legal_actions(0)
                 if a.to_json()["type"] == "play"]
        if plays:
            break
    else:
        raise AssertionError("no deal with a first play")
    action = {k: v for k, v in plays[0].items() if k not in ("t", "player", "onto")}
    response = move(client, game, action, since=str(game.log_length))
    lines = re.search(r"<div hidden data-announce>(.*?)</div>", response.text).group(1)
    board = driver_of(Game.objects.get(pk=game.pk)).game.board(None)
    with translation.override("en"):
        names = [card_name(pile["cards"][-1]["card"], "en") for pile in board["centre"]]
    assert f"The centre piles show the {names[0]} and the {names[1]}." in html.unescape(lines)


def test_the_live_region_says_once_that_both_piles_show_the_same_card():
    # German Stress plays two decks: "the four of spades and the four of spades" said twice
    from types import SimpleNamespace

    from play.page import _centre_line

    def pile(zone_id):
        top = SimpleNamespace(top={"card": "4S", "up": True})
        return SimpleNamespace(id=zone_id, kind="centre", fanned=False, items=[top])

    table = SimpleNamespace(variant="stress-de", centre=[pile("centre-0"), pile("centre-1")])
    with translation.override("en"):
        assert _centre_line(table) == "Both centre piles show the four of spades."


def test_an_answer_showing_the_same_game_carries_the_same_digest(client):
    """The page keeps its board for a poll whose digest it already shows (play.js): the
    digest must not change with the next poll's delay or a per-request token, and must
    change with what the board shows."""
    game = start(client, "james-bond")
    client.post(f"/en/play/{game.pk}/clock/", {"command": "pause", "version": str(game.version)},
                HTTP_HX_REQUEST="true")  # no bot may move between the requests below
    game.refresh_from_db()
    page = client.get(f"/en/play/{game.pk}/")
    shown = re.search(r'id="game"[^>]* data-digest="([0-9a-f]+)"', page.text).group(1)
    poll = client.get(f"/en/play/{game.pk}/?since={game.log_length}", HTTP_HX_REQUEST="true")
    again = client.get(f"/en/play/{game.pk}/?since={game.log_length}", HTTP_HX_REQUEST="true")
    assert poll["X-Game-Digest"] == again["X-Game-Digest"] == shown
    resumed = client.post(f"/en/play/{game.pk}/clock/",
                          {"command": "resume", "version": str(game.version)},
                          HTTP_HX_REQUEST="true")
    assert resumed["X-Game-Digest"] != shown  # "The game is paused." is gone
