"""Tables of friends (#22): opening a table, taking seats under display names, ready, the
game dealt for everyone at once with each seat held by its own browser, removing a player,
watching a full table, rematches and the match score; bad input changes nothing."""

import time

import pytest
from django.core.cache import caches
from django.test import Client
from play.access import seats_in
from play.models import Game
from tables import access
from tables.models import Round, Seat, Table

from core import throttle

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_counts():
    caches["default"].clear()
    yield
    caches["default"].clear()


def open_table(client, variant="stress-se", lang="en", **fields):
    data = {"name": "Mormor", "players": "2", "seat-2": "friend", **fields}
    response = client.post(f"/{lang}/{variant}/play/friends/", data)
    assert response.status_code == 303, response.text[:2000]
    code = response["Location"].rstrip("/").rsplit("/", 1)[-1]
    return Table.objects.get(pk=code)


def take(table, name, lang="en", client=None):
    client = client or Client()
    response = client.post(f"/{lang}/table/{table.pk}/join/", {"name": name})
    return client, response


def ready(client, table, lang="en"):
    return client.post(f"/{lang}/table/{table.pk}/ready/", {})


def test_a_table_is_opened_with_an_unguessable_code_and_the_creator_seated(client):
    table = open_table(client)
    assert len(table.pk) >= 22
    seats = list(table.seats.all())
    assert [s.kind for s in seats] == ["friend", "friend"]
    assert seats[0].name == "Mormor" and seats[0].taken and not seats[1].taken
    page = client.get(f"/en/table/{table.pk}/")
    assert page.status_code == 200
    text = page.text
    assert "Mormor (you)" in text and "a free seat" in text
    assert f"/t/{table.pk}/" in text and "<svg" in text  # the invite link and its QR code
    assert "the move that reaches it first counts" in text  # the race note
    assert f'ws-connect="/ws/en/table/{table.pk}/?seen=' in text


def test_the_invite_link_names_no_language_each_guest_reads_their_own(client):
    table = open_table(client)
    guest = Client()
    response = guest.get(f"/t/{table.pk}/", HTTP_ACCEPT_LANGUAGE="fi")
    assert response.status_code == 302 and response["Location"] == f"/fi/table/{table.pk}/"
    assert guest.get(f"/t/{table.pk}/", HTTP_ACCEPT_LANGUAGE="de")["Location"].startswith("/de/")


def test_two_friends_take_seats_say_ready_and_the_game_starts_for_both(client):
    table = open_table(client)
    friend, response = take(table, "Elsa", lang="sv")
    assert response.status_code == 303
    assert ready(client, table).status_code == 303
    assert not Round.objects.exists()  # Elsa is not ready yet
    assert ready(friend, table, lang="sv").status_code == 303
    round_ = Round.objects.get(table=table)
    game = round_.game
    assert game.seats == ["human", "human"] and game.variant == "stress-se"
    # the creator's limit and stand-in level for a dropped friend, the names (play.presence)
    assert game.away_limit_ms == 60_000 and game.takeover == ["club", "club"]
    assert game.names == ["Mormor", "Elsa"]
    # Each browser holds its own seat once it goes to the game (its own session).
    go = friend.get(f"/sv/table/{table.pk}/play/")
    assert go.status_code == 302 and go["Location"] == f"/sv/play/{game.pk}/"
    assert seats_in(friend.session, game.pk) == (1,)
    client.get(f"/en/table/{table.pk}/play/")
    assert seats_in(client.session, game.pk) == (0,)
    # The game page names the players, in the reader's language.
    page = friend.get(f"/sv/play/{game.pk}/").text
    assert "Elsa" in page and "Mormor" in page
    # A stranger only watches.
    stranger = Client()
    stranger.get(f"/en/table/{table.pk}/play/")
    assert seats_in(stranger.session, game.pk) == ()


def test_a_seat_for_a_bot_is_dealt_to_the_bot(client):
    table = open_table(
        client,
        variant="james-bond",
        players="3",
        presence="120",
        takeover="learner",
        **{"seat-3": "expert"},
    )
    assert [s.kind for s in table.seats.all()] == ["friend", "friend", "expert"]
    friend, _response = take(table, "Bo")
    ready(client, table)
    ready(friend, table)
    game = Round.objects.get(table=table).game
    assert game.seats == ["human", "human", "expert"]
    assert game.takeover == ["learner", "learner", ""] and game.away_limit_ms == 120_000
    assert game.names == ["Mormor", "Bo", ""]


