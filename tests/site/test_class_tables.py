"""Class tables (#23): the class seated at tables of two (James Bond: two to four), a pupil
alone against a bot, each pupil's phone at the own table, the projector's overview and
leaderboard, the teacher's commands (pause and resume every table, end the round, a new
round with winners together or shuffled, a table shown large, a pupil removed), and bad
input: 403 for anyone but the teacher, a translated message, never a 500."""

from __future__ import annotations

import json
import random
import re

import pytest
from asgiref.sync import sync_to_async
from django.template.loader import render_to_string
from django.test import Client
from django.utils import timezone
from django.utils.html import escape
from play import service
from play.access import SESSION_KEY, held_seats
from play.models import Game
from teach import questions, seating
from teach.access import PUPIL_KEY
from teach.models import ClassRound, ClassSeat, ClassTable, Lesson, Pupil, Question

from tests.play_human import sensible_action
from tests.site.class_tables_support import control, join, new_lesson, play_table_to_the_end
from tests.site.test_live import connect, own_loop
from tests.site.test_live_lessons import new_lesson as live_lesson
from tests.site.test_live_lessons import session_cookie
from tests.site.test_live_tables import frame_with, seat_class

pytestmark = pytest.mark.django_db
LANGS = ["sv", "nb", "de", "fi", "en"]


@pytest.fixture(autouse=True)
def _phones_never_drop(request, settings):
    """No pupil's phone holds a socket in these tests: presence (play.presence) would stop
    every table after its grace, so the grace is endless here except where a test checks
    the pause and bot rule itself."""
    if "dropped_phone" not in request.node.name:
        settings.PLAY_AWAY_GRACE_MS = 10**9


@pytest.mark.parametrize(
    ("pupils", "size", "sizes"),
    [
        (1, 2, [1]),
        (2, 2, [2]),
        (3, 2, [2, 1]),
        (6, 2, [2, 2, 2]),
        (7, 3, [3, 2, 2]),
        (5, 4, [3, 2]),
        (40, 2, [2] * 20),
        (0, 2, []),
    ],
)
def test_tables_are_as_even_as_the_size_allows(pupils, size, sizes):
    assert seating.table_sizes(pupils, size) == sizes


def test_table_sizes_the_teacher_may_choose():
    assert seating.sizes_allowed("stress-se") == [2]
    assert seating.sizes_allowed("spit") == [2]
    assert seating.sizes_allowed("james-bond") == [2, 3, 4]


def _class(client: Client, names: list[str], variant: str = "stress-se"):
    lesson = new_lesson(client, variant)
    phones = {name: join(lesson, name) for name in names}
    return lesson, phones


def test_seating_pairs_and_an_odd_pupil_against_a_bot(client):
    lesson, _phones = _class(client, ["Ada", "Bo", "Cy", "Di", "Eve"])
    response = control(client, lesson, "start", size="2", level="learner", pairing="shuffle")
    assert response.status_code == 200
    round_ = ClassRound.objects.get(lesson=lesson)
    tables = list(round_.tables.select_related("game"))
    assert [t.game.seats for t in tables] == [
        ["human", "human"],
        ["human", "human"],
        ["human", "learner"],
    ]
    assert all(
        t.game.variant == "stress-se" and t.game.options == lesson.game.options for t in tables
    )
    seats = ClassSeat.objects.filter(round=round_)
    assert sorted(s.pupil.nickname for s in seats) == ["Ada", "Bo", "Cy", "Di", "Eve"]
    for t in tables:
        assert f'id="table-{t.number}"' in response.text
    assert "Bot (Learner)" in response.text


def test_a_pupil_phone_holds_its_own_seat_and_shows_its_table(client):
    lesson, phones = _class(client, ["Ada", "Bo"])
    control(client, lesson, "start", size="2", level="club", pairing="shuffle")
    seat = ClassSeat.objects.get(pupil__nickname="Ada")
    phone = phones["Ada"]
    response = phone.get(f"/en/teach/{lesson.pk}/table/")
    assert response.status_code == 200
    game_id = seat.table.game_id
    assert f'ws-connect="/ws/en/play/{game_id}/"' in response.text
    assert "Ada against Bo" in response.text
    request = type("R", (), {"session": phone.session})()
    assert held_seats(request, game_id) == (seat.seat,)
    # The other pupil's session holds the other seat, and no other.
    other = phones["Bo"]
    other.get(f"/en/teach/{lesson.pk}/table/")
    request = type("R", (), {"session": other.session})()
    assert held_seats(request, game_id) == (1 - seat.seat,)
    # The pupil's move reaches the game through the demo's own move route.
    assert "data-holds" in response.text


def test_a_pupil_not_seated_waits_and_is_sent_on_when_seated(client):
    lesson, _phones = _class(client, ["Ada", "Bo"])
    control(client, lesson, "start", size="2", level="club", pairing="shuffle")
    late = join(lesson, "Cy")
    response = late.get(f"/en/teach/{lesson.pk}/table/")
    assert "the teacher seats you at a table in the next round" in response.text
    assert "ws-connect" not in response.text
    status = late.get(f"/en/teach/{lesson.pk}/table/status/?at=", HTTP_HX_REQUEST="true")
    assert status.status_code == 200 and "HX-Redirect" not in status
    overview = client.get(f"/en/teach/{lesson.pk}/tables/", HTTP_HX_REQUEST="true").text
    assert "Seated at the next round:" in overview and "Cy" in overview
    control(client, lesson, "start", size="2", level="club", pairing="shuffle")
    status = late.get(f"/en/teach/{lesson.pk}/table/status/?at=", HTTP_HX_REQUEST="true")
    assert status["HX-Redirect"] == f"/en/teach/{lesson.pk}/table/"
    assert ClassSeat.objects.filter(pupil__nickname="Cy", round__number=2).exists()


def test_the_follow_page_sends_a_seated_pupil_to_the_table(client):
    lesson, phones = _class(client, ["Ada", "Bo"])
    control(client, lesson, "start", size="2", level="club", pairing="shuffle")
    response = phones["Ada"].get(f"/en/teach/{lesson.pk}/follow/")
    assert response.status_code == 302
    assert response["Location"] == f"/en/teach/{lesson.pk}/table/"
    poll = phones["Ada"].get(f"/en/teach/{lesson.pk}/follow/", HTTP_HX_REQUEST="true")
    assert poll["HX-Redirect"] == f"/en/teach/{lesson.pk}/table/"
    # A follower who did not join still follows the lesson's game.
    assert Client().get(f"/en/teach/{lesson.pk}/follow/").status_code == 200


def test_the_leaderboard_counts_wins_then_cards_left(client):
    lesson, _phones = _class(client, ["Ada", "Bo", "Cy", "Di"])
    control(client, lesson, "start", size="2", level="club", pairing="shuffle")
    round_ = ClassRound.objects.get(lesson=lesson)
    first = round_.tables.get(number=1)
    before = client.get(f"/en/teach/{lesson.pk}/tables/", HTTP_HX_REQUEST="true").text
    assert "Winner:" not in before
    row = play_table_to_the_end(first.game)
    assert row.over and row.winner is not None
    winner = ClassSeat.objects.get(table=first, seat=row.winner).pupil.nickname
    after = client.get(f"/en/teach/{lesson.pk}/tables/", HTTP_HX_REQUEST="true").text
    assert f"Winner: {winner}" in after
    standings = after.split('id="standings-title"')[1]
    first_row = standings.split("<tbody>")[1].split("</tr>")[0]
    assert winner in first_row and "<td>1</td>" in first_row
    assert f"/en/play/{row.pk}/replay/" in after


def test_pause_and_resume_every_table(client):
    lesson, _phones = _class(client, ["Ada", "Bo", "Cy", "Di"])
    control(client, lesson, "start", size="2", level="club", pairing="shuffle")
    games = Game.objects.filter(class_table__round__lesson=lesson)
    assert not any(g.paused for g in games)
    response = control(client, lesson, "pause")
    assert "every table paused" in response.text
    assert all(g.paused for g in Game.objects.filter(class_table__round__lesson=lesson))
    control(client, lesson, "resume")
    assert not any(g.paused for g in Game.objects.filter(class_table__round__lesson=lesson))


def test_a_new_round_seats_winners_with_winners(client):
    lesson, _phones = _class(client, ["Ada", "Bo", "Cy", "Di", "Eve", "Flo"])
    control(client, lesson, "start", size="2", level="club", pairing="shuffle")
    first = ClassRound.objects.get(lesson=lesson)
    winners = set()
    for n, table in enumerate(first.tables.select_related("game")):
        row = play_table_to_the_end(table.game, seed=n)
        winners.add(ClassSeat.objects.get(table=table, seat=row.winner).pupil_id)
    assert len(winners) == 3
    response = control(client, lesson, "start", size="2", level="club", pairing="winners")
    assert "Round 2" in response.text
    second = ClassRound.objects.get(lesson=lesson, number=2)
    first_tables = [
        {s.pupil_id for s in table.seats.all()} for table in second.tables.order_by("number")
    ]
    # Three winners at tables of two: one table of two winners, the third beside a loser.
    assert first_tables[0] <= winners
    assert ClassRound.objects.get(pk=first.pk).ended is not None


def test_end_round_stops_every_table(client):
    lesson, _phones = _class(client, ["Ada", "Bo"])
    control(client, lesson, "start", size="2", level="club", pairing="shuffle")
    response = control(client, lesson, "end")
    assert "Round 1 · over" in response.text
    assert all(g.paused for g in Game.objects.filter(class_table__round__lesson=lesson))
    refused = control(client, lesson, "pause")
    assert "This round is over: start a new round." in refused.text


def test_james_bond_tables_of_four(client):
    lesson, _phones = _class(client, [f"P{n}" for n in range(7)], variant="james-bond")
    control(client, lesson, "start", size="4", level="club", pairing="shuffle")
    games = [t.game for t in ClassTable.objects.filter(round__lesson=lesson)]
    assert sorted(g.players for g in games) == [3, 4]
    overview = client.get(f"/en/teach/{lesson.pk}/tables/", HTTP_HX_REQUEST="true").text
    assert "0 of 6 piles complete" in overview or "piles complete" in overview


def test_show_one_table_large_with_its_story(client):
    lesson, _phones = _class(client, ["Ada", "Bo", "Cy", "Di"])
    control(client, lesson, "start", size="2", level="club", pairing="shuffle")
    table = ClassTable.objects.get(round__lesson=lesson, number=2)
    play_table_to_the_end(table.game, limit_ms=5_000)
    response = control(client, lesson, "large", table="2")
    assert 'id="large-title"' in response.text and "story__line" in response.text
    assert control(client, lesson, "large", table="9").text.count("no such table") == 1


def test_a_removed_pupil_is_seated_no_more(client):
    lesson, phones = _class(client, ["Ada", "Bo", "Cy"])
    ada = Pupil.objects.get(lesson=lesson, nickname="Ada")
    control(client, lesson, "remove", pupil=str(ada.pk))
    control(client, lesson, "start", size="2", level="club", pairing="shuffle")
    assert not ClassSeat.objects.filter(pupil=ada).exists()
    response = phones["Ada"].get(f"/en/teach/{lesson.pk}/table/")
    assert "taken you out of the class tables" in response.text


def test_only_the_teacher_controls_the_round(client):
    lesson, phones = _class(client, ["Ada", "Bo"])
    for who in (phones["Ada"], Client()):
        for command in ("start", "pause", "resume", "end", "large", "remove"):
            response = who.post(
                f"/en/teach/{lesson.pk}/tables/control/",
                {"command": command, "size": "2", "level": "club", "pairing": "shuffle"},
            )
            assert response.status_code == 403
    assert not ClassRound.objects.filter(lesson=lesson).exists()
    # The projector's page sends anyone else on to the follow page.
    assert phones["Ada"].get(f"/en/teach/{lesson.pk}/tables/").status_code == 302