def test_names_must_differ_within_a_table_and_are_escaped(client):
    table = open_table(client)
    _guest, response = take(table, "MORMOR")
    assert response.status_code == 409 and "already has this name" in response.text
    _guest, response = take(table, "<b>x</b>")
    assert response.status_code == 303
    page = client.get(f"/en/table/{table.pk}/").text
    assert "<b>x</b>" not in page and "&lt;b&gt;x&lt;/b&gt;" in page


def test_names_are_limited_in_length_and_not_empty(client):
    table = open_table(client)
    _guest, response = take(table, "x" * 25)
    assert response.status_code == 400 and "at most 24 characters" in response.text
    _guest, response = take(table, "\u200b \t")
    assert response.status_code == 400
    assert Seat.objects.filter(table=table, holder="").count() == 1


def test_one_browser_takes_one_seat(client):
    table = open_table(client, variant="james-bond", players="3", **{"seat-3": "friend"})
    guest, response = take(table, "Bo")
    assert response.status_code == 303
    _same, again = take(table, "Bo2", client=guest)
    assert again.status_code == 409 and "already have a seat" in again.text
    assert Seat.objects.filter(table=table, holder="").count() == 1


def test_a_full_tables_link_lets_others_watch(client):
    table = open_table(client)
    take(table, "Elsa")
    watcher = Client()
    page = watcher.get(f"/en/table/{table.pk}/").text
    assert "you are watching this table" in page and 'name="name"' not in page
    _w, response = take(table, "Nils", client=watcher)
    assert response.status_code == 409 and "This table is full" in response.text


def test_forged_requests_change_nothing(client):
    table = open_table(client)
    friend, _response = take(table, "Elsa")
    stranger = Client()
    # a ready from a browser without a seat, a remove from one that did not open the table
    assert stranger.post(f"/en/table/{table.pk}/ready/", {}).status_code == 403
    assert friend.post(f"/en/table/{table.pk}/remove/", {"seat": "0"}).status_code == 403
    assert client.post(f"/en/table/{table.pk}/remove/", {"seat": "x"}).status_code == 400
    assert client.post(f"/en/table/{table.pk}/remove/", {"seat": "0"}).status_code == 400
    assert client.post(f"/en/table/{table.pk}/remove/", {"seat": "7"}).status_code == 400
    # a made-up token in the session holds nothing
    forged = Client()
    session = forged.session
    session[access.SESSION_KEY] = "0" * 32
    session.save()
    assert forged.post(f"/en/table/{table.pk}/ready/", {}).status_code == 403
    assert not Seat.objects.filter(table=table, ready=True).exists()
    assert [s.name for s in table.seats.all()] == ["Mormor", "Elsa"]
    # unknown and malformed codes
    assert client.get("/en/table/AAAAAAAAAAAAAAAAAAAAAA/").status_code == 404
    assert client.get("/en/table/../").status_code == 404
    assert client.get("/t/short/").status_code == 404


def test_the_creator_removes_a_player_who_may_then_only_watch(client):
    table = open_table(client)
    friend, _response = take(table, "Elsa")
    ready(friend, table)
    assert client.post(f"/en/table/{table.pk}/remove/", {"seat": "1"}).status_code == 303
    seat = table.seats.get(number=1)
    assert not seat.taken and not seat.ready and seat.name == ""
    _again, response = take(table, "Elsa", client=friend)
    assert response.status_code == 403 and "removed you" in response.text
    _other, response = take(table, "Nils")
    assert response.status_code == 303


def test_a_flood_of_tables_is_refused_with_a_message(client):
    for _ in range(access.BY_SESSION.tries):
        open_table(client)
    count = Table.objects.count()
    response = client.post("/sv/stress-se/play/friends/", {"name": "Mormor", "players": "2"})
    assert response.status_code == 429
    assert "bord" in response.text  # Swedish: "Du har öppnat många bord ..."
    assert Table.objects.count() == count


def test_bad_new_table_forms_answer_400_and_store_nothing(client):
    url = "/en/stress-se/play/friends/"
    assert client.post(url, {"name": "", "players": "2"}).status_code == 400
    assert client.post(url, {"name": "A", "players": "9"}).status_code == 400
    assert client.post(url, {"name": "A", "seat-2": "grandmaster"}).status_code == 400
    assert client.post(url, {"name": "A", "seat-2": "club"}).status_code == 400  # no friend
    assert client.post(url, {"name": "A", "opt-nope": "1"}).status_code == 400
    assert client.post(url, {"name": "A", "presence": "7"}).status_code == 400
    assert not Table.objects.exists()
    assert client.get(url).status_code == 200