@pytest.mark.parametrize(
    "values",
    [
        {"command": "fly"},
        {"command": "start", "size": "9", "level": "club", "pairing": "shuffle"},
        {"command": "start", "size": "2", "level": "god", "pairing": "shuffle"},
        {"command": "start", "size": "2", "level": "club", "pairing": "x"},
        {"command": "large", "table": "１"},
        {"command": "remove", "pupil": "-1"},
        {"command": "remove", "pupil": "999999"},
        {"command": "pause"},
        {},
    ],
)
def test_bad_commands_change_nothing_and_say_why(client, values):
    lesson, _phones = _class(client, ["Ada"])
    response = client.post(f"/en/teach/{lesson.pk}/tables/control/", values)
    assert response.status_code in (400, 409)
    assert 'id="tables-message"' in response.text
    assert not ClassRound.objects.filter(lesson=lesson).exists()


def test_starting_with_no_pupils_says_so(client):
    lesson = new_lesson(client)
    response = control(client, lesson, "start", size="2", level="club", pairing="shuffle")
    assert "Nobody has joined the class yet" in response.text


def test_nicknames_are_escaped_on_the_projector_and_the_phone(client):
    lesson, phones = _class(client, ["<b>x</b>", "Bo"])
    control(client, lesson, "start", size="2", level="club", pairing="shuffle")
    overview = client.get(f"/en/teach/{lesson.pk}/tables/").text
    assert "<b>x</b>" not in overview and "&lt;b&gt;x&lt;/b&gt;" in overview
    phone = phones["Bo"].get(f"/en/teach/{lesson.pk}/table/").text
    assert "<b>x</b>" not in phone and "&lt;b&gt;x&lt;/b&gt;" in phone


def test_the_overview_is_rendered_once_per_moment(client, django_assert_max_num_queries):
    lesson, _phones = _class(client, ["Ada", "Bo", "Cy", "Di"])
    control(client, lesson, "start", size="2", level="club", pairing="shuffle")
    first = client.get(f"/en/teach/{lesson.pk}/tables/", HTTP_HX_REQUEST="true").content
    with django_assert_max_num_queries(8):
        again = client.get(f"/en/teach/{lesson.pk}/tables/", HTTP_HX_REQUEST="true").content
    assert again == first


@pytest.mark.parametrize("lang", LANGS)
def test_the_projector_and_the_phone_in_every_language(client, lang):
    lesson = new_lesson(client, lang=lang)
    ada, bo = join(lesson, "Ada", lang), join(lesson, "Bo", lang)
    control(client, lesson, "start", lang=lang, size="2", level="club", pairing="shuffle")
    page = client.get(f"/{lang}/teach/{lesson.pk}/tables/")
    assert page.status_code == 200 and f'lang="{lang}"' in page.text
    phone = ada.get(f"/{lang}/teach/{lesson.pk}/table/")
    assert phone.status_code == 200 and f'lang="{lang}"' in phone.text
    if lang != "en":
        assert "Leaderboard" not in page.text and "Pause every table" not in page.text
    del bo


def test_the_set_up_page_starts_class_tables_directly(client):
    response = client.post(
        "/en/james-bond/teach/",
        {"mode": "tables", "players": "2", "level-1": "club", "level-2": "club"},
    )
    assert response.status_code == 303
    game_id = response["Location"].rstrip("/").split("/")[-2]
    assert response["Location"] == f"/en/teach/{game_id}/tables/"
    page = client.get(response["Location"])
    assert page.status_code == 200 and 'id="tables-start"' in page.text
    assert '<option value="4"' in page.text  # James Bond: tables of up to four


def test_the_lesson_page_leads_to_class_tables(client):
    lesson = new_lesson(client)
    assert f'href="/en/teach/{lesson.pk}/tables/"' in client.get(f"/en/teach/{lesson.pk}/").text


def test_a_dropped_phone_pauses_its_table_and_the_teacher_hands_the_seat_to_a_bot(client):
    from datetime import timedelta

    from play import service

    lesson, _phones = _class(client, ["Ada", "Bo", "Cy", "Di"])
    control(client, lesson, "start", size="2", level="expert", pairing="shuffle", away="30000")
    table = ClassTable.objects.get(round__lesson=lesson, number=1)
    row = table.game
    assert row.away_limit_ms == 30_000 and row.takeover == ["expert", "expert"]
    assert sorted(row.names) == sorted(s.pupil.nickname for s in table.seats.all())
    # No phone came to the table: after the grace the table waits for both.
    row = service.play(row.pk, row.created + timedelta(seconds=6)).row
    assert row.paused
    overview = client.get(f"/en/teach/{lesson.pk}/tables/", HTTP_HX_REQUEST="true").text
    assert "offline" in overview
    # The teacher lets a bot play for seat 0 at once.
    response = control(client, lesson, "bot", table="1", seat="0")
    row = Game.objects.get(pk=row.pk)
    assert row.seats[0] == "expert" and row.seats[1] == "human"
    assert "a bot plays for them" in response.text
    assert (
        control(client, lesson, "bot", table="1", seat="5").text.count(
            "No pupil sits there in this round."
        )
        == 1
    )


def test_a_pupil_removed_mid_round_is_played_by_a_bot(client):
    lesson, _phones = _class(client, ["Ada", "Bo"])
    control(client, lesson, "start", size="2", level="club", pairing="shuffle")
    seat = ClassSeat.objects.get(pupil__nickname="Ada")
    control(client, lesson, "remove", pupil=str(seat.pupil_id))
    assert Game.objects.get(pk=seat.table.game_id).seats[seat.seat] == "club"