def test_the_lobby_is_rendered_in_every_language(client):
    table = open_table(client)
    for lang, word in [
        ("sv", "Spelare"),
        ("nb", "Spiller"),
        ("de", "Spieler"),
        ("fi", "Pelaaja"),
        ("en", "Player"),
    ]:
        page = Client().get(f"/{lang}/table/{table.pk}/")
        assert page.status_code == 200 and f'lang="{lang}"' in page.text
        assert word in page.text


def finish(game: Game, winner: int) -> None:
    from django.utils import timezone

    Game.objects.filter(pk=game.pk).update(
        over=True, winner=winner, end_reason="out", finished=timezone.now()
    )


def test_a_rematch_deals_a_new_game_to_the_same_seats_and_the_score_counts(client):
    table = open_table(client)
    friend, _response = take(table, "Elsa")
    ready(client, table)
    ready(friend, table)
    first = Round.objects.get(table=table)
    # nobody can say ready again while the game runs
    assert ready(client, table).status_code == 409
    finish(first.game, winner=1)
    page = client.get(f"/en/table/{table.pk}/").text
    assert "Rematch" in page and "1 win" in page and "0 wins" in page
    ready(client, table)
    ready(friend, table)
    second = Round.objects.filter(table=table).order_by("-number").first()
    assert second.number == 2 and second.game_id != first.game_id
    assert second.game.seats == first.game.seats


def test_the_home_page_the_demo_set_up_and_a_saved_sheet_lead_to_a_new_table(client):
    assert "/en/stress-se/play/friends/" in client.get("/en/").text
    setup = client.get("/en/james-bond/play/?opt-best_of_five=true").text
    assert "/en/james-bond/play/friends/?opt-best_of_five=true" in setup
    from houserules.models import HouseRules

    saved = client.post("/en/james-bond/house-rules/save/", {"q": "opt-best_of_five=true&lang=en"})
    assert saved.status_code == 303
    sheet = HouseRules.objects.get()
    page = client.get(f"/h/{sheet.code}/").text
    assert f"/h/{sheet.code}/friends/" in page and "Play by these rules with friends" in page
    go = Client().get(f"/h/{sheet.code}/friends/", HTTP_ACCEPT_LANGUAGE="nb")
    assert go.status_code == 302
    assert go["Location"].startswith(f"/nb/james-bond/play/friends/?sheet={sheet.code}&")
    form = client.get(go["Location"])
    assert form.status_code == 200 and 'value="true" selected' in form.text
    guest = Client()
    table = open_table(
        guest, variant="james-bond", lang="nb", sheet=sheet.code, **{"opt-best_of_five": "true"}
    )
    assert table.sheet == sheet.code and table.options["best_of_five"] is True


def test_old_tables_are_pruned_and_a_running_game_keeps_its_table(client):
    from datetime import timedelta
    from io import StringIO

    from django.core.management import call_command
    from django.utils import timezone

    lobby = open_table(client)
    played = open_table(client)
    friend, _response = take(played, "Elsa")
    ready(client, played)
    ready(friend, played)
    fresh = open_table(client)
    Table.objects.filter(pk__in=[lobby.pk, played.pk]).update(
        updated=timezone.now() - timedelta(days=40)
    )
    out = StringIO()
    call_command("prune_tables", stdout=out)
    assert "deleted 1 tables" in out.getvalue()
    assert set(Table.objects.values_list("pk", flat=True)) == {played.pk, fresh.pk}
    finish(Round.objects.get(table=played).game, winner=0)
    Table.objects.filter(pk=played.pk).update(updated=timezone.now() - timedelta(days=40))
    call_command("prune_tables", stdout=out)
    assert set(Table.objects.values_list("pk", flat=True)) == {fresh.pk}


def test_during_a_game_the_creator_hands_a_friends_seat_to_its_bot(client):
    table = open_table(client, takeover="expert")
    friend, _response = take(table, "Elsa")
    ready(client, table)
    ready(friend, table)
    game = Round.objects.get(table=table).game
    page = client.get(f"/en/table/{table.pk}/").text
    assert "Let a bot play this seat" in page
    assert friend.post(f"/en/table/{table.pk}/remove/", {"seat": "0"}).status_code == 403
    assert client.post(f"/en/table/{table.pk}/remove/", {"seat": "1"}).status_code == 303
    game.refresh_from_db()
    assert game.seats == ["human", "expert"]
    after = client.get(f"/en/table/{table.pk}/").text
    assert "Let a bot play this seat" not in after and "a bot plays this seat for now" in after