def test_the_class_summary_gains_the_tables_results_and_a_moment_each(client):
    lesson, _phones = _class(client, ["Ada", "Bo", "Cy", "Di"])
    # Before any table has finished, a lesson whose own game was not played has no summary.
    assert client.get(f"/en/teach/{lesson.pk}/summary/").status_code == 302
    control(client, lesson, "start", size="2", level="club", pairing="shuffle")
    first = ClassTable.objects.get(round__lesson=lesson, number=1)
    row = play_table_to_the_end(first.game)
    winner = ClassSeat.objects.get(table=first, seat=row.winner).pupil.nickname
    page = client.get(f"/en/teach/{lesson.pk}/summary/")
    assert page.status_code == 200
    text = page.text
    assert "Class tables, round 1" in text
    assert f"Winner: {winner}" in text and "Stopped before the end" in text
    tables = text.split('id="tables-title"')[1]
    assert tables.count('class="table-result"') == 2
    assert tables.count('class="moment__story"') == 1  # the finished table's moment
    assert f"/en/play/{row.pk}/replay/" in tables
    # The lesson's own game was never played: no result or moments of it.
    assert "Three moments of this game" not in text
    assert client.get(f"/en/play/{row.pk}/replay/").status_code == 200


def test_a_follow_page_asks_for_its_pupils_table_while_a_round_is_played(client):
    lesson, phones = _class(client, ["Ada", "Bo"])
    assert "class-tables-hook" not in phones["Ada"].get(f"/en/teach/{lesson.pk}/follow/").text
    control(client, lesson, "start", size="2", level="club", pairing="shuffle")
    late = join(lesson, "Cy")
    # Cy joined after the seating: the follow page stays, and asks where Cy sits (the same
    # bytes for every pupil, pushed over the lesson's socket too).
    page = late.get(f"/en/teach/{lesson.pk}/follow/").text
    assert f'hx-get="/en/teach/{lesson.pk}/table/status/?at="' in page
    control(client, lesson, "end")
    assert "class-tables-hook" not in late.get(f"/en/teach/{lesson.pk}/follow/").text


def test_a_pupil_cannot_resume_a_table_the_teacher_paused(client):
    lesson, phones = _class(client, ["Ada", "Bo"])
    control(client, lesson, "start", size="2", level="club", pairing="shuffle")
    seat = ClassSeat.objects.get(pupil__nickname="Ada")
    phone = phones["Ada"]
    phone.get(f"/en/teach/{lesson.pk}/table/")  # holds the seat
    control(client, lesson, "pause")
    row = Game.objects.get(pk=seat.table.game_id)
    response = phone.post(
        f"/en/play/{row.pk}/clock/", {"command": "resume", "version": str(row.version)}
    )
    assert response.status_code == 409
    assert "The teacher has paused every table" in response.text
    assert Game.objects.get(pk=row.pk).paused
    control(client, lesson, "resume")
    assert not Game.objects.get(pk=row.pk).paused


def test_the_teachers_hand_over_holds_until_the_teacher_gives_the_seat_back(client):
    lesson, phones = _class(client, ["Ada", "Bo"])
    control(client, lesson, "start", size="2", level="club", pairing="shuffle")
    seat = ClassSeat.objects.get(pupil__nickname="Ada")
    game_id, phone = seat.table.game_id, phones["Ada"]
    overview = control(client, lesson, "bot", table="1", seat=str(seat.seat)).text
    assert Game.objects.get(pk=game_id).seats[seat.seat] == "club"
    # The projector offers the teacher the seat's give-back instead of its "Bot".
    assert f'id="give-back-1-{seat.seat}"' in overview
    assert f'id="bot-1-{seat.seat}"' not in overview
    # The phone says the teacher chose it, and offers no take-back.
    page = phone.get(f"/en/teach/{lesson.pk}/table/").text
    assert f'data-seat-url="/en/play/{game_id}/seat/"' in page
    assert "Your teacher has given your seat to a bot" in page
    assert 'id="take-back"' not in page
    # Taking it back anyway is refused, with the reason, and changes nothing.
    version = Game.objects.get(pk=game_id).version
    refused = phone.post(
        f"/en/play/{game_id}/seat/", {"seat": str(seat.seat)}, HTTP_HX_REQUEST="true"
    )
    assert refused.status_code == 403
    assert "Your teacher has given your seat to a bot" in refused.text
    row = Game.objects.get(pk=game_id)
    assert row.seats[seat.seat] == "club" and row.version == version
    # Only the teacher gives it back: a pupil's or a stranger's request is a 403.
    for other in (phone, phones["Bo"], Client()):
        url = f"/en/teach/{lesson.pk}/tables/control/"
        data = {"command": "give-back", "table": "1", "seat": str(seat.seat)}
        assert other.post(url, data).status_code == 403
    assert Game.objects.get(pk=game_id).version == version
    # A seat the teacher did not hand over has nothing to give back.
    other_seat = str(1 - seat.seat)
    kept = control(client, lesson, "give-back", table="1", seat=other_seat)
    assert kept.status_code == 200 and "That seat has not been handed to a bot." in kept.text
    assert Game.objects.get(pk=game_id).version == version
    given = control(client, lesson, "give-back", table="1", seat=str(seat.seat))
    assert given.status_code == 200 and "give-back-1-" not in given.text
    # Now the phone's take-back button is back, and the pupil plays the seat again.
    page = phone.get(f"/en/teach/{lesson.pk}/table/").text
    assert 'id="take-back"' in page and "Your teacher has given your seat" not in page
    taken = phone.post(f"/en/play/{game_id}/seat/", {"seat": str(seat.seat)})
    assert taken.status_code < 400
    assert Game.objects.get(pk=game_id).seats[seat.seat] == "human"


@pytest.mark.parametrize("lang", ["sv", "nb", "de", "fi"])
def test_the_teachers_hand_over_is_told_in_the_pupils_language(client, lang):
    lesson, phones = _class(client, ["Ada", "Bo"])
    control(client, lesson, "start", size="2", level="club", pairing="shuffle")
    seat = ClassSeat.objects.get(pupil__nickname="Ada")
    control(client, lesson, "bot", table="1", seat=str(seat.seat))
    page = phones["Ada"].get(f"/{lang}/teach/{lesson.pk}/table/").text
    assert "Your teacher has given your seat to a bot" not in page
    assert 'class="presence__handed"' in page
    overview = client.get(f"/{lang}/teach/{lesson.pk}/tables/").text
    assert f'id="give-back-1-{seat.seat}"' in overview and "Give back<" not in overview


def test_a_two_language_lesson_shows_the_phone_table_in_both(client):
    lesson, phones = _class(client, ["Ada", "Bo"])
    control(client, lesson, "start", size="2", level="club", pairing="shuffle")
    game_id = ClassSeat.objects.get(pupil__nickname="Ada").table.game_id
    phone = phones["Ada"]
    one = phone.get(f"/en/teach/{lesson.pk}/table/").text
    assert "game__alt" not in one and "zone__label-alt" not in one
    type(lesson).objects.filter(pk=lesson.pk).update(lang2="sv")
    page = phone.get(f"/en/teach/{lesson.pk}/table/").text
    assert '<span class="zone__label-alt" lang="sv">Plockhög</span>' in page
    assert '<span class="seat__name-alt" lang="sv">Ada (du)</span>' in page
    # The frames that follow (the poll, the socket) are play's own game page: the same, and
    # the live region reads the story in both languages.
    frame = phone.get(f"/en/play/{game_id}/?since=0", HTTP_HX_REQUEST="true").text
    assert '<span class="zone__label-alt" lang="sv">Plockhög</span>' in frame
    version = Game.objects.get(pk=game_id).version
    # An action no rule allows (a call can be right when two piles show the same rank).
    data = {"action": '{"type": "fly"}', "version": str(version)}
    refused = phone.post(f"/en/play/{game_id}/move/", data, HTTP_HX_REQUEST="true").text
    assert "That did not count" in refused
    assert '<p class="game__message" lang="sv">Det gick inte:' in refused
    # A move made: the live region reads what happened in both languages.
    row = Game.objects.get(pk=game_id)
    assert play_table_to_the_end(row, limit_ms=5_000).log_length > row.log_length
    moved = phone.get(f"/en/play/{game_id}/?since={row.log_length}", HTTP_HX_REQUEST="true")
    assert '<p lang="sv">Överst på spelhögarna ligger' in moved.text
    # The start signal's words, in both: the count's "Go!" too (and play.js's at go).
    signal = render_to_string("play/signal.html", {"countdown": {"seconds": 3}, "lang2": "sv"})
    assert "Ready, steady" in signal
    assert '<p class="signal__ready" lang="sv">Klara, färdiga' in signal
    assert 'data-go="Go!" data-go2="Gå!" data-lang2="sv"' in signal
    go = render_to_string("play/signal.html", {"countdown": {"seconds": 0}, "lang2": "sv"})
    assert 'Go!<span class="signal__go2" lang="sv">Gå!</span></p>' in go
    one = render_to_string("play/signal.html", {"countdown": {"seconds": 0}, "lang2": ""})
    assert "data-go2" not in one and "signal__go2" not in one


def test_a_two_language_lesson_tells_the_sites_refusals_in_both(client):
    lesson, phones = _class(client, ["Ada", "Bo"])
    control(client, lesson, "start", size="2", level="club", pairing="shuffle")
    type(lesson).objects.filter(pk=lesson.pk).update(lang2="de")
    seat = ClassSeat.objects.get(pupil__nickname="Ada")
    game_id, phone = seat.table.game_id, phones["Ada"]
    phone.get(f"/en/teach/{lesson.pk}/table/")  # holds the seat

    def told(response) -> list[str]:
        return re.findall(r'<p class="game__message"[^>]*>([^<]*)</p>', response.text)

    def move(who, action: str, version: int | None = None):
        version = Game.objects.get(pk=game_id).version if version is None else version
        data = {"action": action, "version": str(version)}
        return who.post(f"/en/play/{game_id}/move/", data, HTTP_HX_REQUEST="true")

    # A move that cannot be read; a watcher's move; a move on an older view of the table.
    unread = move(phone, "{")
    assert unread.status_code == 400
    assert told(unread) == [
        "That move could not be read, so nothing was changed.",
        "Der Zug war nicht lesbar, deshalb wurde nichts geändert.",
    ]
    watcher = move(Client(), '{"type": "flip"}')
    assert watcher.status_code == 403 and len(told(watcher)) == 2
    assert told(watcher)[1].startswith("Du schaust zu: Spielen kann nur")
    # The teacher paused every table: the pupil's resume is refused in both.
    control(client, lesson, "pause")
    version = Game.objects.get(pk=game_id).version
    data = {"command": "resume", "version": str(version)}
    held = phone.post(f"/en/play/{game_id}/clock/", data, HTTP_HX_REQUEST="true")
    assert held.status_code == 409
    assert told(held)[0].startswith("The teacher has paused every table")
    assert told(held)[1].startswith("Die Lehrkraft hat alle Tische angehalten")
    # A seat the pupil does not hold: its take-back is refused in both.
    other = phone.post(
        f"/en/play/{game_id}/seat/", {"seat": str(1 - seat.seat)}, HTTP_HX_REQUEST="true"
    )
    assert other.status_code == 403 and len(told(other)) == 2
    assert Game.objects.get(pk=game_id).version == version
    # A class question's answer that cannot be read, on the table page: in both too.
    control(client, lesson, "large", table="1")
    assert control(client, lesson, "ask", table="1", seat="0").status_code == 200
    url = f"/en/teach/{lesson.pk}/answer/1/?on=table"
    bad = phone.post(url, {"action": "{", "version": "0"}, HTTP_HX_REQUEST="true")
    assert bad.status_code == 400 and len(told(bad)) == 2
    assert told(bad)[1] == "Die Antwort war nicht lesbar, deshalb wurde nichts geändert."
    # A one-language table tells each once.
    type(lesson).objects.filter(pk=lesson.pk).update(lang2="")
    assert len(told(move(phone, "{"))) == 1