def test_htmx_posts_answer_with_the_lobby_and_the_page_varies_on_htmx(client):
    table = open_table(client)
    friend = Client()
    joined = friend.post(f"/en/table/{table.pk}/join/", {"name": "Elsa"}, HTTP_HX_REQUEST="true")
    assert joined.status_code == 200 and "<html" not in joined.text
    assert "Elsa (you)" in joined.text and "I am ready" in joined.text
    refused = friend.post(f"/en/table/{table.pk}/join/", {"name": "Elsa"}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 409 and "already have a seat" in refused.text
    page = client.get(f"/en/table/{table.pk}/", HTTP_HX_REQUEST="true")
    assert page.status_code == 200 and "<html" not in page.text
    assert "HX-Request" in page["Vary"]


def test_after_a_game_the_result_offers_a_new_table_with_other_rules(client):
    table = open_table(client, **{"opt-gentle": "true"})
    friend, _response = take(table, "Elsa")
    ready(client, table)
    ready(friend, table)
    finish(Round.objects.get(table=table).game, winner=0)
    page = client.get(f"/sv/table/{table.pk}/").text
    assert "Ett nytt bord med andra regler" in page
    assert "/sv/stress-se/play/friends/?players=2&amp;seat-2=friend&amp;" in page
    assert "opt-gentle=true" in page
    assert "Se partiet steg för steg" in page  # the replay


def test_tables_are_in_the_admin(admin_client, client):
    table = open_table(client)
    assert admin_client.get("/admin/tables/table/").status_code == 200
    page = admin_client.get(f"/admin/tables/table/{table.pk}/change/")
    assert page.status_code == 200 and "Mormor" in page.text


def test_a_seat_the_creator_handed_to_its_bot_is_theirs_to_give_back(client):
    table = open_table(client, takeover="expert")
    friend, _response = take(table, "Elsa")
    ready(client, table)
    ready(friend, table)
    game = Round.objects.get(table=table).game
    game_page = friend.get(f"/sv/table/{table.pk}/play/")["Location"]
    assert client.post(f"/en/table/{table.pk}/remove/", {"seat": "1"}).status_code == 303
    # Elsa's browser still holds the seat, but the host's choice stands.
    page = friend.get(game_page).text
    assert "data-take-back" not in page
    assert "har låtit datorn ta över din plats" in page
    refused = friend.post(f"/sv/play/{game.pk}/seat/", {"seat": "1"})
    assert refused.status_code == 403
    assert "har låtit datorn ta över din plats" in refused.text
    game.refresh_from_db()
    assert game.seats == ["human", "expert"]
    # Only the host gives it back, and then Elsa may take it.
    assert friend.post(f"/en/table/{table.pk}/give-back/", {"seat": "1"}).status_code == 403
    lobby = client.get(f"/en/table/{table.pk}/").text
    assert "Let them take this seat back" in lobby
    assert client.post(f"/en/table/{table.pk}/give-back/", {"seat": "1"}).status_code == 303
    assert client.post(f"/en/table/{table.pk}/give-back/", {"seat": "1"}).status_code == 400
    assert "Let them take this seat back" not in client.get(f"/en/table/{table.pk}/").text
    assert 'data-take-back="1"' in friend.get(game_page).text
    assert friend.post(f"/sv/play/{game.pk}/seat/", {"seat": "1"}).status_code == 303
    game.refresh_from_db()
    assert game.seats == ["human", "human"]


def test_a_flood_of_tries_at_a_seat_is_refused_and_changes_nothing(client, monkeypatch):
    # One counting window for the whole test (the limit counts in fixed windows of time).
    now = time.time()
    monkeypatch.setattr(throttle.time, "time", lambda: now)
    table = open_table(client)
    for number in range(access.JOINS.tries - 1):
        # refused names count: too long, and the host's own
        name = "x" * 200 if number % 2 else "Mormor"
        assert take(table, name)[1].status_code in (400, 409)
    _friend, response = take(table, "Elsa")
    assert response.status_code == 303  # the last try the table takes
    _late, response = take(table, "Ville", lang="sv")
    assert response.status_code == 429
    assert "För många försök" in response.text
    assert Seat.objects.filter(table=table, name="Ville").count() == 0
    assert take(table, "Ville")[1].status_code == 429


def test_the_story_calls_the_players_by_their_names_escaped_in_every_language(client, monkeypatch):
    """#22: at a friends' table the story lines and the end of the game name the seats by
    the names chosen in the lobby (escaped), not "Player 1", in every language."""
    import re

    from django.utils import timezone, translation
    from django.utils.translation import pgettext
    from play import service

    from rules_engine import new_game

    seed = next(
        s
        for s in range(200)
        if any(a.type == "play" for a in new_game("stress-se", players=2, seed=s).legal_actions(0))
    )
    monkeypatch.setattr(service, "new_seed", lambda: seed)
    table = open_table(client, name="<b>Ann</b>")
    friend, _response = take(table, "Ville")
    ready(client, table)
    ready(friend, table)
    game = Round.objects.get(table=table).game
    play = next(a for a in service.driver_of(game).game.legal_actions(0) if a.type == "play")
    moved = service.play(
        game.pk, timezone.now(), seat=0, version=game.version, action={"type": "play", **play.args}
    )
    assert moved.value.result.accepted
    for lang in ("en", "sv", "nb", "de", "fi"):
        page = friend.get(f"/{lang}/play/{game.pk}/?since=0", HTTP_HX_REQUEST="true").text
        told = re.search(r"<div hidden data-announce>(.*?)</div>", page, re.S).group(1)
        assert "&lt;b&gt;Ann&lt;/b&gt;" in told, (lang, told)
        assert "<b>Ann</b>" not in page
        with translation.override(lang):
            assert pgettext("in a sentence", "Player %(n)s") % {"n": 1} not in told
    # The end of the game, on the game page and at the table, names the winner too.
    from tests.site.class_tables_support import play_table_to_the_end

    # played on to the end on game time alone: presence off, as no page holds a socket here
    Game.objects.filter(pk=game.pk).update(away_limit_ms=0)
    over = play_table_to_the_end(Game.objects.get(pk=game.pk), seed=seed)
    assert over.over and over.winner is not None
    winner = ["&lt;b&gt;Ann&lt;/b&gt;", "Ville"][over.winner]
    watcher = Client()
    page = watcher.get(f"/en/play/{game.pk}/").text
    title = re.search(r'class="summary__title">(.*?)<', page).group(1)
    assert title == f"{winner} won"
    lobby = watcher.get(f"/fi/table/{table.pk}/").text
    why = re.search(r'class="summary__why">(.*?)<', lobby).group(1)
    assert winner in why and "elaaja" not in why, why


def test_a_finnish_sentence_puts_a_name_in_its_case_with_a_colon():
    from django.utils import translation

    from presentation.endings import won_event
    from presentation.wording import PlayerWord, seat_names

    with translation.override("fi"):
        with seat_names(["Anna", "Äijä"]):
            assert PlayerWord(0).form("ade") == "Anna:lla"
            assert PlayerWord(1).form("all") == "Äijä:lle"
            assert PlayerWord(1).form("ade") == "Äijä:llä"
            assert won_event("fewer-cards", 0).startswith("Anna:lla ")
        assert won_event("fewer-cards", 0).startswith("pelaajalla 1 ")
    with translation.override("de"), seat_names(["Anna"]):
        assert PlayerWord(0).form("dat") == "Anna"


def test_one_browser_going_from_table_to_table_is_stopped(client, monkeypatch):
    """#22: the join limit counts per browser across tables too, so a script cannot use up
    table after table's tries; a person at another browser still gets the seat."""
    now = time.time()
    monkeypatch.setattr(throttle.time, "time", lambda: now)
    first, second = open_table(client), open_table(client)
    script = Client()
    for _ in range(access.JOINS_BY_SESSION.tries):
        assert take(first, "x" * 200, client=script)[1].status_code == 400
    _script, response = take(second, "Ville", lang="sv", client=script)
    assert response.status_code == 429
    assert "Du har försökt ta många platser vid bord" in response.text
    assert not Seat.objects.filter(table=second, name="Ville").exists()
    _friend, response = take(second, "Elsa")
    assert response.status_code == 303
    assert Seat.objects.get(table=second, name="Elsa").taken


def test_one_address_going_from_table_to_table_is_stopped(client, monkeypatch):
    """A script dropping its session cookie each time is counted by its address (a smaller
    limit stands in for the real one, which a household or school shares)."""
    now = time.time()
    monkeypatch.setattr(throttle.time, "time", lambda: now)
    monkeypatch.setattr(access, "JOINS_BY_ADDRESS", throttle.Limit("test-address", 3, 600))
    tables = [open_table(client) for _ in range(4)]
    for table in tables[:3]:
        response = Client(REMOTE_ADDR="198.51.100.7").post(
            f"/de/table/{table.pk}/join/", {"name": ""}
        )
        assert response.status_code == 400
    response = Client(REMOTE_ADDR="198.51.100.7").post(
        f"/de/table/{tables[3].pk}/join/", {"name": "Max"}
    )
    assert response.status_code == 429 and "an vielen Tischen" in response.text
    assert not Seat.objects.filter(table=tables[3], name="Max").exists()
    response = Client(REMOTE_ADDR="203.0.113.5").post(
        f"/de/table/{tables[3].pk}/join/", {"name": "Max"}
    )
    assert response.status_code == 303