def test_the_class_question_asks_about_the_table_shown_large(client):
    lesson, phones = _class(client, ["Ada", "Bo", "Cy", "Di"])
    control(client, lesson, "start", size="2", level="club", pairing="shuffle")
    ada = ClassSeat.objects.select_related("table").get(pupil__nickname="Ada")
    number, table_game = ada.table.number, ada.table.game_id
    names = list(ada.table.seats.order_by("seat").values_list("pupil__nickname", flat=True))
    # Only about the table shown large, and only once every table is paused.
    refused = control(client, lesson, "ask", table=str(number), seat=str(ada.seat))
    assert "Show the table large" in refused.text  # (htmx: told in the message's place)
    control(client, lesson, "large", table=str(number))
    refused = control(client, lesson, "ask", table=str(number), seat=str(ada.seat))
    assert "Pause every table" in refused.text and not lesson.questions.exists()
    control(client, lesson, "pause")
    overview = client.get(f"/en/teach/{lesson.pk}/tables/")
    assert f"Ask the class: what would {names[ada.seat]} play?" in overview.text
    # (about a seat that has a legal move in this deal: Ada's, else the other's)
    row = Game.objects.get(pk=table_game)
    game = service.driver_of(row).game
    seat, action = next(
        (s, a)
        for s in (ada.seat, 1 - ada.seat)
        if (a := sensible_action(game, s, random.Random(0))) is not None
    )
    assert control(client, lesson, "ask", table=str(number), seat=str(seat)).status_code == 200
    question = lesson.questions.get()
    assert question.game_id == table_game and question.position == row.snapshot
    assert question.seat == seat
    overview = client.get(f"/en/teach/{lesson.pk}/tables/").text
    assert "The class is answering on their phones" in overview
    assert "Ask the class: what would" not in overview
    # A pupil's phone says so; the follow page keeps the pupil to answer (no table redirect)
    # and shows the large table's position with its players' names.
    status = phones["Bo"].get(f"/en/teach/{lesson.pk}/table/").text
    assert "Answer the class question" in status
    follow = phones["Bo"].get(f"/en/teach/{lesson.pk}/follow/")
    assert follow.status_code == 200 and "table/status" not in follow.text
    assert f"/en/teach/{lesson.pk}/answer/1/" in follow.text
    assert all(name in follow.text for name in names)
    # The answer is judged in the table's position, not the lesson's own game.
    url = f"/en/teach/{lesson.pk}/answer/1/"
    answered = phones["Bo"].post(
        url, {"action": json.dumps(action), "version": "0"}, HTTP_HX_REQUEST="true"
    )
    assert answered.status_code == 200 and "You answered: " in answered.text
    assert [a.accepted for a in question.answers.all()] == [True]
    # The lesson's page holds the tally, the question naming the large table's player.
    projector = client.get(f"/en/teach/{lesson.pk}/").text
    assert f"What would {names[seat]} play here?" in projector
    assert 'id="tally"' in projector and "1 of 4 pupils have answered." in projector
    # The tables play on: the question about them is over.
    control(client, lesson, "resume")
    question.refresh_from_db()
    assert question.state == Question.CLOSED
    # and the follow page sends the pupil back to the table.
    back = phones["Bo"].get(f"/en/teach/{lesson.pk}/follow/")
    assert back.status_code == 302 and back["Location"] == f"/en/teach/{lesson.pk}/table/"


def _asked(client, lesson):
    """Every table paused, the first shown large, the class asked about a seat of it that
    has a legal move: the question, the name of the seat's pupil, and that move."""
    control(client, lesson, "large", table="1")
    control(client, lesson, "pause")
    row = ClassTable.objects.get(round__lesson=lesson, number=1).game
    game = service.driver_of(row).game
    seat, action = next(
        (s, a) for s in (0, 1) if (a := sensible_action(game, s, random.Random(0))) is not None
    )
    assert control(client, lesson, "ask", table="1", seat=str(seat)).status_code == 200
    names = list(
        ClassSeat.objects.filter(table__game=row)
        .order_by("seat")
        .values_list("pupil__nickname", flat=True)
    )
    return lesson.questions.get(), names[seat], action


def test_a_pupil_answers_the_class_question_on_the_table_page(client):
    lesson, phones = _class(client, ["Ada", "Bo", "Cy", "Di"])
    control(client, lesson, "start", size="2", level="club", pairing="shuffle")
    before = phones["Cy"].get(f"/en/teach/{lesson.pk}/table/").text
    assert "data-question=" not in before and "data-answer-url" not in before
    question, asked, action = _asked(client, lesson)
    cy = ClassSeat.objects.select_related("table").get(pupil__nickname="Cy")
    url = f"/en/teach/{lesson.pk}/answer/{question.number}/?on=table"
    # The table page shows the question in the table's place, tapped answers go to the
    # lesson's answer route (the same as the follow page's), the own table's commands go.
    page = phones["Cy"].get(f"/en/teach/{lesson.pk}/table/").text
    assert f"What would {asked} play here?" in page
    assert f'data-answer-url="{url}"' in page and 'data-question="1-open"' in page
    assert "Tap a card, then a pile" not in page
    # The poll that stands in for the socket (play's own game page) shows the same.
    poll = phones["Cy"].get(f"/en/play/{cy.table.game_id}/?since=0", HTTP_HX_REQUEST="true")
    assert f"What would {asked} play here?" in poll.text and f'data-answer-url="{url}"' in poll.text
    # A watcher of the table (no seat held) sees no question.
    watched = Client().get(f"/en/play/{cy.table.game_id}/?since=0", HTTP_HX_REQUEST="true")
    assert "data-question" not in watched.text
    # The answer, judged in the large table's position; the answer comes back as the
    # phone's table page (its game part, the table's own version).
    data = {"action": json.dumps(action), "version": "0", "since": "0"}
    answered = phones["Cy"].post(url, data, HTTP_HX_REQUEST="true")
    assert answered.status_code == 200
    assert answered["X-Game-Version"] == str(Game.objects.get(pk=cy.table.game_id).version)
    assert "You answered: " in answered.text and f"What would {asked} play" in answered.text
    assert [(a.pupil.nickname, a.accepted) for a in question.answers.all()] == [("Cy", True)]
    # Bad input on the table page: the reason in the table page's place, nothing stored.
    bad = phones["Cy"].post(url, {"action": "{", "version": "0"}, HTTP_HX_REQUEST="true")
    assert bad.status_code == 400 and "That answer could not be read" in bad.text
    assert 'data-question="1-open"' in bad.text and question.answers.count() == 1
    # Revealed: the verdict on the phone's own answer, nothing to tap.
    client.post(f"/en/teach/{lesson.pk}/question/", {"command": "reveal"})
    page = phones["Cy"].get(f"/en/teach/{lesson.pk}/table/").text
    assert 'data-question="1-revealed"' in page and "data-answer-url" not in page
    assert "The rules allow it." in page
    late = phones["Cy"].post(url, data, HTTP_HX_REQUEST="true")
    assert late.status_code == 409 and "This question is closed" in late.text
    # The tables go on: the question is gone, the phone's own table is back.
    control(client, lesson, "resume")
    page = phones["Cy"].get(f"/en/teach/{lesson.pk}/table/").text
    assert "data-question" not in page and "Tap a card, then a pile" in page


@pytest.mark.parametrize("lang", ["sv", "de"])
def test_the_class_question_on_the_table_page_is_in_the_pupils_language(client, lang):
    lesson, phones = _class(client, ["Ada", "Bo"])
    control(client, lesson, "start", size="2", level="club", pairing="shuffle")
    _asked(client, lesson)
    page = phones["Bo"].get(f"/{lang}/teach/{lesson.pk}/table/").text
    assert 'data-question="1-open"' in page and "What would" not in page
    assert f'data-answer-url="/{lang}/teach/{lesson.pk}/answer/1/?on=table"' in page


def _story_of(overview: str) -> str:
    """The large table's story lines on the projector."""
    found = re.search(r'<ol class="story__lines">(.*?)</ol>', overview, re.S)
    assert found is not None, "no story of the large table"
    return found.group(1)


def test_the_large_tables_story_names_its_pupils_in_both_languages(client):
    lesson, _phones = _class(client, ["Ada", "Bo", "Cy", "Di"])
    type(lesson).objects.filter(pk=lesson.pk).update(lang2="fi")
    control(client, lesson, "start", size="2", level="club", pairing="shuffle")
    table = ClassTable.objects.get(round__lesson=lesson, number=2)
    play_table_to_the_end(table.game, limit_ms=5_000)
    here = set(table.seats.values_list("pupil__nickname", flat=True))
    elsewhere = {"Ada", "Bo", "Cy", "Di"} - here
    story = _story_of(control(client, lesson, "large", table="2").text)
    texts = re.findall(r'<span class="story__text">([^<]*)</span>', story)
    alts = re.findall(r'<span class="story__alt" lang="fi">([^<]*)</span>', story)
    assert texts and len(alts) == len(texts)
    # Every line names the table's own pupils, never "Player N", never another table's.
    for lines in (texts, alts):
        told = " ".join(lines)
        # (as whole words: "Bo" is in "Both centre piles …")
        assert any(re.search(rf"\b{name}\b", told) for name in here), told
        assert not any(re.search(rf"\b{name}\b", told) for name in elsewhere), told
        assert "Player " not in told and "Pelaaja" not in told and "pelaaja" not in told
    # The whole page the projector loads tells the same story.
    page = client.get(f"/en/teach/{lesson.pk}/tables/").text
    assert _story_of(page) == story


def test_the_large_tables_story_escapes_a_nickname(client):
    lesson, _phones = _class(client, ["<b>x</b>", "Bo"])
    control(client, lesson, "start", size="2", level="club", pairing="shuffle")
    table = ClassTable.objects.get(round__lesson=lesson, number=1)
    play_table_to_the_end(table.game, limit_ms=5_000)
    story = _story_of(control(client, lesson, "large", table="1").text)
    assert "<b>" not in story and "&lt;b&gt;x&lt;/b&gt;" in story and "Bo" in story
    assert "Player " not in story


def _table_page_answers(phone: Client, lesson, question, action, asked: str) -> None:
    """The phone's table page (and the poll that stands in for its socket) shows the class
    question and takes one answer through the lesson's answer route (?on=table)."""
    seat = ClassSeat.objects.select_related("table", "pupil").get(pupil_id=phone.pupil_id)
    url = f"/en/teach/{lesson.pk}/answer/{question.number}/?on=table"
    page = phone.get(f"/en/teach/{lesson.pk}/table/").text
    assert f"What would {asked} play here?" in page
    assert f'data-answer-url="{url}"' in page and 'data-question="1-open"' in page
    # the page can be tapped, and keeps its socket while the round goes on
    assert " data-holds" in page and f'ws-connect="/ws/en/play/{seat.table.game_id}/"' in page
    poll = phone.get(f"/en/play/{seat.table.game_id}/?since=0", HTTP_HX_REQUEST="true").text
    assert f"What would {asked} play here?" in poll and f'data-answer-url="{url}"' in poll
    data = {"action": json.dumps(action), "version": "0", "since": "0"}
    answered = phone.post(url, data, HTTP_HX_REQUEST="true")
    assert answered.status_code == 200
    assert "You answered: " in answered.text and 'data-question="1-open"' in answered.text
    assert question.answers.filter(pupil=seat.pupil).count() == 1
    # Answering again replaces the answer: the pupil counts once.
    phone.post(url, data, HTTP_HX_REQUEST="true")
    assert question.answers.filter(pupil=seat.pupil).count() == 1


def _phones_with_ids(lesson, phones: dict[str, Client]) -> None:
    for name, phone in phones.items():
        phone.pupil_id = Pupil.objects.get(lesson=lesson, nickname=name).pk


def test_a_pupil_whose_seat_a_bot_plays_answers_the_class_question_on_the_table_page(client):
    lesson, phones = _class(client, ["Ada", "Bo", "Cy", "Di"])
    _phones_with_ids(lesson, phones)
    control(client, lesson, "start", size="2", level="club", pairing="shuffle")
    # The teacher hands a pupil of the second table to a bot (locked).
    handed = ClassSeat.objects.select_related("pupil", "table").get(table__number=2, seat=0)
    name = handed.pupil.nickname
    control(client, lesson, "bot", table="2", seat="0")
    assert Game.objects.get(pk=handed.table.game_id).seats[0] == "club"
    phones[name].get(f"/en/teach/{lesson.pk}/table/")
    question, asked, action = _asked(client, lesson)
    page = phones[name].get(f"/en/teach/{lesson.pk}/table/").text
    assert "Your teacher has given your seat to a bot" in page
    _table_page_answers(phones[name], lesson, question, action, asked)
    # The projector's tally counts the answer.
    projector = client.get(f"/en/teach/{lesson.pk}/").text
    assert "1 of 4 pupils have answered." in projector
    # A watcher of that table still sees no question.
    watched = Client().get(f"/en/play/{handed.table.game_id}/?since=0", HTTP_HX_REQUEST="true")
    assert "data-question" not in watched.text


def test_a_pupil_whose_game_is_over_answers_the_class_question_on_the_table_page(client):
    lesson, phones = _class(client, ["Ada", "Bo", "Cy", "Di"])
    _phones_with_ids(lesson, phones)
    control(client, lesson, "start", size="2", level="club", pairing="shuffle")
    done = ClassTable.objects.get(round__lesson=lesson, number=2)
    row = play_table_to_the_end(done.game)
    assert row.over
    names = list(done.seats.order_by("seat").values_list("pupil__nickname", flat=True))
    # While the round goes on, the finished table's page keeps its socket and, without it,
    # asks again (no question yet).
    before = phones[names[0]].get(f"/en/teach/{lesson.pk}/table/").text
    assert f'ws-connect="/ws/en/play/{row.pk}/"' in before and 'class="poll"' in before
    assert "data-question" not in before
    question, asked, action = _asked(client, lesson)
    for name in names:
        _table_page_answers(phones[name], lesson, question, action, asked)
    projector = client.get(f"/en/teach/{lesson.pk}/").text
    assert "2 of 4 pupils have answered." in projector
    # Once the round is over, the finished table's page asks for nothing more.
    control(client, lesson, "end")
    after = phones[names[0]].get(f"/en/teach/{lesson.pk}/table/").text
    assert "ws-connect" not in after and 'class="poll"' not in after


@pytest.fixture
def fresh_layer():
    """The in-memory channel layer's queues belong to one event loop: a new one per test."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.mark.django_db(transaction=True)
@own_loop
async def test_the_class_question_reaches_a_locked_out_and_a_finished_tables_socket(
    settings, fresh_layer
):
    """The question's notice (live.lesson_publish.tell_tables) reaches the socket of a
    pupil whose seat the teacher gave a bot and of a pupil whose table has finished."""
    settings.PLAY_AWAY_GRACE_MS = 10**9
    lesson = await sync_to_async(live_lesson)()
    await sync_to_async(seat_class)(lesson, ("Ada", "Bo", "Cy", "Di"))

    def prepare() -> tuple[list[tuple[str, bytes]], Game]:
        latest = seating.current_round(lesson)
        one, two = latest.tables.get(number=1), latest.tables.get(number=2)
        seating.hand_to_bot(one, 0, timezone.now())  # as the teacher's "Bot" does
        play_table_to_the_end(two.game)
        seating.pause_all(latest, timezone.now())
        phones = []
        for seat in (one.seats.get(seat=0), two.seats.get(seat=0)):
            cookie = session_cookie(
                **{PUPIL_KEY: {lesson.pk: seat.pupil_id}, SESSION_KEY: {seat.table.game_id: [0]}}
            )
            phones.append((seat.table.game_id, cookie))
        return phones, Game.objects.get(pk=one.game_id)

    phones, asked_about = await sync_to_async(prepare)()
    sockets = [await connect(game_id, cookie=cookie) for game_id, cookie in phones]
    for socket in sockets:
        await socket.send_to(text_data='{"since": 0}')
        await frame_with(socket, "data-version")

    def ask() -> None:
        questions.ask(Lesson.objects.get(pk=lesson.pk), asked_about, 1)

    await sync_to_async(ask)()
    for socket in sockets:
        asked = await frame_with(socket, 'data-question="1-open"')
        assert f'data-answer-url="/en/teach/{lesson.pk}/answer/1/?on=table"' in asked
        await socket.disconnect()


@pytest.mark.parametrize("variant", ["stress-se", "james-bond"])
def test_the_class_summarys_moment_names_the_tables_pupils(client, variant):
    lesson, _phones = _class(client, ["<i>Ada</i>", "Bo", "Cy", "Di"], variant)
    type(lesson).objects.filter(pk=lesson.pk).update(lang2="fi")
    control(client, lesson, "start", size="2", level="club", pairing="shuffle")
    first = ClassTable.objects.get(round__lesson=lesson, number=1)
    row = play_table_to_the_end(first.game)
    assert row.over
    here = [escape(n) for n in first.seats.values_list("pupil__nickname", flat=True)]
    text = client.get(f"/en/teach/{lesson.pk}/summary/").text
    assert "<i>" not in text
    moment = text.split('class="table-result__moment"')[1].split("</li>")[0]
    captions = re.findall(r'<span lang="(en|fi)">([^<]*)</span>', moment.split("moment__story")[0])
    stories = re.findall(r'<p class="moment__story" lang="(en|fi)">([^<]*)</p>', moment)
    assert {lang for lang, _story in stories} == {"en", "fi"}
    named = [label for _lang, label in captions if any(n in label for n in here)]
    # (a Stress moment shows the centre piles; a James Bond one, a player's cards too)
    assert named or variant != "james-bond", captions
    finnish = [label for lang, label in captions if lang == "fi" and label in named]
    assert not any("lays" in label or "takes" in label for label in finnish), finnish
    for _lang, said in [*captions, *stories]:
        assert "Player " not in said and "Pelaaja" not in said and "pelaaja" not in said
    assert any(n in " ".join(s for _lang, s in stories) for n in here)
